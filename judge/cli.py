"""The `judge` command line: thin click commands over the modules of the data path.

Every command reports bad input as `judge: error: ...` lines and a non-zero exit code
(see judge.errors); a traceback means a bug in the judge, not in the user's files.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from judge import __version__
from judge.__main__ import PROBLEMS_ENV
from judge.errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, JudgeError
from judge.locate import find_problem, problem_dirs

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _say(message: str) -> None:
    err.print(f"[dim]judge: {message}[/dim]")


@contextmanager
def _status(message: str) -> Iterator[None]:
    # A spinner on a terminal; nothing at all when piped, so logs stay clean.
    if err.is_terminal:
        with err.status(message):
            yield
    else:
        yield


def _problems(ctx: click.Context, names: Sequence[str]) -> list[Path]:
    problems_dir: Path = ctx.obj["problems"]
    if names:
        return [Path(find_problem(n, problems_dir)) for n in names]
    found = [Path(p) for p in problem_dirs(problems_dir)]
    if not found:
        raise JudgeError(f"{problems_dir}: no problem folders (each needs a problem.yaml)")
    return found


def _report_errors(error: JudgeError) -> None:
    for line in str(error).splitlines():
        err.print(f"[red]judge: error:[/red] {line}", markup=True)


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
    """An online-judge style grading harness for the bundled 3x3 puzzles."""
    ctx.obj = {"problems": problems}


@cli.command()
@click.argument("problem_names", metavar="[PROBLEM]...", nargs=-1)
@click.option("--check", is_flag=True, help="Change nothing; exit 1 if tests/ differs from what would be made.")
@click.pass_context
def gen(ctx: click.Context, problem_names: tuple[str, ...], check: bool) -> None:
    """Generate every problem's tests/ (inputs and reference answers) from its spec."""
    from judge import refs, testdata
    from judge.spec import load_problem
    from judge.tables import TableStore

    store = TableStore(notify=_say)
    failed = False
    summary = Table("problem", "groups", "cases", "result", box=None, pad_edge=False)
    for directory in _problems(ctx, problem_names):
        try:
            problem = load_problem(directory)
            with _status(f"generating {problem.id}"):
                store.ensure(refs.get(problem.spec.reference).tables)
                cases = testdata.generate(problem, store)
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
@click.pass_context
def validate(ctx: click.Context, problem_names: tuple[str, ...]) -> None:
    """Check the spec and every test input against the problem's strict input format."""
    from judge.spec import load_problem
    from judge.validation import validate_problem

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
        report = validate_problem(problem)
        for issue in report.issues:
            err.print(f"[red]invalid:[/red] {issue}")
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
    from judge import solving

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
    from judge.spec import json_schema

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
    from judge import refs
    from judge.tables import TableStore, cache_dir

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


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except JudgeError as error:
        _report_errors(error)
        sys.exit(error.exit_code)
    except click.exceptions.Abort:
        err.print("judge: interrupted")
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code if error.exit_code else EXIT_USAGE)
    except KeyboardInterrupt:
        err.print("judge: interrupted")
        sys.exit(130)
