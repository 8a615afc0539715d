"""The web judge's queue: submissions stored before they are judged, claimed by workers in a
fair order (fair turns), their progress, the cases' saved output (bounded), results stored
once per judging, explanations asked for, and rejudging. Every change that must not race
(claiming, the one-pending-per-student rule, storing a result) is one transaction."""

from __future__ import annotations

import json
import math
import os
import sqlite3
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import asdict, dataclass

from judge.course.spec import TeamRule
from judge.errors import JudgeError
from judge.grade import results
from judge.grade.results import GradeRecord
from judge.web.state import teams
from judge.web.state.database import Database

PENDING = ("queued", "compiling", "running")
# The saved case output (stdout and stderr tails, for the teacher) is bounded: a program that
# prints on every case grew the database by 1.46 MB a submission, forever.
IO_PER_SUBMISSION = 256 * 1024  # bytes one submission keeps, its cases together
IO_PER_STUDENT = 4 * 1024 * 1024  # bytes one student's submissions keep: the oldest go first
_IO_BYTES = "COALESCE(SUM(LENGTH(io.stdout) + LENGTH(io.stderr)), 0)"
FAIR_S = 3600.0  # the queue's fair order weighs the judging time each student used in the last hour
WAITING_S = 2.0  # queued this long, a submission has found no free worker (they poll every 0.2 s)
# A queued submission's student's judging time in the last FAIR_S (the parameter: now - FAIR_S).
_USED = "(SELECT COALESCE(SUM(t.seconds), 0) FROM turns t WHERE t.student = s.student AND t.ended > ?)"


@dataclass(frozen=True)
class Claim:
    """A submission a worker took: the attempt number guards against a stale worker's result."""

    id: int
    attempt: int
    student: str
    problem: str
    language: str
    filename: str
    source: bytes
    done: tuple[results.CaseRecord, ...] = ()  # cases judged in its earlier turns
    program: bytes | None = None  # the program as the door identified it; None in rows from before


RUN_STALE_S = 300.0  # a run claimed this long ago whose worker is gone no longer holds its student


def run_waiting(db: sqlite3.Connection, student: str, now: float) -> int | None:
    """The student's run still queued or running, if any (runs.py's table)."""
    row = db.execute(
        "SELECT id FROM runs WHERE student = ? AND status != 'done' AND (status = 'queued' OR started > ?)",
        (student, now - RUN_STALE_S),
    ).fetchone()
    return int(row["id"]) if row is not None else None


def release_at(started: float, finished: float, step_s: float) -> float:
    """When a judged submission's result reaches its student: the end of the whole step of
    `step_s` its judging ended in (its finish, without a step). Settings.result_step_s."""
    if step_s <= 0:
        return finished
    return started + max(1, math.ceil((finished - started) / step_s)) * step_s


def judging(db: sqlite3.Connection, student: str, now: float, held_s: float) -> int | None:
    """The student's submission still being judged, or judged and its result not yet theirs
    (release_at, steps of `held_s`). A door that opened the moment judging ended (a second
    submission, a run) told its student that moment to a poll's precision, which the result
    step hides: log2(judging / 0.2 s) bits a submission where the step leaves log2(judging / 5 s)."""
    rows = db.execute(
        "SELECT id, status, started, finished FROM submissions WHERE student = ? "
        "AND (status IN ('queued', 'compiling', 'running') OR (status = 'done' AND finished > ?))",
        (student, now - max(held_s, 0.0)),
    )
    for row in rows:
        if row["status"] != "done":
            return int(row["id"])
        if held_s > 0 and row["started"] is not None and now < release_at(row["started"], row["finished"], held_s):
            return int(row["id"])
    return None


class PendingError(JudgeError):
    """The student already has a submission waiting."""


class QuotaError(JudgeError):
    """The student has used every submission the assignment allows for this problem."""

    def __init__(self, used: int, cap: int) -> None:
        super().__init__(f"{used} of {cap} submissions used")
        self.used, self.cap = used, cap


class RateError(JudgeError):
    """The student submitted as often as allowed in the last minute."""

    def __init__(self, count: int, wait_s: float) -> None:
        super().__init__(f"{count} submissions in the last minute")
        self.count, self.wait_s = count, wait_s


@dataclass(frozen=True)
class ExplainState:
    """Where an explanation of a submission stands: its JSON once done, or why it failed."""

    status: str  # queued, running, done
    result: str | None
    error: str | None


