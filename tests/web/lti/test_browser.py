"""The judge inside the LMS's page, in Chromium: the LMS (on `localhost`) frames the judge (on
127.0.0.1, another site), the launch runs in the frame, and the student lands signed in, at a
desktop's width and a phone's. Debian's Chromium, never a downloaded one."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from tests import needs
from tests.grade.test_grading import small_problems
from tests.web.conftest import Server, judge_cli
from tests.web.lti.lms import CLIENT_ID, DEPLOYMENT, INSTRUCTOR, LEARNER, Course, Lms, Person
from tests.web.lti.test_routes import COURSE
from tests.web.test_pages import WIDTHS, check_page, shot

CHROMIUM = needs.chromium()


def _teacher_adds_the_judge(browser: Any, server: Server, lms: Lms, token: str, tmp_path: Path) -> None:
    """The teacher's pages of LTI, each at both widths through the overflow and axe checks: the
    offer to link the LMS course, the pick of an assignment (posted back to the LMS by
    lti.js), and the teacher's page of what LTI did."""
    for width, height in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{server.base}/lti/login?{urlencode(lms.login_params('t1', 'c1'))}")
        if width == WIDTHS[0][0]:
            page.wait_for_selector("#link")
            check_page(page, "lti-link", width, tmp_path)
            page.fill("#user", "prof")
            page.fill("#token", token)
            page.click("#link")
            page.wait_for_selector("nav.top form.who")
        page.goto(f"{server.base}/lti/login?{urlencode(lms.login_params('t1', 'c1', 'deeplink'))}")
        page.wait_for_selector("#add")
        check_page(page, "lti-pick", width, tmp_path)
        if width == WIDTHS[0][0]:
            page.click("#add")
            page.wait_for_selector("#added")  # the LMS took the signed choice
            assert "week1" in page.inner_text("#added")
        page.goto(f"{server.base}/teacher/lti")
        check_page(page, "lti-teacher", width, tmp_path)
        page.close()


@pytest.mark.slow
@needs.mark("chromium")
def test_a_student_opens_the_judge_inside_the_lms_page(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    problems = small_problems(tmp_path / "problems")
    (tmp_path / "course.yaml").write_text(COURSE)
    server = Server(problems, tmp_path / "data")
    lms = Lms(server.base, host="localhost")
    people = [
        Person("t1", "Tess", "tess@school.edu", INSTRUCTOR),
        Person("s1", "Sam", "sam@school.edu", LEARNER, "s1001"),
    ]
    lms.courses["c1"] = Course("c1", "CS 101", people)
    lms.start()
    judge_cli(
        "lti", "add-platform", "--issuer", lms.issuer, "--client-id", CLIENT_ID, "--deployment", DEPLOYMENT,
        "--login-url", f"{lms.base}/auth", "--token-url", f"{lms.base}/token", "--keys-url", f"{lms.base}/jwks",
        "--data", str(server.data),
    )  # fmt: skip
    server.start()
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            try:
                token = server.roster("prof", teacher=True)["prof"]
                _teacher_adds_the_judge(browser, server, lms, token, tmp_path)
                for width, height in WIDTHS:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(f"{lms.base}/courses/c1/play?sub=s1&custom=problem:sicily-rotations")
                    frame = page.frame_locator("#tool")
                    who = frame.locator("nav.top form.who .meta")
                    who.wait_for(timeout=30_000)
                    assert who.inner_text() == "s1001"
                    assert frame.locator("h1").first.inner_text() != ""
                    shot(page, f"lti-frame-{width}", tmp_path)
                    page.close()
            finally:
                browser.close()
    finally:
        server.stop()
        lms.stop()
