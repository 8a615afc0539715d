"""The problems `judge grade` takes (judge/cli/reporting.py): of a whole folder, one that does
not load is left out with a line naming it, and the others are graded."""

from __future__ import annotations

import shutil
from pathlib import Path

from judge.author import scaffold
from tests import needs
from tests.test_cli import judge


@needs.mark("isolation")
def test_one_broken_problem_never_stops_grading_the_others(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    made = scaffold.create(problems, "sum", "python3")
    assert judge("--problems", str(problems), "gen", "sum").returncode == 0
    (problems / "broken").mkdir()
    (problems / "broken" / "problem.yaml").write_text("id: broken\ntitle: [unclosed\n")
    klass = tmp_path / "class"
    (klass / "ada").mkdir(parents=True)
    reference = next((made.directory / "solutions" / "accepted").iterdir())
    shutil.copy(reference, klass / "ada" / f"sum{reference.suffix}")
    graded = judge("--problems", str(problems), "grade", str(klass), "-o", str(tmp_path / "out"))
    assert graded.returncode == 0, graded.stderr
    warned = [line for line in graded.stderr.splitlines() if "warning" in line]
    assert len(warned) == 1 and "broken" in warned[0] and "left out" in warned[0], graded.stderr
    assert "ada" in (tmp_path / "out" / "grades.csv").read_text()
    # Named, a problem that does not load is an error, as asked.
    named = judge("--problems", str(problems), "grade", str(klass), "-p", "broken", "-o", str(tmp_path / "out2"))
    assert named.returncode != 0 and "broken" in named.stderr and "Traceback" not in named.stderr
