"""Whose counted score a rejudge moves (pure): two gradebooks made by the one gradebook rule,
before and after, compared cell by cell, each move with its reasons (which submissions
changed, and which of their cases changed verdict, by name).

A teacher fixes a test or a checker and wants to know, before anything is written, which
students go up or down and why; the same list is what a commit then makes true."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from judge.course.gradebook import Counted, Gradebook


@dataclass(frozen=True)
class CaseChange:
    """A case whose verdict differs: "" where the case was not in that judging."""

    name: str
    old: str
    new: str


@dataclass(frozen=True)
class Judging:
    """One submission's verdict and score before and after, with its cases that changed."""

    verdict: str
    score: float | None


@dataclass(frozen=True)
class Why:
    submission: int
    old: Judging
    new: Judging
    cases: tuple[CaseChange, ...]


@dataclass(frozen=True)
class ScoreMove:
    """A student's counted score of one assignment problem that changes: None is blank."""

    student: str
    assignment: str
    problem: str
    old: float | None
    new: float | None
    why: tuple[Why, ...]

    @property
    def key(self) -> str:
        return f"{self.assignment}:{self.problem}"


def case_changes(old: Mapping[str, str], new: Mapping[str, str]) -> tuple[CaseChange, ...]:
    """The cases (in the old judging's order, then new ones) whose verdict differs."""
    names = [*old, *(n for n in new if n not in old)]
    return tuple(CaseChange(n, old.get(n, ""), new.get(n, "")) for n in names if old.get(n, "") != new.get(n, ""))


@dataclass(frozen=True)
class Verdicts:
    """What each submission's judging said, by id: its verdict and score, and each case's verdict."""

    heads: Mapping[int, Judging]
    cases: Mapping[int, Mapping[str, str]]


def _why(cells: tuple[Counted, Counted], before: Verdicts, after: Verdicts) -> tuple[Why, ...]:
    # The submissions that counted before and after: where the move comes from.
    found = []
    for submission in dict.fromkeys(c.submission for c in cells if c.submission is not None):
        none = Judging("", None)
        old, new = before.heads.get(submission, none), after.heads.get(submission, none)
        cases = case_changes(before.cases.get(submission, {}), after.cases.get(submission, {}))
        if cases or old != new:
            found.append(Why(submission, old, new, cases))
    return tuple(found)


def moves(old: Gradebook, new: Gradebook, before: Verdicts, after: Verdicts) -> tuple[ScoreMove, ...]:
    """Every (student, assignment problem) whose counted score differs between the two books
    (made of the same roster and course), in roster and column order."""
    found = []
    for row_old, row_new in zip(old.rows, new.rows, strict=True):
        for column, was, now in zip(old.columns, row_old.cells, row_new.cells, strict=True):
            if was.score != now.score:
                why = _why((was, now), before, after)
                found.append(ScoreMove(row_old.student, column.assignment, column.problem, was.score, now.score, why))
    return tuple(found)


def score_text(score: float | None) -> str:
    return "blank" if score is None else f"{score:g}"


def reason(why: Why) -> str:
    """One line of a move's cause: `#12 WA 40 -> AC 100; edge/01 WA -> AC, edge/02 AC -> WA`."""
    head = f"#{why.submission}"
    if why.old != why.new:
        old, new = why.old, why.new
        head += f" {old.verdict or 'none'} {score_text(old.score)} -> {new.verdict or 'none'} {score_text(new.score)}"
    cases = ", ".join(f"{c.name} {c.old or 'none'} -> {c.new or 'none'}" for c in why.cases)
    return f"{head}; {cases}" if cases else head
