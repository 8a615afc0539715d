"""The verdict of one test of a unit-test problem (pure): from the record the tests' side wrote
for it and, where the student's process was lost during it, from how that process ended.

| what happened in the test | verdict |
| --- | --- |
| it passed | AC |
| it was skipped at run time (pytest.skip, a skipif, an assumption, an abort) | WA: a skip earns nothing |
| an assertion failed, or the test's own code failed on what the student's code gave it | WA |
| the student's code raised and the test did not expect it | RE |
| the student's code used more than the test's CPU time, or did not return | TLE |
| the student's process ended during the test | its end: MLE, OLE, RE (exit code or signal) |
| the student's code wrote on the tests' channel | RE |
| the test's setup failed on its own, or asked what a stand-in cannot do | IE (the teacher's) |
| mode together: the test's setup failed in the process the student's code shares | RE |
| the student's module did not import (it raised, or wrote on the channel) | CE, with why |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.run.sandbox import Limit, RunResult
from judge.run.verdicts import CaseVerdict, Verdict, judge_run

GONE = "the student's process ended during this test"
SKIPPED = "skipped at run time (a skip earns nothing)"
MEMORY_ERROR = "the student's code raised MemoryError"


@dataclass(frozen=True)
class RunPhase:
    when: str  # setup, call, teardown
    kind: str  # assert, error, student, gone, stuck, unsupported, skipped
    message: str


@dataclass(frozen=True)
class Record:
    """What the tests' side wrote of one test."""

    id: str
    phases: tuple[RunPhase, ...]
    cpu_s: float
    wall_s: float
    printed: str


def record_of(raw: Mapping[str, object]) -> Record | None:
    """A record from its JSON line, None when it is not one (garbage is not trusted)."""
    phases = raw.get("phases")
    if not isinstance(raw.get("id"), str) or not isinstance(phases, list):
        return None
    found = []
    for phase in phases:
        if not isinstance(phase, dict):
            return None
        found.append(RunPhase(str(phase.get("when", "")), str(phase.get("kind", "")), str(phase.get("message", ""))))
    cpu, wall = raw.get("cpu", 0.0), raw.get("wall", 0.0)
    return Record(
        str(raw["id"]),
        tuple(found),
        float(cpu) if isinstance(cpu, int | float) else 0.0,
        float(wall) if isinstance(wall, int | float) else 0.0,
        str(raw.get("printed", "")),
    )


def decide(
    record: Record, per_test_s: float, student: RunResult, memory_limit_kib: int, shared: bool = False
) -> CaseVerdict:
    """The verdict of a test from its record; `student`: the run of the student's process it
    was in; `shared`: the tests ran in that process (mode together), where a setup that fails
    may be the student's code's doing (the reference's run shows the teacher's own)."""
    kinds = {phase.kind: phase for phase in record.phases}
    if "garbled" in kinds:
        return CaseVerdict(Verdict.RE, kinds["garbled"].message)
    if "gone" in kinds:
        return ended(student, memory_limit_kib)
    if "stuck" in kinds or record.cpu_s > per_test_s:
        return CaseVerdict(Verdict.TLE, "")
    if "unsupported" in kinds:
        return CaseVerdict(Verdict.IE, kinds["unsupported"].message)
    for phase in record.phases:
        if phase.kind == "student":
            # The student's code ran out of memory in a call: its heap was full, not a bug of its own.
            out_of_memory = phase.message.startswith(MEMORY_ERROR)
            return CaseVerdict(Verdict.MLE if out_of_memory else Verdict.RE, phase.message)
        if phase.kind == "skipped":
            # Only a test's own pass earns its points: whoever skipped it, it did not pass.
            return CaseVerdict(Verdict.WA, f"{SKIPPED}: {phase.message}" if phase.message else SKIPPED)
        if phase.kind in ("assert", "error") and phase.when == "call":
            return CaseVerdict(Verdict.WA, phase.message)
        if phase.kind in ("assert", "error"):
            failed = f"the test's {phase.when} failed: {phase.message}"
            return CaseVerdict(Verdict.RE if shared else Verdict.IE, failed)
    return CaseVerdict(Verdict.AC, "")


def ended(student: RunResult, memory_limit_kib: int, memory_marks: Sequence[bytes] = ()) -> CaseVerdict:
    """The verdict of the test the student's process was in when it ended."""
    found = judge_run(student, memory_limit_kib, None, tuple(memory_marks))
    if found.verdict in (Verdict.MLE, Verdict.OLE, Verdict.TLE) or student.limit_hit is Limit.WALL:
        return found
    if student.signal is not None:
        return CaseVerdict(Verdict.RE, f"{GONE} ({found.message or 'killed by a signal'})")
    return CaseVerdict(Verdict.RE, f"{GONE} (exit code {student.exit_code})")


def unreported(why: str, student_caused: bool) -> CaseVerdict:
    """A test its file never ran: the student's module did not import (CE, as a module that
    does not compile), else the teacher's file could not be collected (IE)."""
    if student_caused:
        return CaseVerdict(Verdict.CE, why)
    return CaseVerdict(Verdict.IE, f"the test file could not be collected: {why}")


NOT_A_RESULT = "the results channel carried something other than this test's result"


@dataclass(frozen=True)
class Collected:
    """What one pair's run said of its tests, checked."""

    records: tuple[Record, ...]  # accepted: each test listed, once, in turn
    failed: tuple[tuple[str, CaseVerdict], ...]  # tests the channel's rules fail
    current: str | None  # started and not reported when the run ended
    broken: CaseVerdict | None  # the file could not be collected


def collected(lines: Sequence[object], expected: Sequence[str]) -> Collected:
    """`mode: together`'s records checked against the tests the judge listed (`expected`): a
    test started and then reported, each once, then the end line. A line that is none of
    these, a test reported twice or out of turn, and any test unreported at the end fail."""
    wanted, seen = set(expected), set()
    records: list[Record] = []
    failed: dict[str, CaseVerdict] = {}
    current: str | None = None
    ended = False
    broken: CaseVerdict | None = None
    for raw in lines:
        start = raw.get("start") if isinstance(raw, dict) else None
        record = record_of(raw) if isinstance(raw, dict) and "id" in raw else None
        if not ended and isinstance(start, str) and start in wanted and start not in seen and current is None:
            current = start
        elif not ended and record is not None and record.id == current:
            records.append(record)
            seen.add(record.id)
            current = None
        elif not ended and isinstance(raw, dict) and "collect_error" in raw and not records:
            # The student's code runs in the process that collects (and writes this channel):
            # what breaks a file's collection there is the submission's, never the judge's IE.
            # The reference collects every file, as judge verify checks.
            why = str(raw.get("message", ""))
            broken = unreported(f"the tests could not be collected with this submission in their process: {why}", True)
        elif not ended and isinstance(raw, dict) and raw.get("end") is True and current is None:
            ended = True
        else:
            # Out of turn: the test in progress fails, and so does one reported twice.
            victims = {current} if current is not None else set()
            if record is not None and record.id in seen:
                victims.add(record.id)
            for victim in victims:
                failed[victim] = CaseVerdict(Verdict.RE, NOT_A_RESULT)
            current = None if current in victims else current
    if ended and broken is None:  # a file that did not collect: its tests take that verdict
        for test in expected:
            if test not in seen and test not in failed:
                failed[test] = CaseVerdict(Verdict.RE, "the run ended without this test's result")
    kept = tuple(r for r in records if r.id not in failed)
    return Collected(kept, tuple(failed.items()), current, broken)
