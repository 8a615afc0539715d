"""`judge similar`: the pairs of a class's submissions whose code is most alike."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from judge.cli.common import err, out, reports_option
from judge.cli.reporting import load_problems, write_reports


@click.command()
@click.argument("submissions_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("submissions"))
@click.option("-p", "--problem", "problem_names", multiple=True, help="Only these problems (repeatable).")
@click.option(
    "--boilerplate",
    "boilerplate",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Code handed out to the class: it counts for no pair (repeatable).",
)
@click.option(
    "--threshold",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="The page shows the pairs scoring at least this (0 to 1).",
)
@reports_option("Where similarity.html goes (beside the class report).")
@click.option("--json", "as_json", is_flag=True, help='Print {"pairs": [...]}: every pair, highest first.')
@click.pass_context
def similar(
    ctx: click.Context,
    submissions_dir: Path,
    problem_names: tuple[str, ...],
    boilerplate: tuple[Path, ...],
    threshold: float,
    out_dir: Path,
    as_json: bool,
) -> None:
    """For each problem, every pair of SUBMISSIONS_DIR's submissions scored by how alike their
    code is (0 to 1), across languages, whatever the names, comments, layout or order of
    functions. Writes REPORTS_DIR/similarity.html with the pairs side by side. A high score is
    a reason to look, not a verdict."""
    from judge.errors import JudgeError
    from judge.grade import reports
    from judge.similar import report as similar_report
    from judge.similar.score import compare

    if not submissions_dir.is_dir():
        raise JudgeError(f"{submissions_dir}: no such folder of submissions")
    problems = load_problems(ctx, problem_names)
    found = compare(submissions_dir, list(problems), boilerplate)
    reports.write_atomic(out_dir / "similarity.html", similar_report.similarity_html(found, threshold))
    if (out_dir / "results").is_dir():
        from judge.grade import grading

        write_reports(grading.read_class(submissions_dir, problems), out_dir)  # the class page links to it
    if as_json:
        pairs = [{"problem": p.problem, "a": p.a.student, "b": p.b.student, "score": p.score} for p in found.pairs]
        click.echo(json.dumps({"pairs": pairs}, indent=1))
        return
    for problem in sorted({p.problem for p in found.pairs}):
        table = Table("score", "student", "student", "languages", title=problem, box=None, pad_edge=False)
        for pair in [p for p in found.pairs if p.problem == problem][:10]:
            style = "bold yellow" if pair.score >= threshold else ""
            table.add_row(
                Text(f"{pair.score:.2f}", style=style),
                pair.a.student,
                pair.b.student,
                f"{pair.a.language}/{pair.b.language}",
            )
        out.print(table)
    for path, why in found.skipped:
        err.print(Text.assemble(("not compared:", "yellow"), f" {path}: {why}"))
    above = sum(p.score >= threshold for p in found.pairs)
    out.print(
        f"{len(found.pairs)} pair(s) of {len(found.programs)} submission(s); {above} at or above {threshold:g}: "
        f"{out_dir / 'similarity.html'}"
    )
    out.print("A high score is a reason to look at both programs, not a verdict.")
