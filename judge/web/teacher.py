"""The teacher's routes: the dashboard, the class matrix and its grades.csv (the reports'
own views of the latest results), every submission, ending a student's sessions, and
judging a problem's submissions again."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judge.errors import JudgeError
from judge.grade import reports
from judge.problem.spec import load_problem
from judge.run import sandbox
from judge.web.auth import require_teacher
from judge.web.site import FORM_BYTES, Site, WebError, base, site_of
from judge.web.store import User


def dashboard(
    request: Request, message: str = "", user: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> HTMLResponse:
    every = site.store.all()
    counts = {
        "queued": sum(s.status == "queued" for s in every),
        "judging": sum(s.status in ("compiling", "running") for s in every),
        "done": sum(s.status == "done" for s in every),
    }
    students = sum(1 for u, _ in site.store.users() if u.role == "student")
    return site.page(
        request,
        "web/dashboard.html.j2",
        user=user,
        counts=counts,
        students=students,
        problems=sorted(site.problems),
        sandbox=sandbox.detect().mode,
        message=message,
    )


def class_matrix(request: Request, _: User = Depends(require_teacher), site: Site = Depends(site_of)) -> HTMLResponse:
    latest = site.store.latest_records()
    ids = {(r.student, r.problem): i for i, r in latest}
    records = [r for _, r in latest]
    prefix = base(request)
    view = reports.class_view(
        records, site.problems, {}, [], link=lambda r: f"{prefix}/submissions/{ids[(r.student, r.problem)]}"
    )
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    page = reports.index_html(
        view,
        records,
        {},
        sandbox.detect().mode,
        generated,
        back=f"{prefix}/teacher",
        back_label="dashboard",
        files_footer=False,
        refresh=10,
    )  # live: new verdicts appear without a reload
    return HTMLResponse(page)


def grades(_: User = Depends(require_teacher), site: Site = Depends(site_of)) -> Response:
    records = [r for _, r in site.store.latest_records()]
    view = reports.class_view(records, site.problems, {}, [])
    return Response(
        reports.grades_csv(view),
        media_type="text/csv",
        headers={"Content-Disposition": 'attachment; filename="grades.csv"'},
    )


def every_submission(
    request: Request, user: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> HTMLResponse:
    every = list(reversed(site.store.all()))
    return site.page(
        request,
        "web/submissions.html.j2",
        user=user,
        submissions=every,
        show_student=True,
        heading="Every submission",
        refresh=3 if any(s.pending for s in every) else 0,
    )


def end_sessions(
    request: Request, student: str = Form(...), _: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> Response:
    if site.store.user(student.strip()) is None:
        raise WebError(404, f"There is no {student.strip()!r} on the roster.", "/teacher", "Dashboard")
    count = site.store.end_sessions(student.strip())
    return RedirectResponse(
        f"{base(request)}/teacher?message=" + f"{count}+session(s)+of+{student.strip()}+ended", status_code=303
    )


def rejudge(
    request: Request, problem: str = Form(...), _: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> Response:
    site.problem_or_404(problem)
    try:  # the fixed problem is what the pages show from now on
        site.problems[problem] = load_problem(site.problems[problem].directory)
    except JudgeError as err:
        raise WebError(
            400, f"The problem does not load, so nothing was queued: {err}", "/teacher", "Dashboard"
        ) from None
    count = site.store.rejudge(problem)
    return RedirectResponse(
        f"{base(request)}/teacher?message=" + f"{count}+submission(s)+of+{problem}+queued+again", status_code=303
    )


def routes() -> APIRouter:
    router = APIRouter(prefix="/teacher")
    router.add_api_route("", dashboard, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/class", class_matrix, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/grades.csv", grades, methods=["GET"])
    router.add_api_route("/submissions", every_submission, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/sessions", end_sessions, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/rejudge", rejudge, methods=["POST"], max_body_size=FORM_BYTES)
    return router
