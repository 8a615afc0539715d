"""Exams' rows (schema version 11): a start recorded once, events in order, added time summed,
and sessions ended with the reason their next request reads."""

from __future__ import annotations

from pathlib import Path

from judge.web.state import database
from judge.web.state.exams import SESSION_ENDED, STARTED, TIME_ADDED, ExamRecords
from judge.web.state.store import Store


def test_a_start_is_recorded_once_and_time_added_is_summed(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    exams = ExamRecords(store)
    assert exams.started("midterm", "alice") is None
    assert exams.start("midterm", "alice", 100.0, "10.1.0.5") == (100.0, True)
    # A second start (another tab, a replayed form) keeps the first moment.
    assert exams.start("midterm", "alice", 500.0, "10.1.0.6") == (100.0, False)
    assert exams.starts("midterm")["alice"].address == "10.1.0.5"
    exams.log("midterm", "alice", TIME_ADDED, "fire alarm", 600.0, by="prof", seconds=300)
    exams.log("midterm", "alice", TIME_ADDED, "", 700.0, by="prof", seconds=120)
    assert exams.added("midterm") == {"alice": 420.0}
    assert [e.kind for e in exams.events("midterm")] == [TIME_ADDED, TIME_ADDED, STARTED]
    assert exams.added("final") == {}


def test_other_sessions_end_with_their_reason_and_the_kept_one_lives(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.add_user("alice")
    old, new = store.new_session("alice", now=10.0), store.new_session("alice", now=20.0)
    assert store.end_other_sessions("alice", new, "signed in again", now=20.0) == 1
    assert store.session_user(old, now=21.0) is None and store.session_user(new, now=21.0) is not None
    assert store.ended_why(old) == "signed in again"
    assert store.ended_why(new) is None
    assert SESSION_ENDED


def test_the_schema_is_at_version_11(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.connect() as db:
        assert database.version(db) == len(database.MIGRATIONS) >= 11
        assert db.execute("SELECT COUNT(*) FROM exam_starts").fetchone()[0] == 0
