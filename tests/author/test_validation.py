from __future__ import annotations

import shutil
from pathlib import Path

from judge.author.validation import duplicate_inputs, validate_problem
from judge.kinds.table import load_problem
from tests.conftest import PROBLEMS


def test_bundled_tests_are_valid() -> None:
    for name in ("lanqiao", "eight-digits", "sicily-rotations"):
        report = validate_problem(load_problem(PROBLEMS / name))
        assert report.ok, report.issues
        assert report.files > 10


def test_hand_written_bad_inputs_are_caught(problems_copy: Path) -> None:
    problem = load_problem(problems_copy / "sicily-rotations")
    bad = problem.tests_dir / "random" / "02.in"
    lines = bad.read_text().splitlines(keepends=True)
    lines[6] = "1 2 3 4 5 6 7 8 8\n"
    bad.write_text("".join(lines))
    binary = problem.tests_dir / "random" / "03.in"
    binary.write_bytes(b"1 2 3\x00\n")
    orphan = problem.tests_dir / "edge" / "09.in"
    orphan.write_text("1 2 3 4 5 6 7 8 9\n")
    report = validate_problem(problem)
    shown = sorted(str(i).replace(str(problem.tests_dir), "tests") for i in report.issues)
    assert shown == [
        "tests/edge/09.in: no answer file 09.ans",
        "tests/random/02.in:7: '8' appears more than once",
        "tests/random/03.in:1: binary data (NUL byte)",
    ]


def test_no_tests_at_all(problems_copy: Path) -> None:
    import shutil

    problem = load_problem(problems_copy / "lanqiao")
    shutil.rmtree(problem.tests_dir)
    report = validate_problem(problem)
    assert not report.ok and "run `judge gen`" in report.issues[0].message


def test_duplicate_inputs_are_warned_about_naming_both_files(tmp_path: Path) -> None:
    target = tmp_path / "sicily-rotations"
    shutil.copytree(PROBLEMS / "sicily-rotations", target)
    assert duplicate_inputs(load_problem(target)) == []
    for name in ("in", "ans"):
        shutil.copy(target / "tests" / "edge" / f"01.{name}", target / "tests" / "random" / f"09.{name}")
    [warning] = duplicate_inputs(load_problem(target))
    assert "random/09.in: the same input as" in warning and "edge/01.in" in warning
    # A sample repeated as a secret case is on purpose (packages do it): no warning for it.
    for name in ("in", "ans"):
        shutil.copy(target / "tests" / "samples" / f"01.{name}", target / "tests" / "bulk" / f"03.{name}")
    assert duplicate_inputs(load_problem(target)) == [warning]
    # The bundled problems have none (eight-digits' random group once repeated boards).
    for problem in ("lanqiao", "eight-digits", "sicily-rotations"):
        assert duplicate_inputs(load_problem(PROBLEMS / problem)) == [], problem


def test_a_statement_sample_that_disagrees_with_the_spec_is_warned_about(tmp_path: Path) -> None:
    from judge.author.validation import statement_samples

    target = tmp_path / "eight-digits"
    shutil.copytree(PROBLEMS / "eight-digits", target)
    statement = target / "statement.md"
    text = statement.read_text(encoding="utf-8")
    assert statement_samples(load_problem(target)) == []  # the bundled statement agrees with its spec
    statement.write_text(text.replace("```\n19\n```", "```\n18\n```"), encoding="utf-8")
    [warning] = statement_samples(load_problem(target))
    line = text.split("\n").index("2  3  4  1  5  x  7  6  8 ")  # the block's fence is the line before
    assert warning == f"{statement}:{line}: the statement's sample output differs from {target}/tests/samples/01.ans"
    statement.write_text(text.replace("2  3  4  1  5  x  7  6  8 ", "1 2 3 4 5 6 7 8 x"), encoding="utf-8")
    [warning] = statement_samples(load_problem(target))
    assert warning.endswith("the statement's sample input is not the input of any public case")
    statement.write_text(text.replace("```\n19\n```", ""), encoding="utf-8")
    [warning] = statement_samples(load_problem(target))
    assert warning.endswith("its sample section has 1 code blocks, not input and output pairs")


def test_a_function_statements_sample_table_that_disagrees_with_the_spec_is_a_warning(tmp_path: Path) -> None:
    """Issue 59: a wrong value in a function statement's table went unnoticed by judge verify."""
    from judge.author import scaffold
    from judge.author.validation import statement_samples
    from judge.kinds.table import load_problem
    from tests.test_cli import judge

    scaffold.create(tmp_path, "maxf", "python3", kind="functions")
    assert judge("--problems", str(tmp_path), "gen", "maxf").returncode == 0
    assert statement_samples(load_problem(tmp_path / "maxf")) == []  # as made: it agrees
    statement = tmp_path / "maxf" / "statement.md"
    text = statement.read_text().replace("| `max_sum([-5, -1, -8])` | `-1` |", "| `max_sum([-5, -1, -8])` | `5` |")
    statement.write_text(text.replace("`max_sum([])`", "`max_sum([7])`"))
    lines = {n: i + 1 for i, n in enumerate(statement.read_text().splitlines())}
    notes = statement_samples(load_problem(tmp_path / "maxf"))
    assert notes == [
        f"{statement}:{lines['| `max_sum([-5, -1, -8])` | `5` |']}: the statement says max_sum([-5, -1, -8]) gives `5`, the public case -1",
        f"{statement}:{lines['| `max_sum([7])` | raises `ValueError` |']}: the statement's sample max_sum([7]) is no public case's call",
    ]
