"""judge teams import: a teacher's file of teams checked whole (one line naming the line of a
mistake, nothing written) and applied; judge teams list."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from judge.web.state.store import Store
from tests.conftest import PROBLEMS, REPO

COURSE = """\
title: T
assignments:
  - id: pair
    problems: [lanqiao]
    teams: {size: [2, 3], formed: csv}
  - id: solo
    problems: [eight-digits]
"""


def _judge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_a_file_of_teams_is_checked_whole_then_applied(tmp_path: Path) -> None:
    data, course, teams = tmp_path / "data", tmp_path / "course.yaml", tmp_path / "teams.csv"
    course.write_text(COURSE)
    store = Store(data)
    for student in ("ada", "bo", "cy", "di"):
        store.add_user(student)
    base = ("--problems", str(PROBLEMS), "teams")
    for text, said in (
        ("team,students\nred,ada,bo\nblue,cy,zed\n", f"{teams}:3: 'zed' is not a student on the roster"),
        ("red,ada,bo\nblue,cy,bo\n", f"{teams}:2: 'bo' is already in a team at line 1"),
    ):
        teams.write_text(text)
        refused = _judge(*base, "import", "pair", str(teams), "--data", str(data), "--course", str(course))
        assert refused.returncode == 2 and refused.stderr.strip() == f"judge: error: {said}", refused.stderr
    assert _judge(*base, "list", "pair", "--data", str(data)).stdout == ""  # nothing was written
    teams.write_text("red,ada,bo\nblue,cy,di\n")
    done = _judge(*base, "import", "pair", str(teams), "--data", str(data), "--course", str(course))
    assert done.returncode == 0 and "2 team(s) of pair; 4 student(s) changed team" in done.stderr
    assert _judge(*base, "list", "pair", "--data", str(data)).stdout == "blue,cy,di\nred,ada,bo\n"
    solo = _judge(*base, "import", "solo", str(teams), "--data", str(data), "--course", str(course))
    assert solo.returncode == 2 and "takes no teams" in solo.stderr
