"""The review on the web, in process with an injected clock (the test judges the submissions):
graders dealt, items toggled, comments on lines, the release, regrade requests, a rubric item
changed for everyone, an override, and what a student, another student and a TA may not do."""

from __future__ import annotations

import csv
import html
import io
import os
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.web.serving.app import Settings, create_app
from judge.web.state.store import Store
from tests.conftest import PROBLEMS
from tests.web.test_course import Clock, record

COURSE = """\
title: Algorithms 2026
timezone: Europe/Berlin
assignments:
  - id: week1
    problems: [lanqiao]
    due: 2026-12-08 23:59
    review:
      manual: add
      max: 10
      regrade_days: 2
      rubric:
        lanqiao:
          - {id: names, points: -2, description: Names that say nothing}
          - {id: design, points: 4, description: A clean design}
  - id: week2
    problems: [eight-digits]
    review:
      manual: replace
      max: 20
      anonymous: true
      rubric:
        eight-digits:
          - {id: works, points: 20, description: It works}
"""
SOURCE = b"import sys\nprint(1)\n"


class Class:
    def __init__(self, tmp_path: Path, text: str = COURSE) -> None:
        self.clock = Clock()
        self.clock.set("2026-12-02 10:00")
        self.store = Store(tmp_path / "data")
        self.tokens = {u: self.store.add_user(u) for u in ("alice", "bob")}
        self.tokens |= {u: self.store.add_user(u, "ta") for u in ("ta1", "ta2")}
        self.tokens["prof"] = self.store.add_user("prof", "teacher")
        (tmp_path / "course.yaml").write_text(text)
        settings = Settings(
            problems_dir=PROBLEMS, data_dir=tmp_path / "data", course_file=tmp_path / "course.yaml", result_step_s=0
        )
        self.app = create_app(settings, start_workers=False, clock=self.clock)
        self.clients: dict[str, TestClient] = {}

    def client(self, user: str) -> TestClient:
        if user not in self.clients:
            client = TestClient(self.app, follow_redirects=False)
            assert client.post("/login", data={"user": user, "token": self.tokens[user]}).status_code == 303
            self.clients[user] = client
        return self.clients[user]

    def judged(self, user: str, problem: str, verdict: str, score: float) -> int:
        reply = self.client(user).post(
            f"/problems/{problem}/submit", data={"language": "python3"}, files={"file": ("main.py", SOURCE)}
        )
        assert reply.status_code == 303, reply.text
        claim = self.store.claim(now=self.clock())
        assert claim is not None
        assert self.store.finish(claim, record(claim.student, claim.problem, verdict, score), now=self.clock())
        return claim.id

    def post(self, user: str, path: str, **fields: str) -> int:
        return self.client(user).post(path, data=fields).status_code

    def grades(self) -> dict[str, dict[str, str]]:
        text = self.client("prof").get("/teacher/grades.csv").text
        return {row["student"]: row for row in csv.DictReader(io.StringIO(text))}


@pytest.fixture
def course(tmp_path: Path) -> Class:
    return Class(tmp_path)


def grader_of(course: Class, problem: str, student: str) -> str:
    dealt = course.app.state.site.reviews.dealt(problem)
    return str(dealt[student])


