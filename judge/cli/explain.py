"""`judge explain`: the smallest failing input of a submission, found by search."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge.cli.common import jobs_option, out, progress_bar, unsafe_option
from judge.errors import EXIT_FAILED, JudgeError
from judge.problem.locate import find_problem


@click.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.option("-p", "--problem", "problem_name", required=True, help="The problem (a built-in puzzle).")
@click.option("--lang", "language", help="Language id (default: from the file extension).")
@click.option(
    "--budget",
    "budget_s",
    type=click.FloatRange(min=2, max=3600),
    default=30.0,
    show_default=True,
    help="Seconds to search, compiling included.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the explanation as a page, the optimal moves animated.",
)
@jobs_option
@unsafe_option
@click.pass_context
def explain(
    ctx: click.Context,
    source: Path,
    problem_name: str,
    language: str | None,
    budget_s: float,
    as_json: bool,
    html_file: Path | None,
    jobs: int | None,
) -> None:
    """Search fresh inputs (never the tests) for the smallest one SOURCE fails on, and show
    it: the input, the expected output, the program's, and the optimal moves.

    Smallest means nearest the goal, then unreachable boards. Exit 0 when an example was
    found or the program passed every input tried, 1 when it does not compile.
    """
    import dataclasses
    import json

    from judge.explain import render, search
    from judge.grade import grading, judging, reports
    from judge.kinds.table import load_problem
    from judge.problem.tables import TableStore

    problem = load_problem(Path(find_problem(problem_name, ctx.obj["problems"])))
    submitted = judging.identify(problem, source, "", language)
    if submitted.sources is None:
        raise JudgeError(submitted.error)
    submission = submitted.sources
    why = submission.language.missing()
    if why:
        raise JudgeError(f"{source}: {why}")
    workers = jobs or grading.default_jobs()
    progress = progress_bar(not as_json)
    with progress:
        bar = progress.add_task(f"{problem.id}: searching", total=budget_s, note="")

        def told(tried: int, elapsed: float, summary: str) -> None:
            progress.update(bar, completed=min(elapsed, budget_s), note=f"{tried} inputs; {summary}")

        found = search.explain(
            problem, submission, TableStore(), budget_s, workers, told, submitted.content_hash, began=_process_start()
        )
    if html_file is not None:
        reports.write_atomic(html_file, render.html_page(found))
    if as_json:
        click.echo(json.dumps(dataclasses.asdict(found), indent=2))
    else:
        for number, line in enumerate(render.text_lines(found)):
            out.print(line, style="bold" if number == 0 else None, markup=False, highlight=False)
        if html_file is not None:
            out.print(f"page: {html_file}", markup=False)
    if found.verdict == "CE":
        sys.exit(EXIT_FAILED)


def _process_start() -> float:
    """When this command started, on time.monotonic()'s clock: the budget is the command's,
    the interpreter's start and the imports included. (The kernel's start time in clock ticks
    since boot, against the boot-time clock: psutil's create_time rounds the boot to a second.)"""
    import os
    import time

    try:
        with open("/proc/self/stat", "rb") as stream:
            fields = stream.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22 of the whole line
        age = max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        age = 0.0
    return time.monotonic() - age
