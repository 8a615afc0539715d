"""Every page of the web judge in a real browser (Playwright driving Debian's Chromium), as a
student and a teacher see it, at a desktop's width and a phone's: nothing wider than the
screen, no serious or critical accessibility violation (axe-core), the statement's math as
MathML, the code editor, results that arrive case by case and an explanation that replaces its
note, both without a reload.

JUDGE_SHOTS=DIR keeps the screenshots there, to be looked at."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import needs
from tests.test_cli import judge
from tests.web.conftest import Server, log_in, write_code

CHROMIUM = needs.chromium()
pytestmark = needs.mark("chromium")
WIDTHS = ((1280, 900), (390, 844))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]

# Right, but slow enough per case (a quarter second asleep) that the cases are seen to arrive.
SLOW_RIGHT = """\
import time
time.sleep(0.25)
n = int(input())
best, here = None, 0
for x in map(int, input().split()):
    here = max(x, here + x)
    best = here if best is None else max(best, here)
print(best)
"""
# Wrong on a list of one number: explain finds that small input.
WRONG = """\
n = int(input())
xs = list(map(int, input().split()))
best = 0
here = 0
for x in xs:
    here = max(0, here + x)
    best = max(best, here)
print(best)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    from judge.author import scaffold
    from tests.grade.test_grading import small_problems

    root = tmp_path_factory.mktemp("pages")
    problems = small_problems(root / "problems")
    scaffold.create(problems, "maxsum", "python3")
    scaffold.create(problems, "stack", "python3", kind="unit")  # its page shows test files
    for problem in ("maxsum", "stack"):
        made = judge("--problems", str(problems), "gen", problem)
        assert made.returncode == 0, made.stderr
    every = sorted(p.name for p in problems.iterdir() if (p / "problem.yaml").is_file())
    (root / "course.yaml").write_text(
        "title: Algorithms 2026\ntimezone: Europe/Berlin\nassignments:\n"
        f"  - {{id: week1, title: Week one, problems: [{', '.join(every)}], opens: 2026-01-01 09:00,\n"
        "     due: 2099-12-31 23:59, max_submissions: 50, scoreboard: named,\n"
        "     announcement: Read each statement twice.}\n"
    )
    server = Server(problems, root / "data", extra=("--explain-budget", "20", "--explains-per-hour", "5"))
    tokens = server.roster("ana", "bo") | server.roster("prof", teacher=True)
    server.start()
    yield server, tokens
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def _login(browser: Any, server: Server, user: str, token: str, width: int = 1280, height: int = 900) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    log_in(page, server.base, user, token)
    return page


def until(page: Any, script: str) -> None:
    """Wait until `script` is true in the page, as Playwright's own waits do (its default
    timeout), by evaluating it from here: not subject to the page's CSP."""
    deadline = time.monotonic() + 30
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"not true within Playwright's 30 s: {script}"
        page.wait_for_timeout(100)