def test_a_graders_session_from_dealing_to_the_regrade(course: Class) -> None:
    alice = course.judged("alice", "lanqiao", "AC", 100)
    course.judged("bob", "lanqiao", "WA", 40)
    assert course.post("prof", "/grade/week1/deal") == 303
    ta = grader_of(course, "lanqiao", "alice")
    assert {ta, grader_of(course, "lanqiao", "bob")} == {"ta1", "ta2"}  # one each
    start = course.client(ta).get("/grade/lanqiao/next")
    assert start.status_code == 303 and start.headers["location"].endswith(f"/grade/submissions/{alice}")
    page = course.client(ta).get(f"/grade/submissions/{alice}").text
    assert "0 of 1 graded" in page and "Names that say nothing" in page and 'data-key="1"' in page
    assert course.post(ta, f"/grade/submissions/{alice}/toggle", item="names") == 303
    assert (
        course.post(
            ta, f"/grade/submissions/{alice}/comment", at="main.py:1-2", text="Call it board.", item="names", save="1"
        )
        == 303
    )
    assert course.post(ta, f"/grade/submissions/{alice}/comment", text="Good start.") == 303
    assert course.post(ta, f"/grade/submissions/{alice}/comment", at="main.py:9", text="x") == 400  # no line 9
    done = course.client(ta).post(f"/grade/submissions/{alice}/done", data={"done": "1"})
    assert done.status_code == 303 and "/grade" in done.headers["location"]
    overview = course.client("prof").get("/grade").text
    assert f"{ta}: 1 of 1" in overview and "Release week1" in overview  # progress per grader
    assert "Release week1" not in course.client(ta).get("/grade").text  # a TA's overview: no release
    page = course.client(ta).get(f"/grade/submissions/{alice}").text
    assert "1 of 1 graded" in page and "<b>98</b> / 110" in page and "Call it board." in page
    assert "<option>Call it board.</option>" in page  # saved for reuse too
    assert course.grades()["alice"]["week1:lanqiao"] == "98"  # the teacher's gradebook at once
    matrix = course.client("prof").get("/teacher/class").text.split('data-student="alice"')[1].split("</tr>")[0]
    assert ">98</span>" in matrix and '<b title="graded by hand: -2">H</b>' in matrix
    # A student has no grading page, and changes nothing of a grade.
    assert course.client("alice").get("/grade").status_code == 403
    assert course.client("alice").get(f"/grade/submissions/{alice}").status_code == 403
    assert course.post("alice", f"/grade/submissions/{alice}/toggle", item="design") == 403
    # Before the release the student sees nothing of it: not the score, the items or the comments.
    mine = course.client("alice").get(f"/submissions/{alice}/review").text
    assert "not-released" in mine and "Call it board." not in mine and "Names that say" not in mine
    home = course.client("alice").get("/").text
    assert "98" not in home.split('data-problem="lanqiao"')[1].split("</tr>")[0]
    assert course.post("alice", f"/submissions/{alice}/regrade", target="names", reason="fine") == 403
    # A TA grades but does not manage the course.
    assert course.post(ta, "/grade/week1/release") == 403
    assert course.post(ta, "/grade/week1/deal") == 403
    assert course.post(ta, f"/grade/submissions/{alice}/override", score="1", reason="x") == 403
    assert course.post(ta, "/grade/lanqiao/items", points="1", description="x") == 403
    assert course.post("prof", "/grade/week1/release") == 303
    mine = course.client("alice").get(f"/submissions/{alice}/review").text
    assert "<b>98</b> / 110" in mine and "Names that say nothing" in mine and "Call it board." in mine
    assert "Good start." in mine and f"({ta})" in mine  # not anonymous: the grader signs
    assert "<b>98</b> / 110" in course.client(ta).get(f"/submissions/{alice}/review").text  # as alice sees it
    home = course.client("alice").get("/").text
    assert "98" in home.split('data-problem="lanqiao"')[1].split("</tr>")[0]
    # Another student sees none of it, and cannot ask on it.
    assert course.client("bob").get(f"/submissions/{alice}/review").status_code == 404
    assert course.post("bob", f"/submissions/{alice}/regrade", target="names", reason="x") == 404
    assert course.post("alice", f"/submissions/{alice}/regrade", target="nothing", reason="x") == 400
    assert course.post("alice", f"/submissions/{alice}/regrade", target="names", reason="My names say it.") == 303
    assert course.post("alice", f"/submissions/{alice}/regrade", target="names", reason="Again!") == 409  # one waits
    asked = course.app.state.site.reviews.regrades("alice")[0]
    assert course.post(ta, f"/grade/regrades/{asked.id}", text="Kept: x1 says nothing.") == 303
    mine = course.client("alice").get(f"/submissions/{alice}/review").text
    assert "My names say it." in mine and "Kept: x1 says nothing." in mine
    course.clock.set("2026-12-31 10:00")  # past the two days after the release
    assert course.post("alice", f"/submissions/{alice}/regrade", target="names", reason="again") == 403


