"""Runs (schema version 8, judge.web.state.database): a student's code tried on a problem's
public samples, or on their own input, before submitting. The workers judge a run as a
submission (the same sandbox and limits) but never on a secret case; a run is no submission:
it is in no quota, no gradebook and no list of submissions. Held beside the store, on its
database, like the review's rows."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass

from judge.errors import JudgeError
from judge.web.state.database import Database
from judge.web.state.queueing import RUN_STALE_S, Claim, PendingError, RateError, judging, run_waiting

KEPT = 20  # a student's newest runs kept (with their sources); older ones are dropped
# A run claimed longer ago than this by a worker that is gone (killed, or a restart) is taken
# again by the next worker: a run takes seconds, and Workers.revive knows nothing of runs.
STALE_S = RUN_STALE_S


class RunOffError(JudgeError):
    """The course allows no runs."""


@dataclass(frozen=True)
class TriedCase:
    """One case of a run as its student sees it: a public sample, or their own input."""

    name: str
    verdict: str  # "" on their own input when the program ended well: there is no answer to compare
    message: str
    time_s: float
    input: str
    output: str  # what the program printed (capped)
    expected: str  # the sample's answer; "" on their own input
    stderr: str


@dataclass(frozen=True)
class TriedResult:
    compile_error: str  # the compiler's output on a CE, else ""
    error: str  # why it could not run at all (the judge's or the upload's), else ""
    cases: tuple[TriedCase, ...]


def result_json(result: TriedResult) -> str:
    return json.dumps(asdict(result))


def result_of(text: str) -> TriedResult:
    raw = json.loads(text)
    return TriedResult(raw["compile_error"], raw["error"], tuple(TriedCase(**c) for c in raw["cases"]))


@dataclass(frozen=True)
class RunRow:
    id: int
    student: str
    problem: str
    language: str
    own_input: str | None
    status: str
    created: float
    finished: float | None
    result: TriedResult | None
    yielded: bool = False  # started, then put back in the queue for a submission (Runs.requeue)


@dataclass(frozen=True)
class RunClaim:
    """A run a worker took: its program as a queue claim (the workers' way of reading one),
    and the student's own input (None: the public samples)."""

    claim: Claim
    own_input: str | None


class Runs:
    def __init__(self, database: Database) -> None:
        self.database = database

    def ask(
        self,
        student: str,
        problem: str,
        program: tuple[str, str, bytes, bytes],
        own_input: str | None,
        per_minute: int,
        now: float | None = None,
        held_s: float = 0.0,
    ) -> int:
        """Queue a run of `program` (language, file name, bytes, identified record); PendingError
        while one of the student's runs waits, or a submission of theirs until its result is
        theirs (steps of `held_s`: queueing.judging), RateError past `per_minute` in the last
        minute, RunOffError when the course allows none (0)."""
        now = time.time() if now is None else now
        if per_minute <= 0:
            raise RunOffError("this course allows no runs")
        language, filename, source, record = program
        with self.database.transaction() as db:
            waiting = run_waiting(db, student, now)
            if waiting is not None:
                raise PendingError(f"run {waiting} is still running")
            submitted = judging(db, student, now, held_s)
            if submitted is not None:  # a run beside it could time its secret cases (queueing.py)
                raise PendingError(f"your submission {submitted} is being judged; Run when it is done")
            recent = [
                float(r["created"])
                for r in db.execute(
                    "SELECT created FROM runs WHERE student = ? AND created > ? ORDER BY created",
                    (student, now - 60.0),
                )
            ]
            if len(recent) >= per_minute:
                raise RateError(len(recent), recent[len(recent) - per_minute] + 60.0 - now)
            cursor = db.execute(
                "INSERT INTO runs (student, problem, language, filename, source, program, own_input, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (student, problem, language, filename, source, record, own_input, now),
            )
            # Only the newest are kept: a run is tried and forgotten.
            db.execute(
                "DELETE FROM runs WHERE student = ? AND status = 'done' AND id NOT IN "
                "(SELECT id FROM runs WHERE student = ? ORDER BY id DESC LIMIT ?)",
                (student, student, KEPT),
            )
            return int(cursor.lastrowid or 0)

    def claim(self, worker: int, now: float | None = None, most: int = 1) -> RunClaim | None:
        """The oldest queued run (or one whose worker is long gone), now this worker's, unless
        `most` workers run runs already: a started run holds its worker to its end, so the
        server keeps workers free of runs for the submissions that count."""
        now = time.time() if now is None else now
        with self.database.transaction() as db:
            (busy,) = db.execute(
                "SELECT COUNT(*) FROM runs WHERE status = 'running' AND started > ?", (now - STALE_S,)
            ).fetchone()
            if busy >= most:
                return None
            row = db.execute(
                "SELECT * FROM runs WHERE status = 'queued' OR (status = 'running' AND started <= ?) ORDER BY id LIMIT 1",
                (now - STALE_S,),
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE runs SET status = 'running', worker = ?, started = ? WHERE id = ?", (worker, now, row["id"])
            )
        claim = Claim(
            row["id"],
            0,
            row["student"],
            row["problem"],
            row["language"],
            row["filename"],
            bytes(row["source"]),
            program=bytes(row["program"]) if row["program"] is not None else None,
        )
        return RunClaim(claim, row["own_input"])

    def must_yield(self, workers: int, now: float | None = None) -> bool:
        """Whether a run should give its worker up: a submission waits in the queue and every
        one of the `workers` is busy (judging a submission, a run or an explanation), so the
        submission would wait behind runs. A run is a try; a submission counts."""
        now = time.time() if now is None else now
        with self.database.connect() as db:
            waiting = db.execute("SELECT 1 FROM submissions WHERE status = 'queued' LIMIT 1").fetchone()
            if waiting is None:
                return False
            (busy,) = db.execute(
                "SELECT (SELECT COUNT(*) FROM submissions WHERE status IN ('compiling', 'running')) "
                "+ (SELECT COUNT(*) FROM runs WHERE status = 'running' AND started > ?) "
                "+ (SELECT COUNT(*) FROM explanations WHERE status = 'running')",
                (now - STALE_S,),
            ).fetchone()
        return int(busy) >= workers

    def requeue(self, run_id: int, worker: int) -> bool:
        """Put a started run back in the queue, first among runs (its id), to start again from
        its compile when a worker is free; its page says it waits. False when this worker no
        longer has it. Its `started` stays, which tells it yielded (RunRow.yielded)."""
        with self.database.transaction() as db:
            cursor = db.execute(
                "UPDATE runs SET status = 'queued', worker = NULL WHERE id = ? AND worker = ? AND status = 'running'",
                (run_id, worker),
            )
            return cursor.rowcount == 1

    def finish(self, run_id: int, worker: int, result: TriedResult, now: float | None = None) -> bool:
        """Store a run's result; False when another worker has it now (a stale claim)."""
        now = time.time() if now is None else now
        with self.database.transaction() as db:
            cursor = db.execute(
                "UPDATE runs SET status = 'done', result = ?, finished = ? "
                "WHERE id = ? AND worker = ? AND status = 'running'",
                (result_json(result), now, run_id, worker),
            )
            return cursor.rowcount == 1

    def get(self, run_id: int) -> RunRow | None:
        if not 0 < run_id < 2**63:  # no row has it, and SQLite's integers stop there
            return None
        with self.database.connect() as db:
            row = db.execute(
                "SELECT id, student, problem, language, own_input, status, created, started, finished, result "
                "FROM runs WHERE id = ?",
                (run_id,),
            ).fetchone()
        if row is None:
            return None
        result = result_of(row["result"]) if row["result"] is not None else None
        return RunRow(
            row["id"],
            row["student"],
            row["problem"],
            row["language"],
            row["own_input"],
            row["status"],
            row["created"],
            row["finished"],
            result,
            row["status"] == "queued" and row["started"] is not None,
        )
