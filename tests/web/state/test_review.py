"""The review's rows: grades keep item ids, an override is a log whose newest counts, only
released grades count for students, and dealt graders stay dealt."""

from __future__ import annotations

from pathlib import Path

from judge.course.spec import load_course
from judge.web.state.review import Reviews
from judge.web.state.store import Store

COURSE = """\
title: t
assignments:
  - id: w1
    problems: [p]
    review:
      manual: add
      max: 10
      rubric:
        p:
          - {id: names, points: -2, description: names}
"""


def setup(tmp_path: Path) -> tuple[Store, Reviews, object]:
    store = Store(tmp_path / "data")
    (tmp_path / "course.yaml").write_text(COURSE)
    return store, Reviews(store), load_course(tmp_path / "course.yaml", {"p"})


def test_a_grade_keeps_ids_and_a_page_item_changes_everyone(tmp_path: Path) -> None:
    _, reviews, course = setup(tmp_path)
    made = reviews.add_item("p", 3.0, "tests of your own", "prof", 1.0)
    assert made == "+1" and reviews.add_item("p", -1.0, "a long line", "prof", 1.5, "style") == "+2"
    assert reviews.items("p")[1].group == "style"
    assert reviews.change_item("p", "+2", None) and [i.id for i in reviews.items("p")] == ["+1"]
    reviews.save_grade("ada", "p", 1, "ta1", 2.0, toggle="names")
    reviews.save_grade("ada", "p", 1, "ta1", 3.0, toggle=made)
    marked = reviews.save_grade("bo", "p", 2, "ta1", 4.0, toggle=made)
    assert marked.applied == {"+1"} and not marked.done
    assert reviews.save_grade("bo", "p", 2, "ta1", 5.0, toggle=made).applied == frozenset()  # toggled off
    reviews.save_grade("bo", "p", 2, "ta1", 5.0, toggle=made)
    rubrics = reviews.rubrics(course)  # type: ignore[arg-type]
    assert [i.id for i in rubrics["p"].items] == ["names", "+1"]
    reviews.change_item("p", made, 4.0)
    manual = reviews.counted(course, every=True)  # type: ignore[arg-type]
    assert manual.rubrics["p"].item("+1").points == 4.0  # type: ignore[union-attr]
    assert manual.grades[("ada", "p")].applied == {"names", "+1"}
    assert reviews.counted(course, every=False).grades == {}  # type: ignore[arg-type]
    before = reviews.mark()
    assert reviews.release("w1", "prof", 9.0) and not reviews.release("w1", "prof", 10.0)
    assert reviews.mark() != before
    assert set(reviews.counted(course, every=False).grades) == {("ada", "p"), ("bo", "p")}  # type: ignore[arg-type]


def test_overrides_are_a_log_and_the_newest_counts(tmp_path: Path) -> None:
    _, reviews, course = setup(tmp_path)
    reviews.override("ada", "p", 50.0, "copied the tests' answers", "prof", 1.0)
    reviews.override("ada", "p", 60.0, "after talking to her", "prof", 2.0)
    grades = reviews.counted(course, every=False).grades  # type: ignore[arg-type]
    assert grades[("ada", "p")].override == 60.0  # counts at once, released or not
    reviews.override("ada", "p", None, "lifted", "prof", 3.0)
    assert ("ada", "p") not in reviews.counted(course, every=True).grades  # type: ignore[arg-type]
    assert [o.reason for o in reviews.overrides("ada", "p")] == [
        "copied the tests' answers",
        "after talking to her",
        "lifted",
    ]


