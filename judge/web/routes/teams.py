"""Teams on the web (issue 61): a student's team page (start a team, invite, accept or decline an
invitation, leave) and the teacher's list of an assignment's teams with its lock.

Every change is a plain form behind the site's guard, decided by the state's transaction
(judge/web/state/teams.py): the team a student acts on is always their own now, an invitation
is accepted only by the one it names, and a locked assignment changes no team.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse

from judge.course import policy
from judge.course.spec import MINUTE, Assignment, TeamRule
from judge.course.teams import Stay, locked, members_of, read_file
from judge.errors import JudgeError
from judge.web.routes.auth import require_grader, require_teacher, require_user
from judge.web.routes.site import FORM_BYTES, Site, WebError, base, log, site_of
from judge.web.state.accounts import User
from judge.web.state.teams import TeamError

TEAM_FILE_BYTES = 64 * 1024  # a teacher's file of teams: a line per team, hundreds of teams at most
IMPORT_PATH = "/teacher/teams/{assignment_id}/import"


@dataclass(frozen=True)
class TeamLine:
    """One team as the teacher's page lists it."""

    id: int
    name: str
    members: tuple[str, ...]
    former: tuple[Stay, ...]  # stays that ended
    submissions: int


def _teamed(site: Site, user: User, assignment_id: str) -> tuple[Assignment, TeamRule]:
    """The assignment and its team rule, where the reader may see it (else 404)."""
    assignment = site.course.assignment(assignment_id)
    if assignment is None or assignment.teams is None:
        raise WebError(404, f"There is no team assignment {assignment_id!r}.")
    if not user.can_grade and site.standing(user, assignment).phase is policy.Phase.NOT_OPEN:
        raise WebError(404, f"There is no team assignment {assignment_id!r}.")
    return assignment, assignment.teams


def rule_text(site: Site, rule: TeamRule, lock: float | None) -> str:
    """`Teams of 2 to 3, formed by students; they lock Sat 5 Dec 2026 12:00 CET`."""
    how = "set by your teacher" if rule.formed == "csv" else "formed by students: invite and accept"
    text = f"Teams of {rule.least} to {rule.most}, {how}"
    if lock is not None:
        return f"{text}; locked by the teacher since {site.when(datetime.fromtimestamp(lock, UTC))}"
    if rule.lock is not None:
        return f"{text}; they lock at the end of {site.when(rule.lock)}"
    return text


