"""Exams in the web judge: a student's window read from the exam rows and the course
(judge.course.exam does the arithmetic), and the refusals an exam makes: an address outside its
ranges, a page of the exam before the student started it, another assignment's page during it
(lock_others), a submission after the student's end. Time is the server's clock, handed in.

The client address is the one the app was given: uvicorn's, which is the proxy's forwarded
address only under `judge serve --behind-proxy` from the addresses `--forwarded-allow-ips`
names; an X-Forwarded-For from anyone else is never read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from judge.course import exam, policy
from judge.course.exam import ExamPhase, ExamWindow
from judge.course.spec import Assignment, Course
from judge.web.state.exams import ADDRESS_REFUSED, SESSION_ENDED, ExamRecords


class SessionEnder(Protocol):
    """The accounts' one call an exam makes (judge.web.state.accounts.Accounts)."""

    def end_other_sessions(self, user_id: str, keep: str, why: str, now: float) -> int: ...


@dataclass(frozen=True)
class Refusal:
    status: int
    message: str
    link: str = "/"
    label: str = "Back to the problems"


@dataclass(frozen=True)
class Running:
    """The exam a student is in now, and their window."""

    assignment: Assignment
    window: ExamWindow


def moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def window_of(course: Course, records: ExamRecords, assignment: Assignment, student: str, now: datetime) -> ExamWindow:
    """A student's window of an exam assignment now (its start from the rows)."""
    assert assignment.exam is not None
    started = records.started(assignment.id, student)
    added = timedelta(seconds=records.added(assignment.id).get(student, 0.0))
    return exam.exam_window(
        assignment.exam,
        policy.window(course, assignment, student),
        moment(started) if started is not None else None,
        exam.extra_of(course, assignment.id, student, added),
        now,
    )


def running(course: Course, records: ExamRecords, student: str, now: datetime) -> Running | None:
    """The exam the student has started and not ended, if any."""
    for assignment in course.assignments:
        if assignment.exam is not None and records.started(assignment.id, student) is not None:
            found = window_of(course, records, assignment, student, now)
            if found.phase is ExamPhase.RUNNING:
                return Running(assignment, found)
    return None


def address_refusal(
    records: ExamRecords, assignment: Assignment, student: str, host: str | None, now: float
) -> Refusal | None:
    """An address outside the exam's ranges: refused, and the teacher sees it (an event)."""
    assert assignment.exam is not None
    if exam.address_allowed(assignment.exam, host):
        return None
    records.log(assignment.id, student, ADDRESS_REFUSED, f"from {host or 'no address'}", now)
    return Refusal(403, f"{assignment.name} is taken only from the exam room's network; this request came from {host}.")


def page_refusal(
    course: Course,
    records: ExamRecords,
    assignment: Assignment | None,
    student: str,
    host: str | None,
    now: float,
) -> Refusal | None:
    """Why a student may not open a page of `assignment` now (None: they may)."""
    at = moment(now)
    current = running(course, records, student, at)
    if (
        current is not None
        and current.assignment.exam is not None
        and current.assignment.exam.lock_others
        and (assignment is None or assignment.id != current.assignment.id)
    ):
        return Refusal(
            403,
            f"During your exam {current.assignment.name} the pages of other assignments are closed "
            f"(your exam ends in {policy.until_text(current.window.left(at))}).",
        )
    if assignment is None or assignment.exam is None:
        return None
    refused = address_refusal(records, assignment, student, host, now)
    if refused is not None:
        return refused
    found = window_of(course, records, assignment, student, at)
    if found.phase is ExamPhase.READY:
        return Refusal(403, f"{assignment.name} is an exam: start it on the home page first.", "/", "Start the exam")
    return None


def clock_text(course: Course, at: datetime) -> str:
    """A moment of an exam to the second, on the course's wall clock: `10:40:30 CET`."""
    local = course.local(at)
    return f"{local:%H:%M:%S} {local.tzname()}"


def submit_refusal(
    course: Course, records: ExamRecords, assignment: Assignment, student: str, received: float
) -> Refusal | None:
    """A submission to an exam outside the student's window is refused with a sentence."""
    found = window_of(course, records, assignment, student, moment(received))
    if found.phase is ExamPhase.RUNNING:
        return None
    if found.ends is None:
        return Refusal(403, f"{assignment.name} is an exam you have not started: nothing is accepted.")
    return Refusal(
        403, f"Your time in {assignment.name} ended at {clock_text(course, found.ends)}; nothing more is accepted."
    )


def ended_for(
    course: Course, records: ExamRecords, assignment: Assignment | None, student: str, role: str, now: float
) -> Refusal | None:
    """A judging a student asks of an exam's problem outside their window (a run, an
    explanation) refused as a submission is; None for another assignment or the staff."""
    if assignment is None or assignment.exam is None or role != "student":
        return None
    return submit_refusal(course, records, assignment, student, now)


def explain_refusal(
    course: Course, records: ExamRecords, assignment: Assignment | None, student: str, role: str, now: float
) -> Refusal | None:
    """Explaining a submission of an exam's problem (a failing input with the reference's answer):
    only inside the student's window, and only where the exam says `explain: true`."""
    ended = ended_for(course, records, assignment, student, role, now)
    if ended is not None or assignment is None or assignment.exam is None or role != "student":
        return ended
    if assignment.exam.explain:
        return None
    return Refusal(403, f"{assignment.name} is an exam without explanations: a failing input is not shown during it.")


def one_session(course: Course, records: ExamRecords, ending: SessionEnder, student: str, keep: str, now: float) -> int:
    """A sign-in (or a start) during an exam of one live session: every other session of the
    student ends, each with the reason its next request shows, and the teacher sees it (an
    event). How many ended."""
    current = running(course, records, student, moment(now))
    if current is None or current.assignment.exam is None or not current.assignment.exam.one_session:
        return 0
    why = (
        f"This session was ended at {clock_text(course, moment(now))}: your account signed in again "
        f"elsewhere during the exam {current.assignment.name}, which allows one session at a time."
    )
    ended = ending.end_other_sessions(student, keep, why, now)
    if ended:
        records.log(current.assignment.id, student, SESSION_ENDED, f"{ended} other session(s) ended by a new one", now)
    return ended


@dataclass(frozen=True)
class ExamLine:
    """An exam as its student sees it on the home page and in the timer bar."""

    assignment: str
    name: str
    phase: str  # ExamPhase's value
    duration: str  # "40 min" (with the student's extra time)
    ends: str  # "10:40:00 CET", "" before the start
    left_s: int  # whole seconds left (0 unless running)


def lines(course: Course, records: ExamRecords, student: str, now: float) -> dict[str, ExamLine]:
    """Each exam of the course as the student stands in it now, by assignment id."""
    at, found = moment(now), {}
    for assignment in course.assignments:
        if assignment.exam is None:
            continue
        win = window_of(course, records, assignment, student, at)
        length = policy.until_text(assignment.exam.duration + win.extra)
        found[assignment.id] = ExamLine(
            assignment.id,
            assignment.name,
            str(win.phase),
            length,
            clock_text(course, win.ends) if win.ends is not None else "",
            int(win.left(at).total_seconds()),
        )
    return found
