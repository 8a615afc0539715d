"""Exams' rows (schema version 11, judge.web.state.database): when each student started an
exam, by the server's clock, and what happened during it (started, a session ended by a new
sign-in, an address refused, time added by the teacher). Held beside the store, on its
database, like the review's rows. The window itself is judge.course.exam's (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from judge.web.state.database import Database

STARTED, SESSION_ENDED, ADDRESS_REFUSED, TIME_ADDED = "started", "session ended", "address refused", "time added"


@dataclass(frozen=True)
class Start:
    student: str
    started: float  # the server's clock when the student started
    address: str  # the client address they started from


@dataclass(frozen=True)
class ExamEvent:
    id: int
    student: str
    kind: str  # STARTED, SESSION_ENDED, ADDRESS_REFUSED or TIME_ADDED
    detail: str
    seconds: float  # TIME_ADDED: how much
    by: str  # who did it: the teacher who added time, "" for the judge
    at: float


class ExamRecords:
    def __init__(self, database: Database) -> None:
        self.database = database

    def start(self, assignment: str, student: str, now: float, address: str) -> tuple[float, bool]:
        """The student's start (recorded now if they had none) and whether it was made now."""
        with self.database.transaction() as db:
            made = db.execute(
                "INSERT OR IGNORE INTO exam_starts (assignment, student, started, address) VALUES (?, ?, ?, ?)",
                (assignment, student, now, address),
            ).rowcount
            if made:
                db.execute(
                    "INSERT INTO exam_events (assignment, student, kind, detail, at) VALUES (?, ?, ?, ?, ?)",
                    (assignment, student, STARTED, f"from {address}", now),
                )
            row = db.execute(
                "SELECT started FROM exam_starts WHERE assignment = ? AND student = ?", (assignment, student)
            ).fetchone()
        return float(row["started"]), bool(made)

    def started(self, assignment: str, student: str) -> float | None:
        with self.database.connect() as db:
            row = db.execute(
                "SELECT started FROM exam_starts WHERE assignment = ? AND student = ?", (assignment, student)
            ).fetchone()
        return float(row["started"]) if row is not None else None

    def starts(self, assignment: str) -> dict[str, Start]:
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT student, started, address FROM exam_starts WHERE assignment = ?", (assignment,)
            ).fetchall()
        return {r["student"]: Start(r["student"], float(r["started"]), r["address"]) for r in rows}

    def added(self, assignment: str) -> dict[str, float]:
        """Seconds the teacher added, per student."""
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT student, SUM(seconds) AS s FROM exam_events WHERE assignment = ? AND kind = ? GROUP BY student",
                (assignment, TIME_ADDED),
            ).fetchall()
        return {r["student"]: float(r["s"]) for r in rows}

    def log(
        self, assignment: str, student: str, kind: str, detail: str, now: float, by: str = "", seconds: float = 0.0
    ) -> None:
        with self.database.transaction() as db:
            db.execute(
                "INSERT INTO exam_events (assignment, student, kind, detail, seconds, by, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (assignment, student, kind, detail, seconds, by, now),
            )

    def events(self, assignment: str) -> list[ExamEvent]:
        """Every event of an exam, newest first."""
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT id, student, kind, detail, seconds, by, at FROM exam_events WHERE assignment = ? "
                "ORDER BY id DESC",
                (assignment,),
            ).fetchall()
        return [
            ExamEvent(r["id"], r["student"], r["kind"], r["detail"], float(r["seconds"]), r["by"], float(r["at"]))
            for r in rows
        ]
