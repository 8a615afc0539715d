"""Whose counted score a rejudge moves: two gradebooks of the one rule compared cell by cell,
each move with the submissions and cases that changed."""

from __future__ import annotations

from judge.course import gradebook
from judge.course.gradebook import Attempt
from judge.course.moved import CaseChange, Judging, Verdicts, Why, case_changes, moves, reason
from judge.course.spec import implicit

COURSE = implicit(["p"])
ROSTER = ["ann", "bob", "cid"]
BEFORE = [
    Attempt(1, "ann", "p", 10.0, "WA", 40.0),
    Attempt(2, "ann", "p", 20.0, "AC", 100.0),  # counts before and after
    Attempt(3, "bob", "p", 10.0, "WA", 40.0),
    Attempt(4, "cid", "p", 10.0, "AC", 100.0),
]


def book(attempts: list[Attempt]) -> gradebook.Gradebook:
    return gradebook.build(COURSE, ROSTER, attempts, {"p": 100.0})


def test_case_changes_name_each_case_whose_verdict_differs() -> None:
    old = {"a": "AC", "b": "WA", "c": "AC"}
    new = {"a": "AC", "b": "AC", "d": "WA"}
    assert case_changes(old, new) == (CaseChange("b", "WA", "AC"), CaseChange("c", "AC", ""), CaseChange("d", "", "WA"))


def test_only_counted_scores_that_change_are_listed_with_why() -> None:
    after = [
        Attempt(1, "ann", "p", 10.0, "AC", 100.0),  # better, but ann's counted score stays 100
        BEFORE[1],
        Attempt(3, "bob", "p", 10.0, "AC", 100.0),
        Attempt(4, "cid", "p", 10.0, "WA", 70.0),
    ]
    before_v = Verdicts(
        {1: Judging("WA", 40.0), 3: Judging("WA", 40.0), 4: Judging("AC", 100.0)},
        {1: {"t1": "WA"}, 3: {"t1": "WA", "t2": "AC"}, 4: {"t1": "AC", "t2": "AC"}},
    )
    after_v = Verdicts(
        {1: Judging("AC", 100.0), 3: Judging("AC", 100.0), 4: Judging("WA", 70.0)},
        {1: {"t1": "AC"}, 3: {"t1": "AC", "t2": "AC"}, 4: {"t1": "AC", "t2": "WA"}},
    )
    found = moves(book(BEFORE), book(after), before_v, after_v)
    assert [(m.student, m.key, m.old, m.new) for m in found] == [
        ("bob", "all:p", 40.0, 100.0),
        ("cid", "all:p", 100.0, 70.0),
    ]
    assert found[1].why == (Why(4, Judging("AC", 100.0), Judging("WA", 70.0), (CaseChange("t2", "AC", "WA"),)),)
    assert reason(found[1].why[0]) == "#4 AC 100 -> WA 70; t2 AC -> WA"


def test_nothing_changed_lists_nobody() -> None:
    same = Verdicts({4: Judging("AC", 100.0)}, {4: {"t1": "AC"}})
    assert moves(book(BEFORE), book(BEFORE), same, same) == ()
