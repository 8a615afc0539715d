"""The web judge's SQLite file: made for the judge's own user alone (folder 0700, files 0600),
in WAL mode so the server and its workers read and write at once, and brought to the current
schema by numbered migrations (PRAGMA user_version), each run once, in one transaction with
the version it reaches, so two processes starting together cannot both apply one.

A migration is appended, never edited: the database of any earlier release upgrades in
order, and one made by a later judge is refused instead of being written in a form it
would not read.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from judge.errors import JudgeError

DB_FILE = "judge.sqlite3"

# Version 1: every table as it was when numbered migrations began (CREATE ... IF NOT EXISTS,
# so a database made before them gains only what it lacked).
_VERSION_1 = """
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


def _statements(script: str) -> tuple[str, ...]:
    """A script's statements one by one (executescript would commit the migration's transaction)."""
    found: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    assert not pending.strip(), "a migration ends in the middle of a statement"
    return tuple(found)


# The schema's history, oldest first: MIGRATIONS[n - 1] takes a database to version n.
# Version 2: each case's verdict as it is judged (JSON), for the submission's live page.
_VERSION_2 = """
ALTER TABLE submissions ADD COLUMN live TEXT;
"""
# Version 3: LTI 1.3 (judge.web.lti): the tool's keys, the platforms, the launches' one-use
# state, the people and LMS courses that launched, and the grades queued for the LMS.
_VERSION_3 = """
CREATE TABLE lti_keys (
    kid TEXT PRIMARY KEY,
    private_pem TEXT NOT NULL,
    created REAL NOT NULL,
    retired REAL                    -- signs no more; still published for a while (keys.py)
);
CREATE TABLE lti_platforms (
    issuer TEXT NOT NULL,
    client_id TEXT NOT NULL,
    name TEXT NOT NULL,
    login_url TEXT NOT NULL,        -- the platform's OIDC authorization endpoint
    token_url TEXT NOT NULL,        -- where the services' access tokens come from
    keys_url TEXT NOT NULL,         -- the platform's JWKS
    audience TEXT NOT NULL DEFAULT '',  -- the token endpoint's audience, when not its URL
    created REAL NOT NULL,
    PRIMARY KEY (issuer, client_id)
);
CREATE TABLE lti_deployments (
    issuer TEXT NOT NULL,
    client_id TEXT NOT NULL,
    deployment_id TEXT NOT NULL,
    PRIMARY KEY (issuer, client_id, deployment_id)
);
-- A launch's short-lived values (the nonce of a login, its state's parameters), each used once.
CREATE TABLE lti_values (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    expires REAL NOT NULL
);
-- Who an LMS user is here: the platform's `sub` names them; the roster id is the judge's.
CREATE TABLE lti_people (
    issuer TEXT NOT NULL,
    sub TEXT NOT NULL,
    user TEXT NOT NULL UNIQUE REFERENCES users(id),
    name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (issuer, sub)
);
-- An LMS course (a context) linked to this judge's course by a teacher's launch, and the
-- service URLs its launches carry.
CREATE TABLE lti_courses (
    issuer TEXT NOT NULL,
    context_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    deployment_id TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    lineitems_url TEXT NOT NULL DEFAULT '',
    memberships_url TEXT NOT NULL DEFAULT '',
    tool_url TEXT NOT NULL DEFAULT '',  -- this judge's address as the LMS reaches it
    linked REAL NOT NULL,
    linked_by TEXT NOT NULL,
    PRIMARY KEY (issuer, context_id)
);
-- Who the LMS says is in a linked course; `dropped`: since when it no longer does.
CREATE TABLE lti_members (
    issuer TEXT NOT NULL,
    context_id TEXT NOT NULL,
    user TEXT NOT NULL,
    role TEXT NOT NULL,
    seen REAL NOT NULL,
    dropped REAL,
    PRIMARY KEY (issuer, context_id, user)
);
-- The line item of each assignment in each LMS course: found or made once, then reused.
CREATE TABLE lti_lineitems (
    issuer TEXT NOT NULL,
    context_id TEXT NOT NULL,
    assignment TEXT NOT NULL,
    url TEXT NOT NULL,
    PRIMARY KEY (issuer, context_id, assignment)
);
-- Grade passback: each student's counted score of an assignment for one LMS course, the
-- newest only; `sent_score` is what the LMS has. Pending rows are retried with a backoff.
CREATE TABLE lti_sends (
    issuer TEXT NOT NULL,
    context_id TEXT NOT NULL,
    assignment TEXT NOT NULL,
    user TEXT NOT NULL,
    score REAL NOT NULL,
    max_score REAL NOT NULL,
    submission INTEGER,
    at REAL NOT NULL,               -- the counted submission's time
    status TEXT NOT NULL CHECK (status IN ('pending', 'sent')),
    tries INTEGER NOT NULL DEFAULT 0,
    next_try REAL NOT NULL,
    error TEXT NOT NULL DEFAULT '',
    sent REAL,
    sent_score REAL,
    PRIMARY KEY (issuer, context_id, assignment, user)
);
CREATE INDEX lti_sends_due ON lti_sends (status, next_try);
"""
# Version 4: one judge user may be a user of several LMSs (a teacher on Moodle and on Canvas):
# an LMS user is unique per platform, not across them.
_VERSION_4 = """
CREATE TABLE lti_people_4 (
    issuer TEXT NOT NULL,
    sub TEXT NOT NULL,
    user TEXT NOT NULL REFERENCES users(id),
    name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (issuer, sub),
    UNIQUE (issuer, user)
);
INSERT INTO lti_people_4 SELECT issuer, sub, user, name, email FROM lti_people;
DROP TABLE lti_people;
ALTER TABLE lti_people_4 RENAME TO lti_people;
"""
# Version 5: the program as the door identified it (run/sources.py's as_record), so a worker
# judges what was identified and never identifies the upload again.
_VERSION_5 = """
ALTER TABLE submissions ADD COLUMN program BLOB;
"""
# Version 6: the roster's names, emails and sections (class.csv's columns, an LMS's names), and
# a teaching assistant's role, 'ta'. SQLite changes a CHECK only by rebuilding the table: every
# row is copied, and the new table takes the old name, so the tables that reference users(id)
# (submissions, sessions, lti_people) still do.
_VERSION_6 = """
CREATE TABLE users_6 (
    id TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('student', 'ta', 'teacher')),
    token_hash TEXT NOT NULL,
    created REAL NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    section TEXT NOT NULL DEFAULT ''
);
INSERT INTO users_6 (id, role, token_hash, created) SELECT id, role, token_hash, created FROM users;
DROP TABLE users;
ALTER TABLE users_6 RENAME TO users;
"""
# Version 7: the teacher's review (judge.web.state.review): rubric items made on the grading
# page, grades by hand, overrides (a log), comments on lines, saved comments, who grades whom,
# releases, and regrade requests with their answers.
_VERSION_7 = """
CREATE TABLE review_items (
    problem TEXT NOT NULL,
    id TEXT NOT NULL,                -- '+N': made on the grading page (a file's ids are slugs)
    points REAL NOT NULL,
    description TEXT NOT NULL,
    grp TEXT,
    removed INTEGER NOT NULL DEFAULT 0,
    made_by TEXT NOT NULL,
    made REAL NOT NULL,
    PRIMARY KEY (problem, id)
);
-- A student's grade by hand on one problem: the ids of the items applied (never their points).
CREATE TABLE review_grades (
    student TEXT NOT NULL,
    problem TEXT NOT NULL,
    submission INTEGER NOT NULL,     -- the submission graded
    applied TEXT NOT NULL DEFAULT '[]',
    comment TEXT NOT NULL DEFAULT '',
    done INTEGER NOT NULL DEFAULT 0,
    grader TEXT NOT NULL,
    updated REAL NOT NULL,
    PRIMARY KEY (student, problem)
);
-- Score overrides, a log: the newest row of a (student, problem) counts; a NULL score lifts it.
CREATE TABLE review_overrides (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    student TEXT NOT NULL,
    problem TEXT NOT NULL,
    score REAL,
    reason TEXT NOT NULL,
    by TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX review_overrides_by_cell ON review_overrides (student, problem, id);
CREATE TABLE review_comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    submission INTEGER NOT NULL,
    file TEXT NOT NULL,              -- '' : a general comment
    first INTEGER NOT NULL,
    last INTEGER NOT NULL,
    text TEXT NOT NULL,
    item TEXT,                       -- a rubric item it explains
    author TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX review_comments_by_submission ON review_comments (submission, id);
CREATE TABLE review_saved (
    grader TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (grader, text)
);
CREATE TABLE review_graders (
    problem TEXT NOT NULL,
    student TEXT NOT NULL,
    grader TEXT NOT NULL,
    PRIMARY KEY (problem, student)
);
CREATE TABLE review_releases (
    assignment TEXT PRIMARY KEY,
    released REAL NOT NULL,
    by TEXT NOT NULL
);
CREATE TABLE review_regrades (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    student TEXT NOT NULL,
    problem TEXT NOT NULL,
    submission INTEGER NOT NULL,
    target TEXT NOT NULL,            -- a rubric item's id, or a test's name
    reason TEXT NOT NULL,
    asked REAL NOT NULL,
    answer TEXT,
    answered_by TEXT,
    answered REAL
);
CREATE INDEX review_regrades_by_student ON review_regrades (student, id);
"""
# Runs (issue 59): a student's code tried on the public samples or their own input, judged by
# the workers, never a submission: no quota, no gradebook, no submission's page.
_VERSION_8 = """
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    student TEXT NOT NULL,
    problem TEXT NOT NULL,
    language TEXT NOT NULL,
    filename TEXT NOT NULL,
    source BLOB NOT NULL,
    program BLOB,                    -- the program as the door identified it (sources.as_record)
    own_input TEXT,                  -- NULL: the public samples
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done')),
    worker INTEGER,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    result TEXT                      -- its JSON (judge.web.state.runs.TriedResult)
);
CREATE INDEX runs_by_student ON runs (student, created);
CREATE INDEX runs_by_status ON runs (status, id);
"""
# Version 9 (issue 58's review): regrade answers appended, never overwritten (the old single
# answer becomes the first), and the log of changes to a released grade.
_VERSION_9 = """
CREATE TABLE review_answers (
    id INTEGER PRIMARY KEY,          -- rowid order: the order answered (never deleted)
    regrade INTEGER NOT NULL REFERENCES review_regrades (id),
    text TEXT NOT NULL,
    by TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX review_answers_by_regrade ON review_answers (regrade, id);
INSERT INTO review_answers (regrade, text, by, at)
    SELECT id, answer, COALESCE(answered_by, ''), COALESCE(answered, asked) FROM review_regrades
    WHERE answer IS NOT NULL;
CREATE TABLE review_grade_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    student TEXT NOT NULL,
    problem TEXT NOT NULL,
    submission INTEGER NOT NULL,
    before TEXT NOT NULL,            -- the grade as it was (items, done), JSON
    after TEXT NOT NULL,
    by TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX review_grade_log_by_cell ON review_grade_log (student, problem, id);
"""
# Version 10 (issue 58, second review): a grade by hand belongs to its submission, one row per
# submission graded (a grade on a newer one never takes an older one's place), each existing
# grade kept on the submission it was made on; the log of released grades says why (a grade
# that stops counting, an item's points changed).
_VERSION_10 = """
CREATE TABLE review_grades_10 (
    submission INTEGER PRIMARY KEY,  -- the submission graded
    student TEXT NOT NULL,
    problem TEXT NOT NULL,
    applied TEXT NOT NULL DEFAULT '[]',
    comment TEXT NOT NULL DEFAULT '',
    done INTEGER NOT NULL DEFAULT 0,
    grader TEXT NOT NULL,
    updated REAL NOT NULL
);
INSERT INTO review_grades_10 (submission, student, problem, applied, comment, done, grader, updated)
    SELECT submission, student, problem, applied, comment, done, grader, updated FROM review_grades;
DROP TABLE review_grades;
ALTER TABLE review_grades_10 RENAME TO review_grades;
CREATE INDEX review_grades_by_cell ON review_grades (student, problem, submission);
ALTER TABLE review_grade_log ADD COLUMN why TEXT NOT NULL DEFAULT '';
"""
# Version 11 (issue 61, exams): when each student started an exam (the server's clock), what
# happened during it (sessions ended, addresses refused, time added by whom), and why a session
# was ended, so its next request can say so.
_VERSION_11 = """
CREATE TABLE exam_starts (
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    started REAL NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (assignment, student)
);
CREATE TABLE exam_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    kind TEXT NOT NULL,              -- started, session ended, address refused, time added
    detail TEXT NOT NULL DEFAULT '',
    seconds REAL NOT NULL DEFAULT 0, -- time added (kind 'time added')
    by TEXT NOT NULL DEFAULT '',
    at REAL NOT NULL
);
CREATE INDEX exam_events_by_student ON exam_events (assignment, student, id);
CREATE TABLE ended_sessions (
    id_hash TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    ended REAL NOT NULL,
    why TEXT NOT NULL
);
"""
# Version 12 (issue 61, teams): teams per assignment, each stay of a student in one (left_at
# NULL: a member now; one such stay per student and assignment), invitations, the teacher's
# lock, and the team each team submission was made for (judge/web/state/teams.py).
_VERSION_12 = """
CREATE TABLE teams (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    assignment TEXT NOT NULL,
    name TEXT NOT NULL,
    created REAL NOT NULL,
    UNIQUE (assignment, name)
);
CREATE TABLE team_members (
    team INTEGER NOT NULL,
    assignment TEXT NOT NULL,
    student TEXT NOT NULL,
    joined REAL NOT NULL,
    left_at REAL
);
CREATE UNIQUE INDEX team_members_now ON team_members (assignment, student) WHERE left_at IS NULL;
CREATE INDEX team_members_by_team ON team_members (team);
CREATE TABLE team_invites (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    team INTEGER NOT NULL,
    student TEXT NOT NULL,
    by TEXT NOT NULL,
    created REAL NOT NULL,
    UNIQUE (team, student)
);
CREATE TABLE team_locks (
    assignment TEXT PRIMARY KEY,
    by TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE team_submissions (
    submission INTEGER PRIMARY KEY,
    team INTEGER NOT NULL
);
CREATE INDEX team_submissions_by_team ON team_submissions (team);
"""
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    _statements(_VERSION_1),
    _statements(_VERSION_2),
    _statements(_VERSION_3),
    _statements(_VERSION_4),
    _statements(_VERSION_5),
    _statements(_VERSION_6),
    _statements(_VERSION_7),
    _statements(_VERSION_8),
    _statements(_VERSION_9),
    _statements(_VERSION_10),
    _statements(_VERSION_11),
    _statements(_VERSION_12),
)
# Columns that databases made before numbered migrations may lack (they were added by probing).
_EARLY_COLUMNS = ("started REAL", "queued REAL", "partial TEXT")


