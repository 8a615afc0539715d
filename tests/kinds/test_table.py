"""The table of kinds: each problem finds its kind there, and a kind the table lacks is a clear
error, not a KeyError."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.author import scaffold
from judge.errors import JudgeError
from judge.kinds import table as kinds
from judge.kinds.base import Kind
from judge.problem.spec import load_problem
from tests.conftest import REPO


def test_every_row_is_named_as_its_key_and_has_a_starter() -> None:
    for name, kind in kinds.KINDS.items():
        assert isinstance(kind, Kind) and kind.name == name
        starter = kind.starter("py", "cpp")
        assert starter.title and [target for _, target in starter.files][:2] == ["problem.yaml", "statement.md"]


def test_the_bundled_problems_are_stdio_and_a_new_interactive_one_is_interactive(tmp_path: Path) -> None:
    for name in ("lanqiao", "eight-digits", "sicily-rotations"):
        assert kinds.of(load_problem(REPO / "problems" / name)).name == "stdio"
    made = scaffold.create(tmp_path, "guess", "python3", kind="interactive")
    kind = kinds.of(load_problem(made.directory))
    assert kind.name == "interactive" and not kind.solves


def test_an_unknown_kind_is_one_line_naming_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(
        JudgeError, match=r"^'quiz': not a kind of problem \(known: stdio, interactive, functions, unit\)$"
    ):
        scaffold.create(tmp_path, "q", "python3", kind="quiz")
    assert list(tmp_path.iterdir()) == []


def test_a_kind_that_does_not_solve_has_no_answers_to_check(tmp_path: Path) -> None:
    made = scaffold.create(tmp_path, "guess", "python3", kind="interactive")
    problem = load_problem(made.directory)
    with pytest.raises(NotImplementedError, match="kind interactive has no answers"):
        kinds.of(problem).check_answer(problem, (made.directory / "x.in", made.directory / "x.ans"), b"")
