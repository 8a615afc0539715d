"""The web judge's store and sessions, without a server."""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.grade import results
from judge.web.state.accounts import Throttle, User
from judge.web.state.queueing import PendingError
from judge.web.state.store import Store


def record(student: str) -> results.GradeRecord:
    return results.failed(student, "p", "main.c", "c", "h", 100.0, "test", "none")


def test_claims_are_exclusive_under_concurrency(tmp_path: Path) -> None:
    store = Store(tmp_path)
    ids = []
    for i in range(40):
        store.add_user(f"u{i}")
        ids.append(store.submit(f"u{i}", "p", "c", "main.c", b"int main(){}"))
    claimed: list[int] = []
    lock = threading.Lock()

    def worker() -> None:
        while (claim := store.claim()) is not None:
            with lock:
                claimed.append(claim.id)
            assert store.finish(claim, record(claim.student))

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(claimed) == ids  # each once
    assert all(s.status == "done" and s.finishes == 1 for s in store.all())


def test_a_stale_claim_cannot_store_a_result(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.add_user("a")
    store.submit("a", "p", "c", "main.c", b"x")
    first = store.claim()
    assert first is not None
    assert store.requeue_interrupted() == 1  # the server restarted under the worker
    second = store.claim()
    assert second is not None and second.attempt == 2
    assert not store.finish(first, record("a"))  # the old worker's late result is ignored
    assert store.finish(second, record("a"))
    assert not store.finish(second, record("a"))  # and nothing is stored twice
    (only,) = store.all()
    assert only.finishes == 1 and only.attempt == 2


def test_one_pending_submission_per_student(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.add_user("a")
    store.submit("a", "p", "c", "main.c", b"x")
    with pytest.raises(PendingError):
        store.submit("a", "p", "c", "main.c", b"y")
    claim = store.claim()
    assert claim is not None
    with pytest.raises(PendingError):  # still pending while it is judged
        store.submit("a", "p", "c", "main.c", b"y")
    store.finish(claim, record("a"))
    store.submit("a", "p", "c", "main.c", b"y")


def test_tokens_are_checked_against_salted_hashes(tmp_path: Path) -> None:
    store = Store(tmp_path)
    token = store.add_user("kim")
    assert store.authenticate("kim", token) is not None
    assert store.authenticate("kim", token[:-1]) is None
    assert store.authenticate("nobody", token) is None
    again = store.add_user("kim")  # a new token replaces the old one
    assert store.authenticate("kim", token) is None and store.authenticate("kim", again) is not None
    with pytest.raises(JudgeError, match="user id"):
        store.add_user("../etc")


def test_sessions_live_on_the_server_and_end_on_logout_new_token_or_the_teacher(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.add_user("ana.b-1")
    store.add_user("bo")
    first = store.new_session("ana.b-1", now=1000.0)
    second = store.new_session("ana.b-1", now=1000.0)  # a second browser
    other = store.new_session("bo", now=1000.0)
    assert first != second and len(first) >= 40
    assert store.session_user(first, now=1001.0) == User("ana.b-1", "student")
    assert store.session_user("garbage", now=1001.0) is None
    assert store.session_user(first, now=1000.0 + 12 * 3600 + 1) is None  # expired
    store.end_session(first)  # logout: this cookie, wherever copied, is worth nothing now
    assert store.session_user(first, now=1001.0) is None
    assert store.session_user(second, now=1001.0) is not None
    assert store.end_sessions("ana.b-1") == 1  # the teacher ends the rest
    assert store.session_user(second, now=1001.0) is None
    assert store.session_user(other, now=1001.0) == User("bo", "student")
    store.add_user("bo")  # a new token (the old one leaked): bo's sessions end with it
    assert store.session_user(other, now=1001.0) is None
    # Only a hash of the session id is kept.
    with sqlite3.connect(tmp_path / "judge.sqlite3") as db:
        kept = [row[0] for row in db.execute("SELECT id_hash FROM sessions")]
    assert other not in kept and all(len(h) == 64 for h in kept)


def test_the_login_throttle_locks_grows_resets_and_survives_a_restart(tmp_path: Path) -> None:
    throttle = Throttle(free=3, first_lock_s=10.0, max_lock_s=60.0, forget_s=600.0)
    keys = {"user:ana": throttle}
    store = Store(tmp_path)
    for i in range(3):
        assert store.login_wait(keys, now=100.0 + i) == 0.0
        store.login_failed(keys, now=100.0 + i)
    assert store.login_wait(keys, now=102.0) == pytest.approx(10.0)  # the third failure locks
    store.login_failed(keys, now=112.5)
    assert store.login_wait(keys, now=112.5) == pytest.approx(20.0)  # and each next one doubles it
    for _ in range(5):
        store.login_failed(keys, now=200.0)
    assert store.login_wait(keys, now=200.0) == pytest.approx(60.0)  # up to the most
    again = Store(tmp_path)  # a restarted server keeps the count
    assert again.login_wait(keys, now=230.0) == pytest.approx(30.0)
    assert again.login_wait({"user:bo": throttle}, now=230.0) == 0.0  # another account is not locked
    again.login_succeeded(["user:ana"])
    assert again.login_wait(keys, now=230.0) == 0.0
    for _ in range(4):
        store.login_failed(keys, now=300.0)
    assert store.login_wait(keys, now=300.0) > 0
    store.add_user("ana")  # a new token clears a lock someone's guessing caused
    assert store.login_wait(keys, now=300.0) == 0.0
    store.login_failed(keys, now=1000.0)  # failures long ago are forgotten: one more is free again
    store.login_failed(keys, now=2000.0)
    assert store.login_wait(keys, now=2000.0) == 0.0


def test_a_result_is_released_at_the_end_of_its_judgings_step() -> None:
    from judge.web.state.store import SubmissionRow

    done = SubmissionRow(1, "ana", "p", "c", "a.c", 0.0, "done", 4, 4, 1, 1, "AC", 100.0, 100.0, 100.0, 101.2)
    assert not done.released(5.0, now=104.9) and done.released(5.0, now=105.0)
    slow = dataclasses.replace(done, finished=107.0)  # 7 s of judging: shown at 10 s
    assert not slow.released(5.0, now=109.9) and slow.released(5.0, now=110.0)
    assert done.released(0.0, now=101.2)  # no step: at once
    assert not dataclasses.replace(done, status="running").released(0.0, now=1e9)


def test_the_data_folder_and_its_files_are_the_judges_alone(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store(data)
    store.add_user("ana")
    assert store.notes == []
    assert data.stat().st_mode & 0o777 == 0o700
    for path in data.iterdir():  # the database and its -wal and -shm files
        assert path.stat().st_mode & 0o077 == 0, path
    # A folder made looser (or by an older judge) is fixed on the next start, with a note.
    data.chmod(0o755)
    (data / "judge.sqlite3").chmod(0o644)
    again = Store(data)
    assert data.stat().st_mode & 0o777 == 0o700 and (data / "judge.sqlite3").stat().st_mode & 0o777 == 0o600
    assert len(again.notes) == 2 and "was readable by others (755), now 700" in again.notes[0]


def student_sees(store: Store, submission_id: int) -> str:
    row = store.get(submission_id)
    assert row is not None
    return row.student_status


def test_a_turn_given_up_goes_behind_the_classmate_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for user in ("bob", "carol"):
        store.add_user(user)
    t = 1_000_000.0
    first_case = results.CaseRecord("secret/01", "secret", False, "TLE", "", 1.0, 1.1, 100, None, 0)
    store.submit("bob", "p", "c", "main.c", b"while", now=t)
    assert student_sees(store, 1) == "queued"
    bob = store.claim(now=t)
    assert bob is not None and bob.done == ()
    assert student_sees(store, bob.id) == "compiling"
    store.keep_io(bob, "secret/01", b"out", b"err")
    assert not store.others_waiting(bob, now=t + 5)  # nobody waits
    store.submit("carol", "p", "c", "main.c", b"ok", now=t + 1)
    assert not store.others_waiting(bob, now=t + 2)  # queued 1 s: a free worker may still take it
    assert store.others_waiting(bob, now=t + 4)
    assert store.pause(bob, (first_case,), now=t + 4)
    # Back in the queue at a moment its case chose: to bob it is still running (no clock).
    assert student_sees(store, bob.id) == "running"
    assert not store.finish(bob, record("bob"))  # the given-up claim is stale
    carol = store.claim(now=t + 4)
    assert carol is not None and carol.student == "carol"  # bob used 4 s, carol none
    assert not store.others_waiting(carol, now=t + 5)  # carol's 1 s is less than bob's 4 s
    assert store.others_waiting(carol, now=t + 9.5)  # 5.5 s is more: bob's turn again
    assert store.finish(carol, record("carol"), now=t + 9.5)
    again = store.claim(now=t + 10)
    assert again is not None and again.id == bob.id and again.attempt == bob.attempt + 1
    assert student_sees(store, bob.id) == "running"  # its next turn compiles again, unseen
    assert again.done == (first_case,)
    assert store.case_io(bob.id) == {"secret/01": (b"out", b"err")}  # kept across turns
    row = store.get(bob.id)
    assert row is not None and row.case_done == 1
    assert store.finish(again, record("bob"), now=t + 12)
    # A rejudge starts from the first case, with nothing of the old judging.
    assert store.rejudge("p") == 2
    fresh = [store.claim(now=t + 20), store.claim(now=t + 20)]
    [bob_again] = [c for c in fresh if c is not None and c.student == "bob"]
    assert bob_again.done == () and store.case_io(bob.id) == {}


def test_saved_case_output_is_capped_per_submission_and_per_student(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from judge.web.state import queueing as store_module

    monkeypatch.setattr(store_module, "IO_PER_SUBMISSION", 100_000)
    monkeypatch.setattr(store_module, "IO_PER_STUDENT", 250_000)
    store = Store(tmp_path)
    store.add_user("bob")
    tail = b"x" * 16 * 1024
    ids = []
    for n in range(4):
        store.submit("bob", "p", "c", "main.c", b"print", now=1000.0 + n)
        claim = store.claim(now=1000.0 + n)
        assert claim is not None
        for case in range(8):  # 8 x 32 KiB printed: 256 KiB, over the submission's cap
            store.keep_io(claim, f"secret/{case:02d}", tail, tail)
        kept = store.case_io(claim.id)
        assert sum(len(out) + len(err) for out, err in kept.values()) == 100_000
        assert store.io_cut(claim.id) == "submission"
        assert store.finish(claim, record("bob"), now=1001.0 + n)
        ids.append(claim.id)
    # 4 x 100 KB is over the student's 250 KB: the two oldest went, the newest stayed whole.
    assert [bool(store.case_io(i)) for i in ids] == [False, False, True, True]
    assert [store.io_cut(i) for i in ids] == ["student", "student", "submission", "submission"]
    on_disk, kept = store.sizes()
    assert kept == 200_000 and on_disk > kept
