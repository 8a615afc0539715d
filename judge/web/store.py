"""The web judge's state in one SQLite file: the roster (token hashes only) and every
submission with its status and result.

SQLite is the embedded default: nothing to install, and WAL mode lets the server and its
worker processes read and write at once. Every change that must not race (claiming a
submission, the one-pending-per-student rule, storing a result) is one transaction.
A submission is stored before it is judged, so a crash or restart loses none: those left
"compiling" or "running" go back to the queue when the server starts.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.grade import results
from judge.grade.results import GradeRecord

DB_FILE = "judge.sqlite3"
# What a listing needs: never the source or the result, which pages refreshing every
# second or two would otherwise read for every row.
_LISTED = (
    "id, student, problem, language, filename, created, status, case_done, case_total, attempt, "
    "finishes, verdict, score, max_score, started, finished"
)
ROLES = ("student", "teacher")
MAX_ID = 2**63 - 1
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

_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('student', 'teacher')),
    token_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    student TEXT NOT NULL REFERENCES users(id),
    problem TEXT NOT NULL,
    language TEXT NOT NULL,
    filename TEXT NOT NULL,
    source BLOB NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL,           -- queued, compiling, running, done
    case_done INTEGER NOT NULL DEFAULT 0,
    case_total INTEGER NOT NULL DEFAULT 0,
    attempt INTEGER NOT NULL DEFAULT 0,   -- times a worker claimed it
    worker INTEGER,                       -- the process id of the worker that has it
    finishes INTEGER NOT NULL DEFAULT 0,  -- results stored for the current judging (ends at 1)
    verdict TEXT,
    score REAL,
    max_score REAL,
    result TEXT,
    finished REAL,
    started REAL,                         -- when the current judging (or turn of it) was claimed
    queued REAL,                          -- when it last joined the queue
    partial TEXT                          -- the cases judged in earlier turns (JSON), or NULL
);
CREATE INDEX IF NOT EXISTS submissions_by_student ON submissions (student, id);
CREATE INDEX IF NOT EXISTS submissions_by_status ON submissions (status, id);
-- `judge explain` on a failed submission, asked for by its student: judged after every
-- queued submission (low priority), one waiting per student, a few per hour.
CREATE TABLE IF NOT EXISTS explanations (
    submission INTEGER PRIMARY KEY REFERENCES submissions(id),
    student TEXT NOT NULL,
    requested REAL NOT NULL,
    status TEXT NOT NULL,           -- queued, running, done
    worker INTEGER,
    result TEXT,                    -- the explanation's JSON, or NULL with `error`
    error TEXT
);
CREATE INDEX IF NOT EXISTS explanations_by_student ON explanations (student, requested);
-- A logged-in browser: the cookie holds a random id, this table only its hash. Logging out,
-- a new token or the teacher deletes the row, and the cookie is worth nothing from then on.
CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    user TEXT NOT NULL REFERENCES users(id),
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user);
-- What a program printed on each case (capped tails of stdout and stderr), secret cases
-- included: for the teacher only, to answer "why did I fail test 7". Never in `result`,
-- which student pages read.
CREATE TABLE IF NOT EXISTS case_io (
    submission INTEGER NOT NULL REFERENCES submissions(id),
    name TEXT NOT NULL,
    stdout BLOB NOT NULL,
    stderr BLOB NOT NULL,
    PRIMARY KEY (submission, name)
);
-- Why a submission's case_io is short: "submission" (its own cap was reached), "student" (removed
-- to keep the student's under theirs, oldest first). What the teacher's page of it says.
CREATE TABLE IF NOT EXISTS io_cut (
    submission INTEGER PRIMARY KEY REFERENCES submissions(id),
    why TEXT NOT NULL,
    at REAL NOT NULL
);
-- Judging time each student used, one row per turn a worker gave them: the queue's fair order
-- reads the last hour of it.
CREATE TABLE IF NOT EXISTS turns (
    student TEXT NOT NULL,
    ended REAL NOT NULL,
    seconds REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_by_student ON turns (student, ended);
-- Failed logins per account ('user:ID') and per address ('addr:IP'), for the throttle.
CREATE TABLE IF NOT EXISTS login_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last REAL NOT NULL,
    locked_until REAL NOT NULL
);
"""
SESSION_S = 12 * 3600  # a session ends 12 hours after the login at the latest