def shot(page: Any, name: str, tmp_path: Path) -> None:
    folder = Path(os.environ.get("JUDGE_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def check_page(page: Any, name: str, width: int, tmp_path: Path, axe: bool = True) -> None:
    """No horizontal overflow; with `axe`, no serious or critical axe-core violation."""
    from axe_playwright_python.sync_playwright import Axe

    shot(page, f"{name}-{width}", tmp_path)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{name} at {width} px is {wide} px wide"
    if not axe:
        return
    found = Axe().run(page).response["violations"]
    bad = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{name} at {width} px: {bad}"


def _submit(page: Any, code: str, language: str) -> str:
    page.select_option("#language", language)
    write_code(page, code)
    page.click("#submit-form button[type=submit]")
    page.wait_for_url("**/submissions/*")
    return str(page.url)


@pytest.mark.slow
def test_every_page_fits_a_phone_and_passes_axe(
    site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path
) -> None:
    server, tokens = site
    anonymous = browser.new_page(viewport={"width": 390, "height": 844})
    anonymous.goto(server.base + "/")
    assert anonymous.locator("form[action='/login']").count() == 1  # the root is the login form
    assert anonymous.inner_text("h1") == "Algorithms 2026: log in"  # under the course's title
    check_page(anonymous, "login", 390, tmp_path)
    student = _login(browser, server, "ana", tokens["ana"])
    student.goto(server.base + "/problems/maxsum")
    first = _submit(student, SLOW_RIGHT, "python3")
    # Judging: a student at the groups level sees the public cases tick off, and of the secret
    # ones nothing but a note until the result (their 20 cases take 5 s): once the samples are
    # shown it says the hidden tests are being judged, with the browser's own clock (issue 59).
    student.wait_for_selector("#count:has-text('judging the hidden tests')", timeout=60_000)
    assert "secret cases" in student.inner_text("#secret-note") and student.locator("#live li").count() == 2
    assert student.inner_text("#waited").startswith("(waiting 0:")
    check_page(student, "pending", 1280, tmp_path)
    student.wait_for_selector("h1 .v.AC", timeout=120_000)
    # The result as the groups level shows it: each sample whole, each secret group as passed or not.
    assert student.locator("#cases tr").count() == 3  # a header and the two samples
    assert student.locator("#groups tr").count() == 5  # a header and the four groups
    assert "feedback level groups" in student.inner_text("#withheld")
    teacher = _login(browser, server, "prof", tokens["prof"])
    number = first.rsplit("/", 1)[1]
    pages = {
        "student": (
            student,
            [
                "/",
                "/problems/maxsum",
                "/problems/lanqiao",
                "/problems/stack",
                "/submissions",
                f"/submissions/{number}",
                "/assignments/week1/scoreboard",
            ],
        ),
        "teacher": (
            teacher,
            [
                "/teacher",
                "/teacher/class",
                "/teacher/assignments/week1",
                "/teacher/submissions",
                "/teacher/students/ana",
                "/teacher/lti",
                "/teacher/rejudging",
                f"/submissions/{number}",
                f"/teacher/submissions/{number}/io",
            ],
        ),
    }
    for width, height in WIDTHS:
        for who, (page, paths) in pages.items():
            page.set_viewport_size({"width": width, "height": height})
            for path in paths:
                reply = page.goto(server.base + path)
                assert reply.status == 200, path
                # axe-core once a page (at the phone's width, where reflow matters); overflow at both.
                check_page(page, f"{who}{path.replace('/', '-')}", width, tmp_path, axe=width < 1000)
    # A dry run from the dashboard: its progress, then its list (here: no score moves), at both widths.
    teacher.goto(server.base + "/teacher")
    teacher.select_option("#dry-run-problem", "maxsum")
    teacher.click("text=Dry run: whose score moves")
    teacher.wait_for_selector("#summary", timeout=120_000)
    assert "no student's counted score would change" in teacher.inner_text("#summary")
    for width, height in WIDTHS:
        teacher.set_viewport_size({"width": width, "height": height})
        check_page(teacher, "teacher-rejudging-done", width, tmp_path, axe=width < 1000)
    # The teacher's pages are titled and linked as the teacher's; a student's page shows no sandbox mode.
    teacher.goto(server.base + "/teacher/submissions")
    assert teacher.title().startswith("Every submission") and "My submissions" not in teacher.inner_text("nav")
    teacher.goto(server.base + f"/submissions/{number}")
    assert "Every submission" in teacher.inner_text("#bar") and "sandbox" in teacher.inner_text("main")
    student.goto(server.base + f"/submissions/{number}")
    assert "sandbox" not in student.inner_text("main").lower()
    assert "Submit again" in student.inner_text("#bar") and "maxsum" in student.inner_text("#bar")
    teacher.goto(server.base + f"/teacher/submissions/{number}/io")
    assert teacher.locator("pre.expected").count() >= 2  # the expected answer beside each output


def test_a_statement_shows_math_as_mathml_and_its_samples_once(
    site: tuple[Server, dict[str, str]], browser: Any
) -> None:
    server, tokens = site
    page = _login(browser, server, "bo", tokens["bo"])
    page.goto(server.base + "/problems/maxsum")
    statement = page.inner_text("#statement")
    assert "$" not in statement and "\\le" not in statement and "<sub>" not in statement
    assert page.locator("#statement math").count() >= 5
    # MathML laid out by the browser, not shown as text: a fraction-free sum has a real height.
    box = page.locator("#statement math").first.bounding_box()
    assert box is not None and box["height"] > 5
    assert page.locator("section.sample").count() == 2 and "Samples" not in statement
    assert page.locator("button.copy").count() == 4  # input and output of each sample


def test_the_editor_indents_with_tab_and_remembers_the_code(site: tuple[Server, dict[str, str]], browser: Any) -> None:
    server, tokens = site
    page = _login(browser, server, "bo", tokens["bo"])
    page.goto(server.base + "/problems/lanqiao")
    assert page.locator("#submit-form[data-editor=ace]").count() == 1 and not page.is_visible("#source")
    page.select_option("#language", "python3")
    # Ace loads a language's mode when it is chosen: its indenting rules arrive with it. Polled
    # from here: wait_for_function's own polling evaluates its text in the page, which the
    # judge's CSP (no unsafe-eval) refuses whenever the first check finds the mode not loaded.
    until(page, "ace.edit('editor').session.getMode().$id === 'ace/mode/python'")
    page.click("#editor .ace_content")
    page.keyboard.type("if True:")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.type("pass")
    value = page.evaluate("ace.edit('editor').getValue()")
    assert "\n" in value and value.split("\n")[1].startswith("        pass")  # auto-indent, then a Tab more
    assert page.locator("#editor .ace_keyword").count() >= 1  # highlighted as Python
    page.reload()
    assert page.evaluate("ace.edit('editor').getValue()") == value  # kept for this problem
    assert page.eval_on_selector("#language", "e => e.value") == "python3"


def test_a_refused_paste_keeps_the_code_and_without_scripts_the_form_is_a_textarea(
    site: tuple[Server, dict[str, str]], browser: Any
) -> None:
    server, tokens = site
    page = _login(browser, server, "bo", tokens["bo"])
    page.goto(server.base + "/problems/lanqiao")
    page.select_option("#language", "c")
    write_code(page, "int main() { \x00 }")
    page.click("#submit-form button[type=submit]")
    assert "binary" in page.inner_text("#message")
    # The refusal is a new page: its editor is made by its script once Ace has loaded, which a
    # busy machine can leave until after the message shows.
    page.wait_for_selector("#submit-form[data-editor=ace]")
    assert "int main()" in page.evaluate("ace.edit('editor').getValue()")
    plain = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        bare = plain.new_page()
        log_in(bare, server.base, "bo", tokens["bo"])
        bare.goto(server.base + "/problems/lanqiao")
        assert bare.is_visible("textarea#source") and bare.locator("#editor").count() == 0
    finally:
        plain.close()


def test_results_arrive_case_by_case_without_a_reload(
    site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path
) -> None:
    server, tokens = site
    teacher = _login(browser, server, "prof", tokens["prof"])
    teacher.goto(server.base + "/problems/maxsum")
    _submit(teacher, SLOW_RIGHT, "python3")
    teacher.evaluate("window.stayed = true")  # gone if the page reloads
    teacher.wait_for_selector("#count", timeout=60_000)
    seen = set()
    while teacher.locator("h1 .v.AC").count() == 0:
        # Read without waiting: the page swaps in the result (and the count goes) at any moment.
        for text in teacher.locator("#count").all_inner_texts():
            seen.add(text)
            if len(seen) == 3:
                shot(teacher, "live-1280", tmp_path)
        teacher.wait_for_timeout(100)
    assert teacher.evaluate("window.stayed === true")
    # Several counts were seen on the way ("case 3 of 22 judged", ...), each case ticked off.
    assert len(seen) >= 3, seen
    assert all(text.startswith("case ") and text.endswith(" judged") for text in seen)


@pytest.mark.slow
def test_the_explain_note_becomes_the_example_without_a_reload(
    site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path
) -> None:
    server, tokens = site
    page = _login(browser, server, "bo", tokens["bo"], 390, 844)
    page.goto(server.base + "/problems/maxsum")
    _submit(page, WRONG, "python3")
    page.wait_for_selector("h1 .v.WA", timeout=120_000)
    number = page.url.rsplit("/", 1)[1]
    teacher = _login(browser, server, "prof", tokens["prof"])
    teacher.goto(server.base + f"/teacher/submissions/{number}/io")
    # Beside each wrong output, the answer; the first line that differs marked in both.
    assert teacher.locator("details.case mark.diff").count() >= 2
    assert "The first difference is on line 1." in teacher.inner_text("main")
    page.click("#explain button")
    page.wait_for_selector("#explain-note")
    page.evaluate("window.stayed = true")
    page.wait_for_selector("#explanation", timeout=120_000)
    assert page.evaluate("window.stayed === true") and page.locator("#explain-note").count() == 0
    check_page(page, "explained", 390, tmp_path)
