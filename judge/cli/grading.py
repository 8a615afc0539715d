"""`judge grade`, `judge report` and `judge verify`: a class, its reports, a problem's own solutions."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.text import Text

from judge.cli.common import (
    chosen_problems,
    cluster_endpoint,
    cluster_options,
    err,
    jobs_option,
    out,
    progress_bar,
    reports_option,
    say,
    status,
    unsafe_option,
)
from judge.cli.render import print_verification, verdict_markup
from judge.cli.reporting import load_problems, write_reports
from judge.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, JudgeError

if TYPE_CHECKING:
    from judge.grade import grading
    from judge.grade.engines import Engine
    from judge.grade.grading import ClassFolder
    from judge.grade.results import GradeRecord


def _explain_class(folder: ClassFolder, out_dir: Path, budget_s: float, jobs: int) -> None:
    """`grade --explain`: a failing example for each failing submission (stored ones reused)."""
    from judge.explain import stored
    from judge.grade import grading
    from judge.problem.tables import TableStore

    problems = folder.problems
    records = grading.saved_records(folder, out_dir / grading.RESULTS_DIR)
    todo = [r for r in records if stored.wanted(r, problems)]
    if not todo:
        return
    progress = progress_bar()
    with progress:
        bar = progress.add_task("explaining", total=len(todo), note="")

        def on_done(record: GradeRecord, found: object, why: str) -> None:
            progress.update(bar, advance=1, note=f"{record.student}/{record.problem}")
            if why:
                err.print(Text.assemble(("not explained:", "yellow"), f" {record.student}/{record.problem}: {why}"))

        made = stored.explain_records(todo, problems, out_dir, TableStore(notify=say), budget_s, jobs, on_done)
    found = sum(e.found for e in made.values())
    out.print(f"explained {len(made)} failing submission(s): a failing example found for {found}")


def _variants_from(folder: ClassFolder, data_dir: Path | None) -> grading.VariantOf | None:
    """How each student gets their own variant: from the web judge's data folder, the salt and
    the cache `judge serve` uses (its locks too). Without it, a class with submissions of a
    variants problem is refused: judging them all on tests/ would grade nobody's own tests."""
    from judge.web import variants

    if data_dir is not None:
        return lambda problem, student: variants.of_student(problem, student, data_dir)
    for entry in folder.entries:
        problem = folder.problems.get(entry.problem)
        if not entry.problem_error and problem is not None and problem.spec.variants is not None:
            raise JudgeError(
                f"{problem.spec_path}: {problem.id} has variants: judge grade needs --data DATA, the web judge's"
                " data folder (its salt), to judge each student on their own variant"
            )
    return None