@dataclass(frozen=True)
class Throttle:
    """The login throttle: `free` failures in a row are allowed, then each failure locks the
    key for `first_lock_s`, doubled per further failure, at most `max_lock_s`. A key's
    failures are forgotten `forget_s` after its last one, and an account's on a success."""

    free: int
    first_lock_s: float = 30.0
    max_lock_s: float = 3600.0
    forget_s: float = 3600.0

    def lock_s(self, failures: int) -> float:
        if failures < self.free:
            return 0.0
        return min(self.max_lock_s, self.first_lock_s * 2.0 ** (failures - self.free))


ACCOUNT_THROTTLE = Throttle(free=5)
# An address is shared by a lab or a campus NAT: it gets more room before it is locked.
ADDRESS_THROTTLE = Throttle(free=30)


@dataclass(frozen=True)
class User:
    id: str
    role: str


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
        steps = max(1, math.ceil((self.finished - self.started) / step_s))
        return now >= self.started + steps * step_s

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


class Store:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.path = data_dir / DB_FILE
        self.notes: list[str] = []  # what was fixed on the way in (loose permissions)
        try:
            data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            # Sources and token hashes: for the judge's own user only, on a shared lab machine too.
            self._tighten(data_dir, 0o700)
            # Made 0600 before SQLite opens it: its -wal and -shm files take the database's mode.
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
            with self._connect() as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(_SCHEMA)
                columns = {row["name"] for row in db.execute("PRAGMA table_info(submissions)")}
                # Columns a database made by an older judge lacks.
                for column in ("started REAL", "queued REAL", "partial TEXT"):
                    if column.split()[0] not in columns:
                        db.execute(f"ALTER TABLE submissions ADD COLUMN {column}")
            for path in sorted(data_dir.iterdir()):
                if path.is_file() and not path.is_symlink():
                    self._tighten(path, 0o600)
        except (OSError, sqlite3.Error) as err:
            why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            raise JudgeError(f"{data_dir}: cannot keep the web judge's data here: {why}") from None

    def _tighten(self, path: Path, mode: int) -> None:
        found = path.stat().st_mode & 0o777
        if found & ~mode:
            path.chmod(mode)
            self.notes.append(f"{path}: was readable by others ({found:o}), now {mode:o}")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA busy_timeout=30000")
        try:
            yield db
        finally:
            db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    # --- the roster ---------------------------------------------------------------------

    def add_user(self, user_id: str, role: str = "student") -> str:
        """Add (or give a new token to) a user; returns the token, which is stored only as a hash."""
        if role not in ROLES:
            raise JudgeError(f"unknown role {role!r} (known: {', '.join(ROLES)})")
        if not valid_user_id(user_id):
            raise JudgeError(f"{user_id!r}: a user id is 1-64 letters, digits, '.', '_' or '-'")
        token = secrets.token_urlsafe(18)
        with self._transaction() as db:
            db.execute(
                "INSERT INTO users (id, role, token_hash, created) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET role = excluded.role, token_hash = excluded.token_hash",
                (user_id, role, hash_token(token), time.time()),
            )
            # A new token is given when the old one leaked: what was logged in with it ends,
            # and so does a lock that someone guessing at the old one caused.
            db.execute("DELETE FROM sessions WHERE user = ?", (user_id,))
            db.execute("DELETE FROM login_failures WHERE key = ?", (f"user:{user_id}",))
        return token

    # --- sessions -------------------------------------------------------------------------

    def new_session(self, user_id: str, now: float | None = None) -> str:
        """A session for a user who just logged in: the cookie's value (only its hash is kept)."""
        now = time.time() if now is None else now
        session_id = secrets.token_urlsafe(32)
        with self._transaction() as db:
            db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
            db.execute(
                "INSERT INTO sessions (id_hash, user, created, expires) VALUES (?, ?, ?, ?)",
                (_session_hash(session_id), user_id, now, now + SESSION_S),
            )
        return session_id

    def session_user(self, session_id: str, now: float | None = None) -> User | None:
        """The user of a live session, else None (unknown, ended or expired)."""
        now = time.time() if now is None else now
        with self._connect() as db:
            row = db.execute(
                "SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user WHERE s.id_hash = ? AND s.expires >= ?",
                (_session_hash(session_id), now),
            ).fetchone()
        return User(row["id"], row["role"]) if row is not None else None

    def end_session(self, session_id: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM sessions WHERE id_hash = ?", (_session_hash(session_id),))

    def end_sessions(self, user_id: str) -> int:
        """End every session of a user (the teacher's button); how many there were."""
        with self._transaction() as db:
            return db.execute("DELETE FROM sessions WHERE user = ?", (user_id,)).rowcount

    # --- the login throttle ----------------------------------------------------------------

    def login_wait(self, keys: dict[str, Throttle], now: float | None = None) -> float:
        """Seconds before a login may be tried for these keys (0: now)."""
        now = time.time() if now is None else now
        with self._connect() as db:
            rows = db.execute(
                f"SELECT locked_until FROM login_failures WHERE key IN ({', '.join('?' * len(keys))})", tuple(keys)
            ).fetchall()
        return max([0.0, *(float(r["locked_until"]) - now for r in rows)])

    def login_failed(self, keys: dict[str, Throttle], now: float | None = None) -> None:
        """Count a failed login against each key, locking those past their free failures."""
        now = time.time() if now is None else now
        with self._transaction() as db:
            for key, throttle in keys.items():
                row = db.execute("SELECT failures, last FROM login_failures WHERE key = ?", (key,)).fetchone()
                failures = 1 if row is None or now - row["last"] > throttle.forget_s else row["failures"] + 1
                db.execute(
                    "INSERT INTO login_failures (key, failures, last, locked_until) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, last = excluded.last, "
                    "locked_until = excluded.locked_until",
                    (key, failures, now, now + throttle.lock_s(failures)),
                )

    def login_succeeded(self, keys: list[str]) -> None:
        with self._transaction() as db:
            db.executemany("DELETE FROM login_failures WHERE key = ?", [(k,) for k in keys])

    def users(self) -> list[tuple[User, int]]:
        """Every user with their number of submissions."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT u.id, u.role, COUNT(s.id) AS n FROM users u LEFT JOIN submissions s ON s.student = u.id "
                "GROUP BY u.id ORDER BY u.role DESC, u.id"
            ).fetchall()
        return [(User(r["id"], r["role"]), r["n"]) for r in rows]

    def authenticate(self, user_id: str, token: str) -> User | None:
        with self._connect() as db:
            row = db.execute("SELECT id, role, token_hash FROM users WHERE id = ?", (user_id,)).fetchone()
        # Compare even for an unknown id, so timing does not tell which ids exist.
        stored = row["token_hash"] if row is not None else hash_token("")
        ok = check_token(token, stored)
        return User(row["id"], row["role"]) if row is not None and ok else None

    def token_hash(self, user_id: str) -> str | None:
        with self._connect() as db:
            row = db.execute("SELECT token_hash FROM users WHERE id = ?", (user_id,)).fetchone()
        return str(row["token_hash"]) if row is not None else None

    def user(self, user_id: str) -> User | None:
        with self._connect() as db:
            row = db.execute("SELECT id, role FROM users WHERE id = ?", (user_id,)).fetchone()
        return User(row["id"], row["role"]) if row is not None else None

    # --- submissions ------------------------------------------------------------------------

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
    ) -> int:
        """Store a submission in the queue, stamped with the server's clock `now`. In the same
        transaction: PendingError if the student already has one waiting, QuotaError past
        `quota` submissions of this problem (those the judge failed, IE, are not counted),
        RateError past `per_minute` submissions in the last minute (0: no cap)."""
        now = time.time() if now is None else now
        with self._transaction() as db:
            waiting = db.execute(
                "SELECT id FROM submissions WHERE student = ? AND status IN ('queued', 'compiling', 'running')",
                (student,),
            ).fetchone()
            if waiting is not None:
                raise PendingError(f"submission {waiting['id']} is still being judged; one at a time")
            if quota is not None:
                used = self._used(db, student, problem)
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
                "INSERT INTO submissions (student, problem, language, filename, source, created, status, queued) "
                "VALUES (?, ?, ?, ?, ?, ?, 'queued', ?)",
                (student, problem, language, filename, source, now, now),
            )
            assert cursor.lastrowid is not None
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
        with self._connect() as db:
            return self._used(db, student, problem)

    def claim(self, worker: int = 0, now: float | None = None, fair_s: float = FAIR_S) -> Claim | None:
        """Take a queued submission for judging (None if the queue is empty): fair turns, the
        student who used the least judging time in the last `fair_s` seconds first, then the
        oldest. A student resubmitting a program that runs to its limits goes behind the class.
        A submission that gave up its turn comes back with the cases it had judged (Claim.done)."""
        now = time.time() if now is None else now
        with self._transaction() as db:
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
                db.execute("UPDATE submissions SET case_done = 0 WHERE id = ?", (row["id"],))
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
        )

    def others_waiting(self, claim: Claim, now: float | None = None, fair_s: float = FAIR_S) -> bool:
        """Whether a worker judging `claim` should give up its turn: another student's
        submission has waited in the queue `WAITING_S` or more (so no worker is free for it)
        and that student used less judging time than this one, this turn included."""
        now = time.time() if now is None else now
        with self._connect() as db:
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
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE submissions SET status = 'queued', partial = ?, case_done = ?, queued = ?, worker = NULL "
                "WHERE id = ? AND attempt = ? AND status IN ('compiling', 'running')",
                (json.dumps([asdict(c) for c in done]), len(done), now, claim.id, claim.attempt),
            )
            if cursor.rowcount == 1:
                self._count_turn(db, claim, now)
            return cursor.rowcount == 1

    @staticmethod
    def _count_turn(db: sqlite3.Connection, claim: Claim, now: float) -> None:
        db.execute(
            "INSERT INTO turns (student, ended, seconds) "
            "SELECT student, ?, MAX(0, ? - started) FROM submissions WHERE id = ?",
            (now, now, claim.id),
        )

    def keep_io(self, claim: Claim, name: str, stdout: bytes, stderr: bytes, now: float | None = None) -> None:
        """What the program printed on one case, for the teacher (see case_io): the tails that
        fit in the submission's IO_PER_SUBMISSION, then the student's oldest submissions'
        output removed while theirs is over IO_PER_STUDENT. Each cut is noted (io_cut)."""
        now = time.time() if now is None else now
        with self._transaction() as db:
            current = db.execute(
                "SELECT student FROM submissions WHERE id = ? AND attempt = ? AND status IN ('compiling', 'running')",
                (claim.id, claim.attempt),
            ).fetchone()
            if current is None:
                return
            used = db.execute(
                f"SELECT {_IO_BYTES} FROM case_io io WHERE io.submission = ? AND io.name != ?", (claim.id, name)
            ).fetchone()[0]
            stdout, stderr, cut = _fit(stdout, stderr, IO_PER_SUBMISSION - used)
            if cut:
                db.execute("INSERT OR REPLACE INTO io_cut VALUES (?, 'submission', ?)", (claim.id, now))
            if stdout or stderr or not cut:
                db.execute(
                    "INSERT OR REPLACE INTO case_io (submission, name, stdout, stderr) VALUES (?, ?, ?, ?)",
                    (claim.id, name, stdout, stderr),
                )
            self._prune_io(db, current["student"], claim.id, now)

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
        with self._connect() as db:
            row = db.execute("SELECT why FROM io_cut WHERE submission = ?", (submission_id,)).fetchone()
        return str(row["why"]) if row is not None else ""

    def sizes(self) -> tuple[int, int]:
        """(the database's bytes on disk, its -wal and -shm files included; the saved case output's)."""
        on_disk = 0
        for suffix in ("", "-wal", "-shm"):
            with suppress(OSError):
                on_disk += os.stat(f"{self.path}{suffix}").st_size
        with self._connect() as db:
            kept = db.execute(f"SELECT {_IO_BYTES} FROM case_io io").fetchone()[0]
        return on_disk, int(kept)

    def case_io(self, submission_id: int) -> dict[str, tuple[bytes, bytes]]:
        """Case name -> (stdout, stderr) kept for a submission's current judging."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT name, stdout, stderr FROM case_io WHERE submission = ?", (submission_id,)
            ).fetchall()
        return {r["name"]: (bytes(r["stdout"]), bytes(r["stderr"])) for r in rows}

    def progress(self, claim: Claim, status: str, done: int, total: int) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE submissions SET status = ?, case_done = ?, case_total = ? "
                "WHERE id = ? AND attempt = ? AND status IN ('compiling', 'running')",
                (status, done, total, claim.id, claim.attempt),
            )

    def finish(self, claim: Claim, record: GradeRecord, now: float | None = None) -> bool:
        """Store the result, once: a worker whose claim is stale (requeued since) changes nothing."""
        now = time.time() if now is None else now
        with self._transaction() as db:
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
            return cursor.rowcount == 1

    def requeue_interrupted(self) -> int:
        """At start-up: what a stopped server was judging (or explaining) goes back to the queue."""
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE submissions SET status = 'queued', queued = ? WHERE status IN ('compiling', 'running')",
                (time.time(),),
            )
            db.execute("UPDATE explanations SET status = 'queued', worker = NULL WHERE status = 'running'")
            return cursor.rowcount

    def requeue_worker(self, worker: int) -> int:
        """A worker process died: what it was judging (or explaining) goes back to the queue."""
        with self._transaction() as db:
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
        with self._transaction() as db:
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
        with self._transaction() as db:
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
            row["id"], 0, row["student"], row["problem"], row["language"], row["filename"], bytes(row["source"])
        )

    def finish_explanation(self, submission_id: int, worker: int, result: str | None, error: str | None) -> bool:
        """Store an explanation (or why none could be made), once, from the worker that has it."""
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE explanations SET status = 'done', result = ?, error = ? "
                "WHERE submission = ? AND worker = ? AND status = 'running'",
                (result, error, submission_id, worker),
            )
            return cursor.rowcount == 1

    def explanation(self, submission_id: int) -> ExplainState | None:
        with self._connect() as db:
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
        with self._transaction() as db:
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

    def get(self, submission_id: int) -> SubmissionRow | None:
        if not 0 < submission_id <= MAX_ID:
            return None  # SQLite's integers end at 2**63 - 1: larger ids are simply not there
        with self._connect() as db:
            row = db.execute(f"SELECT {_LISTED} FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        return _submission(row) if row is not None else None

    def of_student(self, student: str) -> list[SubmissionRow]:
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {_LISTED} FROM submissions WHERE student = ? ORDER BY id DESC", (student,)
            ).fetchall()
        return [_submission(r) for r in rows]

    def all(self) -> list[SubmissionRow]:
        with self._connect() as db:
            rows = db.execute(f"SELECT {_LISTED} FROM submissions ORDER BY id").fetchall()
        return [_submission(r) for r in rows]

    def source(self, submission_id: int) -> bytes:
        with self._connect() as db:
            row = db.execute("SELECT source FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        return bytes(row["source"]) if row is not None else b""

    def record(self, submission_id: int) -> GradeRecord | None:
        with self._connect() as db:
            row = db.execute("SELECT result FROM submissions WHERE id = ?", (submission_id,)).fetchone()
        if row is None or row["result"] is None:
            return None
        return results.from_json(json.loads(row["result"]))

    def students(self) -> list[str]:
        """The roster's students, in id order (the gradebook's rows)."""
        with self._connect() as db:
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


def valid_user_id(user_id: str) -> bool:
    return 0 < len(user_id) <= 64 and all(c.isascii() and (c.isalnum() or c in "._-") for c in user_id)


def _session_hash(session_id: str) -> str:
    # A session id is 256 random bits: a plain hash keeps a stolen database from logging in.
    return hashlib.sha256(session_id.encode()).hexdigest()


def hash_token(token: str) -> str:
    # Tokens are random (144 bits): a salted SHA-256 is enough; no password stretching needed.
    salt = secrets.token_hex(8)
    return f"{salt}${hashlib.sha256((salt + token).encode()).hexdigest()}"


def check_token(token: str, stored: str) -> bool:
    salt, _, digest = stored.partition("$")
    return hmac.compare_digest(hashlib.sha256((salt + token).encode()).hexdigest(), digest)
