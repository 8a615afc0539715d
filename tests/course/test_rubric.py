"""The review's pure rules: a rubric's points with group caps, the two combining rules, the
regrade window, and graders dealt their students; and the gradebook counting them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.course import gradebook, rubric
from judge.course.gradebook import Attempt
from judge.course.rubric import Grade, Item, Manual, Review, Rubric
from judge.course.spec import load_course
from judge.problem.spec import SpecError

STYLE = Rubric(
    (
        Item("names", -2, "names say nothing", "style"),
        Item("indent", -2, "indentation", "style"),
        Item("comments", -2, "no comments", "style"),
        Item("design", 5, "a clean design"),
    ),
    (("style", 3.0),),
)
COURSE = """\
title: t
assignments:
  - id: w1
    problems: [p, q]
    review:
      manual: {rule}
      max: 10
      rubric:
        p:
          - {{id: names, points: -2, description: names say nothing, group: style}}
          - {{id: indent, points: -2, description: indentation, group: style}}
          - {{id: design, points: 5, description: a clean design}}
      caps: {{style: 3}}
"""


def load(tmp_path: Path, rule: str = "add", text: str = COURSE) -> object:
    path = tmp_path / "course.yaml"
    path.write_text(text.format(rule=rule))
    return load_course(path, {"p", "q"})


def test_a_groups_cap_bounds_its_sum_and_removed_items_count_nothing() -> None:
    assert rubric.points(STYLE, {"names"}) == -2
    assert rubric.points(STYLE, {"names", "indent", "comments"}) == -3  # capped at 3 off
    assert rubric.points(STYLE, {"names", "indent", "design"}) == 2
    assert rubric.points(STYLE, {"gone", "design"}) == 5  # an id no longer in the rubric


def test_add_and_replace_combine_within_their_maximum() -> None:
    add = Review("add", 10, (), 7, False, "random")
    replace = Review("replace", 20, (), 7, False, "random")
    assert rubric.maximum(add, 100) == 110 and rubric.maximum(replace, 100) == 20
    assert rubric.combined(add, 100, 90, 5) == 95
    assert rubric.combined(add, 100, 100, 30) == 110  # never over the stated maximum
    assert rubric.combined(add, 100, 1, -5) == 0  # nor under 0
    assert rubric.combined(replace, 100, 90, 12) == 12
    assert rubric.combined(add, 100, 90, None) == 90  # not graded by hand: the judge's alone
    assert rubric.combined(None, 100, 90, 5) == 90  # no review: nothing by hand counts


def test_the_regrade_window_opens_at_the_release() -> None:
    review = Review("add", 10, (), 2, False, "random")
    released = datetime(2026, 12, 10, tzinfo=UTC)
    assert not rubric.regrade_open(review, None, released)
    assert rubric.regrade_open(review, released, released + timedelta(days=1))
    assert not rubric.regrade_open(review, released, released + timedelta(days=2))
    assert not rubric.regrade_open(Review("add", 10, (), 0, False, "random"), released, released)


def test_graders_are_dealt_evenly_stably_and_by_section() -> None:
    students = [f"s{i:02d}" for i in range(10)]
    dealt = rubric.deal("w1:p", students, ["ta1", "ta2", "ta3"], {})
    loads = sorted(list(dealt.values()).count(g) for g in ("ta1", "ta2", "ta3"))
    assert loads == [3, 3, 4]
    assert rubric.deal("w1:p", students, ["ta1", "ta2", "ta3"], {}) == dealt  # seeded: the same again
    assert rubric.deal("w1:q", students, ["ta1", "ta2", "ta3"], {}) != dealt  # another seed, another order
    later = rubric.deal("w1:p", [*students, "s10"], ["ta1", "ta2", "ta3"], dealt)
    assert list(later) == ["s10"]  # nobody already dealt moves
    sections = {"ta1": "A", "ta2": "B", "s00": "A", "s01": "B", "s02": "C"}
    by = rubric.deal("x", ["s00", "s01", "s02"], ["ta1", "ta2"], {}, sections)
    assert by["s00"] == "ta1" and by["s01"] == "ta2" and by["s02"] in ("ta1", "ta2")


def test_course_yaml_reads_a_review_and_says_what_is_wrong(tmp_path: Path) -> None:
    course = load(tmp_path)
    review = course.assignments[0].review  # type: ignore[attr-defined]
    assert review is not None and review.manual == "add" and review.max == 10
    assert [i.id for i in review.rubric("p").items] == ["names", "indent", "design"]
    assert review.rubric("p").cap("style") == 3 and review.rubric("q").items == ()
    bad = COURSE.replace("        p:\n", "        r:\n").replace("{{style: 3}}", "{{style: 3, nope: 1}}")
    with pytest.raises(SpecError) as err:
        load(tmp_path, text=bad)
    text = str(err.value)
    assert "course.yaml:9: assignments[0].review.rubric.r: problem 'r' is not in this assignment" in text
    assert "review.caps.nope: no rubric item is in group 'nope'" in text
    with pytest.raises(
        SpecError, match=r"course.yaml:6: assignments\[0\].review.manual: Input should be .add. or .replace."
    ):
        load(tmp_path, rule="sum")


def test_the_gradebook_counts_items_by_id_so_a_changed_item_changes_everyone(tmp_path: Path) -> None:
    course = load(tmp_path)
    attempts = [Attempt(1, "alice", "p", 0.0, "AC", 100.0), Attempt(2, "bob", "p", 0.0, "WA", 40.0)]
    rub = course.assignments[0].review.rubric("p")  # type: ignore[attr-defined]
    grades = {("alice", "p"): Grade(frozenset({"names"})), ("bob", "p"): Grade(frozenset({"names", "design"}))}
    book = gradebook.build(course, ["alice", "bob"], attempts, {"p": 100.0, "q": 50.0}, Manual({"p": rub}, grades))
    assert book.columns[0].max_score == 110 and book.max_total == 170
    alice, bob = book.cell("alice", "p"), book.cell("bob", "p")
    assert alice is not None and (alice.score, alice.judged, alice.manual) == (98, 100, -2)
    assert bob is not None and bob.score == 43
    heavier = Rubric((Item("names", -6, "names say nothing", "style"), *rub.items[1:]), rub.caps)
    book = gradebook.build(course, ["alice", "bob"], attempts, {"p": 100.0, "q": 50.0}, Manual({"p": heavier}, grades))
    cells = book.cell("alice", "p"), book.cell("bob", "p")
    assert [c.score for c in cells if c is not None] == [97, 42]  # -6 held at the style cap of 3
    assert "98" not in gradebook.judge_csv(book) and ",97," in gradebook.judge_csv(book)


def test_replace_and_an_override(tmp_path: Path) -> None:
    course = load(tmp_path, "replace")
    attempts = [Attempt(1, "alice", "p", 0.0, "AC", 100.0), Attempt(2, "bob", "q", 0.0, "AC", 50.0)]
    grades = {("alice", "p"): Grade(frozenset({"design"})), ("bob", "q"): Grade(override=7.5)}
    book = gradebook.build(course, ["alice", "bob"], attempts, {"p": 100.0, "q": 50.0}, Manual({}, grades))
    alice, bob = book.cell("alice", "p"), book.cell("bob", "q")
    assert alice is not None and alice.score == 5 and book.columns[0].max_score == 10
    assert bob is not None and bob.score == 7.5 and bob.overridden and bob.judged == 50
    assert book.row("bob") is not None and book.row("bob").total == 7.5  # type: ignore[union-attr]


def test_replace_with_no_grade_counts_0_and_add_the_judges_score_plus_0(tmp_path: Path) -> None:
    attempts = [Attempt(1, "carol", "p", 0.0, "AC", 100.0)]
    book = gradebook.build(load(tmp_path, "replace"), ["carol", "dan"], attempts, {"p": 100.0, "q": 50.0})
    carol, dan = book.cell("carol", "p"), book.cell("dan", "p")
    assert carol is not None and carol.score == 0 and carol.awaiting and book.columns[0].max_score == 10
    assert dan is not None and dan.blank and not dan.awaiting  # nothing submitted: blank, not 0
    assert "carol,,,0," in gradebook.judge_csv(book)
    book = gradebook.build(load(tmp_path, "add"), ["carol"], attempts, {"p": 100.0, "q": 50.0})
    added = book.cell("carol", "p")
    assert added is not None and added.score == 100 and added.awaiting and book.columns[0].max_score == 110


DUE = COURSE.replace("    problems: [p, q]\n", "    problems: [p, q]\n    keep: last\n    due: 2026-12-08 23:59\n")
DUE = DUE.replace("title: t\n", "title: t\ntimezone: UTC\n").replace(
    "    due: 2026-12-08 23:59\n",
    "    due: 2026-12-08 23:59\n    late: {{penalty_per_day: 10, until: 2026-12-20 23:59}}\n",
)


def test_a_grade_stays_with_its_submission_and_a_late_one_does_not_displace_it(tmp_path: Path) -> None:
    course = load(tmp_path, "add", DUE)
    on_time = datetime(2026, 12, 8, tzinfo=UTC).timestamp()
    late = datetime(2026, 12, 9, 12, tzinfo=UTC).timestamp()
    first = Attempt(1, "alice", "p", on_time, "AC", 100.0)
    graded = Manual({}, {("alice", "p"): Grade(frozenset({"design"}), None, 1)})
    newer = Attempt(2, "alice", "p", on_time + 60, "WA", 0.0)
    book = gradebook.build(course, ["alice"], [first, newer], {"p": 100.0, "q": 50.0}, graded)
    cell = book.cell("alice", "p")
    # The newer on-time submission counts, ungraded: the +5 of code nobody read is not carried.
    assert cell is not None and (cell.submission, cell.score, cell.manual) == (2, 0, None)
    assert cell.awaiting and cell.graded == 1
    resubmitted = Attempt(3, "alice", "p", late, "AC", 100.0)
    book = gradebook.build(course, ["alice"], [first, resubmitted], {"p": 100.0, "q": 50.0}, graded)
    cell = book.cell("alice", "p")
    assert cell is not None and (cell.submission, cell.score, cell.manual) == (1, 105, 5) and not cell.awaiting
    book = gradebook.build(course, ["alice"], [first, resubmitted], {"p": 100.0, "q": 50.0})
    ungraded = book.cell("alice", "p")
    assert ungraded is not None and ungraded.submission == 3  # no grade: the late one counts as ever


def test_moved_points_names_each_item_whose_points_changed_or_that_went() -> None:
    old = rubric.Rubric((rubric.Item("good", 8, "g"), rubric.Item("style", -2, "s"), rubric.Item("same", 1, "x")))
    new = rubric.Rubric((rubric.Item("good", 3, "g"), rubric.Item("same", 1, "x"), rubric.Item("extra", 5, "e")))
    assert rubric.moved_points(old, new) == "good 8 -> 3, style removed"
    assert rubric.moved_points(new, new) == ""
