"""A function problem in a real browser (Playwright driving the system Chromium, never a
downloaded one): its starter in the language the student picks, downloaded, and submitted.
Every other page: test_pages.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import needs
from tests.web.conftest import Server, log_in, write_code

CHROMIUM = needs.chromium()


@pytest.mark.slow
@needs.mark("chromium")
def test_a_student_takes_a_function_problems_starter_and_submits_it(tmp_path: Path) -> None:
    """The signature shown in the language the student picks, its file downloaded, a function
    submitted: at a desktop's width and a phone's."""
    from judge.author import scaffold
    from tests.test_cli import judge

    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "maxf", "python3", kind="functions")
    assert judge("--problems", str(problems), "gen", "maxf").returncode == 0
    server = Server(problems, tmp_path / "data")
    server.start()
    try:
        tokens = server.roster("web02")
        answer = (problems / "maxf" / "solutions" / "accepted" / "max_sum.py").read_text()
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            try:
                for width, height in ((1280, 900), (390, 844)):
                    page = browser.new_page(viewport={"width": width, "height": height}, accept_downloads=True)
                    log_in(page, server.base, "web02", tokens["web02"])
                    page.goto(server.base + "/problems/maxf")
                    assert "def max_sum(xs: list[int]) -> int:" in page.inner_text("#starter-text")
                    page.select_option("#starter-lang", "java")
                    page.click("#starter ~ form button[type=submit]")
                    page.wait_for_selector("text=public long max_sum(int[] xs)")
                    with page.expect_download() as download:
                        page.click("#starter-download")
                    assert download.value.suggested_filename == "Solution.java"
                    page.screenshot(path=str(tmp_path / f"starter-{width}.png"), full_page=True)
                    # Nothing wider than the phone's screen: the code scrolls inside its box.
                    assert page.evaluate("document.documentElement.scrollWidth") <= width
                    page.close()
                page = browser.new_page()
                log_in(page, server.base, "web02", tokens["web02"])
                page.goto(server.base + "/problems/maxf")
                page.select_option("#language", "python3")
                write_code(page, answer)
                page.click("#submit-form button[type=submit]")
                page.wait_for_selector("h1 .v.AC", timeout=120_000)
            finally:
                browser.close()
    finally:
        server.stop()