def test_an_item_changed_on_the_page_changes_everyone_and_an_override_wins(course: Class) -> None:
    alice = course.judged("alice", "lanqiao", "AC", 90)
    bob = course.judged("bob", "lanqiao", "AC", 80)
    assert course.post("prof", "/grade/lanqiao/items", points="3", description="Tests of your own") == 303
    assert course.post("prof", "/grade/lanqiao/items", points="1", description="x", group="Not A Slug") == 400
    assert course.post("prof", "/grade/lanqiao/items", points="", description="x") == 400
    for sid in (alice, bob):
        assert course.post("ta1", f"/grade/submissions/{sid}/toggle", item="+1") == 303
    assert (course.grades()["alice"]["week1:lanqiao"], course.grades()["bob"]["week1:lanqiao"]) == ("93", "83")
    assert 'action="/grade/lanqiao/items/+1"' in course.client("prof").get(f"/grade/submissions/{alice}").text
    assert 'action="/grade/lanqiao/items/+1"' not in course.client("ta1").get(f"/grade/submissions/{alice}").text
    assert course.post("ta1", "/grade/lanqiao/items/+1", points="5") == 403
    assert course.post("prof", "/grade/lanqiao/items/+1", points="5") == 303
    assert (course.grades()["alice"]["week1:lanqiao"], course.grades()["bob"]["week1:lanqiao"]) == ("95", "85")
    assert course.post("prof", f"/grade/submissions/{alice}/override", score="50", reason="Copied the answers") == 303
    assert course.post("prof", f"/grade/submissions/{alice}/override", score="500", reason="x") == 400
    assert course.grades()["alice"]["week1:lanqiao"] == "50"
    matrix = course.client("prof").get("/teacher/class").text.split('data-student="alice"')[1].split("</tr>")[0]
    assert '<b title="override (the judge: 90)">O</b>' in matrix
    log = course.client("prof").get(f"/grade/submissions/{alice}").text
    assert "prof: 50 &middot; Copied the answers &middot; " in log  # who, what, why, when
    home = course.client("alice").get("/").text  # an override counts at once, as overrides.yaml does
    assert "AC</span> 50" in home.split('data-problem="lanqiao"')[1].split("</tr>")[0]


def test_anonymous_grading_hides_names_both_ways(course: Class) -> None:
    sid = course.judged("alice", "eight-digits", "AC", 100)
    page = course.client("ta1").get(f"/grade/submissions/{sid}").text
    assert "submission 1 of 1" in page and "alice" not in re.sub(r"<nav.*?</nav>", "", page, flags=re.S)
    assert course.post("ta1", f"/grade/submissions/{sid}/toggle", item="works") == 303
    assert course.post("ta1", f"/grade/submissions/{sid}/comment", at="main.py:1", text="Neat.") == 303
    assert course.grades()["alice"]["week2:eight-digits"] == "20"  # replace: out of 20
    assert course.post("prof", "/grade/week2/release") == 303
    mine = course.client("alice").get(f"/submissions/{sid}/review").text
    assert "Neat." in mine and "ta1" not in mine


def test_every_review_form_is_refused_from_another_site(course: Class) -> None:
    sid = course.judged("alice", "lanqiao", "AC", 100)
    foreign = {"Origin": "https://evil.example"}
    for user, path, fields in (
        ("ta1", f"/grade/submissions/{sid}/toggle", {"item": "names"}),
        ("prof", "/grade/week1/release", {}),
        ("alice", f"/submissions/{sid}/regrade", {"target": "names", "reason": "x"}),
    ):
        assert course.client(user).post(path, data=fields, headers=foreign).status_code == 403
    assert course.app.state.site.reviews.grades() == [] and course.app.state.site.reviews.released() == {}


