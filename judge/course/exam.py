"""An exam's window for one student (pure): it starts when the student starts the exam (a
moment the server recorded), lasts the exam's duration plus the student's extra time (their
extension's `extra`, and any time the teacher added live), and never runs past the student's
due minute. No late policy applies to an exam: after a student's end nothing is accepted.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from judge.course.policy import Window
from judge.course.spec import Course, Exam


class ExamPhase(StrEnum):
    NOT_OPEN = "not open"  # before the assignment opens
    READY = "ready"  # open, not started by this student
    RUNNING = "running"  # started, before its end
    OVER = "over"  # after the student's end (or the due minute, started or not)


@dataclass(frozen=True)
class ExamWindow:
    """One student's exam: when they started (None: not yet), when it ends, and the extra time."""

    phase: ExamPhase
    started: datetime | None
    ends: datetime | None  # None: not started (or no end: never, with no due)
    extra: timedelta  # the extension's extra time plus the teacher's added time
    capped: bool  # the end is the due minute's, before start + duration + extra

    def left(self, moment: datetime) -> timedelta:
        """Time left at `moment` (zero once over; the whole duration's worth is not known before the start)."""
        if self.ends is None or moment >= self.ends:
            return timedelta(0)
        return self.ends - moment


def extra_of(course: Course, assignment_id: str, student: str, added: timedelta) -> timedelta:
    """A student's extra time: their extension's `extra` and what the teacher added live."""
    extension = course.extension(student, assignment_id)
    return (extension.extra if extension is not None else timedelta(0)) + added


def exam_window(exam: Exam, win: Window, started: datetime | None, extra: timedelta, moment: datetime) -> ExamWindow:
    """The student's exam at `moment`. `win`: their assignment window (policy.window), whose due
    minute bounds every end; `started`: when the server recorded their start, if it did."""
    if win.opens is not None and moment < win.opens:
        return ExamWindow(ExamPhase.NOT_OPEN, None, None, extra, False)
    if started is None:
        closed = win.due_end is not None and moment >= win.due_end
        return ExamWindow(ExamPhase.OVER if closed else ExamPhase.READY, None, None, extra, False)
    ends = started + exam.duration + extra
    capped = win.due_end is not None and win.due_end < ends
    if capped and win.due_end is not None:
        ends = win.due_end
    return ExamWindow(ExamPhase.RUNNING if moment < ends else ExamPhase.OVER, started, ends, extra, capped)


def address_allowed(exam: Exam, host: str | None) -> bool:
    """Whether a client address is in the exam's ranges (any, when it names none). An address
    that is not one (no client, a test client's name) is outside every range."""
    if not exam.addresses:
        return True
    try:
        address = ipaddress.ip_address((host or "").strip())
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:10.0.0.5 is 10.0.0.5
    return any(address.version == net.version and address in net for net in exam.addresses)
