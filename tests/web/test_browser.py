"""A student in a real browser (Playwright driving the system Chromium, never a downloaded
one): log in, submit through the form, and see the verdict appear."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import PROBLEMS
from tests.web.conftest import Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (.ci/run installs it)")
def test_a_student_submits_in_the_browser(server: Server, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    tokens = server.roster("web01")
    source = (PROBLEMS / "sicily-rotations" / "solutions" / "accepted" / "cantor_table.c").read_text()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            page = browser.new_page()
            page.goto(server.base + "/problems/sicily-rotations")
            assert "Log in" in page.content()  # the 401 page leads to the login form
            page.goto(server.base + "/login")
            page.fill("#user", "web01")
            page.fill("#token", tokens["web01"])
            page.click("button[type=submit]")
            page.wait_for_selector("#problems")
            page.click("text=sicily-rotations")
            page.wait_for_selector("#statement")
            page.select_option("#language", "c")
            page.fill("#source", source)
            page.click("#submit ~ form button[type=submit]")
            # The page refreshes itself until the verdict is in.
            page.wait_for_selector("h1 .v.AC", timeout=120_000)
            assert "web01 / sicily-rotations" in page.inner_text("h1")
            # A student sees the sample case whole, and the secret cases as their groups.
            assert page.locator("#cases tr").count() == 2  # a header and the sample
            assert page.locator("#groups tr").count() == 5  # a header and the four groups
            assert "feedback level groups" in page.inner_text("#withheld")
            shot = tmp_path / "verdict.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 1000
        finally:
            browser.close()
