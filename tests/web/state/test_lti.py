"""LTI's rows in the store: a value taken once, the roster id of an LMS user, members dropped,
a score queued only when it changed, and the keys rotated."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from judge.web.lti import keys
from judge.web.state import database
from judge.web.state.lti import LtiRecords, Send
from judge.web.state.store import Store


def _send(score: float, next_try: float = 0.0) -> Send:
    return Send("https://lms", "c", "a1", "ann", score, 10.0, 7, 100.0, "pending", 0, next_try, "", None, None)


def test_a_value_is_taken_once(tmp_path: Path) -> None:
    store = LtiRecords(Store(tmp_path / "data"))
    store.put_lti_value("nonce:n1", "1", 60)
    assert store.take_lti_value("nonce:n1") == "1"
    assert store.take_lti_value("nonce:n1") is None
    store.put_lti_value("old", "1", -1)  # expired
    assert store.lti_value("old") is None


def test_an_lms_user_takes_a_free_roster_id_or_a_roster_students(tmp_path: Path) -> None:
    accounts = Store(tmp_path / "data")
    store = LtiRecords(accounts)
    accounts.add_user("s1001")  # imported from the registrar: the LMS user with that id is them
    accounts.add_user("boss", "teacher")
    assert store.person_user("https://lms", "u1", ["s1001"], "Ann", "ann@x") == "s1001"
    assert store.person_user("https://lms", "u1", ["other"], "Ann B", "ann@x") == "s1001"  # linked before
    # Taken by another LMS user, or a teacher's: a fresh id then.
    second = store.person_user("https://lms", "u2", ["s1001", "boss"], "Bob", "bob@x")
    assert second.startswith("lms-") and accounts.user(second) is not None
    assert store.sub_of("https://lms", second) == "u2"


def test_an_lms_role_only_ever_raises_a_user(tmp_path: Path) -> None:
    accounts = Store(tmp_path / "data")
    store = LtiRecords(accounts)
    for name in ("ann", "tom", "boss"):
        accounts.add_user(name)
    store.set_role("tom", "ta")  # a TeachingAssistant grades, and manages nothing
    store.set_role("boss", "ta")
    store.set_role("boss", "teacher")  # a ta the LMS now calls an Instructor
    store.set_role("boss", "ta")  # and a teacher stays one
    store.set_role("ann", "student")
    roles = {name: user.role for name in ("ann", "tom", "boss") if (user := accounts.user(name)) is not None}
    assert roles == {"ann": "student", "tom": "ta", "boss": "teacher"}
    tom = accounts.user("tom")
    assert tom is not None and tom.can_grade and not tom.can_manage


def test_the_lms_list_marks_who_it_no_longer_has(tmp_path: Path) -> None:
    store = LtiRecords(Store(tmp_path / "data"))
    store.member_seen("https://lms", "c", [("ann", "student"), ("bob", "student")], whole=True)
    store.member_seen("https://lms", "c", [("ann", "student")], whole=True)
    dropped = {m.user: m.dropped is not None for m in store.members("https://lms", "c")}
    assert dropped == {"ann": False, "bob": True}
    store.member_seen("https://lms", "c", [("bob", "student")], whole=False)  # launched again
    assert all(m.dropped is None for m in store.members("https://lms", "c"))


def test_a_score_is_queued_once_and_again_only_when_it_changes(tmp_path: Path) -> None:
    store = LtiRecords(Store(tmp_path / "data"))
    assert store.want_scores([_send(5.0)]) == 1
    assert store.want_scores([_send(5.0)]) == 0  # queued already
    (queued,) = store.sends("pending", due_by=1.0)
    store.send_done(queued)
    assert store.want_scores([_send(5.0)]) == 0  # the LMS has it
    assert store.want_scores([_send(8.0)]) == 1
    store.send_failed(store.sends("pending")[0], "503", next_try=50.0)
    assert store.sends("pending", due_by=10.0) == []  # waits
    (waiting,) = store.sends("pending", due_by=60.0)
    assert waiting.tries == 1 and waiting.error == "503" and waiting.sent_score == 5.0
    # An LMS away: its other pending scores wait with the one that found it so.
    other = Send("https://lms", "c", "a1", "bob", 3.0, 10.0, 8, 100.0, "pending", 0, 0.0, "", None, None)
    assert store.want_scores([other]) == 1
    store.defer_sends("https://lms", 70.0)
    assert {s.user: s.next_try for s in store.sends("pending")} == {"ann": 70.0, "bob": 70.0}
    assert store.resend() == 2


def test_a_rotated_key_stays_published_a_while(tmp_path: Path) -> None:
    store = LtiRecords(Store(tmp_path / "data"))
    first = keys.signing_key(store)
    assert keys.signing_key(store) == first  # made once
    second = keys.rotate(store)
    assert keys.signing_key(store) == second
    published = [k["kid"] for k in keys.published(store)["keys"]]
    assert published == [second.kid, first.kid]
    assert all("d" not in k for k in keys.published(store)["keys"])  # never the private part
    keys.rotate(store, now=second.created + keys.KEEP_PUBLISHED_S + 10)
    assert first.kid not in [k["kid"] for k in keys.published(store)["keys"]]


def test_a_version_3_store_keeps_its_lms_people_and_lets_one_user_be_in_two_lmss(tmp_path: Path) -> None:
    """Version 4 rebuilt lti_people (unique per platform, not across them) with its rows."""
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    with sqlite3.connect(folder / database.DB_FILE) as db:
        for step in database.MIGRATIONS[:3]:
            for statement in step:
                db.execute(statement)
        db.execute("PRAGMA user_version = 3")
        db.execute("INSERT INTO users (id, role, token_hash, created) VALUES ('prof', 'teacher', 'x$y', 0)")
        db.execute("INSERT INTO lti_people (issuer, sub, user) VALUES ('https://moodle', 'm1', 'prof')")
    store = LtiRecords(Store(folder))
    assert store.lti_person("https://moodle", "m1") == "prof"
    store.link_person("https://canvas", "c9", "prof", "Prof", "p@x")
    assert store.sub_of("https://moodle", "prof") == "m1" and store.sub_of("https://canvas", "prof") == "c9"
