"""An assignment's scoreboard, where the course asks for one: per student the problems solved
and the counted score, by the gradebook's rule over the results released so far. Refreshed by
the page itself (no script).

Anonymous, a student sees their own name only, and nothing that maps another row to a name:
only students who have submitted to the assignment have a row (the number of rows is not the
roster's), a problem not submitted shows as 0 (a blank would say who never tried), and equal
rows share one rank, in an order set by what they show (a tie in order of student id gave
names to anyone who knows the class list)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from judge.course import gradebook, policy
from judge.web.routes.auth import require_user
from judge.web.routes.site import Site, WebError, site_of
from judge.web.state.accounts import User

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
    """Problems whose counted submission (the gradebook's one rule) is accepted: a late AC is
    solved, its lateness is in its score (it read "solved 0", against the student's own page).
    Where no verdict is kept, the judge's counted score (`judged` under a hand part) is full."""
    judged = [c.judged if c.judged is not None else c.score for c in cells]
    return sum(
        1
        for c, j, m in zip(cells, judged, maxes, strict=True)
        if c.verdict == "AC" or (c.verdict is None and j is not None and j >= m > 0)
    )


def scoreboard(
    request: Request, assignment_id: str, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    assignment = site.course.assignment(assignment_id)
    hidden = assignment is None or assignment.scoreboard == "off"
    if assignment is None or (
        not user.can_grade and (hidden or site.standing(user, assignment).phase is policy.Phase.NOT_OPEN)
    ):
        raise WebError(404, f"There is no scoreboard {assignment_id!r}.")
    step, now = site.settings.result_step_s, site.clock()
    # Only what each student could see of their own results: a scoreboard is no faster channel.
    rows = [r if r.released(step, now) else dataclasses.replace(r, status="running") for r in site.store.all()]
    # The released hand grades count as on every student surface (the gradebook's one rule).
    released = site.reviews.counted(site.course, every=False)
    attempts = [r.attempt_record for r in rows]
    teams = site.team_book.teams()  # a team's submission is on each member's row
    book = gradebook.of_problems(site.course, site.store.students(), attempts, site.problems, released, teams)
    keep = [i for i, c in enumerate(book.columns) if c.assignment == assignment.id]
    index = book.assignments.index(assignment)
    judge_max = {p: problem.max_score for p, problem in site.problems.items()}
    maxes = [judge_max.get(book.columns[i].problem, book.columns[i].max_score) for i in keep]
    anonymous = assignment.scoreboard == "anonymous" and not user.can_grade
    lines = []
    for row in book.rows:
        cells = [row.cells[i] for i in keep]
        mine = row.student == user.id
        if anonymous and not mine and all(c.blank for c in cells):
            continue  # never submitted: no row that says who
        scores = tuple((0.0 if c.blank else c.score) if anonymous else c.score for c in cells)
        name = row.student if not anonymous or mine else "anonymous"
        lines.append(Line(0, name, mine, _solved(cells, maxes), row.totals[index], scores))
    return site.page(
        request,
        "web/scoreboard.html.j2",
        user=user,
        assignment=assignment,
        lines=ranked(lines, by_name=not anonymous),
        anonymous=anonymous,
        refresh=REFRESH_S,
    )


def ranked(lines: list[Line], by_name: bool) -> list[Line]:
    """Best first, equal totals and solved counts sharing one rank (1, 2, 2, 4). Within a tie,
    by name where names are shown, else by what the rows show (the viewer's own row first
    among rows that show the same): never by anything the page hides."""

    def shown(line: Line) -> tuple[object, ...]:
        return tuple(-(s or 0.0) for s in line.scores)

    order = sorted(
        lines,
        key=lambda line: (-line.score, -line.solved, line.name if by_name else "", shown(line), not line.mine),
    )
    out: list[Line] = []
    for place, line in enumerate(order, start=1):
        tied = out and (out[-1].score, out[-1].solved) == (line.score, line.solved)
        out.append(dataclasses.replace(line, rank=out[-1].rank if tied else place))
    return out


def routes() -> APIRouter:
    router = APIRouter()
    router.add_api_route(
        "/assignments/{assignment_id}/scoreboard", scoreboard, methods=["GET"], response_class=HTMLResponse
    )
    return router
