"""Exams' routes (issue 61): a student starts an exam (the server records the moment), and the
guard's gate refuses what an exam forbids before any route runs; the teacher's page shows who is
in, since when, with how long left, the sessions ended and the addresses refused, and adds time
live (a form like the others: same-origin, logged)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judge.course import policy
from judge.course.exam import ExamPhase
from judge.course.spec import Assignment
from judge.web import examining
from judge.web.routes.auth import COOKIE, current_user, require_grader, require_teacher, require_user
from judge.web.routes.site import FORM_BYTES, Site, WebError, base, log, site_of
from judge.web.state.accounts import User
from judge.web.state.exams import ADDRESS_REFUSED, SESSION_ENDED, TIME_ADDED

MAX_ADDED_MIN = 600  # time added at once, in minutes


def _as_error(refusal: examining.Refusal) -> WebError:
    return WebError(refusal.status, refusal.message, refusal.link, refusal.label)


def _assignment_of_path(site: Site, path: str) -> tuple[bool, Assignment | None]:
    """Whether a path is an assignment's page, and whose: a problem's pages, a submission's (its
    page, events and API status), a run's (it shows the samples, the code and what it printed),
    a scoreboard's."""
    parts = path.strip("/").split("/")
    if parts[0] == "api":  # a submission's status by the API is its page's too
        parts = parts[1:]
    if len(parts) >= 2 and parts[0] == "problems":
        return True, site.assignment_of(parts[1])
    if len(parts) >= 2 and parts[0] == "submissions" and parts[1].isdigit() and len(parts[1]) < 19:
        found = site.store.get(int(parts[1]))
        return True, site.assignment_of(found.problem) if found is not None else None
    if len(parts) >= 2 and parts[0] == "runs" and parts[1].isdigit() and len(parts[1]) < 19:
        ran = site.runs.get(int(parts[1]))
        return True, site.assignment_of(ran.problem) if ran is not None else None
    if len(parts) >= 2 and parts[0] == "assignments":
        return True, site.course.assignment(parts[1])
    return False, None


def gate(request: Request) -> WebError | None:
    """What an exam refuses a student before any route runs (None: the request goes on): an
    address outside its ranges, its pages before the student started it, another assignment's
    pages during it (lock_others)."""
    site = site_of(request)
    if not any(a.exam is not None for a in site.course.assignments):
        return None
    path = request.url.path
    prefix = base(request)
    if prefix and path.startswith(prefix):
        path = path[len(prefix) :]
    paged, assignment = _assignment_of_path(site, path)
    if not paged:
        return None
    user = current_user(request)
    if user is None or user.can_grade:
        return None
    host = request.client.host if request.client is not None else None
    refused = examining.page_refusal(site.course, site.exams, assignment, user.id, host, site.clock())
    return _as_error(refused) if refused is not None else None


def _exam_or_404(site: Site, assignment_id: str) -> Assignment:
    assignment = site.course.assignment(assignment_id)
    if assignment is None or assignment.exam is None:
        raise WebError(404, f"There is no exam {assignment_id!r}.")
    return assignment


