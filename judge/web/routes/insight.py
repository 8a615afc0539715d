"""What the teacher and the teaching assistants read around review: the roster with names,
emails and sections (never shown to students), the list of every submission filtered, each
problem's figures (judge.web.insight makes them), and `judge similar`'s report of a problem."""

from __future__ import annotations

import threading
from pathlib import Path

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from judge.grade.reports import write_atomic
from judge.grade.results import GradeRecord
from judge.similar.report import similarity_html
from judge.similar.score import compare
from judge.web import exporting, insight
from judge.web.routes.auth import require_grader
from judge.web.routes.site import Site, WebError, base, site_of
from judge.web.state.accounts import User
from judge.web.state.store import SubmissionRow

_BUILDING = threading.Lock()  # one similarity page made at a time (each exports into the data folder)
SHOWN_MAX = 1000  # rows of the list of every submission: the newest, the filters find the rest


def people_page(request: Request, user: User = Depends(require_grader), site: Site = Depends(site_of)) -> HTMLResponse:
    counts = {u.id: n for u, n in site.store.users()}
    people = sorted(site.store.people().values(), key=lambda p: (p.role != "student", p.section, p.id))
    return site.page(request, "web/people.html.j2", user=user, people=people, counts=counts)


def every_submission(
    request: Request, user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    how = insight.Filter.of(dict(request.query_params))
    every = list(reversed(site.store.all()))
    people = site.store.people()
    # Deadline marks are worked out for every row only when the lateness filter needs them.
    kept = insight.filtered(every, how, site.marks(every) if how.late else {}, people)
    verdicts = sorted({r.verdict for r in every if r.verdict} | {insight.PENDING_VERDICT})
    heading = "Every submission" + (f" ({len(kept)} of {len(every)} match)" if how.active else "")
    return site.submissions_page(
        request,
        user,
        kept[:SHOWN_MAX],
        heading,
        show_student=True,
        refresh_s=3,
        filters=how,
        filter_choices={"problems": sorted(site.problems), "verdicts": verdicts},
        cut=max(0, len(kept) - SHOWN_MAX),
    )


def _latest_records(site: Site, rows: list[SubmissionRow]) -> list[GradeRecord]:
    """Each student's newest judged submission's record: a student who tried twenty times
    weighs as much as one who tried once."""
    newest: dict[str, SubmissionRow] = {}
    for row in rows:
        if row.status == "done" and (row.student not in newest or row.id > newest[row.student].id):
            newest[row.student] = row
    found = (site.store.record(r.id) for r in sorted(newest.values(), key=lambda r: r.id))
    return [r for r in found if r is not None]


def problem_page(
    request: Request, problem: str, user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    if problem not in site.problems:
        raise WebError(404, f"There is no problem {problem!r}.", "/teacher/problems", "Problems")
    rows = [r for r in site.store.all() if r.problem == problem]
    stats = insight.problem_stats(problem, rows, _latest_records(site, rows))
    return site.page(
        request, "web/problem_stats.html.j2", user=user, stats=stats, filters=insight.Filter(problem=problem)
    )


def problems_page(
    request: Request, user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    every = site.store.all()
    stats = [insight.problem_stats(p, every, ()) for p in sorted(site.problems)]
    return site.page(request, "web/problems_stats.html.j2", user=user, every=stats)


def similarity_page(
    request: Request, user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    every = site.store.all()
    counts = {p: len({r.student for r in every if r.problem == p}) for p in sorted(site.problems)}
    return site.page(request, "web/similarity_index.html.j2", user=user, counts=counts)


def similarity_report(
    request: Request, problem: str, _: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    """`judge similar`'s page of one problem, over each student's newest submission, made
    again only when a newer submission came (kept in the data folder till then)."""
    if problem not in site.problems:
        raise WebError(404, f"There is no problem {problem!r}.", "/teacher/similarity", "Similarity")
    rows = exporting.chosen(site.store.all(), False, [problem])
    folder = site.settings.data_dir / "similarity"
    # Made again after a newer submission, or a change of teams (whose members are no pair).
    changes = site.team_book.mark()[0]
    page = folder / f"{problem}-{max((r.id for r in rows), default=0)}{f'-t{changes}' if changes else ''}.html"
    with _BUILDING:  # two teachers opening it at once: one builds, the other reads the page made
        if not page.is_file():
            _build(request, site, problem, rows, page)
        return HTMLResponse(page.read_text(encoding="utf-8"))


def _build(request: Request, site: Site, problem: str, rows: list[SubmissionRow], page: Path) -> None:
    """Export the newest submissions, compare them, and keep the page (older ones removed)."""
    folder = page.parent
    exporting.export(site.store, rows, False, folder / problem, True)
    assignment = site.course.assignment_of(problem)
    together = site.team_book.teams().together(assignment.id) if assignment is not None else frozenset()
    found = compare(folder / problem, [problem], together=together)
    for old in folder.glob(f"{problem}-*.html"):
        old.unlink(missing_ok=True)
    back = (f"{base(request)}/teacher/similarity", "similarity of every problem")
    write_atomic(page, similarity_html(found, back=back, root=folder / problem))


def routes() -> APIRouter:
    router = APIRouter(prefix="/teacher")
    router.add_api_route("/people", people_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/submissions", every_submission, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/problems", problems_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/problems/{problem}", problem_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/similarity", similarity_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/similarity/{problem}", similarity_report, methods=["GET"], response_class=HTMLResponse)
    return router
