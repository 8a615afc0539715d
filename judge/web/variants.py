"""A student's variant of a problem on the web (judge.author.variants): made in the data
folder on the student's first visit or first submission, and judged there. The variant is a
function of the student, so a rejudge judges each submission on the same variant again."""

from __future__ import annotations

from pathlib import Path

from judge.author import variants
from judge.problem.spec import Problem

FOLDER = "variants"


def root(data_dir: Path) -> Path:
    """Where the variants and their salt are kept: beside the database, never served."""
    return data_dir / FOLDER


def of_student(problem: Problem, student: str, data_dir: Path) -> Problem:
    """`student`'s variant of `problem` (the problem itself when it has none); JudgeError
    naming the part of the problem that failed."""
    return variants.for_student(problem, student, root(data_dir))


def label(problem: Problem, student: str, data_dir: Path) -> str:
    """Which variant `student` has (for the teacher's pages): "" when the problem has none."""
    choice = variants.chosen_for(problem, student, root(data_dir))
    return "" if choice is None else choice.label
