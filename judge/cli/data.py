"""`judge gen`, `validate`, `solve`, `schema` and `tables`: the commands on a problem's data."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table
from rich.text import Text

from judge.cli.common import (
    chosen_problems,
    err,
    jobs_option,
    out,
    progress_bar,
    report_errors,
    say,
    status,
    styled,
)
from judge.errors import EXIT_FAILED, EXIT_OK, JudgeError

if TYPE_CHECKING:
    from rich.progress import TaskID

    pass


@click.command()
@click.argument("problem_names", metavar="[PROBLEM]...", nargs=-1)
@click.option("--check", is_flag=True, help="Change nothing; exit 1 if tests/ differs from what would be made.")
@jobs_option
@click.pass_context
def gen(ctx: click.Context, problem_names: tuple[str, ...], check: bool, jobs: int | None) -> None:
    """Generate every problem's tests/ (inputs and reference answers) from its spec.

    A problem's programs (generators, validators, a program reference) are compiled once
    and run in the sandbox, JOBS at a time."""
    from judge.author import making
    from judge.grade import grading
    from judge.kinds.table import load_problem
    from judge.problem import refs
    from judge.problem.tables import TableStore

    store = TableStore(notify=say)
    workers = jobs or grading.default_jobs()
    failed = False
    summary = Table("problem", "groups", "cases", "result", box=None, pad_edge=False)
    for directory in chosen_problems(ctx, problem_names):
        try:
            problem = load_problem(directory)
            with progress_bar() as bar:
                # How far each stage is (generating, validating, solving: runs done of all).
                shown = bar.add_task(f"{problem.id}: building", total=None, note="")

                def counted(stage: str, done: int, total: int, pid: str = problem.id, task: TaskID = shown) -> None:
                    bar.update(task, description=f"{pid}: {stage}", completed=done, total=total)

                if problem.builtin:
                    store.ensure(refs.get(problem.spec.reference).tables)

                def tried(kept: int, done: int, pid: str = problem.id, task: TaskID = shown) -> None:
                    bar.update(task, description=f"{pid}: mutants ({kept} kept)", completed=done, total=None)

                problem, made = making.prepare_data(problem, workers, tried)  # a tests problem's mutants
                if made:
                    say(f"{problem.id}: {made}")
                cases = making.generate(problem, store, workers, notify=say, counter=counted)
            if check:
                differences = making.compare(problem, cases)
                for difference in differences:
                    err.print(Text.assemble(("stale:", "red"), f" {difference}"))
                failed |= bool(differences)
                result = styled(
                    f"[red]{len(differences)} file(s) differ[/red]" if differences else "[green]up to date[/green]"
                )
            else:
                changed = making.write(problem, cases, notify=say)
                result = styled(f"{changed} file(s) written" if changed else "[green]up to date[/green]")
        except JudgeError as error:
            report_errors(error)
            summary.add_row(directory.name, "-", "-", styled("[red]error[/red]"))
            failed = True
            continue
        summary.add_row(problem.id, str(len(problem.spec.groups)), str(len(cases)), result)
    out.print(summary)
    if check and failed:
        err.print("judge: tests are stale; run `judge gen` and commit the result")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@click.command()
@click.argument("problem_names", metavar="[PROBLEM]...", nargs=-1)
@jobs_option
@click.pass_context
def validate(ctx: click.Context, problem_names: tuple[str, ...], jobs: int | None) -> None:
    """Check the spec and every test input against the problem's strict input format
    (its built-in validator and its validator programs)."""
    from judge.author.validation import duplicate_inputs, validate_problem
    from judge.grade import grading
    from judge.kinds.table import load_problem

    failed = False
    summary = Table("problem", "inputs", "result", box=None, pad_edge=False)
    for directory in chosen_problems(ctx, problem_names):
        try:
            problem = load_problem(directory)
        except JudgeError as error:
            report_errors(error)
            summary.add_row(directory.name, "-", styled("[red]bad spec[/red]"))
            failed = True
            continue
        with status(f"validating {problem.id}"):
            report = validate_problem(problem, jobs or grading.default_jobs())
        for issue in report.issues:
            err.print(Text.assemble(("invalid:", "red"), f" {issue}"))
        for warning in duplicate_inputs(problem):
            err.print(Text.assemble(("warning:", "yellow"), f" {warning}"))
        failed |= not report.ok
        result = styled("[green]all valid[/green]" if report.ok else f"[red]{len(report.issues)} issue(s)[/red]")
        summary.add_row(problem.id, str(report.files), result)
    out.print(summary)
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@click.command()
@click.argument("problem")
@click.argument("input_file", required=False)
@click.pass_context
def solve(ctx: click.Context, problem: str, input_file: str | None) -> None:
    """Print the reference output for one test input (stdin when INPUT_FILE is absent or -)."""
    from judge.author import solving

    sys.stdout.write(solving.solve(problem, input_file, ctx.obj["problems"]))


@click.command()
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write (default: problem.schema.json in the problems folder).",
)
@click.option("--check", is_flag=True, help="Change nothing; exit 1 if the file is out of date.")
@click.pass_context
def schema(ctx: click.Context, output: Path | None, check: bool) -> None:
    """Write the JSON schema of problem.yaml, for editor completion and checks."""
    from judge.kinds.table import json_schema

    target = output if output is not None else ctx.obj["problems"] / "problem.schema.json"
    text = json_schema()
    if check:
        current = target.read_text(encoding="utf-8") if target.is_file() else None
        if current != text:
            raise JudgeError(f"{target}: out of date with the spec model; run `judge schema`")
        out.print(f"{target}: up to date")
        return
    target.write_text(text, encoding="utf-8")
    out.print(f"wrote {target}")


@click.command()
@click.option("--rebuild", is_flag=True, help="Build every table again even if the cache looks sound.")
def tables(rebuild: bool) -> None:
    """Build (if needed) and list the cached distance tables of the reference solvers."""
    from judge.paths import cache_dir
    from judge.problem import refs
    from judge.problem.tables import TableStore

    store = TableStore(notify=say)
    names = list(dict.fromkeys(t for name in refs.NAMES for t in refs.get(name).tables))
    if rebuild:
        for name in names:
            Path(store.path(name)).unlink(missing_ok=True)
    with status("loading distance tables"):
        store.ensure(names)
    listing = Table("table", "boards", "reachable", "max distance", "file", box=None, pad_edge=False)
    for name in names:
        data = store(name)
        reachable = [d for d in data if d != 255]
        listing.add_row(name, str(len(data)), str(len(reachable)), str(max(reachable)), str(store.path(name)))
    out.print(listing)
    out.print(f"cache: {cache_dir()}")
