"""Teams in course.yaml, a teacher's file of teams, and the team rule in the gradebook (pure)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.course import gradebook, rubric
from judge.course.gradebook import Attempt
from judge.course.spec import TeamRule, load_course
from judge.course.teams import Stay, Teams, check_kept, locked, members_of, read_csv
from judge.errors import JudgeError
from judge.problem.spec import SpecError

PROBLEMS = {"lanqiao", "eight-digits", "sicily-rotations"}
COURSE = """\
title: Teams
timezone: UTC
assignments:
  - id: pair
    problems: [lanqiao]
    due: 2026-12-08 23:59
    late: {penalty_per_day: 50, until: 2026-12-10 23:59}
    teams: {size: [2, 3], formed: students, lock: 2026-12-05 12:00}
  - id: solo
    problems: [eight-digits]
"""
RULE = TeamRule(2, 3, "csv", None)


def t(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def load(tmp_path: Path, text: str = COURSE):  # type: ignore[no-untyped-def]
    path = tmp_path / "course.yaml"
    path.write_text(text)
    return load_course(path, PROBLEMS)


def test_teams_in_course_yaml_with_their_size_formation_and_lock(tmp_path: Path) -> None:
    course = load(tmp_path)
    pair, solo = course.assignments
    assert pair.teams == TeamRule(2, 3, "students", datetime(2026, 12, 5, 12, 0, tzinfo=UTC))
    assert solo.teams is None


@pytest.mark.parametrize(
    ("teams", "said"),
    [
        ("{size: [3, 2], formed: csv}", "course.yaml:8: assignments[0].teams.size: [3, 2]: the least"),
        ("{size: [2], formed: csv}", "course.yaml:8: assignments[0].teams.size"),
        ("{size: [2, 3], formed: email}", "course.yaml:8: assignments[0].teams.formed"),
        (
            "{size: [2, 3], formed: csv, lock: 2026-12-05}",
            "course.yaml:8: assignments[0].teams.lock: 2026-12-05 is a day",
        ),
        ("{size: [2, 3], formed: csv, locks: 2026-12-05 12:00}", "course.yaml:8: assignments[0].teams.locks"),
    ],
)
def test_a_bad_teams_key_is_one_line_naming_the_file_and_line(tmp_path: Path, teams: str, said: str) -> None:
    with pytest.raises(SpecError) as caught:
        load(tmp_path, COURSE.replace("{size: [2, 3], formed: students, lock: 2026-12-05 12:00}", teams))
    assert said in str(caught.value)


def test_a_file_of_teams_is_read_with_its_header_and_blank_rows_skipped() -> None:
    text = "team,student,student\nred, alice, bob\n\nblue,carol,dave,erin\n"
    found = read_csv(text, "teams.csv", {"alice", "bob", "carol", "dave", "erin"}, RULE)
    assert [(t.name, t.students, t.line) for t in found] == [
        ("red", ("alice", "bob"), 2),
        ("blue", ("carol", "dave", "erin"), 4),
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("red,alice,bob\nblue,carol,zed\n", "teams.csv:2: 'zed' is not a student on the roster"),
        ("red,alice,bob\nblue,carol,bob\n", "teams.csv:2: 'bob' is already in a team at line 1"),
        ("red,alice,bob\nred,carol,dave\n", "teams.csv:2: team 'red' is already given at line 1"),
        ("red,alice\n", "teams.csv:1: team 'red' has 1 member(s); this assignment takes 2 to 3"),
        ("red,alice,bob,carol,dave\n", "teams.csv:1: team 'red' has 4 member(s)"),
        ("../x,alice,bob\n", "teams.csv:1: '../x' is not a team name"),
    ],
)
def test_a_bad_file_of_teams_is_one_error_naming_the_line(text: str, said: str) -> None:
    with pytest.raises(JudgeError) as caught:
        read_csv(text, "teams.csv", {"alice", "bob", "carol", "dave"}, RULE)
    assert said in str(caught.value)


def test_teams_lock_at_the_end_of_the_lock_minute_or_when_the_teacher_locks() -> None:
    rule = TeamRule(2, 3, "students", datetime(2026, 12, 5, 12, 0, tzinfo=UTC))
    assert not locked(rule, t("2026-12-05 12:00:59"), None)
    assert locked(rule, t("2026-12-05 12:01"), None)
    assert locked(rule, t("2026-12-01 00:00"), t("2026-12-01 00:00"))
    assert locked(TeamRule(2, 3, "csv", None), 0.0, None)  # a teacher's file: students change nothing


# A team of three (alice, bob, then carol who joins late), and dave who was in it and left.
STAYS = (
    Stay(1, "pair", "alice", t("2026-12-01 10:00")),
    Stay(1, "pair", "bob", t("2026-12-01 10:05")),
    Stay(1, "pair", "dave", t("2026-12-01 10:06"), t("2026-12-03 09:00")),
    Stay(1, "pair", "carol", t("2026-12-04 09:00")),
    Stay(2, "pair", "dave", t("2026-12-03 10:00")),
    Stay(2, "pair", "erin", t("2026-12-03 10:01")),
)


def test_a_team_submission_counts_for_its_members_now_and_those_in_it_when_it_came() -> None:
    teams = Teams(STAYS, {10: 1, 11: 1, 12: 2})
    assert teams.credited(10, "alice", t("2026-12-02 10:00")) == {"alice", "bob", "carol", "dave"}
    assert teams.credited(11, "bob", t("2026-12-05 10:00")) == {"alice", "bob", "carol"}  # dave had left
    assert teams.credited(12, "dave", t("2026-12-05 10:00")) == {"dave", "erin"}
    assert teams.credited(13, "alice", t("2026-12-05 10:00")) == {"alice"}  # no team: its author's
    assert teams.together("pair") == {frozenset({"alice", "bob", "carol", "dave"}), frozenset({"dave", "erin"})}
    assert teams.team_of("pair", "dave") == 2 and teams.team_of("pair", "zed") is None


def test_the_gradebook_counts_a_team_submission_in_every_member_row(tmp_path: Path) -> None:
    course = load(tmp_path)
    attempts = [
        Attempt(10, "alice", "lanqiao", t("2026-12-02 10:00"), "WA", 40.0),  # carol not in yet
        Attempt(11, "bob", "lanqiao", t("2026-12-05 10:00"), "AC", 100.0),  # dave has left
        Attempt(12, "dave", "lanqiao", t("2026-12-05 11:00"), "WA", 70.0),  # dave's new team
    ]
    teams = Teams(STAYS, {10: 1, 11: 1, 12: 2})
    book = gradebook.build(course, ["alice", "bob", "carol", "dave", "erin"], attempts, {"lanqiao": 100.0}, teams=teams)
    scores = {s: book.cell(s, "lanqiao") for s in ("alice", "bob", "carol", "dave", "erin")}
    assert {s: (c.score, c.submission) for s, c in scores.items() if c is not None} == {
        "alice": (100.0, 11),
        "bob": (100.0, 11),
        "carol": (100.0, 11),  # the late joiner gets the team's score
        "dave": (70.0, 12),  # keeps 40 of his old team's and has 70 of his new one's: best is 70
        "erin": (70.0, 12),
    }
    without = gradebook.build(course, ["carol"], attempts, {"lanqiao": 100.0})
    assert without.cell("carol", "lanqiao") is not None and without.cell("carol", "lanqiao").blank  # type: ignore[union-attr]


def test_a_team_submission_stands_by_its_author_deadline_and_grade_in_every_row(tmp_path: Path) -> None:
    course = load(tmp_path, COURSE + "extensions:\n  - {student: bob, assignment: pair, due: 2026-12-12 23:59}\n")
    late = Attempt(20, "alice", "lanqiao", t("2026-12-09 10:00"), "AC", 100.0)  # a day late for alice
    teams = Teams(STAYS[:2], {20: 1})
    book = gradebook.build(course, ["alice", "bob"], [late], {"lanqiao": 100.0}, teams=teams)
    assert [book.cell(s, "lanqiao").score for s in ("alice", "bob")] == [50.0, 50.0]  # type: ignore[union-attr]
    # A hand grade of alice's submission counts in bob's row too.
    reviewed = COURSE.replace("    teams:", "    review: {manual: add, max: 10}\n    teams:")
    course = load(tmp_path, reviewed)
    tidy = rubric.Rubric((rubric.Item("tidy", 5.0, "Tidy"),))
    graded = rubric.Manual({"lanqiao": tidy}, {}, {("alice", "lanqiao"): {20: frozenset({"tidy"})}})
    book = gradebook.build(course, ["alice", "bob"], [late], {"lanqiao": 100.0}, graded, teams)
    assert [book.cell(s, "lanqiao").score for s in ("alice", "bob")] == [55.0, 55.0]  # type: ignore[union-attr]


def test_a_course_without_teams_for_an_assignment_that_took_team_submissions_is_refused(tmp_path: Path) -> None:
    stays = (Stay(1, "pair", "alice", t("2026-12-01 10:00")), Stay(1, "pair", "bob", t("2026-12-01 10:00")))
    made = Teams(stays, {7: 1})
    check_kept(load(tmp_path), made)  # teams: as they were
    check_kept(load(tmp_path), Teams(stays))  # teams but no team submission: may go
    without = COURSE.replace("    teams: {size: [2, 3], formed: students, lock: 2026-12-05 12:00}\n", "")
    check_kept(load(tmp_path, without), Teams(stays))
    with pytest.raises(JudgeError, match=r"course\.yaml: assignment 'pair' has no `teams:` but 1 team submission"):
        check_kept(load(tmp_path, without), made)
    # The assignment gone from the file with its problems: nothing left to count, as for any.
    check_kept(load(tmp_path, without.replace("  - id: pair\n", "  - id: other\n")), made)


class _Counted(tuple[Stay, ...]):
    """A class's stays that count how often they are read whole."""

    reads = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        _Counted.reads += 1
        return super().__iter__()


def test_a_teams_members_are_read_from_its_own_stays_not_the_whole_class() -> None:
    """Issue 61, a hostile student: starting and leaving teams in a loop (4,000 in minutes) made
    the teacher's teams page sort every stay of the class once per team, 3.7 s a load and
    growing with the square."""
    left = tuple(Stay(k, "a1", "dave", float(k), float(k) + 0.5) for k in range(49))
    counted = Teams(_Counted((*left, Stay(49, "a1", "dave", 49.0))), {})
    _Counted.reads = 0
    assert [members_of(counted, k) for k in (0, 48, 49)] == [(), (), ("dave",)]
    assert _Counted.reads == 0  # each team's stays at hand, indexed once when the Teams was made