def test_dealing_by_section_keeps_a_student_with_a_ta_of_their_section(tmp_path: Path) -> None:
    course = Class(
        tmp_path, COURSE.replace("      anonymous: true\n", "      anonymous: true\n      graders: section\n")
    )
    for user, section in (("alice", "B"), ("bob", "A"), ("ta1", "A"), ("ta2", "B")):
        course.store.set_details(user, section=section)
    for student in ("alice", "bob"):
        course.judged(student, "eight-digits", "AC", 100)
    assert course.post("prof", "/grade/week2/deal") == 303
    assert course.app.state.site.reviews.dealt("eight-digits") == {"alice": "ta2", "bob": "ta1"}
    assert "submission 1 of 1" in course.client("ta1").get("/grade/submissions/2").text  # bob's, in ta1's queue


def targets(page: str) -> list[str]:
    return re.findall(r"<option>(.*?)</option>", page.split('id="regrade-target"')[1].split("</select>")[0])


def test_a_regrade_may_name_only_what_the_feedback_level_shows(tmp_path: Path) -> None:
    for level, shown, hidden in (("groups", "secret", "secret/01"), ("cases", "secret/01", "nothing")):
        folder = tmp_path / level
        folder.mkdir()
        course = Class(
            folder, COURSE.replace("    due: 2026-12-08 23:59\n", f"    due: 2026-12-08 23:59\n    feedback: {level}\n")
        )
        alice = course.judged("alice", "lanqiao", "WA", 0)
        course.post("ta1", f"/grade/submissions/{alice}/toggle", item="names")
        assert course.post("prof", "/grade/week1/release") == 303
        page = course.client("alice").get(f"/submissions/{alice}/review").text
        assert targets(page) == ["names", shown]  # the item applied, and the tests as the level shows them
        # A name the student cannot see is answered as an unknown one: no oracle of the secret cases.
        hid = course.client("alice").post(f"/submissions/{alice}/regrade", data={"target": hidden, "reason": "x"})
        unknown = course.client("alice").post(f"/submissions/{alice}/regrade", data={"target": "zz/99", "reason": "x"})
        assert (hid.status_code, unknown.status_code) == (400, 400)
        said = html.unescape(hid.text).replace(repr(hidden), "")
        assert said == html.unescape(unknown.text).replace(repr("zz/99"), "")
        assert course.post("alice", f"/submissions/{alice}/regrade", target=shown, reason="Why?") == 303


def test_replace_counts_0_until_graded_on_every_surface(course: Class) -> None:
    alice = course.judged("alice", "eight-digits", "AC", 100)
    bob = course.judged("bob", "eight-digits", "AC", 100)
    assert course.post("ta1", f"/grade/submissions/{bob}/toggle", item="works") == 303
    assert course.grades()["alice"]["week2:eight-digits"] == "0"  # not the judge's 100 out of 20
    assert course.grades()["bob"]["week2:eight-digits"] == "20"
    assert "awaiting grading" in course.client("ta1").get(f"/grade/submissions/{alice}").text
    matrix = course.client("prof").get("/teacher/class").text.split('data-student="alice"')[1].split("</tr>")[0]
    assert '<b title="awaiting grading">A</b>' in matrix
    assert course.post("prof", "/grade/week2/release") == 303
    row = course.client("alice").get("/").text.split('data-problem="eight-digits"')[1].split("</tr>")[0]
    assert "AC</span> 0 <span" in row and "(not graded yet)" in row
    assert '<td class="num">20</td>' in row  # out of the review's max, as the gradebook's column
    assert "not-released" in course.client("alice").get(f"/submissions/{alice}/review").text


KEEP_LAST = COURSE.replace(
    "    due: 2026-12-08 23:59\n",
    "    due: 2026-12-08 23:59\n    keep: last\n    late: {penalty_per_day: 10, until: 2026-12-20 23:59}\n"
    "    scoreboard: named\n",
)


