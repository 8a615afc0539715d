"""Grade passback: the counted score of each LMS student in each assignment, by the gradebook's
one rule (best or last, the late penalty), queued in the store whenever it changes and sent to
the assignment's line item in every linked LMS course. The queue survives a restart; a send
that fails (the LMS down, a token refused) is tried again later, waiting longer each time.

`wanted` is pure; `step` is what `judge serve` runs every few seconds, in a thread."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import requests

from judge.course import gradebook
from judge.course.gradebook import Gradebook
from judge.course.spec import Course
from judge.web.lti import classlist, services
from judge.web.routes.site import Site
from judge.web.state.lti import LmsCourse, LtiRecords, Send

FIRST_WAIT_S = 15.0
LONGEST_WAIT_S = 3600.0
SYNC_KEY = "sync:"  # a class list to fetch from the LMS (after a launch, or asked for)
SYNC_S = 24 * 3600
log = logging.getLogger("judge.web")


def backoff_s(tries: int, first_s: float = FIRST_WAIT_S) -> float:
    """How long a send that failed `tries` times before waits: `first_s`, doubled each time,
    at most an hour."""
    return float(min(LONGEST_WAIT_S, first_s * 2 ** max(0, tries)))


@dataclass(frozen=True)
class Seat:
    """A student of a linked LMS course, as the passback needs them."""

    course: LmsCourse
    user: str


def wanted(book: Gradebook, seats: Sequence[Seat], received: Mapping[int, float], now: float) -> list[Send]:
    """Each seat's score of each assignment it has a counted submission in: the assignment's
    total out of its maximum, at the newest counted submission's time."""
    found = []
    for seat in seats:
        row = book.row(seat.user)
        if row is None:
            continue
        for index, assignment in enumerate(book.assignments):
            counted = [
                cell
                for column, cell in zip(book.columns, row.cells, strict=True)
                if column.assignment == assignment.id and not cell.blank
            ]
            if not counted:
                continue  # nothing counted yet: the LMS shows no grade, not a zero
            ids = [c.submission for c in counted if c.submission is not None]
            latest = max(ids, key=lambda i: received.get(i, 0.0)) if ids else None
            at = received.get(latest, now) if latest is not None else now
            found.append(
                Send(
                    seat.course.issuer,
                    seat.course.context_id,
                    assignment.id,
                    seat.user,
                    row.totals[index],
                    book.max_of(assignment.id),
                    latest,
                    at,
                    "pending",
                    0,
                    now,
                    "",
                    None,
                    None,
                )
            )
    return found


def queue(store: LtiRecords, book: Gradebook, received: Mapping[int, float]) -> int:
    """Queue every score that changed: how many."""
    seats = []
    for course in store.lms_courses():
        if not course.lineitems_url:
            continue  # the LMS gave this course no grade service
        for member in store.members(course.issuer, course.context_id):
            if member.role == "student" and member.dropped is None:
                seats.append(Seat(course, member.user))
    return store.want_scores(wanted(book, seats, received, time.time()))


def lms_away(err: Exception) -> bool:
    """Whether a failed call says the LMS is away (no answer, an error of its own, too busy),
    not that it refused this one score."""
    if isinstance(err, requests.RequestException):
        return True
    status = getattr(getattr(err, "response", None), "status_code", None)
    return isinstance(status, int) and (status >= 500 or status == 429)


