"""What `judge grade`, `judge report` and `judge similar` share: the problems asked for and
the class report written from the saved results of a class folder read once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.text import Text

from judge.cli.common import chosen_problems, err

if TYPE_CHECKING:
    from judge.grade.grading import ClassFolder
    from judge.grade.reports import Written
    from judge.grade.results import GradeRecord
    from judge.problem.spec import Problem


def load_problems(ctx: click.Context, names: Sequence[str]) -> dict[str, Problem]:
    """The problems asked for. Named ones must load; of a whole folder, one that does not
    (a spec with an error) is left out with a line naming it, and the others are graded."""
    from judge.errors import JudgeError
    from judge.kinds.table import load_problem

    loaded: dict[str, Problem] = {}
    for folder in chosen_problems(ctx, names):
        try:
            problem = load_problem(folder)
        except JudgeError as error:
            if names:
                raise
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            err.print(Text.assemble(("judge: warning:", "yellow"), f" {folder}: left out: {first}"))
            continue
        loaded[problem.id] = problem
    if not loaded:
        raise JudgeError(f"{ctx.obj['problems']}: no problem loads (each says why above)")
    return loaded


def write_reports(folder: ClassFolder, out_dir: Path, for_students: bool = False) -> tuple[Written, list[GradeRecord]]:
    """The class report; with `for_students` also each student's own pages (OUT/students/)."""
    from judge.explain import render, stored
    from judge.grade import grading, reports
    from judge.run import sandbox

    records = grading.saved_records(folder, out_dir / grading.RESULTS_DIR)
    found = stored.stored(records, out_dir)
    explained = {key: str(render.html_section(e)) for key, e in found.items()}
    problems = folder.problems
    mode = sandbox.detect().mode
    written = reports.render(records, problems, folder.overrides, list(folder.entries), out_dir, mode, explained)
    if for_students:
        cut = {key: str(render.html_section(e.for_student())) for key, e in found.items()}
        reports.render_for_students(records, problems, folder.overrides, out_dir, cut)
    return written, records
