"""A team's submission at the LMS of the LTI tests (issue 61, item 2): two students who came in
from the LMS form a team on its page, one submits, the judge's worker judges it, and the LMS's
line item gets the same score for each member (and nothing for a classmate in no team); the
teacher's grades.csv has it in both rows."""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Iterator

import pytest

from tests.grade.test_grading import small_problems
from tests.web.conftest import Server
from tests.web.lti.lms import Lms
from tests.web.lti.test_routes import LtiClient, launch, link, serve_with_lms
from tests.web.test_app import ACCEPTED, PROBLEM, submitted_id

COURSE = """\
title: Puzzles 2026
assignments:
  - id: week1
    title: Rotations in pairs
    problems: [sicily-rotations]
    teams: {size: [2, 3], formed: students}
"""


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Lms, LtiClient]]:
    root = tmp_path_factory.mktemp("teams-lti")
    server, lms = serve_with_lms(root, small_problems(root / "problems"), COURSE)
    yield link(server, lms)
    server.stop()
    lms.stop()


def _signed_in(server: Server, lms: Lms, sub: str) -> tuple[LtiClient, str]:
    """A student launched from the LMS, and their id on the judge (the page's top bar)."""
    student = LtiClient(server.base)
    assert launch(student, lms, sub).status == 303
    found = re.search(r'class="who"><span class="meta">([^<]+)</span>', student.get("/").body)
    assert found is not None
    return student, found.group(1).strip()


def test_the_lms_gets_a_team_submission_for_each_member(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, lms, teacher = linked
    (ann, ann_id), (kim, kim_id) = _signed_in(server, lms, "s1"), _signed_in(server, lms, "s2")
    _signed_in(server, lms, "s3")
    assert ann.post("/assignments/week1/team/start", {}).status == 303
    assert ann.post("/assignments/week1/team/invite", {"student": kim_id}).status == 303
    invitation = re.search(r'name="invitation" value="(\d+)"', kim.get("/assignments/week1/team").body)
    assert invitation is not None
    assert kim.post("/assignments/week1/team/accept", {"invitation": invitation.group(1)}).status == 303
    reply = ann.submit(PROBLEM, "main.c", ACCEPTED)
    assert reply.status == 303, reply.body
    assert ann.wait_done(submitted_id(reply.headers["location"]))["verdict"] == "AC"
    course = lms.courses["c1"]

    def given() -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        for scores in course.scores.values():
            for score in scores:
                found.setdefault(score["userId"], []).append(score["scoreGiven"])
        return found

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(given()) < 2:
        time.sleep(0.3)
    assert given() == {"s1": [100], "s2": [100]}  # s3, in no team, gets nothing
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(teacher.get("/teacher/grades.csv").body))}
    assert rows[ann_id]["week1"] == rows[kim_id]["week1"] == "100"
