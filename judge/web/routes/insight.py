"""What the teacher and the teaching assistants read around review: the roster with names,
emails and sections (never shown to students)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from judge.web.routes.auth import require_grader
from judge.web.routes.site import Site, site_of
from judge.web.state.accounts import User


def people_page(request: Request, user: User = Depends(require_grader), site: Site = Depends(site_of)) -> HTMLResponse:
    counts = {u.id: n for u, n in site.store.users()}
    people = sorted(site.store.people().values(), key=lambda p: (p.role != "student", p.section, p.id))
    return site.page(request, "web/people.html.j2", user=user, people=people, counts=counts)


def routes() -> APIRouter:
    router = APIRouter(prefix="/teacher")
    router.add_api_route("/people", people_page, methods=["GET"], response_class=HTMLResponse)
    return router