def test_comments_regrades_and_dealing(tmp_path: Path) -> None:
    _, reviews, _ = setup(tmp_path)
    first = reviews.comment(7, "main.py", (3, 5), "this loop runs twice", "names", "ta1", 1.0)
    reviews.comment(8, "main.py", (1, 1), "elsewhere", None, "ta1", 1.0)
    assert [c.id for c in reviews.comments(7)] == [first]
    assert not reviews.delete_comment(first, 8) and reviews.delete_comment(first, 7)
    reviews.save_text("ta1", "Name it for what it holds.")
    reviews.save_text("ta1", "Name it for what it holds.")
    assert reviews.saved("ta1") == ["Name it for what it holds."] and reviews.saved("ta2") == []
    asked = reviews.ask_regrade("ada", "p", 7, "names", "my names are fine", 5.0)
    assert reviews.answer_regrade(asked, "kept: x1 and x2 say nothing", "ta1", 6.0)
    held = reviews.regrade(asked)
    assert held is not None and held.answer and held.answered_by == "ta1" and held.reason == "my names are fine"
    reviews.deal("p", {"ada": "ta1"})
    reviews.deal("p", {"ada": "ta2", "bo": "ta2"})  # ada stays with ta1
    assert reviews.dealt("p") == {"ada": "ta1", "bo": "ta2"}


def test_answers_are_appended_and_a_released_grades_changes_are_logged(tmp_path: Path) -> None:
    _, reviews, _ = setup(tmp_path)
    asked = reviews.ask_regrade("ada", "p", 1, "names", "why?", 1.0)
    assert reviews.answer_regrade(asked, "Kept.", "ta1", 2.0)
    assert reviews.answer_regrade(asked, "Taken back.", "prof", 3.0)
    assert not reviews.answer_regrade(asked + 1, "x", "prof", 3.0)  # no such request
    found = reviews.regrade(asked)
    assert found is not None and [(a.text, a.by, a.at) for a in found.answers] == [
        ("Kept.", "ta1", 2.0),
        ("Taken back.", "prof", 3.0),
    ]
    assert found.answer == "Taken back." and reviews.regrades("ada")[0].answers == found.answers
    reviews.save_grade("ada", "p", 1, "ta1", 4.0, toggle="names")  # not released: no log
    reviews.save_grade("ada", "p", 1, "ta2", 5.0, toggle="names", released=True)
    reviews.save_grade("ada", "p", 1, "ta2", 6.0, comment="same items", released=True)  # items unchanged
    changes = reviews.changes("ada", "p")
    assert [(c.before, c.after, c.by, c.at) for c in changes] == [(("names",), (), "ta2", 5.0)]


def test_a_grade_on_a_newer_submission_starts_from_the_old_items_not_done(tmp_path: Path) -> None:
    _, reviews, course = setup(tmp_path)
    reviews.save_grade("ada", "p", 1, "ta1", 1.0, toggle="names")
    reviews.save_grade("ada", "p", 1, "ta1", 2.0, done=True)
    manual = reviews.counted(course, every=True)  # type: ignore[arg-type]
    assert manual.grades[("ada", "p")].submission == 1  # the grade says which submission it is of
    again = reviews.save_grade("ada", "p", 3, "ta1", 3.0, comment="on the new one")
    assert (again.submission, again.applied, again.done) == (3, {"names"}, False)


def test_a_grade_on_a_newer_submission_leaves_the_older_grade_on_its_own(tmp_path: Path) -> None:
    _, reviews, course = setup(tmp_path)
    reviews.save_grade("ada", "p", 1, "ta1", 1.0, toggle="names", done=True)
    reviews.save_grade("ada", "p", 3, "ta1", 2.0, toggle="names", released=True)  # names off on submission 3
    old, new = reviews.grade_of(1), reviews.grade_of(3)
    assert old is not None and (old.applied, old.done) == ({"names"}, True)
    assert new is not None and new.applied == frozenset()
    manual = reviews.counted(course, every=True)  # type: ignore[arg-type]
    assert manual.each[("ada", "p")] == {1: frozenset({"names"}), 3: frozenset()}
    changes = reviews.changes("ada", "p")
    assert [(c.submission, c.why) for c in changes] == [(1, "stops counting: submission 3 counts now and is graded")]
