"""`judge verify` on the real problems, and on scratch copies with one planted fault each."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from judge.author import verify
from judge.run.verdicts import Verdict
from tests import needs
from tests.conftest import PROBLEMS
from tests.test_cli import judge

PROBLEM = "sicily-rotations"  # the fewest test files: a copy verifies in seconds
ACCEPTED_C = PROBLEMS / PROBLEM / "solutions" / "accepted" / "cantor_table.c"


def run_verify(problems: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return judge("--problems", str(problems), "verify", *args)


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A copy of one problem whose only solution is a fast accepted one in C."""
    target = tmp_path / "problems"
    shutil.copytree(PROBLEMS / PROBLEM, target / PROBLEM, ignore=shutil.ignore_patterns("solutions"))
    accepted = target / PROBLEM / "solutions" / "accepted"
    accepted.mkdir(parents=True)
    shutil.copy(ACCEPTED_C, accepted)
    return target


def add_solution(problems: Path, folder: str, name: str, source: str) -> Path:
    path = problems / PROBLEM / "solutions" / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    return path


def burning(seconds: float) -> str:
    """The accepted C solution, made to spend `seconds` of CPU time before it answers."""
    burn = (
        "#include <time.h>\n"
        f"static void burn(void) {{ volatile unsigned long x = 0; "
        f"while ((double)clock() / CLOCKS_PER_SEC < {seconds}) x++; }}\n"
    )
    return burn + ACCEPTED_C.read_text().replace("int main(void) {", "int main(void) {\n    burn();", 1)


def test_a_sound_copy_verifies(scratch: Path) -> None:
    result = run_verify(scratch)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "accepted/cantor_table.c" in result.stdout
    assert "0 failure(s)" in result.stdout


def test_an_edited_answer_fails(scratch: Path) -> None:
    answer = scratch / PROBLEM / "tests" / "random" / "02.ans"
    lines = answer.read_text().splitlines()
    lines[4] = str(int(lines[4]) + 1)
    answer.write_text("\n".join(lines) + "\n")
    result = run_verify(scratch)
    assert result.returncode == 1
    assert "random/02.ans:5: the reference solver disagrees" in result.stdout
    assert "tests up to date" in result.stdout and "FAIL" in result.stdout


def test_a_bad_input_line_fails_naming_file_and_line(scratch: Path) -> None:
    data = scratch / PROBLEM / "tests" / "edge" / "02.in"
    lines = data.read_text().splitlines()
    lines[2] = "1 2 3 4 5 6 7 8"
    data.write_text("\n".join(lines) + "\n")
    result = run_verify(scratch)
    assert result.returncode == 1
    assert "edge/02.in:3:" in result.stdout


def test_an_accepted_solution_that_prints_zero_fails(scratch: Path) -> None:
    add_solution(scratch, "accepted", "zero.py", "import sys\nfor _ in sys.stdin:\n    print(0)\n")
    result = run_verify(scratch)
    assert result.returncode == 1
    assert "accepted/zero.py: expected AC, got WA in group" in result.stdout


def test_a_stale_generated_test_fails(scratch: Path) -> None:
    spec = scratch / PROBLEM / "problem.yaml"
    spec.write_text(spec.read_text().replace("seed: 22", "seed: 99"))
    result = run_verify(scratch)
    assert result.returncode == 1
    assert "differs from what the generator makes now" in result.stdout
    assert f"judge gen {PROBLEM}" in result.stdout


def test_a_fast_time_limit_exceeded_solution_fails(scratch: Path) -> None:
    add_solution(scratch, "time_limit_exceeded", "not_slow.c", ACCEPTED_C.read_text())
    result = run_verify(scratch)
    assert result.returncode == 1
    assert "time_limit_exceeded/not_slow.c: expected TLE, got AC" in result.stdout


def test_a_solution_in_its_header_may_allow_other_verdicts(scratch: Path) -> None:
    add_solution(scratch, "wrong_answer", "zero.py", "# @EXPECTED: WA or TLE\nprint(0)\n")
    add_solution(scratch, "run_time_error", "exits.py", "# @EXPECTED: RE or WA\nraise SystemExit(3)\n")
    result = run_verify(scratch)
    assert result.returncode == 0, result.stdout + result.stderr


