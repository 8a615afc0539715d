"""The teacher's review of a submission (pure): rubric items, their groups' caps, the manual part
they make, and how it combines with the judge's score by the course's rule; graders dealt
their students; the regrade window.

A grade stores the ids of the items applied, never their points: an item whose points change
later changes every student who has it (a dynamic rubric, as Gradescope's). An item removed
since counts nothing. A group's cap bounds the sum of its items on both sides (`cap: 5`:
from -5 to +5), so ten small deductions for style take at most five points.

- `manual: add`: the judge's counted score plus the manual part, between 0 and the problem's
  maximum plus the review's `max`.
- `manual: replace`: the manual part alone, between 0 and `max`; a counted submission with no
  hand grade counts 0 until one is given (never the judge's score in a column out of `max`).
  A late submission's penalty (the course's late rule) is taken off this score too, as off
  any counted score: lateness costs the same whoever scores the work.
- A grade belongs to the submission it was made on: a newer counted submission is ungraded.
- An override (a teacher's score with a reason) replaces the combined score, whatever the rule.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

Rule = Literal["add", "replace"]
Dealing = Literal["random", "section"]


@dataclass(frozen=True)
class Item:
    id: str
    points: float  # positive: earned; negative: taken off
    description: str
    group: str | None = None


@dataclass(frozen=True)
class Rubric:
    items: tuple[Item, ...] = ()
    caps: tuple[tuple[str, float], ...] = ()  # group -> the bound of its sum, either side

    def item(self, item_id: str) -> Item | None:
        return next((i for i in self.items if i.id == item_id), None)

    def cap(self, group: str) -> float | None:
        return next((c for g, c in self.caps if g == group), None)

    def with_items(self, extra: Sequence[Item]) -> Rubric:
        """This rubric and items made on the grading page (their ids are never a file's)."""
        return Rubric((*self.items, *extra), self.caps)


@dataclass(frozen=True)
class Review:
    """An assignment's `review:` in course.yaml."""

    manual: Rule
    max: float  # the manual part's maximum
    rubrics: tuple[tuple[str, Rubric], ...]  # per problem
    regrade_days: float  # after the release; 0: no regrade requests
    anonymous: bool  # graders see no names
    graders: Dealing

    def rubric(self, problem: str) -> Rubric:
        return next((r for p, r in self.rubrics if p == problem), Rubric())


@dataclass(frozen=True)
class Grade:
    """What a student's work on one problem was given by hand: item ids, and an override."""

    applied: frozenset[str] = frozenset()
    override: float | None = None
    submission: int | None = None  # the submission graded (None: an override alone)


@dataclass(frozen=True)
class Manual:
    """Every hand-given grade the gradebook is to count: rubrics per problem (the file's and the
    grading page's items), grades per (student, problem): the newest grade with the override,
    and `each` submission's graded items (a grade belongs to the submission it was made on)."""

    rubrics: Mapping[str, Rubric]
    grades: Mapping[tuple[str, str], Grade]
    each: Mapping[tuple[str, str], Mapping[int, frozenset[str]]] = field(default_factory=dict)


NONE = Manual({}, {})


def points(rubric: Rubric, applied: Collection[str]) -> float:
    """The manual part: the applied items' points, each group's sum held inside its cap."""
    by_group: dict[str | None, float] = {}
    for item in rubric.items:
        if item.id in applied:
            by_group[item.group] = by_group.get(item.group, 0.0) + item.points
    total = 0.0
    for group, value in by_group.items():
        cap = rubric.cap(group) if group is not None else None
        total += max(-cap, min(cap, value)) if cap is not None else value
    return round(total, 4)


def maximum(review: Review | None, judge_max: float) -> float:
    """What a problem's combined score is out of."""
    if review is None:
        return judge_max
    return review.max if review.manual == "replace" else judge_max + review.max


def combined(review: Review | None, judge_max: float, judged: float | None, manual: float | None) -> float | None:
    """The counted score of one problem: the judge's (None: nothing counted) with the manual
    part (None: not graded by hand) by the review's rule."""
    if review is None:
        return judged
    if review.manual == "replace":
        if manual is None:  # not graded yet: the judge's score is no part of a column out of `max`
            return None if judged is None else 0.0
        return round(max(0.0, min(review.max, manual)), 4)
    if manual is None:  # `add` not graded yet: the judge's score plus 0
        return judged
    return round(max(0.0, min(maximum(review, judge_max), (judged or 0.0) + manual)), 4)


def moved_points(old: Rubric, new: Rubric) -> str:
    """The items whose points differ between two rubrics, for the change log (`good 8 -> 3,
    style removed`); "" when none does."""
    was = {i.id: i.points for i in old.items}
    now = {i.id: i.points for i in new.items}
    moved = [f"{i} {was[i]:g} -> {now[i]:g}" for i in was if i in now and was[i] != now[i]]
    moved += [f"{i} removed" for i in was if i not in now]
    return ", ".join(moved)


def regrade_closes(review: Review, released: datetime) -> datetime:
    return released + timedelta(days=review.regrade_days)


def regrade_open(review: Review, released: datetime | None, now: datetime) -> bool:
    """Whether a student may ask for a regrade now: after the release, inside the window."""
    return released is not None and review.regrade_days > 0 and released <= now < regrade_closes(review, released)


def _rank(seed: str, student: str) -> str:
    return hashlib.sha256(f"{seed}\0{student}".encode()).hexdigest()


def deal(
    seed: str,
    students: Sequence[str],
    graders: Sequence[str],
    held: Mapping[str, str],
    sections: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Each student not `held` (already dealt: student -> grader) given a grader: the one with the
    fewest so far, ties broken by name; students in a seeded order of their own, so the same
    class gives the same dealing and a student added later moves nobody. By section
    (`sections`: user -> section): a student goes to a grader of their section, or to any
    grader where their section has none."""
    if not graders:
        return {}
    load = {g: 0 for g in graders}
    for grader in held.values():
        if grader in load:
            load[grader] += 1
    dealt: dict[str, str] = {}
    for student in sorted((s for s in students if s not in held), key=lambda s: _rank(seed, s)):
        pool = list(graders)
        if sections is not None:
            mine = [g for g in graders if sections.get(g, "") and sections.get(g) == sections.get(student, "")]
            pool = mine or pool
        chosen = min(pool, key=lambda g: (load[g], g))
        load[chosen] += 1
        dealt[student] = chosen
    return dealt
