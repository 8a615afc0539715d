"""The `judge` command line: thin click commands over the modules of the data path.

Every command reports bad input as `judge: error: ...` lines and a non-zero exit code
(see judge.errors); a traceback means a bug in the judge, not in the user's files.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

from judge import __version__
from judge.__main__ import PROBLEMS_ENV
from judge.cli import cluster as cluster_commands
from judge.cli import explain as explain_command
from judge.cli import gradescope as gradescope_commands
from judge.cli import problems as problem_commands
from judge.cli import similar as similar_command
from judge.cli.common import (
    _cluster_options,
    _jobs_option,
    _problems,
    _report_errors,
    _say,
    _status,
    _unsafe_option,
    cluster_endpoint,
    err,
    out,
    progress_bar,
    reports_option,
)
from judge.cli.reporting import _load_problems, _records, _report
from judge.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, JudgeError
from judge.problem.locate import find_problem

if TYPE_CHECKING:
    from judge.grade.results import GradeRecord
    from judge.grade.runner import CaseResult
    from judge.grade.verify import ProblemReport
    from judge.problem.spec import Problem
    from judge.run import sandbox
    from judge.run.build import Submission
    from judge.web.store import Store


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="judge")
@click.option(
    "--problems",
    "problems",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("problems"),
    envvar=PROBLEMS_ENV,
    show_default=True,
    help=f"Folder of problem folders (or ${PROBLEMS_ENV}).",
)
@click.pass_context
def cli(ctx: click.Context, problems: Path) -> None:
    """An online-judge style grading harness: any problem (your own, or an ICPC/Kattis
    package), C, C++, Python 3 and Java, in a sandbox; three 3x3 puzzles ship with it."""
    ctx.obj = {"problems": problems}


@cli.command()
@click.argument("problem_names", metavar="[PROBLEM]...", nargs=-1)
@click.option("--check", is_flag=True, help="Change nothing; exit 1 if tests/ differs from what would be made.")
@_jobs_option
@click.pass_context
def gen(ctx: click.Context, problem_names: tuple[str, ...], check: bool, jobs: int | None) -> None:
    """Generate every problem's tests/ (inputs and reference answers) from its spec.

    A problem's programs (generators, validators, a program reference) are compiled once
    and run in the sandbox, JOBS at a time."""
    from judge.grade import grading
    from judge.problem import refs, testdata
    from judge.problem.spec import load_problem
    from judge.problem.tables import TableStore

    store = TableStore(notify=_say)
    workers = jobs or grading.default_jobs()
    failed = False
    summary = Table("problem", "groups", "cases", "result", box=None, pad_edge=False)
    for directory in _problems(ctx, problem_names):
        try:
            problem = load_problem(directory)
            with _status(f"generating {problem.id}"):
                if problem.builtin:
                    store.ensure(refs.get(problem.spec.reference).tables)
                cases = testdata.generate(problem, store, workers, notify=_say)
            if check:
                differences = testdata.compare(problem, cases)
                for difference in differences:
                    err.print(f"[red]stale:[/red] {difference}")
                failed |= bool(differences)
                result = f"[red]{len(differences)} file(s) differ[/red]" if differences else "[green]up to date[/green]"
            else:
                changed = testdata.write(problem, cases, notify=_say)
                result = f"{changed} file(s) written" if changed else "[green]up to date[/green]"
        except JudgeError as error:
            _report_errors(error)
            summary.add_row(directory.name, "-", "-", "[red]error[/red]")
            failed = True
            continue
        summary.add_row(problem.id, str(len(problem.spec.groups)), str(len(cases)), result)
    out.print(summary)
    if check and failed:
        err.print("judge: tests are stale; run `judge gen` and commit the result")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@cli.command()
@click.argument("problem_names", metavar="[PROBLEM]...", nargs=-1)
@_jobs_option
@click.pass_context
def validate(ctx: click.Context, problem_names: tuple[str, ...], jobs: int | None) -> None:
    """Check the spec and every test input against the problem's strict input format
    (its built-in validator and its validator programs)."""
    from judge.grade import grading
    from judge.problem.spec import load_problem
    from judge.problem.validation import duplicate_inputs, validate_problem

    failed = False
    summary = Table("problem", "inputs", "result", box=None, pad_edge=False)
    for directory in _problems(ctx, problem_names):
        try:
            problem = load_problem(directory)
        except JudgeError as error:
            _report_errors(error)
            summary.add_row(directory.name, "-", "[red]bad spec[/red]")
            failed = True
            continue
        with _status(f"validating {problem.id}"):
            report = validate_problem(problem, jobs or grading.default_jobs())
        for issue in report.issues:
            err.print(f"[red]invalid:[/red] {issue}")
        for warning in duplicate_inputs(problem):
            err.print(f"[yellow]warning:[/yellow] {warning}")
        failed |= not report.ok
        result = "[green]all valid[/green]" if report.ok else f"[red]{len(report.issues)} issue(s)[/red]"
        summary.add_row(problem.id, str(report.files), result)
    out.print(summary)
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@cli.command()
@click.argument("problem")
@click.argument("input_file", required=False)
@click.pass_context
def solve(ctx: click.Context, problem: str, input_file: str | None) -> None:
    """Print the reference output for one test input (stdin when INPUT_FILE is absent or -)."""
    from judge.problem import solving

    sys.stdout.write(solving.solve(problem, input_file, ctx.obj["problems"]))


@cli.command()
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
    from judge.problem.spec import json_schema

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


@cli.command()
@click.option("--rebuild", is_flag=True, help="Build every table again even if the cache looks sound.")
def tables(rebuild: bool) -> None:
    """Build (if needed) and list the cached distance tables of the reference solvers."""
    from judge.paths import cache_dir
    from judge.problem import refs
    from judge.problem.tables import TableStore

    store = TableStore(notify=_say)
    names = list(dict.fromkeys(t for name in refs.NAMES for t in refs.get(name).tables))
    if rebuild:
        for name in names:
            Path(store.path(name)).unlink(missing_ok=True)
    with _status("loading distance tables"):
        store.ensure(names)
    listing = Table("table", "boards", "reachable", "max distance", "file", box=None, pad_edge=False)
    for name in names:
        data = store(name)
        reachable = [d for d in data if d != 255]
        listing.add_row(name, str(len(data)), str(len(reachable)), str(max(reachable)), str(store.path(name)))
    out.print(listing)
    out.print(f"cache: {cache_dir()}")


def _figures(cpu_s: float, wall_s: float, memory_kib: int) -> tuple[str, str, str]:
    return f"{cpu_s:.2f}", f"{wall_s:.2f}", f"{memory_kib / 1024:.1f}"


_COLOURS = {
    "AC": "green",
    "WA": "red",
    "TLE": "yellow",
    "MLE": "magenta",
    "RE": "red",
    "OLE": "yellow",
    "CE": "cyan",
    "NJ": "dim",
}


def _verdict_markup(verdict: str) -> str:
    return f"[bold {_COLOURS.get(verdict, 'white')}]{verdict}[/]"


def _first_difference(answer: bytes, output: bytes, line: int) -> list[str]:
    """The first differing line of a public case, whitespace made visible."""

    def visible(text: str) -> str:
        return text.replace(" ", "\u00b7").replace("\t", "\u2192") or "(empty)"

    want = answer.decode(errors="replace").replace("\r\n", "\n").split("\n")
    got = output.decode(errors="replace").replace("\r\n", "\n").split("\n")
    at = max(line, 1) - 1
    expected = visible(want[at]) if at < len(want) else "(end of answer)"
    received = visible(got[at]) if at < len(got) else "(end of output)"
    return [f"line {at + 1}", f"  expected: {expected}", f"  received: {received}"]


@cli.command(name="run")
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-p", "--problem", "problem_name", help="Judge on every case of this problem.")
@click.option("--lang", "language", help="Language id (default: from the file extension).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--input", "input_file", type=click.Path(dir_okay=False, path_type=Path), help="Ad hoc: one input file.")
@click.option("--answer", "answer_file", type=click.Path(dir_okay=False, path_type=Path), help="Ad hoc: its answer.")
@click.option("--time-limit", type=click.FloatRange(min=0.01, max=60), default=1.0, show_default=True)
@click.option("--memory-limit", type=click.IntRange(min=1, max=16384), default=256, show_default=True)
@click.option("--output-limit", type=click.FloatRange(min=0.001, max=1024), default=16.0, show_default=True)
@click.option(
    "--checker", type=click.Choice(["tokens", "exact", "lines", "float"]), default="tokens", show_default=True
)
@click.option(
    "--compile-time-limit",
    type=click.FloatRange(min=0.1, max=120),
    default=10.0,
    show_default=True,
    help="Ad hoc: CPU seconds for the compiler (with -p: the problem's limits.compile_time_s).",
)
@click.option(
    "--compile-memory-limit",
    type=click.IntRange(min=16, max=16384),
    default=1024,
    show_default=True,
    help="Ad hoc: MiB for the compiler and what it writes (with -p: limits.compile_memory_mib).",
)
@click.option("--full", is_flag=True, help="With -p: judge every case, also after a failure in a group that breaks.")
@_unsafe_option
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
    """Compile SOURCE and judge it: on a problem's cases (-p), or on one --input.

    On a problem, sample cases show the first difference; secret cases show only their
    verdict and figures. The exit code is 0 only for AC.
    """
    from judge.run import build

    submission = build.load_submission(source, language)
    if input_file is not None:
        compile_limits = build.compile_limits(submission.language, compile_time_limit, compile_memory_limit)
        sys.exit(
            _run_ad_hoc(
                submission,
                input_file,
                answer_file,
                time_limit,
                memory_limit,
                output_limit,
                checker,
                compile_limits,
                as_json,
            )
        )
    if problem_name is None:
        raise JudgeError("give a problem (-p PROBLEM) or an input (--input FILE)")
    sys.exit(_run_problem(ctx, submission, problem_name, as_json, full))


def _run_problem(ctx: click.Context, submission: Submission, problem_name: str, as_json: bool, full: bool) -> int:
    import json

    from judge.grade import results, runner
    from judge.problem import testdata
    from judge.problem.spec import load_problem

    problem = load_problem(Path(find_problem(problem_name, ctx.obj["problems"])))
    cases = testdata.load_cases(problem)
    show_progress = err.is_terminal and not as_json
    progress = progress_bar(show_progress)
    with progress:
        task = progress.add_task(f"{problem.id}: compiling", total=len(cases), note="")

        def on_case(index: int, case: CaseResult) -> None:
            progress.update(task, advance=1, description=f"{problem.id}: running", note=case.verdict.value)

        result = runner.judge_submission(problem, submission, cases, on_case=on_case, full=full)
    if as_json:
        payload = {
            "problem": result.problem,
            "language": result.language,
            "verdict": result.verdict.value,
            "score": result.score,
            "max_score": result.max_score,
            "sandbox": result.sandbox_mode,
            "isolated": results.isolated_mode(result.sandbox_mode),
            "compile_output": result.build.message if not result.build.ok else "",
            "cases": [
                {
                    "name": c.name,
                    "group": c.group,
                    "verdict": c.verdict.value,
                    "cpu_s": c.cpu_s,
                    "wall_s": c.wall_s,
                    "memory_kib": c.memory_kib,
                    "message": c.message,
                }
                for c in result.cases
            ],
        }
        click.echo(json.dumps(payload, indent=2))
        return 0 if result.verdict.value == "AC" else EXIT_FAILED
    if not result.build.ok:
        out.print(f"{_verdict_markup('CE')} compilation error ({submission.path.name}):")
        out.print(result.build.message, markup=False, highlight=False)
        return EXIT_FAILED
    table = Table("case", "verdict", "CPU s", "wall s", "MiB", "message", box=None, pad_edge=False)
    by_name = {c.id: c for c in cases}
    details: list[str] = []
    for case in result.cases:
        table.add_row(
            case.name,
            _verdict_markup(case.verdict.value),
            *(("", "", "") if case.verdict.value == "NJ" else _figures(case.cpu_s, case.wall_s, case.memory_kib)),
            case.message if case.public or case.verdict.value != "WA" else "",
        )
        if case.public and case.verdict.value == "WA" and case.output is not None and not details:
            details = [
                f"{case.name}: first difference, " + line if i == 0 else line
                for i, line in enumerate(
                    _first_difference(by_name[case.name].answer.read_bytes(), case.output, case.diff_line)
                )
            ]
    out.print(table)
    for line in details:
        out.print(line, markup=False, highlight=False)
    memory = f"{problem.spec.limits.memory_mib} MiB"
    if submission.language.jvm_allowance_mib:
        memory += f" + {submission.language.jvm_allowance_mib} for the JVM"
    out.print(
        f"{_verdict_markup(result.verdict.value)} {result.verdict.long_name}; score {result.score:g}/{result.max_score:g}"
        f"  (limits: {result.limits.cpu_s:g} s CPU, {memory}; sandbox: {result.sandbox_mode})"
    )
    if not results.isolated_mode(result.sandbox_mode):
        out.print("[bold red]judged WITHOUT a sandbox (--unsafe-no-sandbox): not a trustworthy verdict[/bold red]")
    return 0 if result.verdict.value == "AC" else EXIT_FAILED


def _run_ad_hoc(
    submission: Submission,
    input_file: Path,
    answer_file: Path | None,
    time_limit: float,
    memory_limit: int,
    output_limit: float,
    checker: str,
    compile_limits: sandbox.Limits,
    as_json: bool,
) -> int:
    import json

    from judge.grade import results
    from judge.run import build, checkers, sandbox
    from judge.run.verdicts import Verdict, judge_run

    for path in (input_file, answer_file):
        if path is not None and not path.is_file():
            raise JudgeError(f"{path}: no such file")
    limits = sandbox.Limits(
        cpu_s=time_limit,
        wall_s=sandbox.wall_for(time_limit),
        memory_mib=memory_limit + submission.language.jvm_allowance_mib,
        output_bytes=int(output_limit * 1024 * 1024),
        address_space=submission.language.address_space_limit,
    )
    with build.box() as where:
        compiled = build.compile_submission(submission, where, compile_limits)
        if not compiled.ok:
            if as_json:
                click.echo(
                    json.dumps({"verdict": "CE", "message": "compilation error", "compile_output": compiled.message})
                )
            else:
                click.echo(f"CE compilation error\n{compiled.message}")
            return EXIT_FAILED
        argv = submission.language.run_argv(memory_limit, submission.mainclass)
        run = sandbox.run(argv, box=where, limits=limits, stdin=input_file)
    check = None
    if answer_file is not None and run.exit_code == 0 and run.limit_hit is None:
        answer = answer_file.read_bytes()
        compare = {"tokens": checkers.tokens, "exact": checkers.exact, "lines": checkers.lines}
        check = (
            checkers.floats(run.stdout, answer, 1e-6, 1e-6)
            if checker == "float"
            else compare[checker](run.stdout, answer)
        )
    decided = judge_run(run, limits.memory_mib * 1024, check)
    # Without an answer nothing is compared: a run that ended well is all there is to say.
    passed = decided.verdict is Verdict.AC or (answer_file is None and decided.verdict is Verdict.IE)
    if as_json:
        mode = sandbox.detect().mode
        payload = {
            "verdict": "OK" if answer_file is None and passed else decided.verdict.value,
            "message": decided.message,
            "cpu_s": run.cpu_s,
            "wall_s": run.wall_s,
            "memory_kib": run.memory_kib,
            "exit_code": run.exit_code,
            "signal": run.signal,
            "sandbox": mode,
            "isolated": results.isolated_mode(mode),
            "output": run.stdout.decode(errors="replace"),
            "stderr": run.stderr.decode(errors="replace")[-2000:],
        }
        click.echo(json.dumps(payload, indent=2))
        return 0 if passed else EXIT_FAILED
    cpu, wall, mib = _figures(run.cpu_s, run.wall_s, run.memory_kib)
    figures = f"cpu {cpu} s, wall {wall} s, memory {mib} MiB"
    if answer_file is None:
        # Not judging: the program's output is the result; problems go to stderr.
        sys.stdout.buffer.write(run.stdout)
        if passed:
            err.print(f"judge: {figures}")
            return 0
        err.print(f"judge: {decided.verdict.value} {decided.message} ({figures})")
        if run.stderr:
            err.print(run.stderr.decode(errors="replace").rstrip()[-2000:], markup=False, highlight=False)
        return EXIT_FAILED
    click.echo(
        f"{decided.verdict.value} {decided.verdict.long_name}" + (f": {decided.message}" if decided.message else "")
    )
    click.echo(figures)
    return 0 if passed else EXIT_FAILED


@cli.command()
def doctor() -> None:
    """Which compilers and runtimes, and which sandbox layers, this machine has (and why not)."""
    from judge.run import languages, sandbox

    table = Table("language", "command", Column("version", overflow="fold"), box=None, pad_edge=False)
    missing = 0
    for language in languages.load().languages.values():
        found = languages.probe(language)
        if found.path is None:
            table.add_row(language.id, found.command, f"[red]missing[/red]: {escape(found.error)}")
            missing += 1
        elif found.error:
            table.add_row(language.id, found.path, f"[red]{escape(found.error)}[/red]")
        else:
            table.add_row(language.id, found.path, found.version)
    out.print(table)
    layers = sandbox.detect()
    # Folded, never cut: the details name paths and fixes that must be read whole.
    table = Table("sandbox layer", "state", Column("detail", overflow="fold"), box=None, pad_edge=False)
    for layer in layers.all():
        state = "[green]active[/green]" if layer.active else "[yellow]missing[/yellow]"
        table.add_row(layer.name, state, layer.detail)
    out.print(table)
    out.print(f"sandbox mode: {layers.mode}")
    problem = sandbox.isolation_problem(layers)
    if problem:
        out.print(f"[bold red]submissions will not run[/bold red]: {escape(problem)}")
    else:
        out.print("[green]submissions run isolated[/green] from the machine's files and network")
    sys.exit(EXIT_FAILED if missing or problem else EXIT_OK)


def _explain_class(
    submissions_dir: Path, out_dir: Path, problems: dict[str, Problem], budget_s: float, jobs: int
) -> None:
    """`grade --explain`: a failing example for each failing submission (stored ones reused)."""
    from judge.explain import stored
    from judge.problem.tables import TableStore

    records = _records(submissions_dir, out_dir, problems)
    todo = [r for r in records if stored.wanted(r, problems)]
    if not todo:
        return
    progress = progress_bar()
    with progress:
        bar = progress.add_task("explaining", total=len(todo), note="")

        def on_done(record: GradeRecord, found: object, why: str) -> None:
            progress.update(bar, advance=1, note=f"{record.student}/{record.problem}")
            if why:
                err.print(f"[yellow]not explained:[/yellow] {escape(record.student)}/{record.problem}: {escape(why)}")

        made = stored.explain_records(todo, problems, out_dir, TableStore(notify=_say), budget_s, jobs, on_done)
    found = sum(e.found for e in made.values())
    out.print(f"explained {len(made)} failing submission(s): a failing example found for {found}")


@cli.command()
@click.argument("submissions_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("submissions"))
@click.option("-p", "--problem", "problem_names", multiple=True, help="Only these problems (repeatable).")
@_jobs_option
@reports_option("Where reports (and results/) go.")
@click.option("--regrade", is_flag=True, help="Judge every submission again, even unchanged ones.")
@click.option(
    "--full", is_flag=True, help="Judge every case, also after a failure in a group that breaks there (on_reject)."
)
@click.option(
    "--explain",
    "explain_failures",
    is_flag=True,
    help="Add to each failing submission's page the smallest failing input `judge explain` finds.",
)
@click.option(
    "--explain-budget",
    type=click.FloatRange(min=2, max=3600),
    default=20.0,
    show_default=True,
    help="Seconds of search per failing submission.",
)
@_cluster_options
@_unsafe_option
@click.pass_context
def grade(
    ctx: click.Context,
    submissions_dir: Path,
    problem_names: tuple[str, ...],
    jobs: int | None,
    out_dir: Path,
    regrade: bool,
    full: bool,
    explain_failures: bool,
    explain_budget: float,
    scheduler: str | None,
    certs_dir: Path | None,
    insecure_loopback: bool,
) -> None:
    """Grade a class: every SUBMISSIONS_DIR/<student>/<problem>.<ext> (or <student>_<problem>.<ext>).

    Unchanged submissions keep their saved result; an interrupted run resumes where it stopped.
    Writes reports/index.html, a page per submission, grades.csv, results.json and junit.xml;
    with --explain, each failing submission's page also shows a failing input found by search.
    """
    from collections import Counter

    from judge.grade import grading

    point = cluster_endpoint(scheduler, certs_dir, insecure_loopback, "client")
    problems = _load_problems(ctx, problem_names)
    entries = grading.discover(submissions_dir, list(problems))
    grading.load_overrides(submissions_dir, problems)  # a bad overrides.yaml stops us before any work
    results_dir = out_dir / grading.RESULTS_DIR
    tasks, skipped = grading.plan(entries, problems, results_dir, regrade, full)
    workers = jobs or grading.default_jobs()
    engine = None
    if point is not None and tasks:
        from judge.cluster.engine import ClusterEngine

        engine = ClusterEngine(point, grading.languages_of(tasks), _say)
    counts: Counter[str] = Counter()
    progress = progress_bar()
    with progress:
        bar = progress.add_task("grading", total=len(tasks), note="")

        def on_done(record: GradeRecord) -> None:
            counts[record.verdict] += 1
            progress.update(bar, advance=1, note=" ".join(f"{v} {n}" for v, n in sorted(counts.items())))

        try:
            grading.run(tasks, results_dir, workers, on_done, full, engine)
        except KeyboardInterrupt:
            err.print(f"judge: interrupted; {sum(counts.values())} result(s) saved, rerun to resume")
            sys.exit(EXIT_INTERRUPTED)
    if explain_failures:
        _explain_class(submissions_dir, out_dir, problems, explain_budget, workers)
    written, records = _report(submissions_dir, out_dir, problems)
    for entry in entries:
        if entry.problem_error:
            err.print(f"[yellow]not graded:[/yellow] {entry.path}: {entry.problem_error}")
    for record in records:
        if record.error:
            kind = "not graded" if record.verdict == "NG" else "judge error"
            err.print(f"[yellow]{kind}:[/yellow] {record.student}/{record.problem}: {record.error}")
    verdicts = Counter(r.verdict for r in records if r.verdict != "NG")
    not_graded = sum(r.verdict == "NG" for r in records) + sum(1 for e in entries if e.problem_error)
    out.print(
        f"graded {len(tasks)} submission(s), {skipped} unchanged, "
        + (f"on {point.address}; " if point else f"with {workers} worker(s); ")
        + ", ".join(f"{_verdict_markup(v)} {n}" for v, n in sorted(verdicts.items()))
        + (f"; {not_graded} file(s) not graded" if not_graded else "")
    )
    out.print(f"reports: {written.directory / 'index.html'}")


@cli.command()
@click.argument("submissions_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("submissions"))
@click.option("-p", "--problem", "problem_names", multiple=True, help="Only these problems (repeatable).")
@reports_option("Where the reports are (results/ in it) and go.")
@click.option(
    "--for-students",
    is_flag=True,
    help="Also write OUT/students/<id>/: each student's pages to hand out, secret cases cut to each problem's"
    " feedback level.",
)
@click.pass_context
def report(
    ctx: click.Context, submissions_dir: Path, problem_names: tuple[str, ...], out_dir: Path, for_students: bool
) -> None:
    """Re-render every report from the saved results, without running anything."""
    problems = _load_problems(ctx, problem_names)
    written, records = _report(submissions_dir, out_dir, problems, for_students)
    out.print(f"{len(records)} result(s) -> {written.directory / 'index.html'}")
    if for_students:
        out.print(f"students' pages -> {out_dir / 'students'}/<id>/index.html (the class files stay the teacher's)")


@cli.command()
@click.argument("problem_names", metavar="[PROBLEM]...", nargs=-1)
@_jobs_option
@click.option(
    "--junit", "junit_file", type=click.Path(dir_okay=False, path_type=Path), help="Also write JUnit XML here."
)
@click.option("--strict", is_flag=True, help="Treat warnings (time limits close to a verdict) as failures.")
@_cluster_options
@_unsafe_option
@click.pass_context
def verify(
    ctx: click.Context,
    problem_names: tuple[str, ...],
    jobs: int | None,
    junit_file: Path | None,
    strict: bool,
    scheduler: str | None,
    certs_dir: Path | None,
    insecure_loopback: bool,
) -> None:
    """Prove each problem sound: spec, tests up to date, inputs valid, answers reproduced,
    and every solution in solutions/<verdict>/ gets that verdict (exit 1 if not). With
    --scheduler the solutions run on the judge hosts; the data checks stay here."""

    from judge.grade import grading
    from judge.grade import verify as verifying
    from judge.grade.verify_report import write_junit

    point = cluster_endpoint(scheduler, certs_dir, insecure_loopback, "client")
    workers = jobs or grading.default_jobs()
    prepared = []
    for directory in _problems(ctx, problem_names):
        with _status(f"checking the data of {directory.name}"):
            prepared.append(verifying.prepare(directory, notify=_say, jobs=workers))
    work = [(p.directory, s) for p in prepared for s in p.solutions]
    progress = progress_bar()
    with progress:
        bar = progress.add_task("verifying", total=len(work), note="")

        def on_done(run: verifying.SolutionRun) -> None:
            progress.update(bar, advance=1, note=run.solution.path.name)

        try:
            if point is not None and work:
                from judge.cluster.engine import ClusterEngine
                from judge.run import languages

                table = languages.load()
                needed = {table.detect(solution.path).id for _, solution in work}
                with ClusterEngine(point, needed, _say) as engine:
                    runs = engine.run_solutions(work, on_done)
            else:
                runs = verifying.run_all(work, workers, on_done)
        except KeyboardInterrupt:
            err.print("judge: interrupted; nothing verified")
            sys.exit(EXIT_INTERRUPTED)
    reports = [verifying.finish(p, runs) for p in prepared]
    for report in reports:
        _print_verification(report)
    failures = sum(len(r.failures) for r in reports)
    warnings = sum(len(r.warnings) for r in reports)
    if junit_file is not None:
        write_junit(junit_file, reports, strict)
    solutions = sum(len(r.solutions) for r in reports)
    failed = failures > 0 or (strict and warnings > 0)
    verdict = "[red]FAILED[/red]" if failed else "[green]all holds[/green]"
    out.print(
        f"verify: {len(reports)} problem(s), {solutions} solution(s), {failures} failure(s), "
        f"{warnings} warning(s){' (strict)' if strict and warnings else ''}: {verdict}"
    )
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


def _print_verification(report: ProblemReport) -> None:
    out.print(f"\n[bold]{report.name}[/bold]")
    for check in report.checks:
        mark = "[red]FAIL[/red]" if check.failures else "[green]ok[/green]"
        out.print(f"  {mark:>4} {check.name}" + (f" ({check.detail})" if check.detail else ""))
        for failure in check.failures:
            out.print(f"       [red]{escape(failure)}[/red]")
    if report.solutions:
        table = Table("solution", "lang", "expected", *report.groups, "max CPU", "result", box=None, pad_edge=False)
        for outcome in report.solutions:
            cells = []
            for group in outcome.groups:
                text = _verdict_markup(group.verdict.value)
                if group.run:
                    text += f" {group.max_cpu_s:.2f}s"
                if group.run < group.total:
                    text += f" [dim]{group.run}/{group.total}[/dim]"
                cells.append(text)
            if not outcome.groups:
                cells = ["-"] * len(report.groups)
            want = "|".join(sorted(v.value for v in outcome.run.solution.expected.verdicts))
            result = (
                "[red]FAIL[/red]"
                if outcome.failures
                else ("[yellow]warn[/yellow]" if outcome.warnings else "[green]ok[/green]")
            )
            table.add_row(
                escape(outcome.run.solution.label),
                outcome.run.language,
                want,
                *cells,
                f"{outcome.max_cpu_s:.2f}s / {outcome.run.limit_s:g}s" if outcome.run.cases else "-",
                result,
            )
        # Piped output (CI logs) is not cut to 80 columns: the table is the point.
        (out if out.is_terminal else Console(highlight=False, width=max(out.width, 200))).print(table)
    for outcome in report.solutions:
        for failure in outcome.failures:
            out.print(f"  [red]FAIL[/red] {escape(str(outcome.run.solution.path))}: {escape(failure)}")
        for warning in outcome.warnings:
            out.print(f"  [yellow]warn[/yellow] {escape(str(outcome.run.solution.path))}: {escape(warning)}")
    for note in report.notes:
        out.print(f"  [yellow]warn[/yellow] {escape(note)}")
    for note in report.skipped:
        out.print(f"  [dim]skip[/dim] {escape(note)}")


DATA_DIR = Path("judge-data")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--problems",
    "problems_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of problems [default: the global --problems].",
)
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DATA_DIR,
    show_default=True,
    help="Where the SQLite database and the session key live.",
)
@click.option("--workers", type=click.IntRange(min=1, max=64), default=None, help="Judging processes [default: cores].")
@click.option("--max-source-kib", type=click.IntRange(min=1, max=1024), default=64, show_default=True)
@click.option(
    "--behind-proxy", is_flag=True, help="Trust X-Forwarded-* from the proxy in front (see --forwarded-allow-ips)."
)
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, help="The proxy's addresses.")
@click.option("--root-path", default="", help="The path prefix the proxy serves the judge under (e.g. /judge).")
@click.option("--secure-cookies", is_flag=True, help="Send the session cookie over HTTPS only (behind a TLS proxy).")
@click.option(
    "--explain-budget",
    type=click.FloatRange(min=2, max=600),
    default=30.0,
    show_default=True,
    help="Seconds of search when a student asks to explain a failed submission.",
)
@click.option(
    "--explains-per-hour",
    type=click.IntRange(min=0, max=1000),
    default=10,
    show_default=True,
    help="Explanations a student may ask for in an hour (0: no explain button).",
)
@click.option(
    "--result-step",
    type=click.FloatRange(min=0, max=600),
    default=5.0,
    show_default=True,
    help="A student sees a result at the end of the step of this many seconds its judging ended in, so the"
    " time it took on secret cases says little (0: at once).",
)
@_cluster_options
@_unsafe_option
@click.pass_context
def serve(
    ctx: click.Context,
    host: str,
    port: int,
    problems_dir: Path | None,
    data_dir: Path,
    workers: int | None,
    max_source_kib: int,
    behind_proxy: bool,
    forwarded_allow_ips: str,
    root_path: str,
    secure_cookies: bool,
    explain_budget: float,
    explains_per_hour: int,
    result_step: float,
    scheduler: str | None,
    certs_dir: Path | None,
    insecure_loopback: bool,
) -> None:
    """Run the web judge: students log in, submit, and see verdicts; hidden data stays here.
    With --scheduler the cases run on the judge hosts (--workers submissions at a time)."""
    import logging
    import socket

    import uvicorn

    from judge.grade import grading
    from judge.web.app import Settings, create_app
    from judge.web.protocol import DeadlineH11Protocol

    settings = Settings(
        problems_dir or ctx.obj["problems"],
        data_dir,
        workers or grading.default_jobs(),
        max_source_kib * 1024,
        secure_cookies,
        cluster_endpoint(scheduler, certs_dir, insecure_loopback, "client"),
        explain_budget,
        explains_per_hour,
        result_step,
    )
    # Say so plainly if the address is taken, before any worker starts.
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        raise JudgeError(
            f"cannot listen on {host}:{port}: {error.strerror} (another judge serve? try --port)"
        ) from None
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(message)s")  # uvicorn's look
    app = create_app(settings)
    err.print(
        f"judge: serving {settings.problems_dir} on http://{host}:{port}{root_path} "
        f"with {settings.workers} worker(s)"
        + (f" on the judge hosts of {settings.cluster.address}" if settings.cluster else "")
        + f"; data in {data_dir}"
    )
    uvicorn.run(
        app,
        host=host,
        port=port,
        http=DeadlineH11Protocol,  # a request must arrive whole within 20 s (no slow loris)
        log_level="info",
        proxy_headers=behind_proxy,
        forwarded_allow_ips=forwarded_allow_ips if behind_proxy else None,
        root_path=root_path,
    )


@cli.group()
def roster() -> None:
    """The class list of the web judge: ids and their login tokens (only hashes are stored)."""


_data_option = click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DATA_DIR,
    show_default=True,
    help="The web judge's data folder.",
)


def _store(data_dir: Path) -> Store:
    """The web judge's store, saying what it fixed on the way in (loose permissions)."""
    from judge.web.store import Store

    store = Store(data_dir)
    for note in store.notes:
        err.print(f"judge: {note}")
    return store