def send_due(store: LtiRecords, course_of: Course, link: str, first_s: float = FIRST_WAIT_S) -> tuple[int, int]:
    """Send every queued score whose time has come: (sent, failed). `link`: the path of a
    submission's page, with `{id}`; `first_s`: the wait after a first failure."""
    sent = failed = 0
    courses = {(c.issuer, c.context_id): c for c in store.lms_courses()}
    away: set[str] = set()
    for send in store.sends("pending", due_by=time.time()):
        if send.issuer in away:
            continue  # deferred with the send that found its LMS away
        course = courses.get((send.issuer, send.context_id))
        platforms = [p for p in store.platforms(send.issuer) if course and p.client_id == course.client_id]
        sub = store.sub_of(send.issuer, send.user)
        try:
            if course is None or not platforms or sub is None:
                raise LookupError("the LMS course, its platform or the student is no longer linked")
            assignment = next((a for a in course_of.assignments if a.id == send.assignment), None)
            if assignment is None:
                raise LookupError(f"the assignment {send.assignment!r} is no longer in the course file")
            due = assignment.due.isoformat() if assignment.due is not None else ""
            url = services.lineitem(store, platforms[0], course, assignment.id, assignment.title, send.max_score, due)
            where = f"{course.tool_url}{link.format(id=send.submission)}" if send.submission is not None else ""
            comment = f"Judged by the judge: {where}" if where else "Judged by the judge"
            services.put_score(store, platforms[0], course, url, sub, send, comment)
        except Exception as err:  # the LMS down, a refusal, a bad answer: tried again later
            later = time.time() + backoff_s(send.tries, first_s)
            store.send_failed(send, f"{type(err).__name__}: {err}", later)
            if lms_away(err):
                # One probe at a time: the LMS's other scores wait with this one, rather than
                # each spending a timeout on it now.
                away.add(send.issuer)
                store.defer_sends(send.issuer, later)
            failed += 1
            continue
        store.send_done(send)
        sent += 1
    return sent, failed


def sync_due(store: LtiRecords) -> int:
    """Fetch the class lists asked for (classlist.sync): how many were."""
    done = 0
    for course in store.lms_courses():
        key = f"{SYNC_KEY}{course.issuer}\0{course.context_id}"
        if not course.memberships_url or store.take_lti_value(key) is None:
            continue
        platforms = [p for p in store.platforms(course.issuer) if p.client_id == course.client_id]
        if platforms:
            try:
                classlist.sync(store, platforms[0], course)
                done += 1
            except Exception as err:  # the next launch or the teacher's button asks again
                log.warning("the class list of %s could not be fetched from the LMS: %s", course.title, err)
                continue
    return done


def ask_sync(store: LtiRecords, course: LmsCourse) -> None:
    store.put_lti_value(f"{SYNC_KEY}{course.issuer}\0{course.context_id}", "1", SYNC_S)


def step(site: Site, last: tuple[int, float] | None) -> tuple[int, float] | None:
    """One round of the LMS's work: scores queued where a judging changed them, class lists
    fetched where asked, queued scores sent where due. The scores are those of results released
    to the students (Settings.result_step_s): the LMS's gradebook must not tell a student when a
    judging ended any finer than the judge's pages do; and hand grades once their assignment is
    released, so the LMS gets the combined score then, once. Returns what to compare next round
    (None while a result waits for its release, so the round plans again)."""
    if not site.lti.platforms():
        return last
    # A release changes scores too, and so does a student joining or leaving a team.
    judged, reviewed, teamed = site.lti.done_mark(), site.reviews.mark(), site.team_book.mark()
    mark = (judged[0] + reviewed[0] + teamed[0], judged[1] + reviewed[1] + teamed[1])
    waiting = False
    if mark != last:
        step, now = site.settings.result_step_s, site.clock()
        rows = site.store.all()
        shown = [row.attempt_record for row in rows if row.released(step, now) or row.status != "done"]
        waiting = len(shown) < len(rows)
        released = site.reviews.counted(site.course, every=False)  # hand grades once released
        teams = site.team_book.teams()  # a team submission is each member's score
        book = gradebook.of_problems(site.course, site.store.students(), shown, site.problems, released, teams)
        queue(site.lti, book, {row.id: row.created for row in rows})
    sync_due(site.lti)
    send_due(site.lti, site.course, "/submissions/{id}", site.settings.lms_retry_s)
    return None if waiting else mark
