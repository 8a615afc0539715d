"""The grading page in a real browser (Playwright driving Debian's Chromium), as a teaching
assistant uses it, at a desktop's width and a phone's: by keys (a digit toggles a rubric item,
a click on a line number and `c` comment it, `d` is done and next), nothing wider than the
screen, no serious or critical axe-core violation; then the student's released grade.

JUDGE_SHOTS=DIR keeps the screenshots there, to be looked at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge.web.state.store import Store
from tests import needs
from tests.web.conftest import Server, log_in
from tests.web.test_pages import ARGS, CHROMIUM, WIDTHS, check_page

pytestmark = needs.mark("chromium")
PROGRAM = b"import sys\n\n\ndef main():\n    data = sys.stdin.read().split()\n    print(len(data))\n\n\nmain()\n"


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str], list[int]]]:
    from tests.grade.test_grading import small_problems

    root = tmp_path_factory.mktemp("grading")
    problems = small_problems(root / "problems")
    (root / "course.yaml").write_text(
        "title: Algorithms 2026\nassignments:\n  - id: week1\n    problems: [lanqiao]\n    review:\n"
        "      max: 10\n      rubric:\n        lanqiao:\n"
        "          - {id: names, points: -2, description: Names that say nothing, group: style}\n"
        "          - {id: structure, points: -1, description: One long function, group: style}\n"
        "          - {id: tests, points: 3, description: Tests of your own}\n"
        "      caps: {style: 2}\n"
    )
    server = Server(problems, root / "data")
    tokens = server.roster("ana", "bo") | server.roster("prof", teacher=True)
    tokens["ta1"] = Store(root / "data").add_user("ta1", "ta")
    server.start()
    ids = []
    for student in ("ana", "bo"):
        client = server.client()
        assert client.login(student, tokens[student]).status == 303
        reply = client.submit("lanqiao", "main.py", PROGRAM)
        ids.append(int((reply.headers.get("location") or reply.headers["Location"]).rsplit("/", 1)[1]))
        client.wait_done(ids[-1])
    yield server, tokens, ids
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def test_a_ta_grades_by_keys_and_the_student_reads_the_release(
    graded: tuple[Server, dict[str, str], list[int]], browser: Any, tmp_path: Path
) -> None:
    server, tokens, ids = graded
    for done, ((width, height), sid) in enumerate(zip(WIDTHS, ids, strict=True)):
        page = browser.new_page(viewport={"width": width, "height": height})
        log_in(page, server.base, "ta1", tokens["ta1"])
        page.goto(f"{server.base}/grade/submissions/{sid}")
        page.keyboard.press("1")  # the first item, by its key
        page.wait_for_selector('#items button[data-key="1"][aria-pressed="true"]')
        page.click('.listing .line .ln[data-at="main.py:4"]')
        page.click('.listing .line .ln[data-at="main.py:6"]', modifiers=["Shift"])
        assert page.input_value("#comment-at") == "main.py:4-6"
        page.keyboard.press("Escape")
        page.keyboard.press("c")
        page.keyboard.type("Name the list for what it holds: tiles.")
        page.click("#comment-form button[type=submit]")
        page.wait_for_selector(".note >> text=Name the list for what it holds")
        assert page.inner_text("#progress") == f"{done} of 2 graded"
        check_page(page, "grading", width, tmp_path)
        page.keyboard.press("d")  # done, and on to the next ungraded (the list's end: the overview)
        page.wait_for_url(f"**/grade/submissions/{ids[1]}" if done == 0 else "**/grade?message=*")
        page.close()
    for width, height in WIDTHS:  # the teacher's overview: progress per grader, then the release
        page = browser.new_page(viewport={"width": width, "height": height})
        log_in(page, server.base, "prof", tokens["prof"])
        page.goto(f"{server.base}/grade")
        assert page.inner_text('tr[data-problem="lanqiao"] .progress') == "2 of 2"
        check_page(page, "grade-overview", width, tmp_path)
        if width == WIDTHS[-1][0]:
            page.click("text=Release week1's grades")
            page.wait_for_selector("#message >> text=week1 released")
        page.close()
    for width, height in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": height})
        log_in(page, server.base, "ana", tokens["ana"])
        page.goto(f"{server.base}/submissions/{ids[0]}/review")
        assert "Names that say nothing" in page.inner_text("#applied")
        assert "Name the list for what it holds" in page.inner_text("main")
        check_page(page, "grade-released", width, tmp_path)
        page.close()
