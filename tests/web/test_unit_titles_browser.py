"""Issue 59, item 4 in Chromium: a unit problem's submission shows one table of its tests by
their titles (@number, else a readable name), in the order of their numbers, at a desktop's
width and a phone's, with axe-core."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import needs
from tests.test_cli import judge
from tests.web.conftest import Server, log_in, write_code
from tests.web.test_pages import ARGS, CHROMIUM, check_page


@pytest.mark.slow
@needs.mark("chromium", "isolation", "pytest")
def test_a_unit_submission_shows_its_tests_by_title(tmp_path: Path) -> None:
    from judge.author import scaffold

    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "stack", "python3", kind="unit")
    public = problems / "stack" / "unit" / "public" / "test_stack.py"
    text = public.read_text().replace("import weight\n", "import number, weight\n")
    text = text.replace("@weight(2)\ndef test_push_then_pop", '@weight(2)\n@number("1.10")\ndef test_push_then_pop')
    public.write_text(text.replace("def test_peek_leaves_the_top", '@number("1.2")\ndef test_peek_leaves_the_top'))
    assert judge("--problems", str(problems), "gen", "stack").returncode == 0
    (tmp_path / "course.yaml").write_text(
        "title: C\ndefault_language: python3\nassignments:\n  - {id: w, problems: [stack]}\n"
    )
    answer = next((problems / "stack" / "solutions" / "accepted").iterdir()).read_text()
    server = Server(problems, tmp_path / "data")
    tokens = server.roster("ana")
    server.start()
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                log_in(page, server.base, "ana", tokens["ana"])
                page.goto(server.base + "/problems/stack")
                page.wait_for_selector("#submit-form[data-editor=ace]")
                write_code(page, answer)
                page.click("#submit-button")
                page.wait_for_selector("#tests", timeout=120_000)
                titles = page.eval_on_selector_all("#tests tr td:first-child", "cells => cells.map(c => c.textContent)")
                assert titles[:3] == ["1.2 peek leaves the top", "1.10 push then pop", "an empty stack raises"]
                assert page.locator("#groups").count() == 0 and page.locator("#cases").count() == 0
                url = page.url
                check_page(page, "unit-titles-1280", 1280, tmp_path)
                phone = browser.new_page(viewport={"width": 390, "height": 844})
                log_in(phone, server.base, "ana", tokens["ana"])
                phone.goto(url)
                check_page(phone, "unit-titles-390", 390, tmp_path)
            finally:
                browser.close()
    finally:
        server.stop()