def test_a_grade_stays_with_its_submission_and_a_late_one_leaves_it(tmp_path: Path) -> None:
    course = Class(tmp_path, KEEP_LAST)
    first = course.judged("alice", "lanqiao", "AC", 100)
    assert course.post("ta1", f"/grade/submissions/{first}/toggle", item="design") == 303
    assert course.post("ta1", f"/grade/submissions/{first}/done") == 303
    assert course.grades()["alice"]["week1:lanqiao"] == "104"
    course.clock.set("2026-12-03 10:00")
    newer = course.judged("alice", "lanqiao", "WA", 40)  # on time: it counts, ungraded
    assert course.grades()["alice"]["week1:lanqiao"] == "40"  # the +4 of code nobody read is gone
    page = course.client("ta1").get(f"/grade/submissions/{newer}").text
    assert "Newer submission since grading" in page and 'aria-pressed="true"' in page  # the old items offered
    assert "0 of 1 graded" in page
    assert course.post("ta1", f"/grade/submissions/{newer}/toggle", item="names") == 303
    assert course.grades()["alice"]["week1:lanqiao"] == "42"  # design kept, names added: 40 + 4 - 2
    assert course.post("prof", "/grade/week1/release") == 303
    course.clock.set("2026-12-10 10:00")  # past the due date: a late resubmission
    course.judged("alice", "lanqiao", "AC", 100)
    assert course.grades()["alice"]["week1:lanqiao"] == "42"  # the released grade's submission stays
    home = course.client("alice").get("/").text.split('data-problem="lanqiao"')[1].split("</tr>")[0]
    assert "42" in home
    board = course.client("alice").get("/assignments/week1/scoreboard").text
    assert '<td>alice</td><td class="num">0</td><td class="num">42</td>' in board


def test_a_ta_changes_only_their_own_and_a_released_grades_changes_are_logged(course: Class) -> None:
    alice = course.judged("alice", "lanqiao", "AC", 100)
    course.judged("bob", "lanqiao", "AC", 100)
    assert course.post("prof", f"/grade/submissions/{alice}/comment", at="main.py:1", text="By the teacher") == 303
    assert course.post("prof", "/grade/week1/deal") == 303
    mine, other = grader_of(course, "lanqiao", "alice"), grader_of(course, "lanqiao", "bob")
    assert course.post(other, f"/grade/submissions/{alice}/toggle", item="names") == 403  # not dealt to them
    assert course.post(mine, f"/grade/submissions/{alice}/toggle", item="names") == 303
    comment = course.app.state.site.reviews.comments(alice)[0]
    assert course.post(mine, f"/grade/submissions/{alice}/comments/{comment.id}/delete") == 404
    assert "Delete" not in course.client(mine).get(f"/grade/submissions/{alice}").text.split("By the teacher")[1][:200]
    assert course.post("prof", "/grade/week1/release") == 303
    assert course.post(mine, f"/grade/submissions/{alice}/toggle", item="design") == 303
    page = course.client("prof").get(f"/grade/submissions/{alice}").text
    assert f"{mine}, " in page and "names &rarr; design, names" in page
    assert "names &rarr;" not in course.client(mine).get(f"/grade/submissions/{alice}").text  # the teacher's log
    asked = course.post("alice", f"/submissions/{alice}/regrade", target="names", reason="Why?")
    assert asked == 303
    regrade = course.app.state.site.reviews.regrades("alice")[0]
    assert course.post(mine, f"/grade/regrades/{regrade.id}", text="ANSWER ONE") == 303
    assert course.post("prof", f"/grade/regrades/{regrade.id}", text="ANSWER TWO") == 303
    seen = course.client("alice").get(f"/submissions/{alice}/review").text
    assert "ANSWER ONE" in seen and "ANSWER TWO" in seen  # appended: the first stays


