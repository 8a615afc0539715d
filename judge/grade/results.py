"""Graded submissions on disk: one JSON file per submission, the stable record the reports read.

Schema (version 1), documented in the README: a record holds the student, problem,
source path, language, content hash, verdict, score, compiler output, sandbox mode, the
groups' scores and every case with its figures. A secret case never carries its output.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from judge.grade.runner import CaseResult, GroupRecord, SubmissionResult
from judge.run.verdicts import Verdict

SCHEMA = 2  # 2: cases not judged (NJ) after a failure in a group that breaks


def isolated_mode(mode: str) -> bool:
    """Whether a recorded sandbox mode (Layers.mode: `bwrap+...+rlimits`) kept programs off the
    host's files and the network."""
    return "bwrap" in mode.split("+")


@dataclass(frozen=True)
class CaseRecord:
    name: str
    group: str
    public: bool
    verdict: str
    message: str
    cpu_s: float
    wall_s: float
    memory_kib: int
    output: str | None  # public cases only (capped), for the diff
    diff_line: int


@dataclass(frozen=True)
class Heading:
    """What a graded submission says of itself beside its cases and groups: the record and every
    reader's view of it (feedback.Shown) are both a Heading, so the fields are declared once."""

    student: str
    problem: str
    source: str
    language: str
    hash: str
    verdict: str
    score: float
    max_score: float
    compile_output: str
    sandbox: str
    error: str  # why it was not graded: the file's fault (NG, e.g. empty) or the judge's (IE, no compiler)


@dataclass(frozen=True)
class GradeRecord(Heading):
    cases: tuple[CaseRecord, ...]
    groups: tuple[GroupRecord, ...]
    schema: int = SCHEMA
    variant: str = ""  # the student's variant of the problem (its label), "" when it has none


def from_result(student: str, content_hash: str, result: SubmissionResult, variant: str = "") -> GradeRecord:
    return GradeRecord(
        schema=SCHEMA,
        student=student,
        problem=result.problem,
        source=result.source,
        language=result.language,
        hash=content_hash,
        verdict=result.verdict.value,
        score=result.score,
        max_score=result.max_score,
        compile_output=result.build.message if not result.build.ok and not result.build.internal else "",
        sandbox=result.sandbox_mode,
        cases=tuple(case_record(c) for c in result.cases),
        groups=result.groups,
        error=result.build.message if result.build.internal else "",
        variant=variant,
    )


def case_record(c: CaseResult) -> CaseRecord:
    return CaseRecord(
        name=c.name,
        group=c.group,
        public=c.public,
        verdict=c.verdict.value,
        message=c.message,
        cpu_s=c.cpu_s,
        wall_s=c.wall_s,
        memory_kib=c.memory_kib,
        output=c.output.decode("utf-8", errors="replace") if c.public and c.output is not None else None,
        diff_line=c.diff_line,
    )


def case_result(r: CaseRecord) -> CaseResult:
    """A stored case back as the runner's result (a judging resumed after its turn). A public
    output that was not UTF-8 comes back with its bad bytes replaced, as the record shows it."""
    output = r.output.encode() if r.output is not None else None
    return CaseResult(
        r.name, r.group, r.public, Verdict(r.verdict), r.message, r.cpu_s, r.wall_s, r.memory_kib, output, r.diff_line
    )


def failed(
    student: str,
    problem: str,
    source: str,
    language: str,
    content_hash: str,
    max_score: float,
    error: str,
    sandbox: str,
) -> GradeRecord:
    """A record for a submission the judge could not grade (IE, score 0, the reason kept)."""
    return GradeRecord(
        student, problem, source, language, content_hash, "IE", 0.0, max_score, "", sandbox, error, (), ()
    )


def not_graded(
    student: str, problem: str, source: str, language: str, content_hash: str, max_score: float, why: str
) -> GradeRecord:
    """A record for a file that cannot be judged, empty or binary say: NG, score 0, the reason
    kept. The student's to fix, unlike IE, which is the judge's failure."""
    return GradeRecord(student, problem, source, language, content_hash, "NG", 0.0, max_score, "", "", why, (), ())


def to_json(record: GradeRecord) -> dict[str, Any]:
    return asdict(record)


def from_json(data: dict[str, Any]) -> GradeRecord:
    fields = dict(data)
    fields.setdefault("error", "")  # written before every record had one
    fields["cases"] = tuple(CaseRecord(**c) for c in data["cases"])
    fields["groups"] = tuple(GroupRecord(**g) for g in data["groups"])
    return GradeRecord(**fields)


def path_for(results_dir: Path, student: str, problem: str) -> Path:
    return results_dir / student / f"{problem}.json"


def write(results_dir: Path, record: GradeRecord) -> Path:
    """Write atomically: an interrupted run leaves the old file or the new one, never half."""
    target = path_for(results_dir, record.student, record.problem)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            json.dump(to_json(record), stream, indent=1, sort_keys=True)
            stream.write("\n")
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
    return target


def read(path: Path) -> GradeRecord | None:
    """The record in `path`, or None when it is missing, damaged or of another schema."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("schema") != SCHEMA:
            return None
        return from_json(data)
    except (OSError, ValueError, TypeError, KeyError):
        return None


def read_all(results_dir: Path) -> list[GradeRecord]:
    records = []
    for path in sorted(results_dir.glob("*/*.json")):
        record = read(path)
        if record is not None:
            records.append(record)
    return records