def version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the database to len(MIGRATIONS), each missing step in order, in one transaction."""
    db.execute("BEGIN IMMEDIATE")
    try:
        found = version(db)
        if found > len(MIGRATIONS):
            raise JudgeError(
                f"{path}: made by a newer judge (schema version {found}; this one knows {len(MIGRATIONS)}): "
                "run that judge, or upgrade this one"
            )
        if found == 0:
            columns = {row[1] for row in db.execute("PRAGMA table_info(submissions)")}
            for column in _EARLY_COLUMNS if columns else ():
                if column.split()[0] not in columns:
                    db.execute(f"ALTER TABLE submissions ADD COLUMN {column}")
        for step in MIGRATIONS[found:]:
            for statement in step:
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


@contextmanager
def _alone_in(data_dir: Path) -> Iterator[None]:
    """Held while a Database makes, switches to WAL and migrates the file: by one thread or
    process at a time. A flock of the folder, never of the database (whose descriptors SQLite's
    POSIX locks are tied to); it goes when the descriptor is closed, or the holder dies."""
    fd = os.open(data_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _open(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=30, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA busy_timeout=30000")
    return db


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class IdleConnections:
    """Each thread's idle connections, per database file, taken again instead of opened: an
    open costs about 1 ms (SQLite reads the schema again at its first statement), and a class
    watching its live pages made the server open five a request, a worker one a write.

    A connection is only ever used by the thread that opened it, one use at a time (a nested
    use opens its own), and is kept only when its use ended cleanly outside a transaction.
    It is taken again only for the same file: one deleted or replaced since (another inode)
    gets a fresh connection. A process forked with idle connections leaves them unused, and
    open (closing a forked copy of a WAL connection could disturb the parent's); the web
    judge's processes are spawned, and SQLite's descriptors are close-on-exec, so none gets
    one. A thread's idle connections are closed when it ends (its thread-local goes) or calls
    close_idle. A thread keeps the files it used last: one that used many (a test run's
    folders) holds no file open long.

    Safe only because nothing of this process opens and closes the database file by a
    descriptor of its own (Database.__init__): that would drop the idle connections' locks."""

    KEEP = 2  # idle connections a thread keeps per file (a nested use is rare)
    FILES = 3  # files a thread keeps idle connections to, the least recently used closed first

    def __init__(self) -> None:
        self._local = threading.local()

    def _idle(self) -> dict[Path, list[tuple[tuple[int, int], sqlite3.Connection]]]:
        local = self._local
        held: ThreadIdle | None = getattr(local, "held", None)
        if held is None or held.pid != os.getpid():  # a new thread, or a forked copy of one
            held = local.held = ThreadIdle()
        return held.files

    def take(self, path: Path) -> tuple[tuple[int, int] | None, sqlite3.Connection]:
        """A connection to `path`, and the file's identity as it was taken (None: unknown)."""
        held = self._idle().get(path, [])
        now = _identity(path)
        while held:
            identity, db = held.pop()
            if identity == now:
                return now, db
            db.close()
        db = _open(path)  # made by the open where it was not there
        return _identity(path) if now is None else now, db

    def give_back(self, path: Path, identity: tuple[int, int] | None, db: sqlite3.Connection) -> None:
        idle = self._idle()
        held = idle.pop(path, [])
        idle[path] = held  # the most recently used last
        if db.in_transaction or identity is None or len(held) >= self.KEEP:
            db.close()  # a transaction left open is rolled back, as a closed connection's was
            return
        held.append((identity, db))
        while len(idle) > self.FILES:
            for _, old in idle.pop(next(iter(idle))):
                old.close()

    def close_mine(self) -> None:
        """Close this thread's idle connections (its work is over: a worker's end)."""
        held: ThreadIdle | None = getattr(self._local, "held", None)
        if held is not None and held.pid == os.getpid():
            held.close()


# Forked copies of connections, never closed (nor freed, whose dealloc would close them) in
# the child: closing one there could disturb the parent's locks and WAL.
_FORKED_AWAY: list[object] = []


class ThreadIdle:
    """One thread's idle connections per file, closed when the thread ends: its thread-local
    goes then, and this with it (a connection alone would wait for the garbage collector,
    being in a reference cycle with its statement cache)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.files: dict[Path, list[tuple[tuple[int, int], sqlite3.Connection]]] = {}

    def close(self) -> None:
        while self.files:
            for _, db in self.files.pop(next(iter(self.files))):
                db.close()

    def __del__(self) -> None:
        if os.getpid() != self.pid:  # a forked child clearing its copies of other threads
            _FORKED_AWAY.append(self.files)
            return
        with suppress(sqlite3.Error):  # another thread's, at the interpreter's end: freed later
            self.close()


_IDLE = IdleConnections()


def close_idle() -> None:
    """Close the calling thread's idle connections to every database file."""
    _IDLE.close_mine()


class Database:
    """The file and its connections; the store's parts (accounts, queue, reading) share it."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.path = data_dir / DB_FILE
        self.notes: list[str] = []  # what was fixed on the way in (loose permissions)
        try:
            data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            # Sources and token hashes: for the judge's own user only, on a shared lab machine too.
            self._tighten(data_dir, 0o700)
            with _alone_in(data_dir):
                new = not self.path.exists()
                with self.connect() as db:  # SQLite makes the file where it is not there
                    # Made 0600 before the first write: its -wal and -shm take the database's mode.
                    # A chmod, never an open of our own: closing any descriptor of the file
                    # drops every POSIX lock this process holds on it, an open connection's
                    # too, and another process's close would then remove the WAL under it.
                    if new:
                        self.path.chmod(0o600)
                    # Switching needs the file alone, and a busy one is refused at once, not
                    # waited for: only when not WAL yet, and one Database at a time.
                    if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                        db.execute("PRAGMA journal_mode=WAL")
                    migrate(db, self.path)
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
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A connection of this thread's to the file, taken from its idle ones (IdleConnections)."""
        identity, db = _IDLE.take(self.path)
        try:
            yield db
        except BaseException:
            db.close()
            raise
        _IDLE.give_back(self.path, identity, db)

    @contextmanager
    def transaction(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One write, whole or not at all. Not `durable`: its commit waits for no disk flush
        (WAL with synchronous=NORMAL: never a corrupt file, but a power cut may undo the last
        writes), for what a judging writes as it goes and can do again (progress, case output)."""
        with self.connect() as db:
            # Said each time: a connection is reused (IdleConnections), and keeps the last one said.
            db.execute("PRAGMA synchronous=FULL" if durable else "PRAGMA synchronous=NORMAL")
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