def test_a_file_named_with_quotes_and_markup_can_be_commented_on(course: Class) -> None:
    name = 'x"><img src=x onerror=alert(1)><svg onload=alert(2)>.py'
    reply = course.client("alice").post(
        "/problems/lanqiao/submit", data={"language": "python3"}, files={"file": (name, SOURCE)}
    )
    assert reply.status_code == 303, reply.text
    claim = course.store.claim(now=course.clock())
    assert claim is not None
    course.store.finish(claim, record("alice", "lanqiao", "AC", 100), now=course.clock())
    page = course.client("prof").get(f"/grade/submissions/{claim.id}").text
    at = html.unescape(re.findall(r'data-at="([^"]*):1"', page)[0])
    assert course.post("prof", f"/grade/submissions/{claim.id}/comment", at=f"{at}:1", text="here") == 303
    # As the student named it (the browser sent its quote as %22): the same file.
    assert course.post("prof", f"/grade/submissions/{claim.id}/comment", at=f"{name}:1", text="again") == 303
    assert {c.file for c in course.app.state.site.reviews.comments(claim.id)} == {at}
    assert "<svg onload" not in page


def test_a_released_grade_stays_on_its_submission_and_a_late_uncounted_one_cannot_be_graded(tmp_path: Path) -> None:
    """Hostile review 2, break 1: a grader touching a late submission that does not count moved
    the released grade onto it, and the late WA counted."""
    course = Class(tmp_path, KEEP_LAST)
    first = course.judged("alice", "lanqiao", "AC", 100)
    assert course.post("prof", f"/grade/submissions/{first}/toggle", item="design") == 303
    assert course.post("prof", f"/grade/submissions/{first}/done") == 303
    assert course.post("prof", "/grade/week1/release") == 303
    course.clock.set("2026-12-10 10:00")  # past the due date
    late = course.judged("alice", "lanqiao", "WA", 40)
    assert course.grades()["alice"]["week1:lanqiao"] == "104"  # the graded one keeps counting
    page = course.client("prof").get(f"/grade/submissions/{late}").text
    assert "This late submission does not count" in page and "Newer submission since grading" not in page
    assert course.post("prof", f"/grade/submissions/{late}/toggle", item="names") == 409
    assert course.post("prof", f"/grade/submissions/{late}/done") == 409
    assert course.grades()["alice"]["week1:lanqiao"] == "104"
    assert "Newer submission" not in course.client("prof").get(f"/grade/submissions/{first}").text
    assert "A clean design" in course.client("alice").get(f"/submissions/{first}/review").text  # still released
    reply = course.client("prof").get("/grade/lanqiao/next")  # every counted one graded: no late one offered
    assert f"/grade/submissions/{late}" not in reply.headers["location"]


def test_a_released_grade_that_stops_counting_is_logged_and_stays_on_its_submission(tmp_path: Path) -> None:
    course = Class(tmp_path, KEEP_LAST)
    first = course.judged("alice", "lanqiao", "AC", 100)
    assert course.post("prof", f"/grade/submissions/{first}/toggle", item="design") == 303
    assert course.post("prof", "/grade/week1/release") == 303
    course.clock.set("2026-12-03 10:00")
    newer = course.judged("alice", "lanqiao", "WA", 40)  # on time: it counts
    assert course.post("prof", f"/grade/submissions/{newer}/toggle", item="names") == 303
    assert course.grades()["alice"]["week1:lanqiao"] == "42"  # 40 + 4 - 2
    site = course.app.state.site
    old = site.reviews.grade_of(first)
    assert old is not None and old.applied == {"design"}  # the first grade is still its own
    page = course.client("prof").get(f"/grade/submissions/{newer}").text
    assert f"submission {first}: stops counting: submission {newer} counts now and is graded" in page


