"""The web judge's database upgrades by numbered migrations: one made by the release before
them opens with nothing lost, one made by a later judge is refused, two processes opening a
new one at once apply each migration once."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.web.state import database
from judge.web.state.review import Reviews
from judge.web.state.store import Store

BEFORE = Path(__file__).parent / "data" / "store-before-migrations.sql"


def _made_by_the_release_before(folder: Path) -> Path:
    """A data folder as that release left it: its users, a session, a result, a queued one."""
    folder.mkdir(mode=0o700)
    path = folder / database.DB_FILE
    with sqlite3.connect(path) as db:
        db.executescript(BEFORE.read_text(encoding="utf-8"))
    path.chmod(0o600)
    return path


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(db.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}


def test_a_database_of_the_release_before_migrations_upgrades_with_nothing_lost(tmp_path: Path) -> None:
    path = _made_by_the_release_before(tmp_path / "data")
    before = _rows(path)
    assert before["submissions"] and before["users"] and before["sessions"] and before["case_io"]
    store = Store(tmp_path / "data")
    after = _rows(path)
    # Every row of every table, as it was (the columns added since are empty).
    assert {t: [row[: len(rows[0])] for row in after[t]] if rows else after[t] for t, rows in before.items()} == before
    assert all(set(row[len(before[t][0]) :]) <= {None, ""} for t in before if before[t] for row in after[t])
    with sqlite3.connect(path) as db:
        assert database.version(db) == len(database.MIGRATIONS)
    # ...and the store works on it: the result reads back, the queued one is claimed, a new one is taken.
    record = store.record(1)
    assert record is not None and record.verdict == "NG" and record.error == "made for the upgrade test"
    claim = store.claim(worker=7)
    assert claim is not None and claim.student == "bo" and claim.source.startswith(b"int main")
    assert store.submit("ada", "lanqiao", "python3", "again.py", b"print(1)\n") == 3
    assert store.user("tess") is not None and store.case_io(1) == {"samples/01": (b"3\n", b"")}


def test_a_database_of_before_the_columns_gains_them(tmp_path: Path) -> None:
    path = _made_by_the_release_before(tmp_path / "data")
    with sqlite3.connect(path) as db:
        for column in ("started", "queued", "partial"):
            db.execute(f"ALTER TABLE submissions DROP COLUMN {column}")
    Store(tmp_path / "data")
    with sqlite3.connect(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(submissions)")}
    assert {"started", "queued", "partial"} <= columns


def test_a_database_of_a_later_judge_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    path = _made_by_the_release_before(tmp_path / "data")
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {len(database.MIGRATIONS) + 1}")
    before = _rows(path)
    with pytest.raises(JudgeError, match=r"made by a newer judge \(schema version \d+; this one knows \d+\)"):
        Store(tmp_path / "data")
    assert _rows(path) == before


def _failures_of_threads_opening(data: Path) -> list[BaseException]:
    """Four threads make a Database of `data` at once: what each raised."""
    together = threading.Barrier(4)
    failures: list[BaseException] = []

    def open_it() -> None:
        together.wait()
        try:
            Store(data)
        except BaseException as err:
            failures.append(err)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def test_processes_opening_a_new_database_together_migrate_it_once(tmp_path: Path) -> None:
    assert _failures_of_threads_opening(tmp_path / "data") == []
    with sqlite3.connect(tmp_path / "data" / database.DB_FILE) as db:
        assert database.version(db) == len(database.MIGRATIONS)
        assert db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'submissions'").fetchone() == (1,)


def test_every_migration_is_whole_statements() -> None:
    assert all(step and all(sqlite3.complete_statement(s + ";") for s in step) for step in database.MIGRATIONS)


def _version_5(folder: Path) -> Path:
    """A data folder at schema version 5, with a student, a teacher, a session, a submission and
    an LMS person: every table that references users(id)."""
    folder.mkdir(mode=0o700)
    path = folder / database.DB_FILE
    with sqlite3.connect(path) as db:
        for step in database.MIGRATIONS[:5]:
            for statement in step:
                db.execute(statement)
        db.execute("PRAGMA user_version = 5")
        db.executemany(
            "INSERT INTO users (id, role, token_hash, created) VALUES (?, ?, ?, ?)",
            [("ada", "student", "h1", 1.0), ("tess", "teacher", "h2", 2.0)],
        )
        db.execute("INSERT INTO sessions VALUES ('s', 'ada', 1.0, 9e9)")
        db.execute(
            "INSERT INTO submissions (student, problem, language, filename, source, created, status)"
            " VALUES ('ada', 'p', 'python3', 'a.py', x'00', 1.0, 'queued')"
        )
        db.execute("INSERT INTO lti_people VALUES ('iss', 'sub', 'tess', 'Tess T', 't@x')")
    path.chmod(0o600)
    return path


def test_version_5_upgrades_to_names_and_the_ta_role_with_every_row_kept(tmp_path: Path) -> None:
    path = _version_5(tmp_path / "data")
    before = _rows(path)
    Store(tmp_path / "data")
    after = _rows(path)
    later = ("users", "runs", "ended_sessions", "teams")  # version 11 adds the exams' tables (issue 61), empty
    kept = {t: rows for t, rows in after.items() if t not in later and not t.startswith(("review_", "exam_", "team_"))}
    assert kept == {t: r for t, r in before.items() if t != "users"}
    assert all(not after[t] for t in ("exam_starts", "exam_events", "ended_sessions"))
    # Version 12 adds the teams' tables (issue 61), empty.
    assert all(not after[t] for t in ("teams", "team_members", "team_invites", "team_locks", "team_submissions"))
    assert after["runs"] == []  # version 8 adds the runs (issue 59), empty
    # Version 7 adds the review's tables, empty.
    assert {t for t in after if t.startswith("review_")} and all(not after[t] for t in after if t.startswith("review_"))
    assert after["users"] == [row + ("", "", "") for row in before["users"]]
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        # The tables that referenced users still do (not the rebuilt table's temporary name).
        schema = " ".join(r[0] for r in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"))
        assert "users_6" not in schema and "REFERENCES users(id)" in schema
        db.execute("INSERT INTO users (id, role, token_hash, created) VALUES ('tom', 'ta', 'h3', 3.0)")
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("INSERT INTO users (id, role, token_hash, created) VALUES ('x', 'admin', 'h4', 4.0)")


def test_version_9_keeps_each_grade_on_the_submission_it_was_made_on(tmp_path: Path) -> None:
    """Version 10 stores a grade per submission: every grade of version 9 (one per student and
    problem) is carried over to the submission it recorded, and the log gains its `why`."""
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    path = folder / database.DB_FILE
    with sqlite3.connect(path) as db:
        for step in database.MIGRATIONS[:9]:
            for statement in step:
                db.execute(statement)
        db.execute("PRAGMA user_version = 9")
        db.executemany(
            "INSERT INTO review_grades (student, problem, submission, applied, comment, done, grader, updated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [("ada", "p", 6, '["good"]', "fine", 1, "ta1", 5.0), ("bo", "p", 4, "[]", "", 0, "ta2", 6.0)],
        )
        db.execute(
            "INSERT INTO review_grade_log (student, problem, submission, before, after, by, at)"
            " VALUES ('ada', 'p', 6, ?, ?, 'ta1', 5.0)",
            ('{"applied": [], "done": false}', '{"applied": ["good"], "done": true}'),
        )
    path.chmod(0o600)
    reviews = Reviews(Store(folder))
    ada, bo = reviews.grade_of(6), reviews.grade_of(4)
    assert ada is not None and (ada.student, ada.applied, ada.comment, ada.done) == ("ada", {"good"}, "fine", True)
    assert bo is not None and (bo.student, bo.grader) == ("bo", "ta2")
    assert reviews.grade_of(5) is None
    assert [(c.after, c.why) for c in reviews.changes("ada", "p")] == [(("good", "(done)"), "")]


def test_a_second_database_of_the_folder_leaves_an_open_connection_its_locks(tmp_path: Path) -> None:
    """The server makes two of the same folder (the site's, the worker pool's). Opening and
    closing the file itself would drop every POSIX lock the process holds on it, an open
    connection's too: another process closing its connection then takes itself for the last
    and removes the WAL under the open one (a corrupted file, seen when connections were reused)."""
    first = database.Database(tmp_path)
    wal = first.path.with_name(first.path.name + "-wal")
    with first.connect() as held:
        held.execute("CREATE TABLE scratch (x)")
        held.execute("INSERT INTO scratch VALUES (1)")  # a write: the WAL holds it
        assert wal.exists()
        database.Database(tmp_path)  # a second one, while `held` is open
        other = (
            f"import sqlite3; db = sqlite3.connect({str(first.path)!r}); "
            "db.execute('SELECT count(*) FROM sqlite_master').fetchall(); db.close()"
        )
        subprocess.run([sys.executable, "-c", other], check=True)
        assert wal.exists(), "another process's close removed the WAL under an open connection"
        held.execute("INSERT INTO scratch VALUES (2)")
    check = f"import sqlite3; db = sqlite3.connect({str(first.path)!r}); print(db.execute('PRAGMA integrity_check').fetchone()[0], db.execute('SELECT group_concat(x) FROM scratch').fetchone()[0])"
    said = subprocess.run([sys.executable, "-c", check], check=True, capture_output=True, text=True).stdout
    assert said.split() == ["ok", "1,2"]


def test_a_new_database_is_made_for_its_user_alone(tmp_path: Path) -> None:
    """SQLite makes the file (no descriptor of our own, whose close would drop its locks), and
    it is made 0600 before its -wal and -shm, which take its mode."""
    made = database.Database(tmp_path / "data")
    assert made.notes == []  # made tight, not tightened after
    with made.connect() as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        db.execute("CREATE TABLE scratch (x)")
        modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "data").iterdir()}
    assert modes == {"judge.sqlite3": 0o600, "judge.sqlite3-wal": 0o600, "judge.sqlite3-shm": 0o600}


def test_threads_making_a_new_database_switch_and_migrate_it_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PRAGMA journal_mode=WAL needs the file alone and is refused at once, not waited for
    ('database is locked', seen in CI): a Database's connection that switches and migrates is
    held by one thread or process at a time. Each holds it a while here, so overlaps would show."""
    connect = database.Database.connect
    inside: list[int] = []
    most = [0]
    count = threading.Lock()

    @contextmanager
    def slow_connect(self: database.Database) -> Iterator[sqlite3.Connection]:
        with count:
            inside.append(1)
            most[0] = max(most[0], len(inside))
        try:
            time.sleep(0.2)
            with connect(self) as db:
                yield db
        finally:
            with count:
                inside.pop()

    monkeypatch.setattr(database.Database, "connect", slow_connect)
    assert _failures_of_threads_opening(tmp_path / "data") == []
    assert most == [1]


_OPEN_IT = """
import sys
from judge.web.state.store import Store
sys.stdin.readline()  # all started: open together
Store(__import__("pathlib").Path(sys.argv[1]))
"""


def test_separate_processes_making_a_new_database_together_switch_and_migrate_it_once(tmp_path: Path) -> None:
    """PRAGMA journal_mode=WAL needs the file alone and is refused at once, not waited for:
    processes making one new database together each tried it ('database is locked')."""
    data = tmp_path / "data"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _OPEN_IT, str(data)],
            stdin=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    errors = [proc.communicate()[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0] * len(procs), errors
    with sqlite3.connect(data / database.DB_FILE) as db:
        assert database.version(db) == len(database.MIGRATIONS)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