def team_page(
    request: Request, assignment_id: str, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    assignment, rule = _teamed(site, user, assignment_id)
    teams, lock = site.team_book.teams(), site.team_book.lock_of(assignment.id)
    mine = teams.team_of(assignment.id, user.id)
    return site.page(
        request,
        "web/team.html.j2",
        user=user,
        assignment=assignment,
        rule=rule_text(site, rule, lock),
        formed=rule.formed,
        locked=locked(rule, site.clock(), lock),
        team=site.team_book.names(assignment.id).get(mine, "") if mine is not None else "",
        members=members_of(teams, mine) if mine is not None else (),
        small=mine is not None and len(members_of(teams, mine)) < rule.least,
        least=rule.least,
        sent=site.team_book.invites_of(mine) if mine is not None else [],
        invites=site.team_book.invites_for(assignment.id, user.id),
    )


def _change(
    request: Request, site: Site, user: User, assignment_id: str, act: Callable[[Assignment, TeamRule, float], object]
) -> RedirectResponse:
    """One change of teams by a student, refused with its status and reason, then the team page."""
    assignment, rule = _teamed(site, user, assignment_id)
    try:
        act(assignment, rule, site.clock())
    except TeamError as err:
        raise WebError(err.status, str(err), f"/assignments/{assignment.id}/team", "Your team") from None
    return RedirectResponse(f"{base(request)}/assignments/{assignment.id}/team", status_code=303)


def start_team(
    request: Request, assignment_id: str, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> RedirectResponse:
    return _change(
        request, site, user, assignment_id, lambda a, rule, now: site.team_book.start(a.id, user.id, rule, now)
    )


def invite(
    request: Request,
    assignment_id: str,
    student: str = Form(..., max_length=64),
    user: User = Depends(require_user),
    site: Site = Depends(site_of),
) -> RedirectResponse:
    roster = site.store.students()
    return _change(
        request,
        site,
        user,
        assignment_id,
        lambda a, rule, now: site.team_book.invite(a.id, user.id, student.strip(), roster, rule, now),
    )


def accept(
    request: Request,
    assignment_id: str,
    invitation: int = Form(...),
    user: User = Depends(require_user),
    site: Site = Depends(site_of),
) -> RedirectResponse:
    return _change(
        request,
        site,
        user,
        assignment_id,
        lambda a, rule, now: site.team_book.accept(a.id, invitation, user.id, rule, now),
    )


def decline(
    request: Request,
    assignment_id: str,
    invitation: int = Form(...),
    user: User = Depends(require_user),
    site: Site = Depends(site_of),
) -> RedirectResponse:
    return _change(
        request, site, user, assignment_id, lambda a, _, __: site.team_book.decline(a.id, invitation, user.id)
    )


def leave(
    request: Request, assignment_id: str, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> RedirectResponse:
    return _change(
        request, site, user, assignment_id, lambda a, rule, now: site.team_book.leave(a.id, user.id, rule, now)
    )


def teams_page(
    request: Request, assignment_id: str, user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    assignment, rule = _teamed(site, user, assignment_id)
    teams, lock = site.team_book.teams(), site.team_book.lock_of(assignment.id)
    counts: dict[int, int] = {}
    for team in teams.stamped.values():
        counts[team] = counts.get(team, 0) + 1
    lines = [
        TeamLine(
            team,
            name,
            members_of(teams, team),
            tuple(m for m in teams.by_team.get(team, ()) if m.left is not None),
            counts.get(team, 0),
        )
        for team, name in sorted(site.team_book.names(assignment.id).items(), key=lambda pair: pair[1])
    ]
    placed = {m.student for m in teams.members if m.assignment == assignment.id and m.left is None}
    return site.page(
        request,
        "web/teams.html.j2",
        user=user,
        assignment=assignment,
        rule=rule_text(site, rule, lock),
        lines=lines,
        alone=[s for s in site.store.students() if s not in placed],
        teacher_lock=lock is not None,
        dated=rule.lock is not None and site.clock() >= (rule.lock + MINUTE).timestamp(),
        when=lambda moment: site.when(datetime.fromtimestamp(moment, UTC)),
        message=request.query_params.get("message", "")[:200],
    )


def lock_teams(
    request: Request,
    assignment_id: str,
    action: str = Form(..., max_length=8),
    user: User = Depends(require_teacher),
    site: Site = Depends(site_of),
) -> RedirectResponse:
    assignment, _ = _teamed(site, user, assignment_id)
    if action == "lock":
        site.team_book.lock(assignment.id, user.id, site.clock())
    elif action == "unlock":
        site.team_book.unlock(assignment.id)
    else:
        raise WebError(400, "Lock or unlock: nothing else.")
    return RedirectResponse(f"{base(request)}/teacher/teams/{assignment.id}", status_code=303)


def import_teams(
    request: Request,
    assignment_id: str,
    file: UploadFile | None = File(None),
    text: str = Form("", max_length=TEAM_FILE_BYTES),
    user: User = Depends(require_teacher),
    site: Site = Depends(site_of),
) -> RedirectResponse:
    """The teacher's file of teams, as `judge teams import` takes it: checked whole against
    course.yaml's size and the roster before anything is written (an error names its line),
    then applied in one transaction, and logged with who sent it."""
    assignment, rule = _teamed(site, user, assignment_id)
    back = f"/teacher/teams/{assignment.id}"
    uploaded = file is not None and bool(file.filename)
    source = (file.filename or "")[-128:] if file is not None and uploaded else "the pasted teams"
    data = file.file.read(TEAM_FILE_BYTES + 1) if file is not None and uploaded else text.encode("utf-8")
    if len(data) > TEAM_FILE_BYTES:
        raise WebError(413, f"{source}: over the {TEAM_FILE_BYTES // 1024} KiB of a file of teams.", back, "The teams")
    if not data.strip():
        raise WebError(
            400, "Choose a file of teams, or paste one: a row per team, its name, then its members.", back, "The teams"
        )
    try:
        listed = read_file(data, source, set(site.store.students()), rule)
    except JudgeError as err:
        raise WebError(400, f"{err}.", back, "The teams") from None
    moved = site.team_book.replace(assignment.id, listed, site.clock())
    log.info(
        "teams %s: %s imported %d team(s) from %s; %d student(s) changed team",
        assignment.id,
        user.id,
        len(listed),
        source,
        moved,
    )
    said = f"{len(listed)} team(s) imported; {moved} student(s) changed team"
    return RedirectResponse(f"{base(request)}{back}?message={said.replace(' ', '+')}", status_code=303)


def routes() -> APIRouter:
    router = APIRouter()
    here = "/assignments/{assignment_id}/team"
    router.add_api_route(here, team_page, methods=["GET"], response_class=HTMLResponse)
    for path, route in (("start", start_team), ("invite", invite), ("accept", accept), ("decline", decline)):
        router.add_api_route(f"{here}/{path}", route, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route(f"{here}/leave", leave, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/teacher/teams/{assignment_id}", teams_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/teacher/teams/{assignment_id}/lock", lock_teams, methods=["POST"], max_body_size=FORM_BYTES)
    # A file of teams is more than a form's few fields: the guard lets it have its own limit.
    router.add_api_route(IMPORT_PATH, import_teams, methods=["POST"], max_body_size=TEAM_FILE_BYTES + FORM_BYTES)
    return router
