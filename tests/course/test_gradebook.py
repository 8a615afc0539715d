"""The gradebook: the policy's counted score for every roster student, blanks and totals, and
the three renderings."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from judge.course import gradebook, rubric
from judge.course.gradebook import Attempt
from judge.course.spec import load_course

BERLIN = ZoneInfo("Europe/Berlin")
COURSE = """\
title: t
timezone: Europe/Berlin
assignments:
  - id: w1
    title: Week one
    problems: [p, q]
    due: 2026-12-08 23:59
    late: {penalty_per_day: 50, until: 2026-12-10 23:59}
  - id: w2
    problems: [r]
    keep: last
extensions:
  - {student: carol, assignment: w1, due: 2026-12-09 23:59}
"""
MAX = {"p": 100.0, "q": 50.0, "r": 10.0}


def t(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=BERLIN).timestamp()


def book(
    tmp_path: Path, attempts: list[Attempt], roster: tuple[str, ...] = ("alice", "bob", "carol")
) -> gradebook.Gradebook:
    path = tmp_path / "course.yaml"
    path.write_text(COURSE)
    return gradebook.build(load_course(path, set(MAX)), roster, attempts, MAX)


def test_best_keeps_the_ac_and_last_keeps_the_newest(tmp_path: Path) -> None:
    b = book(
        tmp_path,
        [
            Attempt(1, "alice", "p", t("2026-12-01 10:00"), "AC", 100.0),
            Attempt(2, "alice", "p", t("2026-12-02 10:00"), "TLE", 60.0),
            Attempt(3, "alice", "r", t("2026-12-01 10:00"), "AC", 10.0),
            Attempt(4, "alice", "r", t("2026-12-02 10:00"), "WA", 4.0),
        ],
    )
    assert b.cell("alice", "p") == gradebook.Counted(100.0, 1, "AC", False, 0.0, False, 2)
    r = b.cell("alice", "r")
    assert r is not None and (r.score, r.submission) == (4.0, 4)


def test_a_late_submission_counts_with_its_penalty_and_after_the_cutoff_not_at_all(tmp_path: Path) -> None:
    b = book(
        tmp_path,
        [
            Attempt(1, "bob", "p", t("2026-12-09 01:00"), "AC", 100.0),  # an hour late: 50 percent
            Attempt(2, "bob", "q", t("2026-12-11 00:00"), "AC", 50.0),  # after late.until
            Attempt(3, "carol", "p", t("2026-12-09 12:00"), "AC", 100.0),  # inside her extension
        ],
    )
    p = b.cell("bob", "p")
    assert p is not None and (p.score, p.late, p.penalty) == (50.0, True, 50.0)
    q = b.cell("bob", "q")
    assert q is not None and q.blank and q.attempts == 0
    carol = b.cell("carol", "p")
    assert carol is not None and (carol.score, carol.late, carol.extended) == (100.0, False, True)


def test_an_ie_never_counts_and_a_pending_one_is_not_counted_yet(tmp_path: Path) -> None:
    b = book(
        tmp_path,
        [
            Attempt(1, "alice", "r", t("2026-12-01 10:00"), "WA", 3.0),
            Attempt(2, "alice", "r", t("2026-12-01 11:00"), "IE", 0.0),
            Attempt(3, "alice", "r", t("2026-12-01 12:00"), None, None),
        ],
    )
    r = b.cell("alice", "r")
    assert r is not None and (r.score, r.submission, r.attempts) == (3.0, 1, 3)


def test_every_roster_student_has_a_row_with_blanks_and_zero_totals(tmp_path: Path) -> None:
    b = book(
        tmp_path,
        [
            Attempt(1, "alice", "p", t("2026-12-01 10:00"), "AC", 100.0),
            Attempt(2, "mallory", "p", t("2026-12-01 10:00"), "AC", 100.0),
        ],
    )
    assert [r.student for r in b.rows] == ["alice", "bob", "carol"]  # not on the roster: no row
    rows = list(csv.reader(io.StringIO(gradebook.judge_csv(b))))
    assert rows[0] == ["student", "name", "email", "w1:p", "w1:q", "w2:r", "w1", "w2", "total"]
    assert rows[1] == ["alice", "", "", "100", "", "", "100", "0", "100"]
    assert rows[2] == ["bob", "", "", "", "", "", "0", "0", "0"]
    named = {"alice": gradebook.Named("Alice Liddell", "alice@uni.edu", "A1")}
    assert list(csv.reader(io.StringIO(gradebook.judge_csv(b, named))))[1][:3] == [
        "alice",
        "Alice Liddell",
        "alice@uni.edu",
    ]


def test_the_canvas_and_moodle_layouts(tmp_path: Path) -> None:
    b = book(tmp_path, [Attempt(1, "alice", "p", t("2026-12-01 10:00"), "AC", 100.0)])
    canvas = list(csv.reader(io.StringIO(gradebook.canvas_csv(b))))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Week one", "w2"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "150", "10"]
    assert canvas[2] == ["alice", "", "", "alice", "", "100", "0"]
    named = {"alice": gradebook.Named("Alice Liddell", "alice@uni.edu", "A1")}
    canvas = list(csv.reader(io.StringIO(gradebook.canvas_csv(b, named))))
    assert canvas[2] == ["Alice Liddell", "", "", "alice", "A1", "100", "0"]
    moodle = list(csv.reader(io.StringIO(gradebook.moodle_csv(b))))
    assert moodle[0] == ["Username", "Week one", "w2"] and moodle[1] == ["alice", "100", "0"]


def test_a_listing_marks_a_late_a_closed_and_an_extended_submission(tmp_path: Path) -> None:
    path = tmp_path / "course.yaml"
    path.write_text(COURSE)
    course = load_course(path, set(MAX))
    w1, w2 = course.assignments
    assert gradebook.late_mark(course, w1, "alice", t("2026-12-08 12:00")) == ""
    assert gradebook.late_mark(course, w1, "alice", t("2026-12-09 12:00")) == "late -50%"
    assert gradebook.late_mark(course, w1, "alice", t("2026-12-11 12:00")) == "after the deadline: not counted"
    assert gradebook.late_mark(course, w1, "carol", t("2026-12-09 12:00")) == "extended"
    assert gradebook.late_mark(course, w2, "alice", t("2027-06-01 12:00")) == ""  # no deadline: nothing to say


def test_each_submission_keeps_its_own_grade_and_a_late_one_displaces_none(tmp_path: Path) -> None:
    """A grade belongs to its submission: the counted one's grade counts; the oldest judged
    submission graded is the one no late submission displaces (one rejudged to IE pins nothing)."""
    path = tmp_path / "course.yaml"
    path.write_text(
        COURSE.replace(
            "    late: {penalty_per_day: 50",
            "    keep: last\n    review: {manual: add, max: 10,"
            " rubric: {p: [{id: good, points: 5, description: good}]}}\n    late: {penalty_per_day: 50",
        )
    )
    course = load_course(path, set(MAX))
    attempts = [
        Attempt(1, "alice", "p", t("2026-12-01 10:00"), "IE", 0.0),  # graded, then rejudged to IE
        Attempt(2, "alice", "p", t("2026-12-02 10:00"), "WA", 40.0),
        Attempt(3, "alice", "p", t("2026-12-09 10:00"), "AC", 100.0),  # late
    ]
    rub = course.assignments[0].review
    assert rub is not None
    grades = {("alice", "p"): rubric.Grade(frozenset(), None, 2)}  # the newest grade: none applied
    each = {("alice", "p"): {1: frozenset({"good"}), 2: frozenset({"good"})}}
    manual = rubric.Manual({"p": rub.rubric("p")}, grades, each)
    cell = gradebook.build(course, ("alice",), attempts, MAX, manual).cell("alice", "p")
    assert cell is not None and (cell.submission, cell.manual, cell.score) == (2, 5.0, 45.0)
