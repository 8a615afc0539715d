"""A student's team page in a real browser (Playwright driving Debian's Chromium) at a desktop's
width and a phone's: one starts a team and invites, the other reads the invitation and accepts
it; nothing wider than the screen, no serious or critical axe-core violation. JUDGE_SHOTS=DIR
keeps the screenshots there, to be looked at."""

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
COURSE = """\
title: Algorithms 2026
timezone: UTC
assignments:
  - id: pair
    title: Pair work
    problems: [lanqiao]
    opens: 2026-01-01 00:00
    due: 2036-12-31 23:59
    teams: {size: [2, 3], formed: students}
  - id: week1
    problems: [eight-digits]
"""


@pytest.fixture(scope="module")
def team_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    from tests.grade.test_grading import small_problems

    root = tmp_path_factory.mktemp("teams")
    problems = small_problems(root / "problems")
    (root / "course.yaml").write_text(COURSE)
    server = Server(problems, root / "data", workers=1)
    tokens = server.roster("ana", "bo", "cy", "di")
    server.start()
    yield server, tokens
    server.stop()


def test_the_students_team_page(team_site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path) -> None:
    server, tokens = team_site
    for (width, height), (starter, invited) in zip(WIDTHS, (("ana", "bo"), ("cy", "di")), strict=True):
        page = browser.new_page(viewport={"width": width, "height": height})
        log_in(page, server.base, starter, tokens[starter])
        page.click("#assignment-pair a[href$='/assignments/pair/team']")
        page.wait_for_url("**/assignments/pair/team")
        check_page(page, f"team-none-{width}", width, tmp_path)
        page.click("text=Start a team")
        page.fill("#invite-student", invited)
        page.click("#team button:has-text('Invite')")
        page.wait_for_selector(f"text=Invited, not answered yet: {invited}.")
        check_page(page, f"team-starter-{width}", width, tmp_path)
        page.close()
        page = browser.new_page(viewport={"width": width, "height": height})
        log_in(page, server.base, invited, tokens[invited])
        page.goto(f"{server.base}/assignments/pair/team")
        assert f"{starter} invites you" in page.inner_text("#invitations")
        check_page(page, f"team-invited-{width}", width, tmp_path)
        page.click("#invitations button:has-text('Accept')")
        page.wait_for_selector("#team")
        assert page.inner_text("#team .members") == f"{starter}\n{invited} (you)"
        check_page(page, f"team-member-{width}", width, tmp_path)
        page.close()
