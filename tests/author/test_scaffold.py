"""`judge new`: a problem that passes `judge verify` as made, in either reference language."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.author import scaffold
from judge.errors import JudgeError
from tests.test_cli import judge


@pytest.mark.parametrize("language", ["cpp", "python3"])
def test_a_new_problem_verifies_as_made(tmp_path: Path, language: str) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    made = judge("--problems", str(problems), "new", "max-sum", "--lang", language, "--title", 'A "quoted" title')
    assert made.returncode == 0, made.stderr
    assert (problems / "max-sum" / "solutions" / "accepted" / f"ref.{scaffold.EXTENSIONS[language]}").is_file()
    assert judge("--problems", str(problems), "gen", "max-sum").returncode == 0
    verified = judge("--problems", str(problems), "verify", "max-sum")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "3 solution(s), 0 failure(s)" in verified.stdout
    # The wrong solution is caught by the all-negative group, as its comment says.
    assert "wrong_answer/empty_part" in verified.stdout
    assert (problems / "max-sum" / "statement.md").read_text().startswith('# A "quoted" title')


def test_new_refuses_what_it_cannot_make(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="not a problem id"):
        scaffold.create(tmp_path, "Bad Id")
    scaffold.create(tmp_path, "taken")
    with pytest.raises(JudgeError, match="already exists"):
        scaffold.create(tmp_path, "taken")
    with pytest.raises(JudgeError, match="no such problems folder"):
        scaffold.create(tmp_path / "missing" / "problems", "fresh")  # its parent is missing too
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]  # no staging folder left
    result = judge("--problems", str(tmp_path), "new", "taken")
    assert result.returncode != 0 and result.stderr.count("\n") == 1 and "already exists" in result.stderr
    with pytest.raises(JudgeError, match="--class is not a shape of a stdio problem"):
        scaffold.create(tmp_path, "fresh", shape="class")
    both = judge("--problems", str(tmp_path), "new", "fresh", "--interactive", "--functions")
    assert both.returncode == 2 and "are kinds of problem: choose one" in both.stderr


@pytest.mark.slow  # half a minute of judge verify on an interactive problem: the end-to-end tier
def test_a_new_interactive_problem_verifies_as_made(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    made = judge("--problems", str(problems), "new", "guess", "--interactive")
    assert made.returncode == 0, made.stderr
    assert (problems / "guess" / "interactor.py").is_file()
    assert judge("--problems", str(problems), "gen", "guess").returncode == 0
    verified = judge("--problems", str(problems), "verify", "guess")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "reference accepted by the interactor (14 cases)" in verified.stdout
    assert "4 solution(s), 0 failure(s)" in verified.stdout
    for solution in ("accepted/halves.py", "wrong_answer/count_up.cpp", "time_limit_exceeded/slow_thinker.py"):
        assert solution in verified.stdout


def test_a_first_problem_in_an_empty_folder_brings_its_problems_folder(tmp_path: Path) -> None:
    from judge.kinds.table import json_schema

    made = scaffold.create(tmp_path / "problems", "first", "python3")
    assert made.directory == tmp_path / "problems" / "first" and (made.directory / "problem.yaml").is_file()
    assert (tmp_path / "problems" / "problem.schema.json").read_text(encoding="utf-8") == json_schema()
    with pytest.raises(JudgeError, match=r"nowhere/problems: no such problems folder \(make it with `mkdir -p "):
        scaffold.create(tmp_path / "nowhere" / "problems", "second", "python3")
