"""The tests on disk: where a case's files are and how they are read back, in spec order.
What makes them (generate, compare, write) is the author's: judge.author.making."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.problem.spec import Problem

INPUT_SUFFIX = ".in"
ANSWER_SUFFIX = ".ans"


@dataclass(frozen=True)
class CaseFiles:
    """A test case on disk, as the runner reads it."""

    group: str
    name: str
    input: Path
    answer: Path
    public: bool

    @property
    def id(self) -> str:
        return f"{self.group}/{self.name}"


def load_cases(problem: Problem) -> list[CaseFiles]:
    """Every case in tests/, groups in spec order, cases in name order; JudgeError if none."""
    cases: list[CaseFiles] = []
    for group in problem.spec.groups:
        folder = problem.tests_dir / group.name
        for path in sorted(folder.glob(f"*{INPUT_SUFFIX}")) if folder.is_dir() else []:
            answer = path.with_suffix(ANSWER_SUFFIX)
            if not answer.is_file():
                raise JudgeError(f"{path}: no answer file {answer.name} (run `judge gen`)")
            cases.append(CaseFiles(group.name, path.stem, path, answer, group.visibility == "public"))
    if not cases:
        raise JudgeError(f"{problem.tests_dir}: no test cases (run `judge gen {problem.id}`)")
    return cases
