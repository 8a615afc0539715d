"""The web judge's store and sessions, without a server."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from judge import results
from judge.errors import JudgeError
from judge.web.app import read_session, sign_session
from judge.web.store import PendingError, Store


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


def test_sessions_are_signed_expire_and_end_with_a_new_token() -> None:
    secret = b"k" * 32
    hashes = {"ana.b-1": "salt$one"}
    cookie = sign_session(secret, "ana.b-1", hashes["ana.b-1"], now=1000.0)
    assert read_session(secret, cookie, hashes.get, now=1001.0) == "ana.b-1"
    assert read_session(b"x" * 32, cookie, hashes.get, now=1001.0) is None  # another server's key
    encoded, expires, mac = cookie.split(":")
    forged = f"{encoded}:{int(expires) + 10**6}:{mac}"
    assert read_session(secret, forged, hashes.get, now=1001.0) is None  # a longer life is not for the taking
    assert read_session(secret, cookie, hashes.get, now=1000.0 + 13 * 3600) is None
    assert read_session(secret, "garbage", hashes.get, now=1001.0) is None
    hashes["ana.b-1"] = "salt$two"  # the teacher gave ana a new token
    assert read_session(secret, cookie, hashes.get, now=1001.0) is None
    assert read_session(secret, cookie, {}.get, now=1001.0) is None  # no longer on the roster
