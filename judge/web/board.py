"""An assignment's scoreboard, where the course asks for one: per student the problems solved
and the counted score, by the gradebook's rule over the results released so far. Anonymous:
a student sees only their own name. Refreshed by the page itself (no script)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from judge.course import gradebook, policy
from judge.web.auth import require_user
from judge.web.site import Site, WebError, site_of
from judge.web.store import User

REFRESH_S = 30


@dataclass(frozen=True)
class Line:
    rank: int
    name: str
    mine: bool
    solved: int
    score: float
    scores: tuple[float | None, ...]


def _solved(cells: list[gradebook.Counted], maxes: list[float]) -> int:
    """Problems with their full counted score (a late full score is not solved)."""
    return sum(1 for c, m in zip(cells, maxes, strict=True) if c.score is not None and c.score >= m > 0)


def scoreboard(
    request: Request, assignment_id: str, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    assignment = site.course.assignment(assignment_id)
    hidden = assignment is None or assignment.scoreboard == "off"
    if assignment is None or (
        user.role != "teacher" and (hidden or site.standing(user, assignment).phase is policy.Phase.NOT_OPEN)
    ):
        raise WebError(404, f"There is no scoreboard {assignment_id!r}.")
    step, now = site.settings.result_step_s, site.clock()
    # Only what each student could see of their own results: a scoreboard is no faster channel.
    rows = [r if r.released(step, now) else dataclasses.replace(r, status="running") for r in site.store.all()]
    book = gradebook.build(site.course, site.store.students(), site.attempts(rows), site.max_scores())
    keep = [i for i, c in enumerate(book.columns) if c.assignment == assignment.id]
    index = book.assignments.index(assignment)
    maxes = [book.columns[i].max_score for i in keep]
    ranked = sorted(
        book.rows,
        key=lambda r: (
            -r.totals[index],
            -_solved([r.cells[i] for i in keep], maxes),
            r.student,
        ),
    )
    anonymous = assignment.scoreboard == "anonymous" and user.role != "teacher"
    lines = []
    for rank, row in enumerate(ranked, start=1):
        cells = [row.cells[i] for i in keep]
        lines.append(
            Line(
                rank,
                row.student if not anonymous or row.student == user.id else "anonymous",
                row.student == user.id,
                _solved(cells, maxes),
                row.totals[index],
                tuple(c.score for c in cells),
            )
        )
    return site.page(
        request,
        "web/scoreboard.html.j2",
        user=user,
        assignment=assignment,
        lines=lines,
        anonymous=anonymous,
        refresh=REFRESH_S,
    )


def routes() -> APIRouter:
    router = APIRouter()
    router.add_api_route(
        "/assignments/{assignment_id}/scoreboard", scoreboard, methods=["GET"], response_class=HTMLResponse
    )
    return router
