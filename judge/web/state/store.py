"""The web judge's state in one SQLite file (judge.web.state.database): the roster and sessions
(accounts), the queue and its results (queue), and what the pages read of them here.

A submission is stored before it is judged, so a crash or restart loses none: those left
"compiling" or "running" go back to the queue when the server starts.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass

from judge.course import gradebook
from judge.grade import results
from judge.grade.results import GradeRecord
from judge.web.state.accounts import Accounts
from judge.web.state.people import People
from judge.web.state.queueing import PENDING, SubmissionQueue, release_at

# What a listing needs: never the source or the result, which pages refreshing every
# second or two would otherwise read for every row.
_LISTED = (
    "id, student, problem, language, filename, created, status, case_done, case_total, attempt, "
    "finishes, verdict, score, max_score, started, finished"
)
MAX_ID = 2**63 - 1


@dataclass(frozen=True)
class SubmissionRow:
    id: int
    student: str
    problem: str
    language: str
    filename: str
    created: float
    status: str
    case_done: int
    case_total: int
    attempt: int
    finishes: int
    verdict: str | None
    score: float | None
    max_score: float | None
    started: float | None = None
    finished: float | None = None

    def released(self, step_s: float, now: float) -> bool:
        """Whether a student may see the result now: judging time is shown only in whole
        steps (the result waits for the end of the step its judging ended in), since how
        long a program took on the secret cases is a channel for their inputs too."""
        if self.status != "done":
            return False
        if step_s <= 0 or self.started is None or self.finished is None:
            return True
        return now >= release_at(self.started, self.finished, step_s)

    @property
    def attempt_record(self) -> gradebook.Attempt:
        """The submission as the gradebook counts it: a result only once judged (and shown)."""
        done = self.status == "done"
        return gradebook.Attempt(
            self.id,
            self.student,
            self.problem,
            self.created,
            self.verdict if done else None,
            self.score if done else None,
        )

    @property
    def pending(self) -> bool:
        return self.status in PENDING

    @property
    def student_status(self) -> str:
        """The stage its student sees: queued until a worker first takes it, compiling during
        that first compile, then running until it is done. A turn given up (fair turns) puts it
        back in the queue at a moment its cases chose, and its next turn compiles again: neither
        is shown to the student, for whom that would be a clock."""
        if self.status == "queued" and self.attempt == 0:
            return "queued"
        if self.status == "compiling" and self.attempt <= 1:
            return "compiling"
        return "done" if self.status == "done" else "running"

    @property
    def status_text(self) -> str:
        if self.status == "running":
            return f"running case {min(self.case_done + 1, self.case_total)} of {self.case_total}"
        return self.status


class Store(Accounts, People, SubmissionQueue):
    """The accounts and the queue, with what the pages read of them; LTI's records
    (judge.web.state.lti) sit on the same database beside it, composed by the site."""

    def get(self, submission_id: int) -> SubmissionRow | None:
        if not 0 < submission_id <= MAX_ID:
            return None  # SQLite's integers end at 2**63 - 1: larger ids are simply not there
        with self.connect() as db:
            row = db.execute(f"SELECT {_LISTED} FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        return _submission(row) if row is not None else None

    def of_student(self, student: str) -> list[SubmissionRow]:
        with self.connect() as db:
            rows = db.execute(
                f"SELECT {_LISTED} FROM submissions WHERE student = ? ORDER BY id DESC", (student,)
            ).fetchall()
        return [_submission(r) for r in rows]

    def many(self, ids: Collection[int]) -> list[SubmissionRow]:
        """These submissions (those there are), by id."""
        wanted = sorted(i for i in ids if 0 < i <= MAX_ID)
        found: list[SubmissionRow] = []
        with self.connect() as db:
            for start in range(0, len(wanted), 500):  # SQLite's bound on a statement's variables
                chunk = wanted[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                found += [
                    _submission(r)
                    for r in db.execute(f"SELECT {_LISTED} FROM submissions WHERE id IN ({marks}) ORDER BY id", chunk)
                ]
        return found

    def all(self) -> list[SubmissionRow]:
        with self.connect() as db:
            rows = db.execute(f"SELECT {_LISTED} FROM submissions ORDER BY id").fetchall()
        return [_submission(r) for r in rows]

    def source(self, submission_id: int) -> bytes:
        with self.connect() as db:
            row = db.execute("SELECT source FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        return bytes(row["source"]) if row is not None else b""

    def record(self, submission_id: int) -> GradeRecord | None:
        with self.connect() as db:
            row = db.execute("SELECT result FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        if row is None or row["result"] is None:
            return None
        return results.from_json(json.loads(row["result"]))

    def students(self) -> list[str]:
        """The roster's students, in id order (the gradebook's rows)."""
        with self.connect() as db:
            return [r["id"] for r in db.execute("SELECT id FROM users WHERE role = 'student' ORDER BY id")]


def _submission(row: sqlite3.Row) -> SubmissionRow:
    return SubmissionRow(
        row["id"],
        row["student"],
        row["problem"],
        row["language"],
        row["filename"],
        row["created"],
        row["status"],
        row["case_done"],
        row["case_total"],
        row["attempt"],
        row["finishes"],
        row["verdict"],
        row["score"],
        row["max_score"],
        row["started"],
        row["finished"],
    )
