"""Teams as stored (schema version 12): start, invite, accept, leave, the lock, the teacher's file,
a team submission stamped with its team, the team's quota, and accepts racing past the size."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.course.spec import TeamRule
from judge.course.teams import ListedTeam
from judge.web.state.queueing import QuotaError
from judge.web.state.store import Store
from judge.web.state.teams import TeamBook, TeamError

RULE = TeamRule(2, 3, "students", None)
ROSTER = ("ada", "bo", "cy", "di", "ed")


def _book(tmp_path: Path) -> tuple[Store, TeamBook]:
    store = Store(tmp_path / "data")
    for student in ROSTER:
        store.add_user(student)
    return store, TeamBook(store)


def _team_of(book: TeamBook, student: str, members: tuple[str, ...]) -> int:
    team = book.start("a1", student, RULE, 1.0)
    for other in members:
        book.invite("a1", student, other, ROSTER, RULE, 2.0)
        (invite,) = book.invites_for("a1", other)
        book.accept("a1", invite.id, other, RULE, 3.0)
    return team


def test_invite_accept_and_leave_keep_each_stay(tmp_path: Path) -> None:
    _, book = _book(tmp_path)
    team = _team_of(book, "ada", ("bo",))
    assert book.teams().team_of("a1", "bo") == team
    book.leave("a1", "bo", RULE, 9.0)
    stays = book.teams().members
    assert [(m.student, m.joined, m.left) for m in stays] == [("ada", 1.0, None), ("bo", 3.0, 9.0)]
    assert book.teams().team_of("a1", "bo") is None


def test_an_invitation_meant_for_another_is_not_found_and_a_full_team_is_refused(tmp_path: Path) -> None:
    _, book = _book(tmp_path)
    _team_of(book, "ada", ("bo",))
    book.invite("a1", "ada", "cy", ROSTER, RULE, 4.0)
    (invite,) = book.invites_for("a1", "cy")
    with pytest.raises(TeamError) as caught:
        book.accept("a1", invite.id, "di", RULE, 5.0)  # di forges cy's invitation's id
    assert caught.value.status == 404 and book.teams().team_of("a1", "di") is None
    book.invite("a1", "ada", "di", ROSTER, RULE, 4.0)
    book.accept("a1", invite.id, "cy", RULE, 5.0)  # three now: full
    (late,) = book.invites_for("a1", "di")
    with pytest.raises(TeamError) as caught:
        book.accept("a1", late.id, "di", RULE, 6.0)
    assert caught.value.status == 409 and "full" in str(caught.value)
    with pytest.raises(TeamError):
        book.invite("a1", "ada", "ed", ROSTER, RULE, 6.0)


def test_two_invitations_accepted_at_once_never_fill_a_team_past_its_size(tmp_path: Path) -> None:
    _, book = _book(tmp_path)
    _team_of(book, "ada", ("bo",))  # two of three
    for student in ("cy", "di", "ed"):
        book.invite("a1", "ada", student, ROSTER, RULE, 4.0)
    invites = {s: book.invites_for("a1", s)[0].id for s in ("cy", "di", "ed")}
    start, outcomes = threading.Barrier(3), []

    def accept(student: str) -> None:
        start.wait()
        try:
            book.accept("a1", invites[student], student, RULE, 5.0)
            outcomes.append("in")
        except TeamError as err:
            outcomes.append(str(err.status))

    threads = [threading.Thread(target=accept, args=(s,)) for s in invites]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["409", "409", "in"]
    team = book.teams().team_of("a1", "ada")
    assert team is not None and len([m for m in book.teams().members if m.team == team and m.left is None]) == 3


def test_a_locked_assignment_changes_no_team(tmp_path: Path) -> None:
    _, book = _book(tmp_path)
    _team_of(book, "ada", ("bo",))
    book.invite("a1", "ada", "cy", ROSTER, RULE, 4.0)
    book.lock("a1", "prof", 5.0)
    (invite,) = book.invites_for("a1", "cy")
    for change in (
        lambda: book.accept("a1", invite.id, "cy", RULE, 6.0),
        lambda: book.leave("a1", "bo", RULE, 6.0),
        lambda: book.start("a1", "di", RULE, 6.0),
    ):
        with pytest.raises(TeamError) as caught:
            change()
        assert caught.value.status == 403
    dated = TeamRule(2, 3, "students", datetime.fromtimestamp(600.0, UTC))
    book.unlock("a1")
    book.leave("a1", "bo", dated, 659.0)  # the lock's minute is still open
    with pytest.raises(TeamError):
        book.leave("a1", "ada", dated, 660.0)


def test_a_team_submission_is_stamped_and_the_quota_is_the_team(tmp_path: Path) -> None:
    store, book = _book(tmp_path)
    team = _team_of(book, "ada", ("bo",))
    first = store.submit("ada", "p", "python3", "a.py", b"1", now=10.0, quota=2, team=RULE, assignment="a1")
    store.finish(store.claim(now=11.0), _record(), now=12.0)  # type: ignore[arg-type]
    store.submit("bo", "p", "python3", "a.py", b"1", now=13.0, quota=2, team=RULE, assignment="a1")
    assert book.teams().stamped == {first: team, first + 1: team}
    store.finish(store.claim(now=14.0), _record(), now=15.0)  # type: ignore[arg-type]
    with pytest.raises(QuotaError) as caught:  # ada made one, bo one: the team's two are used
        store.submit("ada", "p", "python3", "a.py", b"1", now=16.0, quota=2, team=RULE, assignment="a1")
    assert (caught.value.used, caught.value.cap) == (2, 2)


def test_one_who_left_or_whose_team_is_too_small_cannot_submit_for_it(tmp_path: Path) -> None:
    store, book = _book(tmp_path)
    _team_of(book, "ada", ("bo",))
    book.leave("a1", "bo", RULE, 5.0)
    for student, said in (("bo", "join or start a team"), ("ada", "Your team has 1 member(s)")):
        with pytest.raises(TeamError) as caught:
            store.submit(student, "p", "python3", "a.py", b"1", now=6.0, team=RULE, assignment="a1")
        assert caught.value.status == 403 and said in str(caught.value)
    assert store.all() == [] and book.teams().stamped == {}


def test_the_teacher_file_moves_students_and_keeps_their_old_stays(tmp_path: Path) -> None:
    _, book = _book(tmp_path)
    assert book.replace("a1", [ListedTeam("red", ("ada", "bo"), 1), ListedTeam("blue", ("cy", "di"), 2)], 1.0) == 4
    assert book.replace("a1", [ListedTeam("red", ("ada", "cy"), 1), ListedTeam("blue", ("bo", "di"), 2)], 2.0) == 2
    teams = book.teams()
    names = book.names("a1")
    assert names[teams.team_of("a1", "bo") or 0] == "blue" and names[teams.team_of("a1", "cy") or 0] == "red"
    assert [(m.student, m.left) for m in teams.members if m.left is not None] == [("bo", 2.0), ("cy", 2.0)]
    assert book.replace("a1", [ListedTeam("red", ("ada", "cy"), 1)], 3.0) == 2  # bo and di are in no team now


def _record():  # type: ignore[no-untyped-def]
    from tests.web.test_course import record

    return record("ada", "p", "WA", 10.0)


def test_a_new_team_of_members_who_spent_the_quota_has_none_left(tmp_path: Path) -> None:
    """Issue 61: two students spent their team's quota, left, and started a team anew: its
    count was 0, so they had the quota again (and again), each earlier submission still theirs."""
    store, book = _book(tmp_path)
    _team_of(book, "ada", ("bo",))
    for moment in (10.0, 13.0):
        store.submit("ada", "p", "python3", "a.py", b"1", now=moment, quota=2, team=RULE, assignment="a1")
        store.finish(store.claim(now=moment + 1), _record(), now=moment + 2)  # type: ignore[arg-type]
    book.leave("a1", "ada", RULE, 20.0)
    book.leave("a1", "bo", RULE, 20.0)
    _team_of(book, "bo", ("ada",))
    assert book.used("a1", "ada", "p") == 2
    with pytest.raises(QuotaError) as caught:
        store.submit("ada", "p", "python3", "a.py", b"1", now=30.0, quota=2, team=RULE, assignment="a1")
    assert (caught.value.used, caught.value.cap) == (2, 2)
    _team_of(book, "cy", ("di",))  # a team of others has its own quota whole
    assert book.used("a1", "cy", "p") == 0
    store.submit("cy", "p", "python3", "a.py", b"1", now=31.0, quota=2, team=RULE, assignment="a1")


def test_an_invitation_is_spent_when_its_sender_leaves_or_its_team_empties(tmp_path: Path) -> None:
    """Issue 61, a hostile student: the team invited bo, everyone left, and bo accepted: alone
    in a team of no one, with every submission it had made counted for him."""
    _, book = _book(tmp_path)
    _team_of(book, "ada", ("bo",))
    book.invite("a1", "ada", "cy", ROSTER, RULE, 4.0)
    book.invite("a1", "bo", "di", ROSTER, RULE, 4.0)
    (to_cy,) = book.invites_for("a1", "cy")
    book.leave("a1", "ada", RULE, 5.0)  # ada's invitation goes with her; bo's stays
    assert book.invites_for("a1", "cy") == [] and len(book.invites_for("a1", "di")) == 1
    with pytest.raises(TeamError) as caught:
        book.accept("a1", to_cy.id, "cy", RULE, 6.0)
    assert caught.value.status == 404
    book.leave("a1", "bo", RULE, 7.0)  # bo's goes with him, and the team is empty: nobody joins it
    assert book.invites_for("a1", "di") == [] and book.teams().team_of("a1", "di") is None
