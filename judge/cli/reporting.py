"""What `judge grade`, `judge report` and `judge similar` share: the problems asked for, the
saved results of the submissions present, and the class report written from them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from judge.cli.common import chosen_problems

if TYPE_CHECKING:
    from judge.grade.reports import Written
    from judge.grade.results import GradeRecord
    from judge.problem.spec import Problem


def load_problems(ctx: click.Context, names: Sequence[str]) -> dict[str, Problem]:
    from judge.problem.spec import load_problem

    return {p.id: p for p in (load_problem(d) for d in chosen_problems(ctx, names))}


def load_records(submissions_dir: Path, out_dir: Path, problems: dict[str, Problem]) -> list[GradeRecord]:
    """The saved results of the submissions present now."""
    from judge.grade import grading, results

    entries = grading.discover(submissions_dir, list(problems))
    present = {(e.student, e.problem) for e in entries if not e.problem_error}
    return [r for r in results.read_all(out_dir / grading.RESULTS_DIR) if (r.student, r.problem) in present]


def write_reports(
    submissions_dir: Path, out_dir: Path, problems: dict[str, Problem], for_students: bool = False
) -> tuple[Written, list[GradeRecord]]:
    """The class report; with `for_students` also each student's own pages (OUT/students/)."""
    from judge.explain import render, stored
    from judge.grade import grading, reports
    from judge.run import sandbox

    entries = grading.discover(submissions_dir, list(problems))
    records = load_records(submissions_dir, out_dir, problems)
    overrides = grading.load_overrides(submissions_dir, problems)
    found = stored.stored(records, out_dir)
    explained = {key: str(render.html_section(e)) for key, e in found.items()}
    written = reports.render(records, problems, overrides, entries, out_dir, sandbox.detect().mode, explained)
    if for_students:
        cut = {key: str(render.html_section(e.for_student())) for key, e in found.items()}
        reports.render_for_students(records, problems, overrides, out_dir, cut)
    return written, records
