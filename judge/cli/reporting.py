"""What `judge grade`, `judge report` and `judge similar` share: the problems asked for, the
saved results of the submissions present, and the class report written from them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from judge.cli.common import _problems

if TYPE_CHECKING:
    from judge.reports import Written
    from judge.results import GradeRecord
    from judge.spec import Problem


def _load_problems(ctx: click.Context, names: Sequence[str]) -> dict[str, Problem]:
    from judge.spec import load_problem

    return {p.id: p for p in (load_problem(d) for d in _problems(ctx, names))}


def _records(submissions_dir: Path, out_dir: Path, problems: dict[str, Problem]) -> list[GradeRecord]:
    """The saved results of the submissions present now."""
    from judge import grading, results

    entries = grading.discover(submissions_dir, list(problems))
    present = {(e.student, e.problem) for e in entries if not e.problem_error}
    return [r for r in results.read_all(out_dir / grading.RESULTS_DIR) if (r.student, r.problem) in present]


def _report(submissions_dir: Path, out_dir: Path, problems: dict[str, Problem]) -> tuple[Written, list[GradeRecord]]:
    from judge import grading, reports, sandbox
    from judge.explain import render, stored

    entries = grading.discover(submissions_dir, list(problems))
    records = _records(submissions_dir, out_dir, problems)
    overrides = grading.load_overrides(submissions_dir, problems)
    explained = {key: str(render.html_section(found)) for key, found in stored.stored(records, out_dir).items()}
    written = reports.render(records, problems, overrides, entries, out_dir, sandbox.detect().mode, explained)
    return written, records
