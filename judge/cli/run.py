"""`judge run` (a program on a problem's cases, or on one input) and `judge doctor`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.markup import escape
from rich.table import Column, Table

from judge.cli.common import (
    err,
    out,
    progress_bar,
    styled,
    unsafe_option,
)
from judge.cli.render import Cell, columns, figures, first_difference, inert, verdict_markup, verdict_style
from judge.errors import EXIT_FAILED, EXIT_OK, JudgeError
from judge.grade.adhoc import AdHocLimits
from judge.problem import checkers
from judge.problem.locate import find_problem
from judge.run import defaults

if TYPE_CHECKING:
    from judge.grade.adhoc import AdHocTask
    from judge.grade.results import GradeRecord
    from judge.grade.runner import CaseResult
    from judge.problem.spec import Problem
    from judge.run.sources import Sources


@click.command(name="run")
@click.argument("source", type=click.Path(path_type=Path))
@click.option("-p", "--problem", "problem_name", help="Judge on every case of this problem.")
@click.option("--lang", "language", help="Language id (default: from the file extension).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--input", "input_file", type=click.Path(dir_okay=False, path_type=Path), help="Ad hoc: one input file.")
@click.option("--answer", "answer_file", type=click.Path(dir_okay=False, path_type=Path), help="Ad hoc: its answer.")
@click.option("--time-limit", type=click.FloatRange(min=0.01, max=60), default=1.0, show_default=True)
@click.option("--memory-limit", type=click.IntRange(min=1, max=16384), default=256, show_default=True)
@click.option("--output-limit", type=click.FloatRange(min=0.001, max=1024), default=16.0, show_default=True)
@click.option("--checker", type=click.Choice(list(checkers.BUILTIN)), default="tokens", show_default=True)
@click.option(
    "--compile-time-limit",
    type=click.FloatRange(min=0.1, max=120),
    default=defaults.COMPILE_TIME_S,
    show_default=True,
    help="Ad hoc: CPU seconds for the compiler (with -p: the problem's limits.compile_time_s).",
)
@click.option(
    "--compile-memory-limit",
    type=click.IntRange(min=16, max=16384),
    default=defaults.COMPILE_MEMORY_MIB,
    show_default=True,
    help="Ad hoc: MiB for the compiler and what it writes (with -p: limits.compile_memory_mib).",
)
@click.option("--full", is_flag=True, help="With -p: judge every case, also after a failure in a group that breaks.")
@unsafe_option
@click.pass_context
def run_command(
    ctx: click.Context,
    source: Path,
    problem_name: str | None,
    language: str | None,
    as_json: bool,
    input_file: Path | None,
    answer_file: Path | None,
    time_limit: float,
    memory_limit: int,
    output_limit: float,
    checker: str,
    compile_time_limit: float,
    compile_memory_limit: int,
    full: bool,
) -> None:
    """Compile SOURCE (a file, or a folder, .zip or .tar.gz of several) and judge it: on a
    problem's cases (-p), or on one --input.

    On a problem, sample cases show the first difference; secret cases show only their
    verdict and figures. The exit code is 0 only for AC.
    """
    from judge.grade.adhoc import AdHocTask
    from judge.run import build

    if input_file is not None:
        submission = build.load_submission(source, language, allow_build=True)  # one's own program
        compile_limits = build.compile_limits(submission.language, compile_time_limit, compile_memory_limit)
        sys.exit(
            _run_ad_hoc(
                AdHocTask(
                    submission,
                    input_file,
                    answer_file,
                    AdHocLimits(time_limit, memory_limit, output_limit),
                    checker,
                    compile_limits,
                ),
                as_json,
            )
        )
    if problem_name is None:
        raise JudgeError("give a problem (-p PROBLEM) or an input (--input FILE)")
    sys.exit(_run_problem(ctx, source, language, problem_name, as_json, full))


def _run_problem(
    ctx: click.Context, source: Path, language: str | None, problem_name: str, as_json: bool, full: bool
) -> int:
    import json

    from judge.grade import judging, results
    from judge.kinds.table import load_problem
    from judge.problem import testdata

    problem = load_problem(Path(find_problem(problem_name, ctx.obj["problems"])))
    submitted = judging.identify(problem, source, "", language)
    if submitted.sources is None and submitted.data is None:
        raise JudgeError(submitted.error)
    # A student's tests (data) are judged whole: no case files of the problem's own.
    cases = testdata.load_cases(problem) if submitted.data is None else []
    progress = progress_bar(err.is_terminal and not as_json)
    with progress:
        task = progress.add_task(f"{problem.id}: compiling", total=len(cases), note="")

        def on_case(index: int, case: CaseResult) -> None:
            progress.update(task, advance=1, description=f"{problem.id}: running", note=case.verdict.value)

        record = judging.judge(submitted, on_case=on_case, full=full)
    if as_json:
        payload = {
            "problem": record.problem,
            "language": record.language,
            "verdict": record.verdict,
            "score": record.score,
            "max_score": record.max_score,
            "sandbox": record.sandbox,
            "isolated": results.isolated_mode(record.sandbox),
            "compile_output": record.compile_output or record.error,
            "cases": [
                {
                    "name": c.name,
                    "group": c.group,
                    "verdict": c.verdict,
                    "cpu_s": c.cpu_s,
                    "wall_s": c.wall_s,
                    "memory_kib": c.memory_kib,
                    "message": c.message,
                }
                for c in record.cases
            ],
        }
        click.echo(json.dumps(payload, indent=2))
        return 0 if record.verdict == "AC" else EXIT_FAILED
    return _print_record(record, submitted.sources, problem, {c.id: c.answer for c in cases})


def _print_record(record: GradeRecord, submission: Sources | None, problem: Problem, answers: dict[str, Path]) -> int:
    """`judge run`'s table of cases, the first difference of a public WA, and the verdict line.
    `submission` None: a student's tests (data), which have no language and no limits of their own."""
    from judge.grade import results, runner
    from judge.run.verdicts import Verdict

    if record.verdict == "CE":
        out.print(f"{verdict_markup('CE')} compilation error ({escape(Path(record.source).name)}):", markup=True)
        # A unit problem compiles nothing at build: its CE is each test's, said there.
        said = record.compile_output or "\n".join(dict.fromkeys(c.message for c in record.cases if c.message))
        out.print(inert(said), markup=False, highlight=False)
        return EXIT_FAILED
    if record.error and not record.cases:  # the judge could not run it here (IE)
        out.print(f"{verdict_markup(record.verdict)} {escape(record.error)}", highlight=False, markup=True)
        return EXIT_FAILED
    details: list[str] = []
    rows: list[list[Cell]] = []
    for case in record.cases:
        shown = ("", "", "") if case.verdict == "NJ" else figures(case.cpu_s, case.wall_s, case.memory_kib)
        rows.append(
            [
                (case.name, ""),
                (case.verdict, verdict_style(case.verdict)),
                *((figure, "") for figure in shown),
                (case.message if case.public or case.verdict != "WA" else "", ""),
            ]
        )
        if case.public and case.verdict == "WA" and case.output is not None and not details:
            details = [
                f"{case.name}: first difference, " + line if i == 0 else line
                for i, line in enumerate(
                    first_difference(answers[case.name].read_bytes(), case.output.encode(), case.diff_line)
                )
            ]
    out.print(columns(("case", "verdict", "CPU s", "wall s", "MiB", "message"), rows))
    for line in details:
        out.print(inert(line), markup=False, highlight=False)
    said = f"sandbox: {escape(record.sandbox)}"
    if submission is not None:
        limits = runner.run_limits(problem, submission.language)
        memory = f"{problem.spec.limits.memory_mib} MiB"
        if submission.language.jvm_allowance_mib:
            memory += f" + {submission.language.jvm_allowance_mib} for its runtime ({submission.language.name})"
        said = f"limits: {limits.cpu_s:g} s CPU, {escape(memory)}; {said}"
    out.print(
        f"{verdict_markup(record.verdict)} {Verdict(record.verdict).long_name}; score {record.score:g}/{record.max_score:g}"
        f"  ({said})",
        markup=True,
    )
    if not results.isolated_mode(record.sandbox):
        out.print(
            "[bold red]judged WITHOUT a sandbox (--unsafe-no-sandbox): not a trustworthy verdict[/bold red]",
            markup=True,
        )
    return 0 if record.verdict == "AC" else EXIT_FAILED


