"""An exam in a real browser (Playwright driving Debian's Chromium) at a desktop's width and a
phone's: the student starts it and reads the timer bar, the teacher's exam page shows them in
and adds time by its form; nothing wider than the screen, no serious or critical axe-core
violation. JUDGE_SHOTS=DIR keeps the screenshots there, to be looked at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import needs
from tests.web.conftest import Server, log_in
from tests.web.test_pages import WIDTHS, check_page
from tests.web.test_pages import browser as browser  # the one Chromium of test_pages, a fixture

pytestmark = needs.mark("chromium")
# Opened long ago, due far ahead: the server runs on the real clock (the window's edges are
# tests/web/routes/test_exams.py's, with the clock moved).
COURSE = """\
title: Algorithms 2026
timezone: UTC
assignments:
  - id: midterm
    title: Midterm
    problems: [lanqiao]
    opens: 2026-01-01 00:00
    due: 2036-12-31 23:59
    exam: {duration: 40m, addresses: [127.0.0.0/8], one_session: true, lock_others: true}
  - id: week1
    problems: [eight-digits]
extensions:
  - {student: bo, assignment: midterm, extra: 20m}
"""


@pytest.fixture(scope="module")
def exam_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    from tests.grade.test_grading import small_problems

    root = tmp_path_factory.mktemp("exam")
    problems = small_problems(root / "problems")
    (root / "course.yaml").write_text(COURSE)
    server = Server(problems, root / "data", workers=1)
    tokens = server.roster("ana", "bo") | server.roster("prof", teacher=True)
    server.start()
    yield server, tokens
    server.stop()


def test_the_students_timer_and_the_teachers_exam_page(
    exam_site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path
) -> None:
    server, tokens = exam_site
    for (width, height), student in zip(WIDTHS, ("ana", "bo"), strict=True):
        page = browser.new_page(viewport={"width": width, "height": height})
        log_in(page, server.base, student, tokens[student])
        check_page(page, f"exam-home-{student}", width, tmp_path)
        page.click("#exam-midterm button[type=submit]")
        page.wait_for_url("**/problems/lanqiao")
        bar = page.locator("#exam-bar .exam-left")
        bar.wait_for()
        page.wait_for_function("document.querySelector('#exam-bar .exam-left').textContent.endsWith(' left')")
        assert bar.inner_text().startswith("59:" if student == "bo" else "39:")  # bo's 20 min extra
        check_page(page, f"exam-problem-{student}", width, tmp_path)
        page.close()
    for width, height in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": height})
        log_in(page, server.base, "prof", tokens["prof"])
        page.goto(f"{server.base}/teacher/exams/midterm")
        assert page.inner_text("#exam-counts").startswith("2 in the exam")
        check_page(page, f"exam-teacher-{width}", width, tmp_path)
        if width == WIDTHS[0][0]:
            page.select_option("#add-student", "ana")
            page.fill("#add-minutes", "5")
            page.fill("#add-why", "a late start")
            page.click("#add-time button[type=submit]")
            page.wait_for_selector("#message")
            assert "ana: time added (5 min: a late start) by prof" in page.inner_text("#exam-events")
            left = page.locator('tr[data-student="ana"] [data-exam-left]').get_attribute("data-exam-left")
            assert left is not None and int(left) > 40 * 60  # 40 min and the 5 added
        page.close()
