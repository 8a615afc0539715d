"""The Gradescope autograder as Gradescope runs it, in a temporary AUTOGRADER_ROOT: the zip
built by `judge gradescope`, its setup.sh (installing from the zip's wheels), then its
run_autograder on an AC, a WA, a CE and a TLE submission and on an empty submission folder.
Each results.json is valid against a schema written from the specification, its scores add up,
and no secret input or answer is in it."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests import needs
from tests.conftest import PROBLEMS, REPO
from tests.grade.test_grading import small_problems
from tests.test_cli import judge

jsonschema = pytest.importorskip("jsonschema", reason="needs the test extra (jsonschema)")

# Installing the judge from the zip's wheels takes most of a minute: the long tier. The class's
# submissions are in C and C++.
pytestmark = [pytest.mark.slow, needs.mark("isolation", "c", "cpp")]

SCHEMA = json.loads((REPO / "tests" / "interop" / "gradescope" / "gradescope.schema.json").read_text())
SOLUTIONS = PROBLEMS / "sicily-rotations" / "solutions"
SUBMISSIONS = {
    "ac": ("sicily-rotations.c", (SOLUTIONS / "accepted" / "cantor_table.c").read_text()),
    "wa": ("main.cpp", (SOLUTIONS / "wrong_answer" / "same_turns_from_goal.cpp").read_text()),
    "ce": ("sicily-rotations.c", "int main( { return 0 }\n"),
    "tle": ("solution.c", (SOLUTIONS / "time_limit_exceeded" / "search_per_case.c").read_text()),
}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An autograder root after Gradescope's setup step: the zip unpacked in source/, setup.sh run."""
    work = tmp_path_factory.mktemp("gradescope")
    problems = small_problems(work / "problems")
    built = judge("--problems", str(problems), "gradescope", "sicily-rotations", "-o", str(work / "autograder.zip"))
    assert built.returncode == 0, built.stderr
    with zipfile.ZipFile(work / "autograder.zip") as archive:
        names = archive.namelist()
        assert "setup.sh" in names and "run_autograder" in names  # at the zip's root
        # the judge's own wheel installs on any CPython: without the C extension of this one
        [own] = [n for n in names if n.startswith("wheels/judge-")]
        assert own.endswith("-py3-none-any.whl"), names
        assert not any("/solutions/" in n for n in names)
        archive.extractall(work / "root" / "source")
    root = work / "root"
    (root / "source" / "setup.sh").chmod(0o755)
    (root / "source" / "run_autograder").chmod(0o755)
    env = {"PATH": "/usr/bin:/bin", "AUTOGRADER_ROOT": str(root), "JUDGE_PYTHON": sys._base_executable}
    setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env, capture_output=True, text=True)
    assert setup.returncode == 0, setup.stdout + setup.stderr
    return root


