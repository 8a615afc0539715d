"""Explanations on disk, beside a class's results: `judge grade --explain` explains each
failing submission once and reuses the explanation while the source and problem stay the
same (the record's content hash); the web judge keeps the same JSON in its database."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from judge.errors import JudgeError
from judge.explain.search import Explanation, explain
from judge.grade import reports, runner
from judge.grade.results import GradeRecord
from judge.kinds import table as kinds
from judge.problem.spec import Problem
from judge.problem.tables import TableSource

FOLDER = "explanations"
_ADAPTER = TypeAdapter(Explanation)
# A failure the search can look into; CE and the judge's own errors have nothing to run.
EXPLAINABLE = ("WA", "RE", "TLE", "MLE", "OLE")


def to_json(found: Explanation) -> str:
    return json.dumps(dataclasses.asdict(found), sort_keys=True)


def from_json(text: str) -> Explanation | None:
    """The explanation in `text`, or None when it is damaged or of an older shape."""
    try:
        return _ADAPTER.validate_json(text)
    except ValidationError:
        return None


def path_for(out_dir: Path, student: str, problem: str) -> Path:
    return out_dir / FOLDER / student / f"{problem}.json"


def read(out_dir: Path, record: GradeRecord) -> Explanation | None:
    """The stored explanation of this very submission (same hash), if there is one."""
    try:
        found = from_json(path_for(out_dir, record.student, record.problem).read_text(encoding="utf-8"))
    except OSError:
        return None
    return found if found is not None and found.hash == record.hash else None


def searchable(problem: Problem) -> bool:
    """A puzzle, or a problem whose groups have generators to make fresh inputs with, of a
    kind whose answers the reference makes (an interaction has no expected output to show)."""
    if not kinds.of(problem).explains:
        return False
    return problem.builtin or any(group.generate is not None for group in problem.spec.groups)


def wanted(record: GradeRecord, problems: Mapping[str, Problem]) -> bool:
    problem = problems.get(record.problem)
    return record.verdict in EXPLAINABLE and not record.error and problem is not None and searchable(problem)


def explain_records(
    records: Sequence[GradeRecord],
    problems: Mapping[str, Problem],
    out_dir: Path,
    tables: TableSource,
    budget_s: float,
    jobs: int,
    on_done: Callable[[GradeRecord, Explanation | None, str], None],
) -> dict[tuple[str, str], Explanation]:
    """An explanation for each failing record (stored ones reused); `on_done` hears of each,
    with the reason when one could not be made (the source gone, say)."""
    made: dict[tuple[str, str], Explanation] = {}
    for record in records:
        if not wanted(record, problems):
            continue
        found = read(out_dir, record)
        if found is None:
            try:
                submission = runner.load_for(problems[record.problem], Path(record.source), record.language)
                found = explain(problems[record.problem], submission, tables, budget_s, jobs, None, record.hash)
            except JudgeError as error:
                on_done(record, None, str(error))
                continue
            reports.write_atomic(path_for(out_dir, record.student, record.problem), to_json(found) + "\n")
        made[(record.student, record.problem)] = found
        on_done(record, found, "")
    return made


def stored(records: Sequence[GradeRecord], out_dir: Path) -> dict[tuple[str, str], Explanation]:
    """The explanations already made for these records (for a report written again)."""
    found = {(r.student, r.problem): read(out_dir, r) for r in records}
    return {key: value for key, value in found.items() if value is not None}
