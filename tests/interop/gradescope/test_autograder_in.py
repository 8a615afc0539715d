"""`judge import` of a Gradescope autograder of Python unittest files: a unit-test problem with
the same points and visibility per test, the files students submit read from run_autograder,
and one line for each part the judge does not need."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
import yaml

from judge.interop import importer
from judge.interop.gradescope import autograder_in
from judge.interop.unpack import PackageError
from judge.kinds.table import load_problem
from tests import needs
from tests.test_cli import judge

# Its tests are unittest files, which the judge runs under pytest in their sandbox.
needs_sandbox = needs.mark("isolation", "pytest")

RUN_AUTOGRADER = (
    "#!/usr/bin/env bash\ncp /autograder/submission/counter.py /autograder/source/counter.py\n"
    "cd /autograder/source\npython3 run_tests.py\n"
)
TESTS = """\
import unittest
from gradescope_utils.autograder_utils.decorators import partial_credit, visibility, weight
from gradescope_utils.autograder_utils.files import check_submitted_files

from counter import Counter, Overflow


class TestCounter(unittest.TestCase):
    def setUp(self):
        self.counter = Counter(3)

    @weight(2)
    def test_counts_up(self):
        self.counter.tick()
        self.assertEqual(self.counter.value, 1)

    @weight(3)
    @visibility("hidden")
    def test_overflows(self):
        for _ in range(3):
            self.counter.tick()
        with self.assertRaises(Overflow):
            self.counter.tick()

    @partial_credit(4)
    def test_partial(self, set_score=None):
        set_score(4 if self.counter.value == 0 else 1)

    @weight(0)
    def test_files(self):
        self.assertEqual(check_submitted_files(["counter.py"]), [])

    def test_starts_at_zero(self):
        self.assertEqual(self.counter.value, 0)
"""
SOLUTION = """\
class Overflow(Exception):
    pass


class Counter:
    def __init__(self, limit):
        self.limit = limit
        self.value = 0

    def tick(self):
        if self.value == self.limit:
            raise Overflow("full")
        self.value += 1
"""


def autograder(root: Path, requirements: str = "gradescope-utils>=0.3.1\nnumpy==1.26\n") -> Path:
    path = root / "autograder.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("setup.sh", "apt-get install -y python3 python3-pip\npip3 install -r requirements.txt\n")
        archive.writestr("run_autograder", RUN_AUTOGRADER)
        archive.writestr("run_tests.py", "import unittest\n")
        archive.writestr("requirements.txt", requirements)
        archive.writestr("tests/__init__.py", "")
        archive.writestr("tests/test_counter.py", TESTS)
    return path


@needs_sandbox
def test_an_autograder_imports_with_its_points_and_verifies(tmp_path: Path) -> None:
    (tmp_path / "problems").mkdir()
    (tmp_path / "counter.py").write_text(SOLUTION)
    imported = importer.import_package(
        autograder(tmp_path), tmp_path / "problems", "counter", reference=tmp_path / "counter.py"
    )
    assert imported.format == "Gradescope" and imported.cases == 5
    assert "requirements.txt: not installed: numpy (the tests run on the machine's python3)" in imported.notes
    assert any(note.startswith("setup.sh: not needed") for note in imported.notes)
    spec = yaml.safe_load((imported.directory / "problem.yaml").read_text())
    assert spec["unit"]["student_files"] == ["counter.py"] and spec["reference"] == "solutions/accepted/counter.py"
    problem = load_problem(imported.directory)
    found = {g.name: (g.points, g.visibility) for g in problem.spec.groups}
    assert found == {
        "test_counter-testcounter-test_counts_up": (2.0, "public"),
        "test_counter-testcounter-test_overflows": (3.0, "secret"),
        "test_counter-testcounter-test_partial": (4.0, "public"),
        "test_counter-testcounter-test_files": (0.0, "public"),
        # No @weight: Gradescope scores it nothing (its runner writes no score), and so here.
        "test_counter-testcounter-test_starts_at_zero": (0.0, "public"),
    }
    # The hidden test's file is not shown to students, though the import put it under public/.
    from judge.kinds import table

    shown = "".join(text for _, text in table.of(problem).public_files(problem))
    assert "test_overflows" not in shown
    verified = judge("--problems", str(tmp_path / "problems"), "verify", "counter")
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_decorator_on_a_class_is_said_at_import() -> None:
    """Gradescope's runner reads a method's decorators alone: one on the class, which the judge
    applies to its methods, scores differently there, so the import says so."""
    text = TESTS.replace(
        "class TestCounter(unittest.TestCase):", '@visibility("hidden")\nclass TestCounter(unittest.TestCase):'
    )
    assert autograder_in.class_decorated(text) == ["TestCounter (@visibility)"]
    assert autograder_in.class_decorated(TESTS) == []
    assert autograder_in.class_decorated("def broken(:\n") == []


def test_an_autograder_needs_a_solution_and_named_files(tmp_path: Path) -> None:
    (tmp_path / "problems").mkdir()
    with pytest.raises(PackageError, match="holds no solution: pass --reference FILE"):
        importer.import_package(autograder(tmp_path), tmp_path / "problems", "counter")
    (tmp_path / "counter.py").write_text(SOLUTION)
    with pytest.raises(PackageError, match="--reference is for a Gradescope autograder"):
        bare = tmp_path / "not-an-autograder"
        bare.mkdir()
        (bare / "problem.yaml").write_text("name: x\n")
        importer.import_package(bare, tmp_path / "problems", "x", reference=tmp_path / "counter.py")
    assert list((tmp_path / "problems").iterdir()) == []  # nothing half made
