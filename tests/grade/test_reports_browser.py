"""A real browser renders the reports: headless Chromium loads index.html and a submission
page from disk, the rendered DOM holds the class, and a screenshot is made."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests import needs
from tests.grade.test_grading import PROGRAMS, small_problems
from tests.test_cli import judge

CHROMIUM = needs.chromium()
pytestmark = needs.mark("chromium")


def chromium(profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    small_problems(root / "problems")
    for student, program in (("ann", "sicily_ok.cpp"), ("ben", "sicily_zero.c")):
        (root / "submissions" / student).mkdir(parents=True)
        shutil.copy(PROGRAMS / program, root / "submissions" / student / f"sicily-rotations{Path(program).suffix}")
    result = judge(
        "--problems",
        str(root / "problems"),
        "grade",
        str(root / "submissions"),
        "-p",
        "sicily-rotations",
        "-o",
        str(root / "reports"),
    )
    assert result.returncode == 0, result.stderr
    return root / "reports"


def test_index_renders_the_class(reports: Path, tmp_path: Path) -> None:
    dom = chromium(tmp_path / "profile", "--dump-dom", (reports / "index.html").as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert dom.stdout.count('class="student-row"') == 2
    assert 'data-student="ann"' in dom.stdout and 'data-student="ben"' in dom.stdout
    assert '<svg id="histogram"' in dom.stdout and "pass-rates" in dom.stdout


def test_submission_page_and_screenshot(reports: Path, tmp_path: Path) -> None:
    page = reports / "submissions" / "ben" / "sicily-rotations.html"
    dom = chromium(tmp_path / "profile", "--dump-dom", page.as_uri())
    assert dom.returncode == 0 and 'id="cases"' in dom.stdout and "First difference in samples/01" in dom.stdout
    shot = tmp_path / "index.png"
    made = chromium(
        tmp_path / "profile2", f"--screenshot={shot}", "--window-size=1200,900", (reports / "index.html").as_uri()
    )
    assert made.returncode == 0, made.stderr[-2000:]
    assert shot.stat().st_size > 5000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_index_fits_a_phone(reports: Path, tmp_path: Path) -> None:
    """Issue 59, item 7: the histogram overflowed a 390 px screen by 39 px."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the test extra (playwright)")
    from tests.web.test_pages import ARGS, check_page

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto((reports / "index.html").as_uri())
            box = page.locator("#histogram").bounding_box()
            assert box is not None and box["width"] <= 390
            check_page(page, "report-index", 390, tmp_path, axe=False)
        finally:
            browser.close()
