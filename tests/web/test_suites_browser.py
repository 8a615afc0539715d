"""Issue 60 in Chromium: a tests problem's page is an editor of tests (rows added and removed,
an expected answer optional), its submission judged by the workers, and its result saying
which bugs were caught, at a desktop's width and a phone's, with axe-core."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from judge.author.making import generate, write
from judge.kinds.table import load_problem
from judge.problem.tables import TableStore
from tests import needs
from tests.kinds.tests import problems
from tests.kinds.tests import test_unit_suite as unit
from tests.web.conftest import Server, log_in
from tests.web.test_pages import ARGS, CHROMIUM, check_page

BUGS = """  points_per_bug: 5
  shows: hints
  bugs:
    - {path: solutions/wrong_answer/empty_part.py, title: Empty part, hint: What if every number is negative?}
    - {path: solutions/run_time_error/crash_on_one.py, title: Crash on one, hint: The shortest input}
"""


def _fill(page: object, index: int, name: str, given: str, answer: str = "") -> None:
    row = page.locator(".test-row").nth(index)  # type: ignore[attr-defined]
    row.locator(".test-name").fill(name)
    row.locator(".test-input").fill(given)
    row.locator(".test-answer").fill(answer)


@contextmanager
def _served(tmp_path: Path, root: Path, problem: str) -> Iterator[tuple[Any, str, str]]:
    """Chromium, the base address of the site serving a course of `problem`, and ana's token
    (each page logs in by `log_in`)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    (tmp_path / "course.yaml").write_text(f"title: C\nassignments:\n  - {{id: w, problems: [{problem}]}}\n")
    server = Server(root, tmp_path / "data")
    tokens = server.roster("ana")
    server.start()
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                yield browser, server.base, tokens["ana"]
            finally:
                browser.close()
    finally:
        server.stop()


@pytest.mark.slow
@needs.mark("chromium", "isolation", "python3")
def test_the_tests_editor_adds_and_removes_rows_and_shows_the_bugs_caught(tmp_path: Path) -> None:
    root = tmp_path / "problems"
    root.mkdir()
    problems.make(root, "sums-tests", BUGS)
    for pid in ("sums", "sums-tests"):
        made = load_problem(root / pid)
        write(made, generate(made, TableStore()))
    with _served(tmp_path, root, "sums-tests") as (browser, base, token):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        log_in(page, base, "ana", token)
        page.goto(base + "/problems/sums-tests")
        page.wait_for_selector("#tests-rows .test-row")
        assert page.locator("#source").is_hidden() and page.locator(".test-row").count() == 1
        _fill(page, 0, "negative", "3\n-5 -1 -8\n")
        page.click("#tests-add")
        page.click("#tests-add")
        assert page.locator(".test-row").count() == 3
        assert page.locator(".test-row .test-name").nth(2).input_value() == "02"
        _fill(page, 1, "two", "2\n7 8\n", "15\n")
        _fill(page, 2, "bad", "1 7\n")
        check_page(page, "tests-editor", 1280, tmp_path)
        page.locator(".test-row").nth(2).get_by_role("button", name="Remove this test").click()
        assert page.locator(".test-row").count() == 2
        page.click("#submit-button")
        page.wait_for_url("**/submissions/*")
        page.wait_for_selector("#tests-caught", timeout=120_000)
        assert page.inner_text("#tests-caught") == "Bugs caught: 1 of 2. Your tests: 2 of 2 valid."
        cases = page.inner_text("#cases")
        assert "caught by negative.in" in cases and "not caught: The shortest input" in cases
        source = page.inner_text("pre.source")
        assert "two.ans" in source and "bad.in" not in source  # the removed row is not sent
        url = page.url
        check_page(page, "tests-result", 1280, tmp_path)
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        log_in(phone, base, "ana", token)
        phone.goto(base + "/problems/sums-tests")
        phone.wait_for_selector("#tests-rows .test-row")
        check_page(phone, "tests-editor", 390, tmp_path)
        phone.goto(url)
        check_page(phone, "tests-result", 390, tmp_path)


@pytest.mark.slow
@needs.mark("chromium", "isolation", "pytest")
def test_a_unit_problems_editor_takes_a_pytest_file_and_shows_the_bugs_it_caught(tmp_path: Path) -> None:
    root = tmp_path / "problems"
    root.mkdir()
    problems.unit_of(root, unit.SPEC + "  shows: names\n", unit.THOROUGH.rsplit("\n\n\ndef test_wrong", 1)[0] + "\n")
    with _served(tmp_path, root, "stack-tests") as (browser, base, token):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        log_in(page, base, "ana", token)
        page.goto(base + "/problems/stack-tests")
        assert page.locator("#source").is_visible() and page.locator(".test-row").count() == 0
        assert page.locator("#source").input_value() == "== test_mine.py\n"
        page.fill("#source", "== test_mine.py\n" + unit.THOROUGH)
        check_page(page, "unit-tests-editor", 1280, tmp_path)
        page.click("#submit-button")
        page.wait_for_url("**/submissions/*")
        page.wait_for_selector("#tests-caught", timeout=120_000)
        assert page.inner_text("#tests-caught") == (
            "Bugs caught: 2 of 2. Your tests: 3 of 4 valid (an invalid one earns nothing: the cases below say why)."
        )
        assert "caught by test_mine-test_pop_gives_the_last_pushed" in page.inner_text("#cases")
        url = page.url
        check_page(page, "unit-tests-result", 1280, tmp_path)
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        log_in(phone, base, "ana", token)
        phone.goto(base + "/problems/stack-tests")
        check_page(phone, "unit-tests-editor", 390, tmp_path)
        phone.goto(url)
        check_page(phone, "unit-tests-result", 390, tmp_path)
