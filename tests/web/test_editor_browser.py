"""Issue 59's editor and Run in Chromium, at a desktop's width and a phone's, with axe-core: a first
visit is in the course's language with Ace's mode and indentation from the first keystroke,
the starter is in the editor, and a new language offers to swap an untouched starter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import needs
from tests.kinds.test_shown import make_positive
from tests.test_cli import judge
from tests.web.conftest import Server, log_in, write_code
from tests.web.test_pages import ARGS, CHROMIUM, check_page

pytestmark = needs.mark("chromium")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    from judge.author import scaffold

    root = tmp_path_factory.mktemp("editor")
    problems = root / "problems"
    problems.mkdir()
    scaffold.create(problems, "maxf", "python3", kind="functions")
    scaffold.create(problems, "sums", "cpp")  # a C++ reference: never the page's language
    scaffold.create(problems, "stack", "python3", kind="unit")  # names its starter/stack.py
    for problem in ("maxf", "sums", "stack"):
        assert judge("--problems", str(problems), "gen", problem).returncode == 0
    make_positive(problems)  # samples spelled apart by language: True in Python, true elsewhere
    (root / "course.yaml").write_text(
        "title: C\ndefault_language: python3\nassignments:\n"
        "  - {id: w, problems: [maxf, sums, stack, positive], max_submissions: 5}\n"
    )
    server = Server(problems, root / "data")
    tokens = server.roster("ana", "bo", "cy", "di", "ed")
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


def test_a_unit_problems_starter_is_in_the_editor_on_a_first_visit(
    site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path
) -> None:
    server, tokens = site
    for user, width in (("cy", 1280), ("di", 390)):
        page = browser.new_page(viewport={"width": width, "height": 844})
        log_in(page, server.base, user, tokens[user])
        page.goto(server.base + "/problems/stack")
        page.wait_for_selector("#submit-form[data-editor=ace]")
        assert page.evaluate("ace.edit('editor').session.getMode().$id") == "ace/mode/python"
        starter = page.evaluate("ace.edit('editor').getValue()")
        assert "class Stack:" in starter and "raise NotImplementedError" in starter
        check_page(page, f"editor-unit-{width}", width, tmp_path)
        page.close()


@pytest.mark.parametrize(("user", "width"), [("ana", 1280), ("bo", 390)])
def test_a_first_visit_types_python_with_its_indentation_in_the_starter(
    site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path, user: str, width: int
) -> None:
    server, tokens = site
    page = browser.new_page(viewport={"width": width, "height": 844})
    log_in(page, server.base, user, tokens[user])
    page.goto(server.base + "/problems/maxf")
    page.wait_for_selector("#submit-form[data-editor=ace]")
    assert page.eval_on_selector("#language", "e => e.value") == "python3"
    # The mode is loaded with the page, not fetched after the first keystroke.
    assert page.evaluate("ace.edit('editor').session.getMode().$id") == "ace/mode/python"
    starter = page.evaluate("ace.edit('editor').getValue()")
    assert starter.startswith("def max_sum(xs: list[int]) -> int:")
    check_page(page, f"editor-maxf-{width}", width, tmp_path)
    page.click("#editor .ace_content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type("def f(x):")
    page.keyboard.press("Enter")
    page.keyboard.type("return x")
    assert page.evaluate("ace.edit('editor').getValue()") == "def f(x):\n    return x"
    page.close()


def test_a_new_language_offers_to_swap_an_untouched_starter(
    site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path
) -> None:
    server, tokens = site
    page = browser.new_page(viewport={"width": 390, "height": 844})
    log_in(page, server.base, "cy", tokens["cy"])
    page.goto(server.base + "/problems/maxf")
    page.wait_for_selector("#submit-form[data-editor=ace]")
    assert "def max_sum" in page.evaluate("ace.edit('editor').getValue()")
    page.select_option("#language", "java")
    page.click("#starter-swap")
    java = page.evaluate("ace.edit('editor').getValue()")
    assert "public long max_sum(int[] xs)" in java and "def max_sum" not in java
    check_page(page, "editor-swapped-390", 390, tmp_path)
    # Written code is never offered a swap.
    page.click("#editor .ace_content")
    page.keyboard.type("x")
    page.select_option("#language", "python3")
    assert page.locator("#starter-swap").count() == 0
    # The program problem with a C++ reference starts in the course's Python, empty.
    page.goto(server.base + "/problems/sums")
    page.wait_for_selector("#submit-form[data-editor=ace]")
    assert page.eval_on_selector("#language", "e => e.value") == "python3"
    assert page.evaluate("ace.edit('editor').getValue()") == ""
    page.close()


@pytest.mark.slow
@pytest.mark.parametrize(("user", "width"), [("di", 1280), ("ed", 390)])
def test_run_on_the_samples_and_on_ones_own_input_leaves_the_quota(
    site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path, user: str, width: int
) -> None:
    """Run judged by the server's workers: every sample with its verdict and time, then the
    student's own input with what the program printed; no submission used."""
    server, tokens = site
    page = browser.new_page(viewport={"width": width, "height": 844})
    log_in(page, server.base, user, tokens[user])
    page.goto(server.base + "/problems/sums")
    page.wait_for_selector("#submit-form[data-editor=ace]")
    assert "0 of 5 used" in page.inner_text("#used")
    check_page(page, f"run-form-{width}", width, tmp_path)
    write_code(page, "n = int(input())\nprint(-1)\n")  # the second sample's answer only
    page.click("#run-samples")
    page.wait_for_selector(".run-case", timeout=120_000)
    verdicts = page.eval_on_selector_all(".run-case h2 .v", "vs => vs.map(v => v.textContent)")
    assert verdicts == ["WA", "AC"]  # the first fails; the second is judged all the same
    assert " s" in page.inner_text(".run-case h2 .meta")
    check_page(page, f"run-samples-{width}", width, tmp_path)
    page.click("#run-back")
    page.wait_for_selector("#submit-form[data-editor=ace]")
    assert page.evaluate("ace.edit('editor').getValue()") == "n = int(input())\nprint(-1)\n"  # kept
    write_code(page, "n = int(input())\nprint(n * 2)\n")
    page.fill("#own-input", "21\n")
    page.click("#run-input")
    page.wait_for_selector(".run-case", timeout=120_000)
    assert page.inner_text(".run-output").strip() == "42"
    check_page(page, f"run-own-{width}", width, tmp_path)
    page.goto(server.base + "/problems/sums")
    assert "0 of 5 used" in page.inner_text("#used")  # no submission spent
    page.close()


def test_sample_calls_follow_the_language_picked_without_a_reload(
    site: tuple[Server, dict[str, str]], browser: Any, tmp_path: Path
) -> None:
    """Issue 59: a function's sample calls were spelled in the page's first language only; each
    is now spelled anew as the student picks another language."""
    server, tokens = site
    for width in (1280, 390):
        page = browser.new_page(viewport={"width": width, "height": 844})
        log_in(page, server.base, "ed", tokens["ed"])
        page.goto(server.base + "/problems/positive")
        page.wait_for_selector("#submit-form[data-editor=ace]")
        returns = '#sample-calls tr[data-sample="samples/01"] code.returns'
        assert page.eval_on_selector("#language", "e => e.value") == "python3"
        assert page.text_content(returns) == "True"
        page.select_option("#language", "cpp")
        assert page.text_content(returns) == "true"
        assert page.text_content('#sample-calls tr[data-sample="samples/02"] code.returns') == "false"
        check_page(page, f"sample-calls-cpp-{width}", width, tmp_path)
        page.select_option("#language", "python3")
        assert page.text_content(returns) == "True"
        page.close()