def test_replace_takes_the_late_penalty_off_the_grade_by_hand(tmp_path: Path) -> None:
    """Hostile review 2: under `replace` a late submission counted its full rubric score under
    the label "(late -10%)"; the course's late rule now holds for it, as the label says."""
    text = COURSE.replace(
        "  - id: week2\n    problems: [eight-digits]\n",
        "  - id: week2\n    problems: [eight-digits]\n    due: 2026-12-08 23:59\n"
        "    late: {penalty_per_day: 10, until: 2026-12-20 23:59}\n",
    )
    course = Class(tmp_path, text)
    course.clock.set("2026-12-09 10:00")  # late by under a day: -10%
    late = course.judged("alice", "eight-digits", "AC", 100)
    assert course.post("prof", f"/grade/submissions/{late}/toggle", item="works") == 303
    assert course.grades()["alice"]["week2:eight-digits"] == "18"  # 20 less 10%
    assert course.post("prof", "/grade/week2/release") == 303
    home = course.client("alice").get("/").text.split('data-problem="eight-digits"')[1].split("</tr>")[0]
    assert "18" in home and "(late -10%)" in home


def test_an_items_points_changed_after_the_release_is_logged_for_each_grade_it_changes(course: Class) -> None:
    alice = course.judged("alice", "lanqiao", "AC", 90)
    bob = course.judged("bob", "lanqiao", "AC", 80)
    assert course.post("prof", "/grade/lanqiao/items", points="3", description="Tests of your own") == 303
    assert course.post("prof", f"/grade/submissions/{alice}/toggle", item="+1") == 303
    assert course.post("prof", "/grade/week1/release") == 303
    assert course.post("prof", "/grade/lanqiao/items/+1", points="5") == 303
    page = course.client("prof").get(f"/grade/submissions/{alice}").text
    assert "prof, " in page and f"submission {alice}: item +1 now +5 points: score 93 -&gt; 95" in page
    assert "item +1" not in course.client("prof").get(f"/grade/submissions/{bob}").text.split("Changes after")[-1]
    assert "score 93" not in course.client("ta1").get(f"/grade/submissions/{alice}").text  # the teacher's log


def test_course_yamls_points_changed_after_the_release_are_logged(tmp_path: Path) -> None:
    """Hostile review 2: course.yaml's `design` 4 -> 1 after the release changed alice's released
    grade with no entry in the log."""
    course = Class(tmp_path)
    alice = course.judged("alice", "lanqiao", "AC", 90)
    assert course.post("prof", f"/grade/submissions/{alice}/toggle", item="design") == 303
    assert course.post("prof", "/grade/week1/release") == 303
    path = tmp_path / "course.yaml"
    path.write_text(COURSE.replace("{id: design, points: 4,", "{id: design, points: 1,"))
    stamp = path.stat().st_mtime_ns + 1_000_000_000  # a later save (not the same second)
    os.utime(path, ns=(stamp, stamp))
    course.app.state.site.watch.checked = -1e9  # looked at now, not in a second
    assert course.grades()["alice"]["week1:lanqiao"] == "91"
    page = course.client("prof").get(f"/grade/submissions/{alice}").text
    assert "course.yaml, " in page
    assert f"submission {alice}: course.yaml&#39;s points: design 4 -&gt; 1: score 94 -&gt; 91" in page


TEAM_COURSE = """\
title: Pairs 2026
timezone: Europe/Berlin
assignments:
  - id: pair
    problems: [lanqiao]
    due: 2026-12-20 23:59
    teams: {size: [2, 3], formed: students}
    review:
      manual: add
      max: 10
      regrade_days: 5
      rubric:
        lanqiao:
          - {id: names, points: -2, description: Names that say nothing}
"""


