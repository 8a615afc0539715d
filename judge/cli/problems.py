"""Commands that make problems: `judge new`, `judge starter`, `judge import` and `judge export`."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from judge.cli.common import jobs_option, out, say, status


@click.command()
@click.argument("problem_id")
@click.option(
    "--lang",
    "language",
    type=click.Choice(["cpp", "python3", "java"]),
    default="cpp",
    show_default=True,
    help="Language of the reference solution (a function problem's: a function in that language; java: a unit"
    " problem's JUnit 5 tests).",
)
@click.option("--title", default="", help="The problem's title [default: the example's].")
@click.option(
    "--kind",
    default="stdio",
    show_default=True,
    help="The kind of problem: stdio (reads stdin, writes stdout), interactive (a program of yours talks"
    " with each submission: a guessing game to edit), functions (students write a function, each case a"
    " call), unit (your pytest files test the student's module, each test a case) or tests (students submit tests of"
    " another problem, --for, scored by its bugs they catch). docs/problems.md has them all.",
)
@click.option("--interactive", is_flag=True, help="Short for --kind interactive.")
@click.option("--functions", is_flag=True, help="Short for --kind functions: students write a function.")
@click.option("--unit", is_flag=True, help="Short for --kind unit: your pytest files test the student's module.")
@click.option(
    "--class", "one_class", is_flag=True, help="A function problem whose students write a class (a stack to edit)."
)
@click.option(
    "--for",
    "subject",
    default="",
    help="With --kind tests: the problem whose known bugs its students' tests must catch.",
)
@click.pass_context
def new(
    ctx: click.Context,
    problem_id: str,
    language: str,
    title: str,
    kind: str,
    interactive: bool,
    functions: bool,
    unit: bool,
    one_class: bool,
    subject: str,
) -> None:
    """Create PROBLEM_ID: a complete small problem (statement, samples, reference, generator,
    validator, an accepted and a wrong solution) that passes `judge verify` as made."""
    from judge.author import scaffold

    if interactive + functions + unit > 1:
        raise click.UsageError("--interactive, --functions and --unit are kinds of problem: choose one")
    chosen = "interactive" if interactive else "functions" if functions or one_class else "unit" if unit else kind
    shape = "class" if one_class else ""
    made = scaffold.create(ctx.obj["problems"], problem_id, language, title, chosen, shape, subject)
    out.print(f"created {made.directory}:")
    for path in made.files:
        out.print(f"  {path}")
    out.print(f"next: judge gen {problem_id} && judge verify {problem_id}")


@click.command()
@click.argument("problem")
@click.option("--lang", "language", default="python3", show_default=True, help="The language of the starter file.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write it here (else stdout).")
@click.pass_context
def starter(ctx: click.Context, problem: str, language: str, output: Path | None) -> None:
    """A function problem's starter file: the function with its signature and an empty body."""
    from judge.kinds import table as kinds
    from judge.kinds.table import load_problem
    from judge.problem.locate import find_problem

    loaded = load_problem(Path(find_problem(problem, ctx.obj["problems"])))
    _, text = kinds.of(loaded).starter_file(loaded, language)
    if output is None:
        click.echo(text, nl=False)
        return
    output.write_text(text, encoding="utf-8")
    out.print(f"wrote {output}", markup=False)


@click.command(name="import")
@click.argument("package", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    "problems_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Problems folder to write into [default: --problems].",
)
@click.option("--id", "problem_id", default=None, help="The new problem's id [default: the package's name].")
@click.option(
    "--reference",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="A Gradescope autograder's solution (a file or folder as a student submits it): it holds none.",
)
@jobs_option
@click.pass_context
def import_command(
    ctx: click.Context,
    package: Path,
    problems_dir: Path | None,
    problem_id: str | None,
    reference: Path | None,
    jobs: int | None,
) -> None:
    """Import an ICPC/Kattis problem package (a folder or a .zip; legacy, 2023-07-draft or
    2025-09 format), or a Gradescope autograder of Python tests (with --reference), as a
    problem of the judge. Its programs run only in the sandbox."""
    from judge.grade import grading
    from judge.interop import importer

    with status(f"importing {package}"):
        imported = importer.import_package(
            package, problems_dir or ctx.obj["problems"], problem_id, jobs or grading.default_jobs(), say, reference
        )
    out.print(
        f"imported {package} ({imported.format} format) as {imported.directory}: "
        f"{imported.groups} group(s), {imported.cases} case(s), {imported.solutions} solution(s)"
    )
    out.print(f"time limit {imported.time_limit_s:g} s, from {imported.time_limit_from}")
    for note in imported.notes:
        out.print(f"[yellow]note:[/yellow] {escape(note)}", markup=True)
    out.print(f"next: judge verify {imported.problem_id}")


@click.command()
@click.argument("problem")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True, help="The .zip to write."
)
@click.option(
    "--format",
    "version",
    type=click.Choice(["2023-07", "legacy"]),
    default="2023-07",
    show_default=True,
    help="The package format: 2023-07 (points, Markdown statement, generators) or legacy (pass-fail).",
)
@click.pass_context
def export(ctx: click.Context, problem: str, output: Path, version: str) -> None:
    """Export PROBLEM as an ICPC problem package, as Kattis problemtools' verifyproblem and
    DOMjudge read it; `judge import` of it gives back the same problem."""
    from judge.interop import exporter
    from judge.kinds.table import load_problem
    from judge.problem.locate import find_problem

    loaded = load_problem(Path(find_problem(problem, ctx.obj["problems"])))
    with status(f"exporting {loaded.id}"):
        exported = exporter.export_problem(loaded, output, version)
    out.print(f"wrote {exported.path}: {exported.cases} case(s), {exported.submissions} submission(s)")
    for note in exported.notes:
        out.print(f"[yellow]note:[/yellow] {escape(note)}", markup=True)