@click.command()
@click.argument("submissions_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("submissions"))
@click.option("-p", "--problem", "problem_names", multiple=True, help="Only these problems (repeatable).")
@jobs_option
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
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The web judge's data folder: each student is judged on their own variant of a problem with"
    " variants (its salt and cached variants, shared with a running `judge serve --data`).",
)
@cluster_options
@unsafe_option
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
    data_dir: Path | None,
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
    problems = load_problems(ctx, problem_names)
    folder = grading.read_class(submissions_dir, problems)
    variant_of = _variants_from(folder, data_dir)
    workers = jobs or grading.default_jobs()

    def engine_for(needed: set[str]) -> Engine:
        from judge.cluster.engine import ClusterEngine

        assert point is not None
        return ClusterEngine(point, needed, say)

    counts: Counter[str] = Counter()
    progress = progress_bar()
    with progress:
        bar = progress.add_task("grading", total=None, note="")

        def on_done(record: GradeRecord) -> None:
            counts[record.verdict] += 1
            progress.update(bar, advance=1, note=" ".join(f"{v} {n}" for v, n in sorted(counts.items())))

        try:
            graded = grading.grade_class(
                folder,
                out_dir / grading.RESULTS_DIR,
                workers,
                regrade,
                full,
                engine_for if point is not None else None,
                on_done,
                on_plan=lambda todo: progress.update(bar, total=todo),
                variant_of=variant_of,
            )
        except KeyboardInterrupt:
            err.print(f"judge: interrupted; {sum(counts.values())} result(s) saved, rerun to resume")
            sys.exit(EXIT_INTERRUPTED)
    if explain_failures:
        _explain_class(folder, out_dir, explain_budget, workers)
    written, records = write_reports(folder, out_dir)
    for entry in folder.entries:
        if entry.problem_error:
            err.print(Text.assemble(("not graded:", "yellow"), f" {entry.path}: {entry.problem_error}"))
    for record in records:
        if record.error:
            kind = "not graded" if record.verdict == "NG" else "judge error"
            err.print(Text.assemble((f"{kind}:", "yellow"), f" {record.student}/{record.problem}: {record.error}"))
    verdicts = Counter(r.verdict for r in records if r.verdict != "NG")
    not_graded = sum(r.verdict == "NG" for r in records) + sum(1 for e in folder.entries if e.problem_error)
    out.print(
        f"graded {graded.judged} submission(s), {graded.skipped} unchanged, "
        + (f"on {point.address}; " if point else f"with {workers} worker(s); ")
        + ", ".join(f"{verdict_markup(v)} {n}" for v, n in sorted(verdicts.items()))
        + (f"; {not_graded} file(s) not graded" if not_graded else ""),
        markup=True,
    )
    out.print(f"reports: {written.directory / 'index.html'}")


@click.command()
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
    from judge.grade import grading

    folder = grading.read_class(submissions_dir, load_problems(ctx, problem_names))
    written, records = write_reports(folder, out_dir, for_students)
    out.print(f"{len(records)} result(s) -> {written.directory / 'index.html'}")
    if for_students:
        out.print(f"students' pages -> {out_dir / 'students'}/<id>/index.html (the class files stay the teacher's)")


@click.command()
@click.argument("problem_names", metavar="[PROBLEM]...", nargs=-1)
@jobs_option
@click.option(
    "--junit", "junit_file", type=click.Path(dir_okay=False, path_type=Path), help="Also write JUnit XML here."
)
@click.option("--strict", is_flag=True, help="Treat warnings (time limits close to a verdict) as failures.")
@cluster_options
@unsafe_option
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

    from judge.author import verify as verifying
    from judge.author.verify_report import write_junit
    from judge.grade import grading

    point = cluster_endpoint(scheduler, certs_dir, insecure_loopback, "client")
    workers = jobs or grading.default_jobs()
    prepared = []
    for directory in chosen_problems(ctx, problem_names):
        with status(f"checking the data of {directory.name}"):
            prepared.append(verifying.prepare(directory, notify=say, jobs=workers))
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
                with ClusterEngine(point, needed, say) as engine:
                    runs = engine.run_solutions(work, on_done)
            else:
                runs = verifying.run_all(work, workers, on_done)
        except KeyboardInterrupt:
            err.print("judge: interrupted; nothing verified")
            sys.exit(EXIT_INTERRUPTED)
    reports = [verifying.finish(p, runs) for p in prepared]
    for report in reports:
        print_verification(report)
    failures = sum(len(r.failures) for r in reports)
    warnings = sum(len(r.warnings) for r in reports)
    if junit_file is not None:
        write_junit(junit_file, reports, strict)
    solutions = sum(len(r.solutions) for r in reports)
    failed = failures > 0 or (strict and warnings > 0)
    verdict = "[red]FAILED[/red]" if failed else "[green]all holds[/green]"
    out.print(
        f"verify: {len(reports)} problem(s), {solutions} solution(s), {failures} failure(s), "
        f"{warnings} warning(s){' (strict)' if strict and warnings else ''}: {verdict}",
        markup=True,
    )
    sys.exit(EXIT_FAILED if failed else EXIT_OK)
