"""The teacher's rejudge that shows whose score moves: a dry run of a problem or an assignment
started from the dashboard (in a process of its own, judge.web.rejudging), its progress ("judged
12 of 80"), then each student whose counted score would change, old -> new and why; a commit
stores exactly those results (the LMS then gets only the scores that changed), or a discard."""

from __future__ import annotations

from urllib.parse import quote_plus

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judge.course.moved import reason, score_text
from judge.errors import JudgeError
from judge.kinds.table import load_problem
from judge.web import rejudging
from judge.web.routes.auth import require_teacher
from judge.web.routes.site import FORM_BYTES, Site, WebError, base, site_of
from judge.web.state import proposal
from judge.web.state.accounts import User

REFRESH_S = 2  # the page follows a running dry run


def _back(request: Request, message: str) -> Response:
    return RedirectResponse(f"{base(request)}/teacher/rejudging?message={quote_plus(message)}", status_code=303)


def page(
    request: Request, message: str = "", user: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> HTMLResponse:
    data = site.settings.data_dir
    try:
        progress, plan = proposal.load_progress(data), proposal.load(data)
    except JudgeError as err:
        raise WebError(500, str(err), "/teacher", "Dashboard") from None
    running = progress is not None and progress.running
    lines = []
    if plan is not None and not running:
        maxima = {p: site.problems[p].max_score for p in site.problems}
        for move in rejudging.moved(site.store, site.course, maxima, plan):
            why = [reason(w) for w in move.why] or ["another submission counts"]
            lines.append((move.student, move.key, score_text(move.old), score_text(move.new), why))
    return site.page(
        request,
        "web/rejudging.html.j2",
        user=user,
        progress=progress,
        running=running,
        died=progress is not None and progress.status == "running" and not running,
        plan=plan,
        lines=lines,
        unjudged=[(j.id, j.unjudged) for j in plan.judged if j.unjudged] if plan is not None else [],
        students=len({line[0] for line in lines}),
        message=message,
        refresh=REFRESH_S if running else 0,
    )


def start(
    request: Request,
    problem: str = Form(""),
    assignment: str = Form(""),
    _: User = Depends(require_teacher),
    site: Site = Depends(site_of),
) -> Response:
    if assignment:
        found = site.course.assignment(assignment)
        if found is None:
            raise WebError(404, f"There is no assignment {assignment!r}.", "/teacher", "Dashboard")
        ids = list(found.problems)
    else:
        site.problem_or_404(problem)
        ids = [problem]
    try:
        rejudging.start(site.settings.data_dir, site.settings.problems_dir, ids)
    except JudgeError as err:
        return _back(request, str(err))
    return _back(request, f"A dry run of {', '.join(ids)} started: nothing is written until you commit it.")


def commit(request: Request, _: User = Depends(require_teacher), site: Site = Depends(site_of)) -> Response:
    try:
        plan = proposal.load(site.settings.data_dir)
        done = rejudging.commit(site.store, site.settings.problems_dir)
    except JudgeError as err:
        return _back(request, f"Nothing was stored: {err}")
    for problem in plan.problems if plan is not None else ():
        try:  # the fixed problem is what the pages show from now on
            site.problems[problem] = load_problem(site.problems[problem].directory)
        except JudgeError as err:
            return _back(request, f"Stored, but {problem} does not load: {err}")
    left = f"; {done.left} judged again since the dry run were left as they are" if done.left else ""
    return _back(request, f"{done.written} result(s) stored{left}.")


def discard(request: Request, _: User = Depends(require_teacher), site: Site = Depends(site_of)) -> Response:
    held = proposal.load_progress(site.settings.data_dir)
    if held is not None and held.running:
        return _back(request, "The dry run is still running; discard it once it ends.")
    proposal.discard(site.settings.data_dir)
    return _back(request, "The dry run was discarded; nothing was stored.")


def routes() -> APIRouter:
    router = APIRouter(prefix="/teacher/rejudging")
    router.add_api_route("", page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("", start, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/commit", commit, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/discard", discard, methods=["POST"], max_body_size=FORM_BYTES)
    return router
