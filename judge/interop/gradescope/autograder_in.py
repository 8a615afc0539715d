"""`judge import` of a Gradescope autograder zip whose tests are Python unittest (or pytest)
files with gradescope-utils' decorators: a unit-test problem with the same points and
visibility per test (read from the decorators, as every unit problem's are).

What the judge does not need is left out, one line each: `setup.sh` and `requirements.txt`
(the judge's sandbox brings its own Python), `run_autograder` (read for the files a student
submits: its `cp /autograder/submission/NAME ...` lines) and `run_tests.py`.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

from judge.interop.unpack import PackageError
from judge.kinds.unit.found import is_test_file

RUN_SCRIPT = "run_autograder"
SETUP_SCRIPT = "setup.sh"
_SUBMITTED = re.compile(r"/autograder/submission/([A-Za-z0-9_.-]+\.py)\b")
_NOT_GRADED = ("partial_credit", "leaderboard")
# Tests that start the student's file as a program of their own cannot find it in the tests'
# sandbox (mode apart): said at import, so that verify's failure is no surprise.
_RUNS_A_FILE = re.compile(r"subprocess|os\.system|Popen")
KNOWN_REQUIREMENTS = {"gradescope-utils", "gradescope_utils", "subprocess32", "pytest"}
# A test without @weight (or @partial_credit) is worth nothing on Gradescope: its JSONTestRunner
# writes no score for it. The imported problem's default_points say the same.
UNWEIGHTED_POINTS = 0.0


def autograder_root(unpacked: Path) -> Path | None:
    """The folder holding `run_autograder` and `setup.sh` (the top, or its only subfolder)."""
    candidates = [unpacked, *(p for p in unpacked.iterdir() if p.is_dir() and not p.name.startswith("."))]
    for folder in candidates:
        if (folder / RUN_SCRIPT).is_file() and (folder / SETUP_SCRIPT).is_file():
            return folder
    return None


def student_files(root: Path) -> list[str]:
    """The files `run_autograder` copies out of the student's submission."""
    text = (root / RUN_SCRIPT).read_text(encoding="utf-8", errors="replace")
    names = list(dict.fromkeys(_SUBMITTED.findall(text)))
    if not names:
        raise PackageError(
            f"{RUN_SCRIPT}: copies no named .py file from /autograder/submission/, so the files a student"
            " submits are not known"
        )
    return names


def tests_folder(root: Path) -> Path:
    """Where the test files are: tests/ as Gradescope's template has them, else the top."""
    return root / "tests" if (root / "tests").is_dir() else root


def copy_tests(root: Path, out: Path, notes: list[str]) -> int:
    """The test folder's Python files into unit/public/ (Gradescope shows a test unless
    @visibility hides it); the number of test files."""
    source = tests_folder(root)
    target = out / "unit" / "public"
    target.mkdir(parents=True)
    count = 0
    for path in sorted(source.rglob("*.py")):
        relative = path.relative_to(source)
        if source == root and relative.as_posix() == "run_tests.py":
            continue
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / relative)
        if not is_test_file(path.name):
            continue
        count += 1
        text = path.read_text(encoding="utf-8", errors="replace")
        shown = path.relative_to(root).as_posix()
        for name in _NOT_GRADED:
            if f"@{name}" in text:
                notes.append(
                    f"{shown}: @{name}: the judge gives a test its points whole (full marks only when"
                    " it sets the full score)"
                    if name == "partial_credit"
                    else f"{shown}: @{name}: a leaderboard column, which Gradescope scores nothing: not a case"
                )
        for decorated in class_decorated(text):
            notes.append(
                f"{shown}: class {decorated}: Gradescope reads a decorator on a test method only (there the"
                " class's does nothing); the judge applies it to the class's tests: move it onto each method"
                " for the same score in both"
            )
        if _RUNS_A_FILE.search(text):
            notes.append(
                f"{shown}: starts a program of its own; the student's files are not in the tests' sandbox"
                " (mode: apart), so such a test fails there: `mode: together` runs it (docs/unit.md says at what cost)"
            )
    return count


_GRADESCOPE_DECORATORS = frozenset({"weight", "visibility", "partial_credit", "hide_errors", "number", "tags"})


def class_decorated(text: str) -> list[str]:
    """The test classes a gradescope-utils decorator is written on. Gradescope's runner reads
    a test method's own attributes alone, so there the class's decorator does nothing (a
    `@weight` on a class: its tests score nothing); the judge applies it to the methods."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []  # the spec's loader names the line
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                if name in _GRADESCOPE_DECORATORS:
                    found.append(f"{node.name} (@{name})")
    return found


def left_out(root: Path, notes: list[str]) -> None:
    notes.append(f"{SETUP_SCRIPT}: not needed (the judge's sandbox has its own Python)")
    notes.append(f"{RUN_SCRIPT}: not needed (read for the files students submit)")
    if (root / "run_tests.py").is_file():
        notes.append("run_tests.py: not needed (the judge runs each test itself)")
    requirements = root / "requirements.txt"
    if requirements.is_file():
        wanted = [
            line.split("#", 1)[0].strip()
            for line in requirements.read_text(encoding="utf-8", errors="replace").splitlines()
        ]
        names = [re.split(r"[<>=!~\[ ;]", w, maxsplit=1)[0] for w in wanted if w]
        other = [n for n in names if n.lower() not in KNOWN_REQUIREMENTS]
        notes.append(
            "requirements.txt: not installed: " + ", ".join(other) + " (the tests run on the machine's python3)"
            if other
            else "requirements.txt: not needed (gradescope-utils' decorators are read by the judge)"
        )