def test_a_teammate_reads_the_released_review_of_a_members_submission(tmp_path: Path) -> None:
    course = Class(tmp_path, TEAM_COURSE)
    course.tokens |= {u: course.store.add_user(u) for u in ("carol", "dave")}

    def join(student: str) -> None:
        book = course.app.state.site.team_book
        invitation = book.invites_for("pair", student)[0].id
        assert course.post(student, "/assignments/pair/team/accept", invitation=str(invitation)) == 303

    assert course.post("alice", "/assignments/pair/team/start") == 303
    assert course.post("alice", "/assignments/pair/team/invite", student="bob") == 303
    join("bob")
    first = course.judged("alice", "lanqiao", "WA", 90)
    assert course.post("prof", f"/grade/submissions/{first}/toggle", item="names") == 303
    assert course.post("prof", f"/grade/submissions/{first}/comment", text="Good start.") == 303
    assert course.client("prof").post(f"/grade/submissions/{first}/done", data={"done": "1"}).status_code == 303
    # bob leaves; alice's new team (with carol) does better without him.
    course.clock.set("2026-12-03 10:00")
    assert course.post("bob", "/assignments/pair/team/leave") == 303
    assert course.post("alice", "/assignments/pair/team/invite", student="carol") == 303
    join("carol")
    course.judged("carol", "lanqiao", "AC", 100)
    assert course.post("prof", "/grade/pair/release") == 303
    # bob's review is his own row's: 88 (his counted grade), not alice's 100 of the newer work.
    page = course.client("bob").get(f"/submissions/{first}/review").text
    assert "<b>88</b> / 110" in page and "Names that say nothing" in page and "Good start." in page
    assert [course.grades()[s]["pair:lanqiao"] for s in ("alice", "bob")] == ["100", "88"]
    # dave was never in the team: nothing of it, not even that it exists.
    assert course.client("dave").get(f"/submissions/{first}/review").status_code == 404
    assert course.post("dave", f"/submissions/{first}/regrade", target="names", reason="x") == 404
    # bob asks on the team's grade; alice reads it on her page, and cannot ask the same twice.
    assert course.post("bob", f"/submissions/{first}/regrade", target="names", reason="Our names say it.") == 303
    mine = course.client("alice").get(f"/submissions/{first}/review").text
    assert "Our names say it." in mine and "(asked by bob)" in mine
    assert course.post("alice", f"/submissions/{first}/regrade", target="names", reason="Again") == 409
    assert course.post("prof", f"/submissions/{first}/regrade", target="names", reason="x") == 403


def test_a_team_submission_is_dealt_and_graded_once(tmp_path: Path) -> None:
    course = Class(tmp_path, TEAM_COURSE)
    course.tokens |= {u: course.store.add_user(u) for u in ("carol", "dave")}
    site = course.app.state.site
    for starter, other in (("alice", "bob"), ("carol", "dave")):
        assert course.post(starter, "/assignments/pair/team/start") == 303
        assert course.post(starter, "/assignments/pair/team/invite", student=other) == 303
        invitation = site.team_book.invites_for("pair", other)[0].id
        assert course.post(other, "/assignments/pair/team/accept", invitation=str(invitation)) == 303
    first = course.judged("alice", "lanqiao", "AC", 100)
    second = course.judged("dave", "lanqiao", "WA", 50)
    dealt = course.client("prof").post("/grade/pair/deal")
    assert "2+submission(s)+dealt+to+2+grader(s)" in dealt.headers["location"]  # not one per member
    assert sorted(site.reviews.dealt("lanqiao")) == ["alice", "dave"]  # each under its author
    ta = grader_of(course, "lanqiao", "alice")
    assert course.post(ta, f"/grade/submissions/{first}/toggle", item="names") == 303
    assert course.client(ta).post(f"/grade/submissions/{first}/done", data={"done": "1"}).status_code == 303
    # Graded once, done for both members: the queues count submissions, not members.
    assert f"{ta}: 1 of 1" in course.client("prof").get("/grade").text
    assert '<td class="num progress">1 of 2</td>' in course.client("prof").get("/grade").text
    assert (
        "every+submission+of+lanqiao+in+your+queue+is+graded"
        in course.client(ta).get("/grade/lanqiao/next").headers["location"]
    )
    other = grader_of(course, "lanqiao", "dave")
    assert course.client(other).get("/grade/lanqiao/next").headers["location"].endswith(f"/submissions/{second}")
    assert [course.grades()[s]["pair:lanqiao"] for s in ("alice", "bob")] == ["98", "98"]