@roster.command("add")
@click.argument("user_ids", metavar="ID...", nargs=-1, required=True)
@click.option("--teacher", is_flag=True, help="Give these ids the teacher's dashboard.")
@_data_option
def roster_add(user_ids: tuple[str, ...], teacher: bool, data_dir: Path) -> None:
    """Add ids (or give them new tokens); prints `id,token` once: hand each token out."""
    store = _store(data_dir)
    for user_id in user_ids:
        click.echo(f"{user_id},{store.add_user(user_id, 'teacher' if teacher else 'student')}")


@roster.command("import")
@click.argument("csv_file", type=click.Path(dir_okay=False, path_type=Path))
@_data_option
def roster_import(csv_file: Path, data_dir: Path) -> None:
    """Add every id in the first column of CSV_FILE (a header row `id` or `student` is skipped);
    prints `id,token` for each, to hand out or mail-merge."""
    import csv

    from judge.web.store import valid_user_id

    try:
        text = csv_file.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise JudgeError(f"{csv_file}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise JudgeError(f"{csv_file}: not UTF-8 text") from None
    ids: list[str] = []
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        if not row or not row[0].strip():
            continue
        value = row[0].strip()
        if number == 1 and value.lower() in ("id", "student", "student_id"):
            continue
        if not valid_user_id(value):
            raise JudgeError(f"{csv_file}:{number}: {value!r} is not an id (1-64 letters, digits, '.', '_' or '-')")
        ids.append(value)
    store = _store(data_dir)
    for user_id in ids:
        click.echo(f"{user_id},{store.add_user(user_id)}")
    err.print(f"judge: {len(ids)} id(s) added to {data_dir}")


@roster.command("logout")
@click.argument("user_ids", metavar="ID...", nargs=-1, required=True)
@_data_option
def roster_logout(user_ids: tuple[str, ...], data_dir: Path) -> None:
    """End every session of these ids now (a cookie that may have been copied); their tokens stay."""
    store = _store(data_dir)
    for user_id in user_ids:
        if store.user(user_id) is None:
            raise JudgeError(f"{user_id!r} is not on the roster of {data_dir}")
        click.echo(f"{user_id}: {store.end_sessions(user_id)} session(s) ended")


@roster.command("list")
@_data_option
def roster_list(data_dir: Path) -> None:
    """Every id on the roster, its role and its number of submissions."""
    table = Table("id", "role", "submissions", box=None, pad_edge=False)
    for user, count in _store(data_dir).users():
        table.add_row(user.id, user.role, str(count))
    out.print(table)


cli.add_command(problem_commands.new)
cli.add_command(problem_commands.import_command)
cli.add_command(problem_commands.export)
cli.add_command(cluster_commands.cluster)
cli.add_command(cluster_commands.scheduler)
cli.add_command(cluster_commands.worker)
cli.add_command(explain_command.explain)
cli.add_command(similar_command.similar)
cli.add_command(gradescope_commands.gradescope)
cli.add_command(gradescope_commands.autograde)


def main() -> None:
    from judge.run import cgroups, lifecycle

    lifecycle.handle_sigterm()  # a stopped judge kills its runs and removes its boxes
    lifecycle.remove_stale()  # what judges killed outright (SIGKILL) left in the temporary directory
    cgroups.remove_stale()  # ...and in the cgroup hierarchy
    try:
        cli.main(standalone_mode=False)
    except JudgeError as error:
        _report_errors(error)
        sys.exit(error.exit_code)
    except click.exceptions.Abort:
        err.print("judge: interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code if error.exit_code else EXIT_USAGE)
    except KeyboardInterrupt:
        err.print("judge: interrupted")
        sys.exit(EXIT_INTERRUPTED)