def test_bad_folders_and_headers_fail_with_their_file(scratch: Path) -> None:
    add_solution(scratch, "too_slow", "x.c", "int main(void) { return 0; }\n")
    path = add_solution(scratch, "wrong_answer", "y.py", "\n# @EXPECTED: WA or SLOW\nprint(0)\n")
    result = run_verify(scratch)
    assert result.returncode == 1
    assert "too_slow: unknown verdict folder" in result.stdout
    assert f"{path}:2: unknown verdict 'SLOW'" in result.stdout


@pytest.mark.slow  # heavy end to end: make test-slow
def test_time_limits_close_to_a_verdict_warn_and_strict_fails(scratch: Path, tmp_path: Path) -> None:
    add_solution(scratch, "accepted", "slowish.c", burning(0.6))  # AC, but over half the 1 s limit
    add_solution(scratch, "time_limit_exceeded", "barely.c", burning(1.2))  # TLE, but under 1.5 s
    result = run_verify(scratch)
    assert result.returncode == 0, result.stdout + result.stderr
    # The burn comes on top of building the table (about 0.2 s).
    assert re.search(r"accepted/slowish\.c: uses 0\.[6-9]\d s of the 1 s limit", result.stdout)
    assert re.search(
        r"time_limit_exceeded/barely\.c: exceeds the 1 s limit by little: finishes in 1\.[2-4]\d s", result.stdout
    )
    junit = tmp_path / "strict.xml"
    strict = run_verify(scratch, "--strict", "--junit", str(junit))
    assert strict.returncode == 1
    failures = [f.get("message") for f in ET.parse(junit).getroot().iter("failure")]
    assert any("finishes in 1." in (m or "") for m in failures)


def test_a_failing_solution_stops_at_its_first_failure_in_each_group(scratch: Path) -> None:
    path = add_solution(scratch, "time_limit_exceeded", "spin.c", "int main(void) { for (;;) {} }\n")
    prepared = verify.prepare(scratch / PROBLEM)
    (solution,) = (s for s in prepared.solutions if s.path == path)
    run = verify.run_solution(scratch / PROBLEM, solution)
    outcome = verify.judge_outcome(run, prepared.groups)
    # One case per group, each stopped at 1.5x the 1 s limit, instead of every case.
    assert [g.run for g in outcome.groups] == [1, 1, 1, 1]
    assert all(g.verdict is Verdict.TLE for g in outcome.groups)
    assert all(c.cpu_s >= 1.5 for c in run.cases)
    assert outcome.verdict is Verdict.TLE
    assert outcome.failures == () and outcome.warnings == ()


def test_verify_warns_about_a_duplicate_input(tmp_path: Path) -> None:
    target = tmp_path / "sicily-rotations"
    shutil.copytree(PROBLEMS / "sicily-rotations", target)
    shutil.rmtree(target / "solutions")
    for name in ("in", "ans"):  # a hand-made copy in a group of files
        shutil.copy(target / "tests" / "edge" / f"01.{name}", target / "tests" / "edge" / f"01-copy.{name}")
    prepared = verify.prepare(target)
    assert any("edge/01.in" in note and "the same input as" in note for note in prepared.notes), prepared.notes


@pytest.mark.slow
def test_a_solution_may_be_a_folder_of_several_files(scratch: Path) -> None:
    """As ICPC packages have them: the folder is one program, its header in its entry file."""
    add_solution(scratch, "accepted/two_files", "main.py", "import table\ntable.answer()\n")
    add_solution(scratch, "accepted/two_files", "table.py", _python_table())
    add_solution(scratch, "wrong_answer/zeros", "main.py", "# @EXPECTED: WA or RE\nimport zero\n")
    add_solution(scratch, "wrong_answer/zeros", "zero.py", "import sys\nfor _ in sys.stdin:\n    print(0)\n")
    result = run_verify(scratch)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "accepted/two_files" in result.stdout and "wrong_answer/zeros" in result.stdout
    assert "0 failure(s)" in result.stdout