def _fit(stdout: bytes, stderr: bytes, room: int) -> tuple[bytes, bytes, bool]:
    """The tails of both that fit in `room` bytes (stderr at most half of it when both do not),
    and whether anything was cut."""
    room = max(0, room)
    if len(stdout) + len(stderr) <= room:
        return stdout, stderr, False
    err = stderr[len(stderr) - min(len(stderr), room // 2) :]
    out = stdout[len(stdout) - min(len(stdout), room - len(err)) :]
    return out, err, True


def team_of_submitter(db: sqlite3.Connection, assignment: str, student: str, rule: TeamRule) -> int:
    """The team a submission is made for: the student's now, with enough members."""
    team = teams.team_now(db, assignment, student)
    if team is None:
        raise teams.TeamError(403, "This assignment takes team submissions: join or start a team first.")
    size = len(teams.members_now(db, team))
    if size < rule.least:
        raise teams.TeamError(
            403, f"Your team has {size} member(s); this assignment takes teams of {rule.least} to {rule.most}."
        )
    return team


class SubmissionQueue(Database):
    def submit(
        self,
        student: str,
        problem: str,
        language: str,
        filename: str,
        source: bytes,
        *,
        now: float | None = None,
        quota: int | None = None,
        per_minute: int = 0,
        program: bytes | None = None,
        team: TeamRule | None = None,
        assignment: str = "",
        held_s: float = 0.0,
    ) -> int:
        """Store a submission in the queue, stamped with the server's clock `now`. In the same
        transaction: PendingError if the student already has one waiting, QuotaError past
        `quota` submissions of this problem (those the judge failed, IE, are not counted),
        RateError past `per_minute` submissions in the last minute (0: no cap). `program`: the
        upload as the door identified it (sources.as_record), what the worker will judge.
        `team`: the assignment's team rule: the submission is stamped with the student's team
        now, TeamError where they have none or too few members, and the quota is the team's.
        `held_s`: a student's result step (Settings.result_step_s): their last submission is
        waiting until its result is theirs (`judging`)."""
        now = time.time() if now is None else now
        with self.transaction() as db:
            waiting = judging(db, student, now, held_s)
            if waiting is not None:
                raise PendingError(f"submission {waiting} is still being judged; one at a time")
            # A run of the student's beside a submission of theirs could time its secret cases
            # or read what they leave in the page cache: one or the other (runs.py, both ways).
            run = run_waiting(db, student, now)
            if run is not None:
                raise PendingError(f"your run {run} is still going; submit when it has ended")
            stamped = None if team is None else team_of_submitter(db, assignment, student, team)
            if quota is not None:
                used = self._used(db, student, problem) if stamped is None else teams.used_by(db, stamped, problem)
                if used >= quota:
                    raise QuotaError(used, quota)
            if per_minute > 0:
                recent = [
                    r["created"]
                    for r in db.execute(
                        "SELECT created FROM submissions WHERE student = ? AND created > ? ORDER BY created",
                        (student, now - 60.0),
                    )
                ]
                if len(recent) >= per_minute:
                    raise RateError(len(recent), recent[len(recent) - per_minute] + 60.0 - now)
            cursor = db.execute(
                "INSERT INTO submissions (student, problem, language, filename, source, created, status, queued, program) "
                "VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?)",
                (student, problem, language, filename, source, now, now, program),
            )
            assert cursor.lastrowid is not None
            if stamped is not None:
                teams.stamp(db, cursor.lastrowid, stamped)
            return cursor.lastrowid

    @staticmethod
    def _used(db: sqlite3.Connection, student: str, problem: str) -> int:
        return int(
            db.execute(
                "SELECT COUNT(*) FROM submissions WHERE student = ? AND problem = ? AND (verdict IS NULL OR verdict != 'IE')",
                (student, problem),
            ).fetchone()[0]
        )

    def used(self, student: str, problem: str) -> int:
        """Submissions of a problem that count against its quota."""
        with self.connect() as db:
            return self._used(db, student, problem)

    def claim(self, worker: int = 0, now: float | None = None, fair_s: float = FAIR_S) -> Claim | None:
        """Take a queued submission for judging (None if the queue is empty): fair turns, the
        student who used the least judging time in the last `fair_s` seconds first, then the
        oldest. A student resubmitting a program that runs to its limits goes behind the class.
        A submission that gave up its turn comes back with the cases it had judged (Claim.done)."""
        now = time.time() if now is None else now
        # Not durable: a claim a power cut undoes leaves the submission queued, as a restart
        # leaves a claimed one (requeue_interrupted); the result's durable commit flushes it.
        with self.transaction(durable=False) as db:
            row = db.execute(
                f"SELECT s.*, {_USED} AS used FROM submissions s WHERE s.status = 'queued' ORDER BY used, s.id LIMIT 1",
                (now - fair_s,),
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE submissions SET status = 'compiling', attempt = attempt + 1, worker = ?, started = ? "
                "WHERE id = ?",
                (worker, now, row["id"]),
            )
            done: tuple[results.CaseRecord, ...] = ()
            if row["partial"] is None:
                db.execute("UPDATE submissions SET case_done = 0, live = NULL WHERE id = ?", (row["id"],))
                db.execute("DELETE FROM case_io WHERE submission = ?", (row["id"],))
                db.execute("DELETE FROM io_cut WHERE submission = ?", (row["id"],))
            else:
                done = tuple(results.CaseRecord(**c) for c in json.loads(row["partial"]))
                db.execute("UPDATE submissions SET case_done = ? WHERE id = ?", (len(done), row["id"]))
        return Claim(
            row["id"],
            row["attempt"] + 1,
            row["student"],
            row["problem"],
            row["language"],
            row["filename"],
            bytes(row["source"]),
            done,
            _program(row),
        )

    def others_waiting(self, claim: Claim, now: float | None = None, fair_s: float = FAIR_S) -> bool:
        """Whether a worker judging `claim` should give up its turn: another student's
        submission has waited in the queue `WAITING_S` or more (so no worker is free for it)
        and that student used less judging time than this one, this turn included."""
        now = time.time() if now is None else now
        with self.connect() as db:
            mine = db.execute(
                f"SELECT started, {_USED} AS used FROM submissions s WHERE id = ? AND attempt = ?",
                (now - fair_s, claim.id, claim.attempt),
            ).fetchone()
            if mine is None or mine["started"] is None:
                return False
            spent = mine["used"] + (now - mine["started"])
            found = db.execute(
                f"SELECT 1 FROM submissions s WHERE s.status = 'queued' AND s.student != ? AND s.queued <= ? "
                f"AND {_USED} < ? LIMIT 1",
                (claim.student, now - WAITING_S, now - fair_s, spent),
            ).fetchone()
        return found is not None

    def pause(self, claim: Claim, done: tuple[results.CaseRecord, ...], now: float | None = None) -> bool:
        """The worker gives up its turn between cases: the submission goes back to the queue
        with the cases judged so far, and the turn's time is counted to its student."""
        now = time.time() if now is None else now
        with self.transaction() as db:
            cursor = db.execute(
                "UPDATE submissions SET status = 'queued', partial = ?, case_done = ?, queued = ?, worker = NULL "
                "WHERE id = ? AND attempt = ? AND status IN ('compiling', 'running')",
                (json.dumps([asdict(c) for c in done]), len(done), now, claim.id, claim.attempt),
            )
            if cursor.rowcount == 1:
                self._count_turn(db, claim, now)
                self._prune_io(db, claim.student, claim.id, now)
            return cursor.rowcount == 1

    @staticmethod
    def _count_turn(db: sqlite3.Connection, claim: Claim, now: float) -> None:
        db.execute(
            "INSERT INTO turns (student, ended, seconds) "
            "SELECT student, ?, MAX(0, ? - started) FROM submissions WHERE id = ?",
            (now, now, claim.id),
        )

    def keep_io(self, claim: Claim, name: str, stdout: bytes, stderr: bytes, now: float | None = None) -> None:
        """What the program printed on one case, for the teacher (see case_io)."""
        self.record_cases(claim, [(name, stdout, stderr)], now=now)

    def record_cases(
        self,
        claim: Claim,
        printed: Sequence[tuple[str, bytes, bytes]],
        progress: tuple[str, int, int, str | None] | None = None,
        now: float | None = None,
    ) -> None:
        """Cases judged since the last call, in one write: what the program printed on each
        (the tails that fit in the submission's IO_PER_SUBMISSION, each cut noted in io_cut; the
        student's own cap is kept at finish), and the claim's `progress` (stage, done, total,
        live cases) if given. Not durable: a judging writes as it goes, and can do it again."""
        now = time.time() if now is None else now
        with self.transaction(durable=False) as db:
            current = db.execute(
                "SELECT student FROM submissions WHERE id = ? AND attempt = ? AND status IN ('compiling', 'running')",
                (claim.id, claim.attempt),
            ).fetchone()
            if current is None:
                return
            for name, stdout, stderr in printed:
                used = db.execute(
                    f"SELECT {_IO_BYTES} FROM case_io io WHERE io.submission = ? AND io.name != ?", (claim.id, name)
                ).fetchone()[0]
                out, err, cut = _fit(stdout, stderr, IO_PER_SUBMISSION - used)
                if cut:
                    db.execute("INSERT OR REPLACE INTO io_cut VALUES (?, 'submission', ?)", (claim.id, now))
                if out or err or not cut:
                    db.execute(
                        "INSERT OR REPLACE INTO case_io (submission, name, stdout, stderr) VALUES (?, ?, ?, ?)",
                        (claim.id, name, out, err),
                    )
            if progress is not None:
                status, done, total, judged = progress
                db.execute(
                    "UPDATE submissions SET status = ?, case_done = ?, case_total = ?, live = COALESCE(?, live) "
                    "WHERE id = ?",
                    (status, done, total, judged, claim.id),
                )

    @staticmethod
    def _prune_io(db: sqlite3.Connection, student: str, keep: int, now: float) -> None:
        """Remove the student's oldest submissions' output (never `keep`'s) while theirs is over the cap."""
        held = db.execute(
            f"SELECT io.submission, {_IO_BYTES} AS size FROM case_io io JOIN submissions s ON s.id = io.submission "
            "WHERE s.student = ? GROUP BY io.submission ORDER BY io.submission",
            (student,),
        ).fetchall()
        total = sum(row["size"] for row in held)
        for row in held:
            if total <= IO_PER_STUDENT:
                break
            if row["submission"] == keep:
                continue
            db.execute("DELETE FROM case_io WHERE submission = ?", (row["submission"],))
            db.execute("INSERT OR REPLACE INTO io_cut VALUES (?, 'student', ?)", (row["submission"], now))
            total -= row["size"]

    def io_cut(self, submission_id: int) -> str:
        """Why the submission's saved output is short ("" if it is whole): "submission" or "student"."""
        with self.connect() as db:
            row = db.execute("SELECT why FROM io_cut WHERE submission = ?", (submission_id,)).fetchone()
        return str(row["why"]) if row is not None else ""

    def sizes(self) -> tuple[int, int]:
        """(the database's bytes on disk, its -wal and -shm files included; the saved case output's)."""
        on_disk = 0
        for suffix in ("", "-wal", "-shm"):
            with suppress(OSError):
                on_disk += os.stat(f"{self.path}{suffix}").st_size
        with self.connect() as db:
            kept = db.execute(f"SELECT {_IO_BYTES} FROM case_io io").fetchone()[0]
        return on_disk, int(kept)

    def case_io(self, submission_id: int) -> dict[str, tuple[bytes, bytes]]:
        """Case name -> (stdout, stderr) kept for a submission's current judging."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT name, stdout, stderr FROM case_io WHERE submission = ?", (submission_id,)
            ).fetchall()
        return {r["name"]: (bytes(r["stdout"]), bytes(r["stderr"])) for r in rows}

    def progress(self, claim: Claim, status: str, done: int, total: int, live: str | None = None) -> None:
        """The claim's stage and count; `live`: its judged cases so far (judge.web.state.live), if given."""
        self.record_cases(claim, (), (status, done, total, live))

    def live(self, submission_id: int) -> str | None:
        """The judged cases of a submission's current judging (JSON, judge.web.state.live), if any."""
        with self.connect() as db:
            row = db.execute("SELECT live FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        return str(row["live"]) if row is not None and row["live"] is not None else None

    def finish(self, claim: Claim, record: GradeRecord, now: float | None = None) -> bool:
        """Store the result, once: a worker whose claim is stale (requeued since) changes nothing.
        The student's saved case output is brought under its cap here, once a judging."""
        now = time.time() if now is None else now
        with self.transaction() as db:
            cursor = db.execute(
                "UPDATE submissions SET status = 'done', verdict = ?, score = ?, max_score = ?, result = ?, "
                "finished = ?, finishes = finishes + 1, case_done = case_total, partial = NULL "
                "WHERE id = ? AND attempt = ? AND status IN ('compiling', 'running')",
                (
                    record.verdict,
                    record.score,
                    record.max_score,
                    json.dumps(results.to_json(record)),
                    now,
                    claim.id,
                    claim.attempt,
                ),
            )
            if cursor.rowcount == 1:
                self._count_turn(db, claim, now)
                self._prune_io(db, claim.student, claim.id, now)
            return cursor.rowcount == 1

    def requeue_interrupted(self) -> int:
        """At start-up: what a stopped server was judging (or explaining) goes back to the queue."""
        with self.transaction() as db:
            cursor = db.execute(
                "UPDATE submissions SET status = 'queued', queued = ? WHERE status IN ('compiling', 'running')",
                (time.time(),),
            )
            db.execute("UPDATE explanations SET status = 'queued', worker = NULL WHERE status = 'running'")
            return cursor.rowcount

    def requeue_worker(self, worker: int) -> int:
        """A worker process died: what it was judging (or explaining) goes back to the queue."""
        with self.transaction() as db:
            cursor = db.execute(
                "UPDATE submissions SET status = 'queued', queued = ? "
                "WHERE worker = ? AND status IN ('compiling', 'running')",
                (time.time(), worker),
            )
            db.execute(
                "UPDATE explanations SET status = 'queued', worker = NULL WHERE worker = ? AND status = 'running'",
                (worker,),
            )
            return cursor.rowcount

    # --- explanations -------------------------------------------------------------------------

    def request_explanation(self, submission_id: int, student: str, per_hour: int) -> None:
        """Queue an explanation of a submission; PendingError when the student already has one
        waiting or has asked `per_hour` times in the last hour. Asking again is a no-op."""
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM explanations WHERE submission = ?", (submission_id,)).fetchone():
                return
            waiting = db.execute(
                "SELECT submission FROM explanations WHERE student = ? AND status IN ('queued', 'running')",
                (student,),
            ).fetchone()
            if waiting is not None:
                raise PendingError(f"the explanation of submission {waiting['submission']} is still being made")
            recent = db.execute(
                "SELECT COUNT(*) FROM explanations WHERE student = ? AND requested > ?", (student, time.time() - 3600)
            ).fetchone()[0]
            if recent >= per_hour:
                raise PendingError(f"{recent} explanations in the last hour, the most allowed; try again later")
            db.execute(
                "INSERT INTO explanations (submission, student, requested, status) VALUES (?, ?, ?, 'queued')",
                (submission_id, student, time.time()),
            )

    def claim_explanation(self, worker: int) -> Claim | None:
        """The oldest queued explanation, as the claim of its submission (None: none queued)."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT s.* FROM explanations e JOIN submissions s ON s.id = e.submission "
                "WHERE e.status = 'queued' ORDER BY e.requested LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE explanations SET status = 'running', worker = ? WHERE submission = ?", (worker, row["id"])
            )
        return Claim(
            row["id"],
            0,
            row["student"],
            row["problem"],
            row["language"],
            row["filename"],
            bytes(row["source"]),
            program=_program(row),
        )

    def finish_explanation(self, submission_id: int, worker: int, result: str | None, error: str | None) -> bool:
        """Store an explanation (or why none could be made), once, from the worker that has it."""
        with self.transaction() as db:
            cursor = db.execute(
                "UPDATE explanations SET status = 'done', result = ?, error = ? "
                "WHERE submission = ? AND worker = ? AND status = 'running'",
                (result, error, submission_id, worker),
            )
            return cursor.rowcount == 1

    def explanation(self, submission_id: int) -> ExplainState | None:
        with self.connect() as db:
            row = db.execute(
                "SELECT status, result, error FROM explanations WHERE submission = ?", (submission_id,)
            ).fetchone()
        return ExplainState(row["status"], row["result"], row["error"]) if row is not None else None

    def rejudge(self, problem: str) -> int:
        """Queue every finished submission of a problem again (after its tests were fixed)."""
        return self.rejudge_all([problem])

    def rejudge_all(self, problems: list[str]) -> int:
        """Queue every finished submission of these problems again, in one transaction."""
        total = 0
        with self.transaction() as db:
            for problem in problems:
                total += self._rejudge(db, problem)
        return total

    @staticmethod
    def _rejudge(db: sqlite3.Connection, problem: str) -> int:
        # A judging left between turns started on the old tests: it starts again on the new.
        db.execute("UPDATE submissions SET partial = NULL WHERE problem = ? AND status = 'queued'", (problem,))
        # An explanation was searched against the old tests: it goes with the old verdict.
        db.execute(
            "DELETE FROM explanations WHERE submission IN "
            "(SELECT id FROM submissions WHERE problem = ? AND status = 'done')",
            (problem,),
        )
        cursor = db.execute(
            "UPDATE submissions SET status = 'queued', case_done = 0, finishes = 0, verdict = NULL, "
            "score = NULL, result = NULL, finished = NULL, partial = NULL, queued = ? "
            "WHERE problem = ? AND status = 'done'",
            (time.time(), problem),
        )
        return cursor.rowcount


def _program(row: sqlite3.Row) -> bytes | None:
    return None if row["program"] is None else bytes(row["program"])