def _run_ad_hoc(task: AdHocTask, as_json: bool) -> int:
    import json

    from judge.grade import adhoc, results

    done = adhoc.run_once(task)
    if not done.compiled:
        if as_json:
            click.echo(
                json.dumps({"verdict": "CE", "message": "compilation error", "compile_output": done.compile_message})
            )
        else:
            click.echo(f"CE compilation error\n{done.compile_message}")
        return EXIT_FAILED
    run, decided = done.run, done.decided
    assert run is not None and decided is not None
    if as_json:
        payload = {
            "verdict": "OK" if task.answer_file is None and done.passed else decided.verdict.value,
            "message": decided.message,
            "cpu_s": run.cpu_s,
            "wall_s": run.wall_s,
            "memory_kib": run.memory_kib,
            "exit_code": run.exit_code,
            "signal": run.signal,
            "sandbox": done.sandbox_mode,
            "isolated": results.isolated_mode(done.sandbox_mode),
            "output": run.stdout.decode(errors="replace"),
            "stderr": run.stderr.decode(errors="replace")[-2000:],
        }
        click.echo(json.dumps(payload, indent=2))
        return 0 if done.passed else EXIT_FAILED
    cpu, wall, mib = figures(run.cpu_s, run.wall_s, run.memory_kib)
    shown = f"cpu {cpu} s, wall {wall} s, memory {mib} MiB"
    if task.answer_file is None:
        # Not judging: the program's output is the result; problems go to stderr.
        sys.stdout.buffer.write(run.stdout)
        if done.passed:
            err.print(f"judge: {shown}")
            return 0
        err.print(f"judge: {decided.verdict.value} {decided.message} ({shown})")
        if run.stderr:
            err.print(run.stderr.decode(errors="replace").rstrip()[-2000:], markup=False, highlight=False)
        return EXIT_FAILED
    click.echo(
        f"{decided.verdict.value} {decided.verdict.long_name}" + (f": {decided.message}" if decided.message else "")
    )
    click.echo(shown)
    return 0 if done.passed else EXIT_FAILED


