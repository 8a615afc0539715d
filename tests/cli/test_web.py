"""judge roster: class.csv's columns kept, a teaching assistant added, the roster listed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from judge.web.state.store import Store
from tests.conftest import REPO


def _judge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_import_keeps_names_and_roles_and_add_makes_a_ta(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    roster = tmp_path / "class.csv"
    roster.write_text("id,name,email,section,role\nada,Ada L,ada@uni.edu,A1,student\nsam,Sam S,,A1,ta\n")
    made = _judge("roster", "import", str(roster), "--data", data)
    assert made.returncode == 0 and sorted(line.split(",")[0] for line in made.stdout.splitlines()) == ["ada", "sam"]
    assert _judge("roster", "add", "tom", "--ta", "--data", data).returncode == 0
    people = Store(tmp_path / "data").people()
    assert [(p.id, p.role, p.name, p.section) for p in people.values()] == [
        ("ada", "student", "Ada L", "A1"),
        ("sam", "ta", "Sam S", "A1"),
        ("tom", "ta", "", ""),
    ]
    listing = _judge("roster", "list", "--data", data).stdout
    assert "Ada L" in listing and "A1" in listing
    both = _judge("roster", "add", "x", "--ta", "--teacher", "--data", data)
    assert both.returncode != 0 and "one role per id" in both.stderr and "Traceback" not in both.stderr
    roster.write_text("id,role\nbad,teacher\n")
    refused = _judge("roster", "import", str(roster), "--data", data)
    assert refused.returncode != 0 and f"{roster}:2: role 'teacher'" in refused.stderr
