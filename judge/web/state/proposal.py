"""A rejudge's proposal: every judged submission of some problems judged again on their current
data, kept in a file of the data folder (written atomically, never in the database) until the
teacher commits it or runs another; and the dry run's progress beside it, in a file of its own.

Nothing here writes a submission but `apply`, which stores the proposal's results in one
transaction, each only where its submission is still as the dry run found it."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from judge.errors import JudgeError
from judge.grade import results
from judge.grade.reports import write_atomic
from judge.grade.results import GradeRecord
from judge.web.state.database import Database

PROPOSAL_FILE = "rejudge.json"
PROGRESS_FILE = "rejudge-progress.json"
IO_REJUDGED = "rejudged"  # io_cut's why: the saved output was of the judging a commit replaced


@dataclass(frozen=True)
class Stored:
    """A judged submission as the dry run needs it: what a worker's claim holds, and the end
    of its current judging (`finished`), which a commit finds unchanged or leaves alone."""

    id: int
    student: str
    problem: str
    language: str
    filename: str
    source: bytes
    program: bytes | None
    finished: float | None


@dataclass(frozen=True)
class Judged:
    id: int
    finished: float | None  # the judging it replaces (Stored.finished)
    record: GradeRecord
    # Why it could not be judged again (its student's variant could not be made): a commit
    # leaves it as it was, and no score moves by it.
    unjudged: str = ""


@dataclass(frozen=True)
class Proposal:
    problems: tuple[str, ...]
    digests: tuple[tuple[str, str], ...]  # each problem's digest when it was judged
    made: float
    judged: tuple[Judged, ...]


@dataclass(frozen=True)
class DryRunProgress:
    status: str  # running, done, failed
    problems: tuple[str, ...]
    judged: int
    total: int
    pid: int
    error: str = ""

    @property
    def running(self) -> bool:
        """Still being made by a live process (one that died left `running` behind)."""
        if self.status != "running":
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def to_judge(database: Database, problems: Iterable[str]) -> list[Stored]:
    """Every judged submission of these problems, oldest first."""
    wanted = list(problems)
    marks = ", ".join("?" for _ in wanted)
    with database.connect() as db:
        rows = db.execute(
            "SELECT id, student, problem, language, filename, source, program, finished FROM submissions "
            f"WHERE status = 'done' AND problem IN ({marks}) ORDER BY id",
            wanted,
        ).fetchall()
    return [
        Stored(
            r["id"],
            r["student"],
            r["problem"],
            r["language"],
            r["filename"],
            bytes(r["source"]),
            None if r["program"] is None else bytes(r["program"]),
            r["finished"],
        )
        for r in rows
    ]


def students_waiting(database: Database) -> tuple[int, ...]:
    """The students' submissions waiting in the queue, by id: a dry run lets them go first."""
    with database.connect() as db:
        return tuple(r["id"] for r in db.execute("SELECT id FROM submissions WHERE status = 'queued' ORDER BY id"))


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        raise JudgeError(f"{path}: not a rejudge file this judge can read ({err}); remove it") from None


def save(data_dir: Path, proposal: Proposal) -> None:
    body = {
        "problems": list(proposal.problems),
        "digests": [list(d) for d in proposal.digests],
        "made": proposal.made,
        "judged": [
            {"id": j.id, "finished": j.finished, "record": results.to_json(j.record), "unjudged": j.unjudged}
            for j in proposal.judged
        ],
    }
    write_atomic(data_dir / PROPOSAL_FILE, json.dumps(body))


def load(data_dir: Path) -> Proposal | None:
    """The proposal waiting for a commit, if any."""
    path = data_dir / PROPOSAL_FILE
    body = _read(path)
    if body is None:
        return None
    try:
        return Proposal(
            tuple(body["problems"]),
            tuple((str(p), str(d)) for p, d in body["digests"]),
            float(body["made"]),
            tuple(
                Judged(int(j["id"]), j["finished"], results.from_json(j["record"]), str(j.get("unjudged", "")))
                for j in body["judged"]
            ),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise JudgeError(f"{path}: not a rejudge file this judge can read ({err}); remove it") from None


def save_progress(data_dir: Path, progress: DryRunProgress) -> None:
    write_atomic(data_dir / PROGRESS_FILE, json.dumps({**asdict(progress), "problems": list(progress.problems)}))


def load_progress(data_dir: Path) -> DryRunProgress | None:
    path = data_dir / PROGRESS_FILE
    body = _read(path)
    if body is None:
        return None
    try:
        return DryRunProgress(**{**body, "problems": tuple(body["problems"])})
    except (KeyError, TypeError) as err:
        raise JudgeError(f"{path}: not a rejudge file this judge can read ({err}); remove it") from None


def discard(data_dir: Path) -> None:
    """Forget the proposal and its progress."""
    for name in (PROPOSAL_FILE, PROGRESS_FILE):
        with suppress(FileNotFoundError):
            (data_dir / name).unlink()


def apply(database: Database, proposal: Proposal, now: float | None = None) -> tuple[int, int]:
    """Store the proposal's results, in one transaction: (written, left alone). A submission
    judged again since the dry run (or gone) is left alone, and so is one the dry run could not
    judge (not counted in either). Its judging keeps its length and ends
    now, so the LMS's passback plans again and a student sees the change by the result step's
    rule; the output it printed on the old tests is dropped (io_cut says why), and an
    explanation searched against them goes too."""
    now = time.time() if now is None else now
    written = 0
    with database.transaction() as db:
        for judged in proposal.judged:
            if judged.unjudged:
                continue
            record = judged.record
            cursor = db.execute(
                "UPDATE submissions SET verdict = ?, score = ?, max_score = ?, result = ?, "
                "started = ? - (COALESCE(finished, started, ?) - COALESCE(started, finished, ?)), finished = ? "
                "WHERE id = ? AND status = 'done' AND finished IS ?",
                (
                    record.verdict,
                    record.score,
                    record.max_score,
                    json.dumps(results.to_json(record)),
                    now,
                    now,
                    now,
                    now,
                    judged.id,
                    judged.finished,
                ),
            )
            if cursor.rowcount != 1:
                continue
            written += 1
            db.execute("DELETE FROM explanations WHERE submission = ?", (judged.id,))
            if db.execute("DELETE FROM case_io WHERE submission = ?", (judged.id,)).rowcount:
                db.execute("INSERT OR REPLACE INTO io_cut VALUES (?, ?, ?)", (judged.id, IO_REJUDGED, now))
    return written, len([j for j in proposal.judged if not j.unjudged]) - written
