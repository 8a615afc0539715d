"""`judge export`: the legacy ICPC layout, and an export imported back gives the same tests
and the same verdicts."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml

from judge.errors import JudgeError
from judge.interop import exporter, importer
from judge.problem import testdata
from judge.problem.spec import load_problem
from tests.conftest import PROBLEMS
from tests.problem.test_parts import make_problem
from tests.test_cli import judge


def test_a_program_problem_exports_in_the_legacy_layout(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    directory = make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    target = tmp_path / "sum.zip"
    result = judge("--problems", str(problems), "export", "sum", "-o", str(target))
    assert result.returncode == 0, result.stderr
    names = set(zipfile.ZipFile(target).namelist())
    assert {
        "sum/problem.yaml",
        "sum/.timelimit",
        "sum/problem_statement/problem.en.tex",
        "sum/data/sample/01.in",
        "sum/data/sample/01.ans",
        "sum/data/secret/hand/big.in",
        "sum/data/secret/random/06.ans",
        "sum/input_validators/v1-check/main.cpp",
        "sum/input_validators/v1-check/limits.h",
        "sum/submissions/accepted/ref.py",
        "sum/submissions/wrong_answer/minus.py",
    } <= names
    with zipfile.ZipFile(target) as archive:
        meta = yaml.safe_load(archive.read("sum/problem.yaml"))
        assert archive.read("sum/.timelimit") == b"1\n"
    assert meta["name"] == "Sum of Two" and meta["limits"] == {"memory": 256, "output": 16}
    assert meta["validation"] == "default" and meta["validator_flags"] == "case_sensitive"
    assert "points and per-case scoring are not exported" in result.stdout
    again = tmp_path / "sum-again.zip"
    exporter.export_problem(load_problem(directory), again)
    assert zipfile.ZipFile(again).namelist() == zipfile.ZipFile(target).namelist()  # the same package each time


def test_export_refuses_a_target_that_is_not_a_zip(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match=r"written as a \.zip"):
        exporter.export_problem(load_problem(PROBLEMS / "lanqiao"), tmp_path / "lanqiao.tar")
    assert list(tmp_path.iterdir()) == []


def _tests(problem_dir: Path) -> list[tuple[str, str]]:
    problem = load_problem(problem_dir)
    return sorted((c.input.read_text(), c.answer.read_text()) for c in testdata.load_cases(problem))


def _verdict(problems: Path, problem: str, source: Path) -> str:
    ran = judge("--problems", str(problems), "run", str(source), "-p", problem, "--json")
    return str(json.loads(ran.stdout)["verdict"])


def test_a_puzzle_round_trips(tmp_path: Path) -> None:
    package = tmp_path / "sicily-rotations.zip"
    exporter.export_problem(load_problem(PROBLEMS / "sicily-rotations"), package)
    problems = tmp_path / "problems"
    problems.mkdir()
    imported = importer.import_package(package, problems)
    assert imported.problem_id == "sicily-rotations" and imported.time_limit_from == "the package"
    assert _tests(imported.directory) == _tests(PROBLEMS / "sicily-rotations")
    solutions = PROBLEMS / "sicily-rotations" / "solutions"
    # The limits come back whole, per-language factors included (judge.yaml), so a Python
    # solution gets the same limit, and the same verdict, as before.
    original = load_problem(PROBLEMS / "sicily-rotations").spec.limits
    again = load_problem(imported.directory).spec.limits
    assert (again.time_s, again.time_multipliers, again.memory_mib) == (
        original.time_s,
        original.time_multipliers,
        original.memory_mib,
    )
    for source in [solutions / "accepted" / "cantor_table.c", *sorted((solutions / "wrong_answer").iterdir())]:
        assert _verdict(problems, "sicily-rotations", source) == _verdict(PROBLEMS, "sicily-rotations", source)


def test_the_feedback_level_round_trips(tmp_path: Path) -> None:
    source = tmp_path / "src" / "sicily-rotations"
    shutil.copytree(PROBLEMS / "sicily-rotations", source)
    spec = source / "problem.yaml"
    spec.write_text(
        spec.read_text().replace("reference: sicily-rotations", "reference: sicily-rotations\nfeedback: cases")
    )
    package = tmp_path / "p.zip"
    exporter.export_problem(load_problem(source), package)
    problems = tmp_path / "problems"
    problems.mkdir()
    imported = importer.import_package(package, problems)
    assert load_problem(imported.directory).spec.feedback == "cases"
    # The default is not written at all, and comes back as the default.
    exporter.export_problem(load_problem(PROBLEMS / "sicily-rotations"), tmp_path / "q.zip")
    (tmp_path / "more").mkdir()
    again = importer.import_package(tmp_path / "q.zip", tmp_path / "more", "sicily-again")
    assert load_problem(again.directory).spec.feedback == "groups"


def test_a_program_problem_round_trips(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    directory = make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    package = tmp_path / "sum-copy.zip"
    exporter.export_problem(load_problem(directory), package)
    imported = importer.import_package(package, problems)
    assert imported.problem_id == "sum-copy"
    assert _tests(imported.directory) == _tests(directory)
    for source in sorted((directory / "solutions").rglob("*.py")):
        assert _verdict(problems, "sum-copy", source) == _verdict(problems, "sum", source)
    assert judge("--problems", str(problems), "verify", "sum-copy").returncode == 0
