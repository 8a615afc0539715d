"""The tests on disk read back: groups in spec order, a missing answer or no case at all named."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.kinds.table import load_problem
from judge.problem.testdata import load_cases


def test_cases_come_in_spec_order_with_their_visibility(problems_copy: Path) -> None:
    problem = load_problem(problems_copy / "sicily-rotations")
    cases = load_cases(problem)
    order = [g.name for g in problem.spec.groups]
    assert [order.index(c.group) for c in cases] == sorted(order.index(c.group) for c in cases)
    assert cases[0].id == "samples/01" and cases[0].public
    assert all(c.input.suffix == ".in" and c.answer == c.input.with_suffix(".ans") for c in cases)


def test_an_input_without_its_answer_is_named(problems_copy: Path) -> None:
    problem = load_problem(problems_copy / "eight-digits")
    (problem.tests_dir / "edge" / "02.ans").unlink()
    with pytest.raises(JudgeError, match=r"edge/02\.in: no answer file 02\.ans"):
        load_cases(problem)


def test_no_tests_at_all_says_to_run_gen(problems_copy: Path) -> None:
    problem = load_problem(problems_copy / "lanqiao")
    for path in problem.tests_dir.rglob("*.in"):
        path.unlink()
    with pytest.raises(JudgeError, match="no test cases \\(run `judge gen lanqiao`\\)"):
        load_cases(problem)
