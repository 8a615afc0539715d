"""The teacher's and teaching assistants' pages around review in a real browser (Playwright
driving Debian's Chromium), at a desktop's width and a phone's: the roster with names, every
submission filtered, the figures per problem, the case page with inputs and "failed only",
and the similarity report. Nothing wider than the screen; no serious or critical axe-core
violation. JUDGE_SHOTS=DIR keeps the screenshots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests import needs
from tests.test_cli import judge
from tests.web.conftest import Server, judge_cli, log_in
from tests.web.test_pages import ARGS, CHROMIUM, WIDTHS, check_page

pytestmark = [needs.mark("chromium"), pytest.mark.slow]


def _class(tmp_path: Path) -> tuple[Server, dict[str, str], int]:
    """A class of three with names and a TA, each student's program judged: ana right, bo and
    cy wrong (cy's a copy of bo's, renamed)."""
    from judge.author import scaffold

    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "maxsum", "python3")
    made = judge("--problems", str(problems), "gen", "maxsum")
    assert made.returncode == 0, made.stderr
    server = Server(problems, tmp_path / "data")
    roster = tmp_path / "class.csv"
    roster.write_text(
        "id,name,email,section,role\n"
        "ana,Ana Álvarez,ana@uni.edu,A1,\nbo,Bo Brandt,bo@uni.edu,A1,\ncy,Cy Chen,cy@uni.edu,B2,\n"
        "tam,Tam Tran,tam@uni.edu,,ta\n"
    )
    out = judge_cli("roster", "import", str(roster), "--data", str(server.data))
    tokens = dict(line.split(",", 1) for line in out.splitlines())
    server.start()
    right = (problems / "maxsum" / "solutions" / "accepted" / "ref.py").read_bytes()
    wrong = b"import sys\nnumbers = sys.stdin.read().split()\nprint(max(int(n) for n in numbers[1:]))\n"
    copied = wrong.replace(b"numbers", b"values")
    last = 0
    for student, program in (("ana", right), ("bo", wrong), ("cy", copied)):
        client = server.client()
        client.login(student, tokens[student])
        location = client.submit("maxsum", "main.py", program).headers["location"]
        last = int(location.rsplit("/", 1)[1])
        client.wait_done(last)
    return server, tokens, last


def test_the_review_side_pages_fit_a_phone_and_pass_axe(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    server, tokens, last = _class(tmp_path)
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                _walk(browser, server, tokens, last, tmp_path)
            finally:
                browser.close()
    finally:
        server.stop()


def _walk(browser: Any, server: Server, tokens: dict[str, str], last: int, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, server.base, "tam", tokens["tam"])
    # The filter form narrows the list, and the narrowed list is a link.
    page.goto(server.base + "/teacher/submissions")
    page.select_option("#f-verdict", "WA")
    page.click("#filters button[type=submit]")
    page.wait_for_url("**/teacher/submissions?*verdict=WA*")
    assert page.locator("#submissions tr[data-id]").count() == 2
    assert "Bo Brandt" in page.inner_text("#submissions") and "Ana" not in page.inner_text("#submissions")
    # The case page: collapsed, the first failed case open, "failed only" leaves the rest out.
    page.goto(server.base + f"/teacher/submissions/{last}/io")
    every = page.locator("details.case").count()
    assert every >= 2 and page.locator("details.case[open]").count() == 1
    assert page.locator("details.case[open] pre.input").count() == 1
    page.click("#case-filter a")
    page.wait_for_url("**failed=true")
    assert 0 < page.locator("details.case").count() < every
    paths = [
        "/teacher",
        "/teacher/people",
        "/teacher/submissions?verdict=WA&problem=maxsum",
        "/teacher/problems",
        "/teacher/problems/maxsum",
        f"/teacher/submissions/{last}/io",
        f"/teacher/submissions/{last}/io?failed=true",
        "/teacher/similarity",
        "/teacher/similarity/maxsum",
    ]
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        for path in paths:
            reply = page.goto(server.base + path)
            assert reply.status == 200, path
            name = "ta" + path.replace("/", "-").replace("?", "-").replace("&", "-").replace("=", "-")
            check_page(page, name, width, tmp_path)
    assert "Cy Chen" in page.inner_text("body") or "cy" in page.inner_text("body")  # the similarity page
    page.goto(server.base + "/teacher/people")
    assert "tam@uni.edu" in page.inner_text("#people") and "B2" in page.inner_text("#people")
    page.close()
