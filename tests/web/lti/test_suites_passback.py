"""A tests problem's score takes the way every kind's does (issue 60, item 2): one student's
suite judged by the judge's own workers (daemonic processes: the matrix runs in each), counted
by the gradebook's one rule, and the same number in the teacher's gradebook, grades.csv and
the LMS's line item."""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Iterator

import pytest

from judge.author.making import generate, write
from judge.kinds.table import load_problem
from judge.problem.tables import TableStore
from tests import needs
from tests.kinds.tests import problems
from tests.web.conftest import Server, judge_cli
from tests.web.lti.lms import Lms
from tests.web.lti.test_routes import LtiClient, launch, link, serve_with_lms
from tests.web.test_app import submitted_id

pytestmark = needs.mark("isolation", "python3")

BUGS = """  points_per_bug: 5
  bugs:
    - {path: solutions/wrong_answer/empty_part.py, title: Empty part}
    - {path: solutions/run_time_error/crash_on_one.py}
"""
COURSE = """\
title: Testing 2026
assignments:
  - id: week1
    title: Tests of sums
    problems: [sums-tests]
"""
# Catches the empty part (every number negative); the crash on one is not caught.
ONE_BUG = "== 01.in\n3\n-5 -1 -8\n"


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Lms, LtiClient]]:
    root = tmp_path_factory.mktemp("suites-lti")
    (root / "problems").mkdir()
    problems.make(root / "problems", "sums-tests", BUGS)
    for pid in ("sums", "sums-tests"):
        made = load_problem(root / "problems" / pid)
        write(made, generate(made, TableStore()))
    server, lms = serve_with_lms(root, root / "problems", COURSE)
    yield link(server, lms)
    server.stop()
    lms.stop()


def test_a_suites_score_is_the_gradebooks_the_csvs_and_the_lmss(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, lms, teacher = linked
    student = LtiClient(server.base)
    assert launch(student, lms, "s1").status == 303
    reply = student.post("/problems/sums-tests/submit", {"source": ONE_BUG})
    assert reply.status == 303, reply.body
    status = student.wait_done(submitted_id(reply.headers["location"]))
    assert (status["verdict"], status["score"]) == ("WA", 5.0), status
    # The LMS: the assignment's total out of its maximum.
    course = lms.courses["c1"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        given = [s for scores in course.scores.values() for s in scores if s["userId"] == "s1"]
        if given:
            break
        time.sleep(0.3)
    assert [(s["scoreGiven"], s["scoreMaximum"]) for s in given] == [(5.0, 10.0)]
    # grades.csv: the student's row has the same score in the problem's column.
    rows = list(csv.DictReader(io.StringIO(teacher.get("/teacher/grades.csv").body)))
    assert [(r["student"], r["week1:sums-tests"], r["week1"]) for r in rows if r["week1:sums-tests"]] == [
        ("s1001", "5", "5")
    ]
    # The CSVs of judge gradebook: Canvas' and Moodle's imports carry the same assignment score.
    for layout in ("canvas", "moodle"):
        made = judge_cli(
            "--problems", str(server.problems), "gradebook", "--data", str(server.data), "--format", layout
        )
        (line,) = [line for line in made.splitlines() if "s1001" in line]
        assert ",5" in line and ",10" not in line, (layout, made)
    # The teacher's gradebook page counts it as well.
    book = teacher.get("/teacher/class").body
    row = re.search(r'<tr data-student="s1001">.*?</tr>', book, re.S)
    assert row is not None and '<span class="v WA">5</span>' in row.group(0), book[-3000:]
    assert '<td class="num total">5</td>' in row.group(0)
