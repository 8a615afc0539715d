"""Who is asking: the session cookie (a random id, a row in the store that logging out
deletes), the dependencies that require a user or the teacher, and the routes that log in
and out, failed logins throttled per account and per address."""

from __future__ import annotations

import math

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response

from judge.web import examining
from judge.web.routes.site import FORM_BYTES, Site, WebError, base, site_of
from judge.web.state.accounts import ACCOUNT_THROTTLE, ADDRESS_THROTTLE, SESSION_S, Throttle, User

COOKIE = "judge_session"


def current_user(request: Request) -> User | None:
    value = request.cookies.get(COOKIE)
    return site_of(request).store.session_user(value) if value else None


def require_user(request: Request) -> User:
    user = current_user(request)
    if user is None:
        # A session the judge ended (an exam's new sign-in elsewhere) says why, once asked.
        value = request.cookies.get(COOKIE)
        why = site_of(request).store.ended_why(value) if value else None
        raise WebError(401, why or "Log in with your id and token to see this page.", "/login", "Log in")
    return user


def require_grader(user: User = Depends(require_user)) -> User:
    """The teacher or a teaching assistant: the pages that read submissions and grades."""
    if not user.can_grade:
        raise WebError(403, "This page is for the teacher and the teaching assistants.")
    return user


def require_teacher(user: User = Depends(require_user)) -> User:
    """The teacher alone: what changes the course (rejudging, sessions, the roster)."""
    if not user.can_manage:
        raise WebError(403, "Only the teacher may do this.")
    return user


def throttled(user: str, request: Request) -> dict[str, Throttle]:
    keys = {f"user:{user}": ACCOUNT_THROTTLE}
    if request.client is not None:
        keys[f"addr:{request.client.host}"] = ADDRESS_THROTTLE
    return keys


def healthz() -> str:
    return "ok"


def login_page(request: Request, site: Site = Depends(site_of)) -> HTMLResponse:
    return site.page(request, "web/login.html.j2", message="")


def local_path(path: str) -> str:
    """Where to go after logging in: a path of this site only (never `//host` or a URL)."""
    ok = path.startswith("/") and not path.startswith("//") and "\\" not in path and len(path) <= 512
    return path if ok and path.isprintable() else "/"


def login(
    request: Request,
    user: str = Form(""),
    token: str = Form(""),
    next_path: str = Form("/", alias="next"),
    site: Site = Depends(site_of),
) -> Response:
    user = user.strip()
    keys = throttled(user, request)
    wait = site.store.login_wait(keys)
    if wait > 0:
        # Refused without looking at the token: a guess during the lock tells nothing.
        seconds = math.ceil(wait)
        refused = site.page(
            request, "web/login.html.j2", 429, message=f"Too many failed logins; try again in {seconds} s."
        )
        refused.headers["Retry-After"] = str(seconds)
        return refused
    found = site.store.authenticate(user, token.strip())
    if found is None:
        site.store.login_failed(keys)
        return site.page(
            request, "web/login.html.j2", 401, message="Unknown id or wrong token.", next_path=local_path(next_path)
        )
    site.store.login_succeeded([f"user:{found.id}"])
    response = RedirectResponse(f"{base(request)}{local_path(next_path)}", status_code=303)
    sign_in(response, site, found.id)
    return response


def sign_in(response: Response, site: Site, user_id: str, framed: bool = False) -> None:
    """A new session for the user, its cookie on `response`. `framed`: the pages are inside an
    LMS's frame (an LTI launch), where a browser sends only a SameSite=None, Secure cookie, kept
    in the LMS site's partition; served over HTTPS (or on localhost) only."""
    session = site.store.new_session(user_id)
    examining.one_session(site.course, site.exams, site.store, user_id, session, site.clock())
    if framed:
        set_framed_cookie(response, COOKIE, session, SESSION_S)
    else:
        response.set_cookie(
            COOKIE,
            session,
            max_age=SESSION_S,
            httponly=True,
            samesite="lax",
            secure=site.settings.secure_cookies,
            path="/",
        )


def set_framed_cookie(response: Response, key: str, value: str, max_age: int) -> None:
    """A cookie a browser sends inside another site's frame: SameSite=None, Secure and
    Partitioned (CHIPS: kept apart per top-level site, so not a tracking cookie). Written out
    here: Python before 3.14 cannot say Partitioned. `value` is the judge's own token text."""
    assert value.isascii() and not any(c in value for c in ' ;,"\\'), "a cookie value of the judge's own"
    attributes = f"Max-Age={max_age}; Path=/; HttpOnly; Secure; SameSite=None; Partitioned"
    response.headers.append("set-cookie", f"{key}={value}; {attributes}")


def logout(request: Request, site: Site = Depends(site_of)) -> Response:
    value = request.cookies.get(COOKIE)
    if value:
        site.store.end_session(value)  # the cookie, copied or not, is worth nothing from now on
    response = RedirectResponse(f"{base(request)}/login", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


def routes() -> APIRouter:
    router = APIRouter()
    router.add_api_route("/healthz", healthz, methods=["GET"], response_class=PlainTextResponse)
    router.add_api_route("/login", login_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/login", login, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/logout", logout, methods=["POST"], max_body_size=FORM_BYTES)
    return router
