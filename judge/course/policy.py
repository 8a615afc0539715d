"""The deadline rules of a course (pure): when an assignment is open to a student, and what a
submission received at a given moment costs.

- Before `opens`: not open (its problems are not shown).
- Up to the end of the `due` minute: on time. The due minute is the student's extension's when
  they have one; the late window then moves with it unless the extension gives its own `until`.
- After that, up to the end of the `late.until` minute: late, `penalty_per_day` percent per
  started day, days counted on the course's wall clock (so a day across the change to summer
  time is still one day); at most 100 percent.
- After: closed, nothing more is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from judge.course.spec import MINUTE, Assignment, Course


class Phase(StrEnum):
    NOT_OPEN = "not open"
    OPEN = "open"
    LATE = "late"
    CLOSED = "closed"


@dataclass(frozen=True)
class Window:
    """One student's deadlines for one assignment, as moments (the end of each named minute)."""

    opens: datetime | None
    due_end: datetime | None  # a submission before this moment is on time
    late_end: datetime | None  # a late one before this moment is accepted (None: no late window)
    penalty_per_day: float
    extended: bool

    @property
    def closes(self) -> datetime | None:
        """The first moment nothing is accepted any more (None: never)."""
        return self.late_end if self.late_end is not None else self.due_end


@dataclass(frozen=True)
class Standing:
    """What a submission received at one moment gets: its phase, and its penalty in percent."""

    phase: Phase
    penalty: float  # 0 unless late
    days_late: int

    @property
    def accepted(self) -> bool:
        return self.phase in (Phase.OPEN, Phase.LATE)


def window(course: Course, assignment: Assignment, student: str) -> Window:
    due, until = assignment.due, assignment.late.until if assignment.late is not None else None
    extension = course.extension(student, assignment.id)
    if extension is not None and extension.due is not None and due is not None:
        moved = extension.due - due
        until = extension.until if extension.until is not None else (until + moved if until is not None else None)
        due = extension.due
    return Window(
        assignment.opens,
        due + MINUTE if due is not None else None,
        until + MINUTE if until is not None else None,
        assignment.late.penalty_per_day if assignment.late is not None else 0.0,
        extension is not None and extension.due is not None,
    )


def standing(course: Course, win: Window, moment: datetime) -> Standing:
    if win.opens is not None and moment < win.opens:
        return Standing(Phase.NOT_OPEN, 0.0, 0)
    if win.due_end is None or moment < win.due_end:
        return Standing(Phase.OPEN, 0.0, 0)
    if win.late_end is None or moment >= win.late_end:
        return Standing(Phase.CLOSED, 0.0, 0)
    days = days_late(course, win.due_end, moment)
    return Standing(Phase.LATE, min(100.0, days * win.penalty_per_day), days)


def days_late(course: Course, due_end: datetime, moment: datetime) -> int:
    """Started days after `due_end`, a day being the same wall-clock time the next day in the
    course's zone (23 or 25 hours across a change of the clocks)."""
    local_due = course.local(due_end).replace(tzinfo=None)
    days = 1
    while moment >= _wall(course, local_due + timedelta(days=days)):
        days += 1
    return days


def _wall(course: Course, naive: datetime) -> datetime:
    # A wall time in the spring gap is taken after the jump (fold=1 moves it forward).
    return naive.replace(tzinfo=course.zone, fold=1)


def counted(score: float, penalty: float) -> float:
    """A score after a late penalty in percent."""
    return round(score * (1.0 - penalty / 100.0), 4)


def until_text(delta: timedelta) -> str:
    """`2 days 3 h`, `3 h 20 min`, `5 min`, `under a minute`: how long until a deadline."""
    seconds = int(delta.total_seconds())
    if seconds < 60:
        return "under a minute"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} day{'s' if days != 1 else ''} {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"