def _python_table() -> str:
    """One BFS from the goal with counter-clockwise turns, as a module with answer()."""
    return (
        "import sys\n"
        "def answer():\n"
        "    goal = tuple(range(1, 10))\n"
        "    dist = {goal: 0}\n"
        "    frontier = [goal]\n"
        "    while frontier:\n"
        "        nxt = []\n"
        "        for b in frontier:\n"
        "            for p in (0, 1, 3, 4):\n"
        "                c = list(b)\n"
        "                c[p], c[p + 1], c[p + 4], c[p + 3] = b[p + 1], b[p + 4], b[p + 3], b[p]\n"
        "                t = tuple(c)\n"
        "                if t not in dist:\n"
        "                    dist[t] = dist[b] + 1\n"
        "                    nxt.append(t)\n"
        "        frontier = nxt\n"
        "    words = sys.stdin.read().split()\n"
        "    for i in range(0, len(words), 9):\n"
        "        print(dist[tuple(int(w) for w in words[i : i + 9])])\n"
    )


def test_a_solution_without_its_toolchain_is_skipped_not_failed(scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No toolchain here is the machine's choice: verify says so apart from the failures."""
    from judge.run.languages import Language

    monkeypatch.setattr(Language, "missing", lambda language: f"no {language.name} toolchain here")
    prepared = verify.prepare(scratch / PROBLEM)
    [solution] = prepared.solutions
    report = verify.finish(prepared, {solution.path: verify.run_solution(scratch / PROBLEM, solution)})
    assert report.failures == [] and report.solutions == ()
    assert report.skipped == (f"{solution.path}: skipped: no C (gcc, GNU11) toolchain here",)


@needs.mark("cpp")
def test_tests_that_a_constant_passes_fail_by_the_judges_decoy(tmp_path: Path) -> None:
    """A function problem whose every answer is 0: the judge's decoy (a function returning 0,
    in each language of the accepted solutions) is accepted, which verify reports."""
    problem = tmp_path / "problems" / "zeros"
    (problem / "solutions" / "accepted").mkdir(parents=True)
    (problem / "problem.yaml").write_text(
        "id: zeros\ntitle: Zeros\nsource: a test\nkind: functions\nsignature: 'lowest(xs: list[int]) -> int'\n"
        "limits: {time_s: 1, memory_mib: 256}\nreference: solutions/accepted/lowest.py\ngroups:\n"
        "  - name: samples\n    visibility: public\n    points: 100\n    cases:\n"
        "      - call: [[0, 3]]\n      - call: [[5, 0, 2]]\n"
    )
    (problem / "statement.md").write_text("# Zeros\n\nReturn the lowest element.\n")
    (problem / "solutions" / "accepted" / "lowest.py").write_text("def lowest(xs):\n    return min(xs)\n")
    (problem / "solutions" / "accepted" / "lowest.cpp").write_text(
        "#include <bits/stdc++.h>\nint lowest(std::vector<int> xs) { return *std::min_element(xs.begin(), xs.end()); }\n"
    )
    assert judge("--problems", str(tmp_path / "problems"), "gen", "zeros").returncode == 0
    result = run_verify(tmp_path / "problems", "zeros")
    assert result.returncode == 1, result.stdout
    for decoy in ("lowest.py (python3)", "lowest.cpp (cpp)"):
        said = f'the judge\'s decoy {decoy}: accepted, though every call returns a constant (0, "", an empty list)'
        assert said in result.stdout, result.stdout
    # One call whose answer is not 0 is enough: the decoys fail, and verify holds.
    text = (problem / "problem.yaml").read_text()
    (problem / "problem.yaml").write_text(text + "      - call: [[4, 7]]\n")
    assert judge("--problems", str(tmp_path / "problems"), "gen", "zeros").returncode == 0
    again = run_verify(tmp_path / "problems", "zeros")
    assert again.returncode == 0, again.stdout
    assert "decoy/lowest.cpp" in again.stdout and "not AC" in again.stdout
