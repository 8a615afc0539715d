"""How an explanation reads: the terminal's lines and the HTML section (escaped, no script),
and in a real browser the board moves (a frame mid-animation differs from the first)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from judge.explain.render import html_page, html_section, text_lines
from judge.explain.search import Explanation, Growth, Level, Move
from tests import needs

CHROMIUM = needs.chromium()
# The web judge's policy: scripts none at all, styles inline.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'"

WA = Explanation(
    problem="eight-digits",
    source="main.c",
    language="c",
    found=True,
    verdict="WA",
    message="token 1 (line 1): expected '2', got '<b>9</b>'",
    input="1 2 3 4 5 6 x 7 8\n",
    expected="2\n",
    output="<b>9</b>\n",
    distance=2,
    measure="distance",
    size_bytes=18,
    unreachable=False,
    cases=1,
    claimed="<b>9</b>",
    start=("1", "2", "3", "4", "5", "6", "x", "7", "8"),
    goal=("1", "2", "3", "4", "5", "6", "7", "8", "x"),
    blank="x",
    moves=(
        Move("slide 7 left", ("1", "2", "3", "4", "5", "6", "7", "x", "8")),
        Move("slide 8 left", ("1", "2", "3", "4", "5", "6", "7", "8", "x")),
    ),
    minimal=True,
    tle_from=None,
    growth=(Growth(1, 0.01, False), Growth(2, 0.01, False)),
    tried=3,
    runs=3,
    skipped=1,
    levels=(Level(0, 0, 0, 1, 1), Level(1, 1, 2, 2, 0), Level(2, 2, 1, 4, 0)),
    cpu_limit_s=1.0,
    budget_s=30.0,
    elapsed_s=0.4,
    found_after_s=0.3,
    sandbox="bwrap",
)
TLE = replace(
    WA,
    verdict="TLE",
    message="CPU time over the limit (1.01 s)",
    output=None,
    claimed=None,
    tle_from=2,
    growth=(Growth(0, 0.1, False), Growth(1, 0.4, False), Growth(2, 1.01, True)),
)
NOTHING = replace(
    WA, found=False, verdict=None, message="no failing input found", input=None, expected=None, output=None, moves=()
)


def test_the_terminal_gets_the_example_the_moves_and_the_growth() -> None:
    lines = text_lines(WA)
    assert lines[0] == "WA on distance 2; no smaller distance fails (each was tried whole)"
    assert "your program answered <b>9</b>; the least number of moves is 2:" in lines
    assert any(line.strip().startswith("1. slide 7 left") for line in lines)
    tle = text_lines(TLE)
    assert "over the time limit (1 s CPU) from distance 2 on" in tle and "your output: nothing" in tle
    assert tle[-1].strip().startswith("2") and tle[-1].endswith("over")
    assert text_lines(NOTHING)[0].startswith("no failing input found: 3 inputs tried")


def test_the_html_escapes_the_program_s_output_and_has_no_script() -> None:
    html = str(html_section(WA))
    assert "<b>9</b>" not in html and "&lt;b&gt;9&lt;/b&gt;" in html
    assert "<script" not in html and "@keyframes" in html and html.count('class="tile') == 8
    assert "<polyline" not in html  # a plot only for a TLE
    assert "<polyline" in str(html_section(TLE)) and "limit 1 s" in str(html_section(TLE))
    assert "Not found" in str(html_section(NOTHING))


@needs.mark("chromium")
def test_the_board_moves_in_a_browser_under_the_web_judge_s_policy(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    page_html = html_page(WA)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            blocked: list[str] = []
            page.on(
                "console", lambda message: blocked.append(message.text) if "Content Security" in message.text else None
            )
            page.route(
                "http://judge.test/explain",
                lambda route: route.fulfill(
                    status=200, body=page_html, headers={"Content-Type": "text/html", "Content-Security-Policy": CSP}
                ),
            )
            page.goto("http://judge.test/explain")
            board = page.locator("svg.board").first
            # Pin the animations at their first frame, then at the middle of the first move.
            page.evaluate("document.getAnimations().forEach(a => { a.pause(); a.currentTime = 0; })")
            first = board.screenshot(path=str(tmp_path / "first.png"))
            total_ms = page.evaluate("document.getAnimations()[0].effect.getComputedTiming().duration")
            page.evaluate(f"document.getAnimations().forEach(a => {{ a.currentTime = {total_ms} * 1.3 / 4; }})")
            middle = board.screenshot(path=str(tmp_path / "middle.png"))
            assert page.evaluate("document.getAnimations().length") == 8
            assert first != middle
            assert not blocked, blocked
        finally:
            browser.close()


def test_a_functions_example_shows_the_call_and_the_returned_value_not_your_output_nothing() -> None:
    """Issue 59: Explain on a function said "Your output: nothing" beside "expected 1, got 0"."""
    call = replace(
        WA,
        problem="maxf",
        moves=(),
        input="[[1]]\n",
        expected="1\n",
        output=None,
        returned=True,
        message="max_sum([1]): expected 1, got 0",
    )
    html = str(html_section(call))
    assert "Your output" not in html and "The call's arguments" in html
    assert "max_sum([1]): expected 1, got 0" in html and "what the reference returned" in html
