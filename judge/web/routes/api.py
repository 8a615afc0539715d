"""The JSON a page's poller (or a script) reads of a submission: its state, and its groups and
cases cut to what the reader may see, like the page."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from judge.web.routes.auth import require_user
from judge.web.routes.site import Site, site_of
from judge.web.state.accounts import User


def submission_status(
    submission_id: int, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> JSONResponse:
    found = site.visible(user, submission_id)
    record = site.record_for(found)
    shown = site.shown_to(user, record) if record is not None else None
    body: dict[str, object] = {
        "id": found.id,
        "problem": found.problem,
        "language": found.language,
        "status": found.status,
        "status_text": site.status_for(user, found),
        "verdict": found.verdict,
        "score": found.score,
        "max_score": found.max_score,
        "feedback": shown.level if shown is not None else None,
        "groups": [dataclasses.asdict(g) for g in shown.groups] if shown is not None else [],
        "cases": [dataclasses.asdict(c) for c in shown.cases] if shown is not None else [],
    }
    if user.can_grade:
        body |= {"case_done": found.case_done, "case_total": found.case_total}
    return JSONResponse(body)


def routes() -> APIRouter:
    router = APIRouter(prefix="/api")
    router.add_api_route("/submissions/{submission_id}", submission_status, methods=["GET"])
    return router
