"""A rejudge sends the LMS only the scores it changed: with the LMS of the LTI tests, a fixed
test that moves one student's counted score (and another's submission that does not count)
sends that one student's new score, and nothing to anyone else."""

from __future__ import annotations

import shutil
import time

import pytest

from tests.web.conftest import Server, judge_cli
from tests.web.lti.lms import Lms
from tests.web.lti.test_routes import LtiClient, launch, linked, setup
from tests.web.test_app import ACCEPTED, PROBLEM, WRONG, submitted_id

__all__ = ["linked", "setup"]  # the fixtures: a judge serving, linked to the test LMS


def _wait(check: object, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.3)
    raise AssertionError(f"not within {timeout} s: {what}")


@pytest.mark.slow
def test_only_the_scores_a_rejudge_changed_reach_the_lms(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, lms, teacher = linked
    course = lms.courses["c1"]

    def given(sub: str) -> list[float]:
        return [s["scoreGiven"] for scores in course.scores.values() for s in scores if s["userId"] == sub]

    for sub, sources in (("s1", (WRONG, ACCEPTED)), ("s3", (WRONG,))):
        student = LtiClient(server.base)
        assert launch(student, lms, sub).status == 303
        for source in sources:
            reply = student.submit(PROBLEM, "main.c", source)
            assert reply.status == 303, reply.body
            student.wait_done(submitted_id(reply.headers["location"]))
    _wait(lambda: given("s1")[-1:] == [100] and given("s3"), "both scores sent")
    sent_s1, sent_s3 = given("s1"), given("s3")
    # The fix: a random case becomes boards already solved (every answer 0). The accepted
    # program still passes it; the one printing zeros now passes it too: s3's only submission
    # goes up, s1's wrong one as well, but s1's counted score (the accepted one) stays.
    tests = server.problems / PROBLEM / "tests"
    for suffix in (".in", ".ans"):
        shutil.copy(tests / "edge" / f"01{suffix}", next((tests / "random").glob(f"*{suffix}")))
    listed = judge_cli(
        "--problems", str(server.problems), "rejudge", "--dry-run", PROBLEM, "--data", str(server.data)
    ).splitlines()
    assert len(listed) == 1 and f"{sent_s3[-1]:g} -> " in listed[0], listed
    assert teacher.post("/teacher/rejudging/commit", {}).status == 303
    _wait(lambda: len(given("s3")) > len(sent_s3), "the changed score sent")
    assert given("s3")[-1] > sent_s3[-1]
    time.sleep(3)  # a few rounds of the passback (every second): nothing more goes
    assert given("s1") == sent_s1 and len(given("s3")) == len(sent_s3) + 1
