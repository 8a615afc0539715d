"""The table of kinds: each problem finds its kind there, and a kind the table lacks is a clear
error, not a KeyError."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.author import scaffold
from judge.errors import JudgeError
from judge.kinds import table as kinds
from judge.kinds.base import Kind
from judge.kinds.table import load_problem
from judge.problem.spec import SpecError
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
        JudgeError, match=r"^'quiz': not a kind of problem \(known: stdio, interactive, functions, unit, tests\)$"
    ):
        scaffold.create(tmp_path, "q", "python3", kind="quiz")
    assert list(tmp_path.iterdir()) == []


def test_a_kind_that_does_not_solve_has_no_answers_to_check(tmp_path: Path) -> None:
    made = scaffold.create(tmp_path, "guess", "python3", kind="interactive")
    problem = load_problem(made.directory)
    with pytest.raises(NotImplementedError, match="kind interactive has no answers"):
        kinds.of(problem).check_answer(problem, (made.directory / "x.in", made.directory / "x.ans"), b"")


def _spec_errors(directory: Path) -> list[str]:
    with pytest.raises(SpecError) as caught:
        load_problem(directory)
    return [str(issue).split("problem.yaml", 1)[1] for issue in caught.value.issues]


def _stdio_problem(root: Path, extra: str) -> Path:
    made = scaffold.create(root, "p", "python3")
    spec = made.directory / "problem.yaml"
    spec.write_text(spec.read_text() + extra)
    return made.directory


def test_an_unknown_kind_in_a_spec_names_the_tables_kinds_at_its_line(tmp_path: Path) -> None:
    directory = _stdio_problem(tmp_path, "kind: quiz\n")
    [said] = _spec_errors(directory)
    assert said.endswith("kind: unknown kind 'quiz' (known: stdio, interactive, functions, unit, tests)")


def test_a_key_of_another_kind_is_refused_by_its_owner_name(tmp_path: Path) -> None:
    """Each kind names the keys it owns; the loader refuses them on any other kind's problem."""
    directory = _stdio_problem(tmp_path, "signature: 'f(x: int) -> int'\nunit: {student_files: [a.py]}\n")
    said = _spec_errors(directory)
    assert any(s.endswith("signature: `signature` belongs to `kind: functions` problems") for s in said), said
    assert any(s.endswith("unit: `unit` belongs to `kind: unit` problems") for s in said), said


def test_the_loader_asks_the_kinds_rules_not_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind's spec_issues hook is what decides: a rule added to the stdio kind alone is
    reported for a stdio problem, at the key path the rule gives."""
    stdio = kinds.KINDS["stdio"]
    monkeypatch.setattr(type(stdio), "spec_issues", lambda self, directory, spec: [(("title",), "too plain")])
    directory = _stdio_problem(tmp_path, "")
    lines = (directory / "problem.yaml").read_text().splitlines()
    title = next(number for number, line in enumerate(lines, 1) if line.startswith("title:"))
    assert _spec_errors(directory) == [f":{title}: title: too plain"]


def test_an_interactor_without_a_kind_makes_the_problem_interactive_and_kind_interactive_needs_one(
    tmp_path: Path,
) -> None:
    made = scaffold.create(tmp_path, "guess", "python3", kind="interactive")
    problem = load_problem(made.directory)
    assert problem.kind == "interactive" and problem.spec.kind == "interactive"
    spec = made.directory / "problem.yaml"
    text = spec.read_text()
    start = text.index("interactor:")
    end = text.index("\n", text.index("program:", start)) + 1
    spec.write_text(text + "kind: stdio\n")  # as specs said it before `kind: interactive` could be written
    assert load_problem(made.directory).kind == "interactive"
    spec.write_text(text[:start] + text[end:] + "kind: interactive\n")
    assert any("an interactive problem needs an `interactor`" in s for s in _spec_errors(made.directory))
