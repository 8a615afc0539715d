"""Generation writes what it promises and `compare` catches every kind of stale file."""

from __future__ import annotations

from pathlib import Path

from judge.author import making
from judge.kinds.table import load_problem
from tests.conftest import PROBLEMS


def test_committed_tests_are_up_to_date(store) -> None:  # type: ignore[no-untyped-def]
    for directory in sorted(p for p in PROBLEMS.iterdir() if p.is_dir()):
        problem = load_problem(directory)
        assert making.compare(problem, making.generate(problem, store)) == []


def test_generation_is_byte_identical(store) -> None:  # type: ignore[no-untyped-def]
    problem = load_problem(PROBLEMS / "lanqiao")
    assert making.generate(problem, store) == making.generate(problem, store)


def test_samples_come_first_and_are_public(store) -> None:  # type: ignore[no-untyped-def]
    cases = making.generate(load_problem(PROBLEMS / "sicily-rotations"), store)
    assert cases[0].id == "samples/01" and cases[0].public and cases[0].answer == "0\n3\n"
    assert not any(c.public for c in cases if c.group != "samples")


def test_compare_and_write_on_a_copy(problems_copy: Path, store) -> None:  # type: ignore[no-untyped-def]
    problem = load_problem(problems_copy / "eight-digits")
    cases = making.generate(problem, store)
    tests = problem.tests_dir
    (tests / "random" / "03.ans").write_text("12\n")  # an edited answer
    (tests / "edge" / "02.in").unlink()  # a missing input
    (tests / "random" / "99.in").write_text("1 2 3 4 5 6 7 8 x\n")  # a leftover
    found = {(d.path.relative_to(tests).as_posix(), d.reason.split()[0]) for d in making.compare(problem, cases)}
    assert found == {("random/03.ans", "differs"), ("edge/02.in", "missing"), ("random/99.in", "not")}
    removed: list[str] = []
    assert making.write(problem, cases, notify=removed.append) == 3
    assert making.compare(problem, cases) == []
    assert removed and "99.in" in removed[0]
    assert making.write(problem, cases) == 0  # nothing left to change


def test_spec_change_makes_tests_stale(problems_copy: Path, store) -> None:  # type: ignore[no-untyped-def]
    spec = problems_copy / "lanqiao" / "problem.yaml"
    spec.write_text(spec.read_text().replace("seed: 3", "seed: 4"))
    problem = load_problem(problems_copy / "lanqiao")
    stale = making.compare(problem, making.generate(problem, store))
    assert stale and all(d.path.parent.name == "random" for d in stale)
