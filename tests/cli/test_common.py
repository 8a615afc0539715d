from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from judge.cli.common import report_errors, say
from judge.errors import JudgeError
from tests.conftest import PROBLEMS, REPO
from tests.web.conftest import free_port


def test_text_from_data_is_printed_as_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    report_errors(JudgeError("course.yaml:3: id: String should match pattern '^[a-z0-9][a-z0-9_-]*$' [bold]x[/bold]"))
    say("students/[ana]/main.py: [red]as written[/red]")
    assert capsys.readouterr().err == (
        "judge: error: course.yaml:3: id: String should match pattern '^[a-z0-9][a-z0-9_-]*$' [bold]x[/bold]\n"
        "judge: students/[ana]/main.py: [red]as written[/red]\n"
    )


def test_a_course_id_that_breaks_the_rule_shows_the_rule_whole(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "lanqiao").symlink_to(PROBLEMS / "lanqiao")
    (tmp_path / "course.yaml").write_text(
        "title: T\nassignments:\n  - id: Week 1!\n    title: W\n    problems: [lanqiao]\n"
        "    opens: 2026-01-01 09:00\n    due: 2027-01-01 09:00\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "judge",
            "--problems",
            str(problems),
            "serve",
            "--port",
            str(free_port()),
            "--data",
            str(tmp_path / "d"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert done.stderr.strip() == (
        f"judge: error: {tmp_path / 'course.yaml'}:3: assignments[0].id: "
        "String should match pattern '^[a-z0-9][a-z0-9_-]*$' (got 'Week 1!')"
    )


def test_the_help_counts_the_languages_the_judge_has() -> None:
    from judge.run import languages
    from tests.test_cli import judge

    shown = " ".join(judge("--help").stdout.split())
    assert f"submissions in {len(languages.load().languages)} languages" in shown