def autograde(root: Path, files: dict[str, str] | dict[str, bytes]) -> dict[str, object]:
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    (root / "submission").mkdir()
    for name, text in files.items():
        (root / "submission" / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    env = {"PATH": "/usr/bin:/bin", "AUTOGRADER_ROOT": str(root)}
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    results: dict[str, object] = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(results, SCHEMA)
    return results


def secrets(root: Path) -> list[str]:
    """Every line of a secret test's input and every secret answer file, as they are on disk."""
    found = []
    for path in (root / "source" / "problems" / "sicily-rotations" / "tests").rglob("*"):
        if path.parent.name != "samples" and path.suffix == ".in":
            found += [line for line in path.read_text().splitlines() if line.strip()]
        elif path.parent.name != "samples" and path.suffix == ".ans" and len(path.read_text().strip()) > 3:
            found.append(path.read_text().strip())
    return found


@pytest.mark.parametrize("kind", ["ac", "wa", "ce", "tle"])
def test_run_autograder_writes_valid_results(installed: Path, kind: str) -> None:
    name, text = SUBMISSIONS[kind]
    results = autograde(installed, {name: text, "README.md": "my notes\n"})
    tests = results["tests"]
    assert isinstance(tests, list) and [t["name"] for t in tests] == [
        "sicily-rotations: samples",
        "sicily-rotations: edge (secret)",
        "sicily-rotations: random (secret)",
        "sicily-rotations: bulk (secret)",
    ]
    assert [t["number"] for t in tests] == ["1", "2", "3", "4"]
    assert results["score"] == pytest.approx(sum(t["score"] for t in tests))
    assert all(0 <= t["score"] <= t["max_score"] for t in tests)
    assert [t["visibility"] for t in tests] == ["visible", "after_published", "after_published", "after_published"]
    text_of_results = json.dumps(results)
    assert not [s for s in secrets(installed) if s in text_of_results], "secret data in results.json"
    output = str(results["output"])
    if kind == "ac":
        assert results["score"] == 100 and all(t["status"] == "passed" for t in tests[1:])
    elif kind == "wa":
        assert results["score"] < 100 and "WA" in output and "wrong answer" in text_of_results
    elif kind == "ce":
        assert results["score"] == 0 and "CE" in output and "Compiler output" in output
        assert all(t["status"] == "failed" and "does not compile" in t["output"] for t in tests)
    else:
        # at the level groups a secret group says only that it failed; the headline says TLE
        assert "TLE" in output and "TLE" not in tests[3]["output"]
        assert tests[3]["status"] == "failed" and tests[3]["score"] == 0


def test_an_empty_submission_still_gets_results(installed: Path) -> None:
    results = autograde(installed, {})
    assert results["score"] == 0 and "no source file was submitted" in str(results["output"])
    tests = results["tests"]
    assert isinstance(tests, list) and len(tests) == 4 and all(t["status"] == "failed" for t in tests)


def test_a_broken_autograder_still_writes_results(installed: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(installed, root, symlinks=True)
    (root / "source" / "gradescope.json").write_text("{not json")
    results = autograde(root, {"sicily-rotations.c": SUBMISSIONS["ac"][1]})
    assert results["score"] == 0 and "could not grade" in str(results["output"]) and results["tests"] == []


def test_several_files_are_one_submission_loose_or_zipped(installed: Path, tmp_path: Path) -> None:
    """With one problem, source files uploaded together are one program; a zip named after
    the problem is one too."""
    from tests.grade.test_grading import _two_files

    folder = _two_files(tmp_path / "project")
    loose = {p.name: p.read_bytes() for p in folder.iterdir()}
    results = autograde(installed, {**loose, "README.md": b"my notes\n"})
    assert results["score"] == 100, results["output"]
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        for name, data in loose.items():
            archive.writestr(f"project/{name}", data)
    results = autograde(installed, {"sicily-rotations.zip": packed.getvalue()})
    assert results["score"] == 100, results["output"]


def grading_only(installed: Path, problem: Path, root: Path) -> Path:
    """A copy of the installed autograder that grades `problem` alone (its tests made, its
    solutions left out, as `judge gradescope` packs a problem)."""
    assert judge("--problems", str(problem.parent), "gen", problem.name).returncode == 0
    shutil.copytree(installed, root, symlinks=True)
    shutil.rmtree(root / "source" / "problems")
    shutil.copytree(problem, root / "source" / "problems" / problem.name, ignore=shutil.ignore_patterns("solutions"))
    config = json.loads((root / "source" / "gradescope.json").read_text())
    (root / "source" / "gradescope.json").write_text(json.dumps({**config, "problems": [problem.name]}))
    return root


def test_an_interactive_problem_is_graded_without_its_solutions(installed: Path, tmp_path: Path) -> None:
    """The autograder holds a problem's tests and interactor, never its solutions (so not its
    program reference either): an interactive problem is graded all the same."""
    from judge.author import scaffold

    made = scaffold.create(tmp_path, "guess", "python3", kind="interactive")
    root = grading_only(installed, made.directory, tmp_path / "root")
    bisect = (made.directory / "solutions" / "accepted" / "bisect.py").read_text()
    results = autograde(root, {"guess.py": bisect})
    assert results["score"] == 100, results["output"]
    counting = (made.directory / "solutions" / "wrong_answer" / "count_up.py").read_text()
    results = autograde(root, {"guess.py": counting})
    assert results["score"] == 0 and "WA" in str(results["output"]), results["output"]


def test_a_function_problem_is_graded_by_its_harness_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    """The harnesses travel in the judge's wheel: a function in Python and one in C++ are
    graded on Gradescope as at home, and a result line of the student's own is no answer."""
    from judge.author import scaffold

    made = scaffold.create(tmp_path, "maxf", "python3", kind="functions")
    root = grading_only(installed, made.directory, tmp_path / "root")
    accepted = (made.directory / "solutions" / "accepted" / "max_sum.py").read_text()
    results = autograde(root, {"answer.py": accepted})
    assert results["score"] == 100, results["output"]
    fake = "import os\n\ndef max_sum(xs):\n    os.write(1, b'\\n\\x1ejudge-result\\x1e {\"returned\": 4}\\n')\n    os._exit(0)\n"
    results = autograde(root, {"answer.py": fake})
    assert results["score"] < 100, results["output"]
    if not needs.why_not("cpp"):
        cpp = "#include <vector>\nlong long max_sum(std::vector<int> xs) { return 0; }\n"
        results = autograde(root, {"answer.cpp": cpp})
        assert results["score"] < 100 and "WA" in str(results["output"]), results["output"]


@needs.mark("pytest")
def test_a_unit_problem_is_graded_by_its_tests_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    """The teacher's test files travel with the problem and the bridges in the judge's wheel:
    a stack graded on Gradescope as at home, apart (Python) and together (JUnit)."""
    from judge.author import scaffold

    made = scaffold.create(tmp_path, "stack", "python3", kind="unit")
    assert judge("--problems", str(tmp_path), "gen", "stack").returncode == 0
    root = grading_only(installed, made.directory, tmp_path / "root")
    accepted = (made.directory / "solutions" / "accepted" / "stack.py").read_text()
    results = autograde(root, {"mine.py": accepted})
    assert results["score"] == 10, results["output"]
    wrong = (made.directory / "solutions" / "wrong_answer" / "stack.py").read_text()
    results = autograde(root, {"mine.py": wrong})
    assert 0 < float(str(results["score"])) < 10 and "WA" in str(results["output"]), results["output"]
    if not needs.why_not("junit"):
        java = scaffold.create(tmp_path, "jstack", "java", kind="unit")
        assert judge("--problems", str(tmp_path), "gen", "jstack").returncode == 0
        root = grading_only(installed, java.directory, tmp_path / "jroot")
        stack = (java.directory / "solutions" / "accepted" / "Stack.java").read_text()
        results = autograde(root, {"Stack.java": stack})
        assert results["score"] == 8, results["output"]