def start(
    request: Request, assignment_id: str, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> Response:
    """The student's start, recorded once by the server's clock (a second start keeps the first)."""
    assignment = _exam_or_404(site, assignment_id)
    if user.can_grade:
        return RedirectResponse(f"{base(request)}/teacher/exams/{assignment.id}", status_code=303)
    now = site.clock()
    host = request.client.host if request.client is not None else None
    refused = examining.address_refusal(site.exams, assignment, user.id, host, now)
    current = examining.running(site.course, site.exams, user.id, examining.moment(now))
    if refused is None and current is not None and current.assignment.id != assignment.id:
        refused = examining.Refusal(403, f"Finish your exam {current.assignment.name} first.")
    if refused is not None:
        raise _as_error(refused)
    win = examining.window_of(site.course, site.exams, assignment, user.id, examining.moment(now))
    if win.phase is ExamPhase.NOT_OPEN:
        raise WebError(403, f"{assignment.name} is not open yet.")
    if win.phase is ExamPhase.OVER:
        raise WebError(403, f"{assignment.name} is over; it can no longer be started.")
    site.exams.start(assignment.id, user.id, now, host or "")
    # The browser that starts is the exam's one session: any other ends now.
    examining.one_session(site.course, site.exams, site.store, user.id, request.cookies.get(COOKIE, ""), now)
    return RedirectResponse(f"{base(request)}/problems/{assignment.problems[0]}", status_code=303)


@dataclass(frozen=True)
class ExamRow:
    """One student on the teacher's exam page."""

    student: str
    name: str
    phase: str
    started: str  # "10:02:13 CET", "" before the start
    ends: str
    left_s: int
    extra: str  # "10 min", "" for none
    address: str  # where they started from
    sessions_ended: int
    refused: int  # requests from outside the ranges


def _rows(site: Site, assignment: Assignment) -> list[ExamRow]:
    now = site.clock()
    starts, events = site.exams.starts(assignment.id), site.exams.events(assignment.id)
    people = site.store.people()
    rows = []
    for student in sorted(set(site.store.students()) | set(starts)):
        line = examining.lines(site.course, site.exams, student, now)[assignment.id]
        win = examining.window_of(site.course, site.exams, assignment, student, examining.moment(now))
        began = starts.get(student)
        person = people.get(student)
        rows.append(
            ExamRow(
                student,
                person.name if person is not None else "",
                line.phase,
                examining.clock_text(site.course, examining.moment(began.started)) if began else "",
                line.ends,
                line.left_s,
                policy.until_text(win.extra) if win.extra > timedelta(0) else "",
                began.address if began else "",
                sum(1 for e in events if e.student == student and e.kind == SESSION_ENDED),
                sum(1 for e in events if e.student == student and e.kind == ADDRESS_REFUSED),
            )
        )
    return rows


def teacher_page(
    request: Request, assignment_id: str, user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    assignment = _exam_or_404(site, assignment_id)
    assert assignment.exam is not None
    rows = _rows(site, assignment)
    return site.page(
        request,
        "web/exam.html.j2",
        200,
        user,
        assignment=assignment,
        duration=policy.until_text(assignment.exam.duration),
        ranges=", ".join(str(n) for n in assignment.exam.addresses) or "any address",
        rows=rows,
        events=[
            (examining.clock_text(site.course, examining.moment(e.at)), e) for e in site.exams.events(assignment.id)
        ],
        counts={p: sum(1 for r in rows if r.phase == p) for p in ("ready", "running", "over")},
        message=request.query_params.get("message", "")[:200],
    )


def add_time(
    request: Request,
    assignment_id: str,
    student: str = Form(...),
    minutes: int = Form(...),
    why: str = Form("", max_length=200),
    user: User = Depends(require_teacher),
    site: Site = Depends(site_of),
) -> Response:
    """Time added to one student's exam, at once (their end moves; logged with who and why)."""
    assignment = _exam_or_404(site, assignment_id)
    back = f"/teacher/exams/{assignment.id}"
    student = student.strip()
    if site.store.user(student) is None:
        raise WebError(404, f"There is no {student!r} on the roster.", back, "The exam")
    if not 1 <= minutes <= MAX_ADDED_MIN:
        raise WebError(400, f"Add between 1 and {MAX_ADDED_MIN} minutes.", back, "The exam")
    detail = f"{minutes} min" + (f": {why.strip()}" if why.strip() else "")
    site.exams.log(assignment.id, student, TIME_ADDED, detail, site.clock(), by=user.id, seconds=minutes * 60.0)
    log.info("exam %s: %s added %d min for %s (%s)", assignment.id, user.id, minutes, student, why.strip())
    return RedirectResponse(f"{base(request)}{back}?message={minutes}+min+added+for+{student}", status_code=303)


def routes() -> APIRouter:
    router = APIRouter()
    router.add_api_route("/exams/{assignment_id}/start", start, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/teacher/exams/{assignment_id}", teacher_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/teacher/exams/{assignment_id}/time", add_time, methods=["POST"], max_body_size=FORM_BYTES)
    return router