@click.command()
def doctor() -> None:
    """Which languages (installed or missing, and the package that brings each) and which
    sandbox layers this machine has (and why not)."""
    from judge.run import languages, sandbox, toolfolders

    table = Table(
        "language", "name", "state", Column("version, or what to install", overflow="fold"), box=None, pad_edge=False
    )
    table_of = languages.load()
    every = list(table_of.languages.values())
    probes = languages.probe_all(table_of)
    missing: list[languages.Language] = []
    for language in every:
        found = probes[language.id]
        why = language.missing()
        # A toolchain on your PATH that the sandbox cannot show says why; an absent one, its package.
        refused = [w for w in (toolfolders.locate(command).why for command in language.commands) if w]
        if why:
            missing.append(language)
            fix = refused[0] if refused else f"apt-get install {language.package}"
            table.add_row(language.id, language.name, styled("[yellow]missing[/yellow]"), fix)
        elif found.error:
            table.add_row(language.id, language.name, styled("[red]broken[/red]"), found.error)
        else:
            outside = f" (from {found.outside}, shown read-only)" if found.outside else ""
            table.add_row(language.id, language.name, styled("[green]installed[/green]"), found.version + outside)
    out.print(table)
    if missing:
        packages = " ".join(sorted({language.package for language in missing}))
        out.print(f"{len(missing)} of {len(every)} languages missing; to add them all: apt-get install {packages}")
    from judge.kinds.unit.kit import junit_here
    from judge.kinds.unit.pairs import pytest_here

    out.print(f"unit-test problems (pytest, unittest): {pytest_here()}")
    out.print(f"unit-test problems (JUnit 5): {junit_here()}")
    layers = sandbox.detect()
    # Folded, never cut: the details name paths and fixes that must be read whole.
    table = Table("sandbox layer", "state", Column("detail", overflow="fold"), box=None, pad_edge=False)
    chosen = (sandbox.filter_support(), sandbox.box_support(), sandbox.page_cache_support(layers))
    for layer in (*layers.all(), *chosen, sandbox.session_support(layers)):
        state = styled("[green]active[/green]" if layer.active else "[yellow]missing[/yellow]")
        table.add_row(layer.name, state, layer.detail)
    out.print(table)
    out.print(f"sandbox mode: {layers.mode}")
    problem = sandbox.isolation_problem(layers)
    if problem:
        out.print(f"[bold red]submissions will not run[/bold red]: {escape(problem)}", markup=True)
    else:
        out.print("[green]submissions run isolated[/green] from the machine's files and network", markup=True)
    # A missing language is a choice of the machine, not a fault: submissions in it are refused
    # with its package named. Only a sandbox that cannot isolate fails the check.
    sys.exit(EXIT_FAILED if problem else EXIT_OK)
