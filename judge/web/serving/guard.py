"""What stands before every route: the body and origin checks of each request, the headers of
every response (errors included), and the error pages, each a readable sentence with its
HTTP status, never a trace."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from judge.web.routes import exams
from judge.web.routes.auth import current_user
from judge.web.routes.site import FORM_BYTES, WebError, content_policy, log, site_of
from judge.web.routes.teams import TEAM_FILE_BYTES
from judge.web.routes.trying import OWN_INPUT_BYTES

# Posted to by an LMS, not by the judge's own pages: what makes them genuine is the platform's
# signed id token (the launch) or nothing worth forging (the login that asks for one).
FOREIGN_POSTS = ("/lti/login", "/lti/launch")
LAUNCH_BYTES = 64 * 1024  # an id token with its claims (Canvas sends several KiB)


_TITLES = {
    400: "Bad request",
    401: "Not logged in",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    411: "Length required",
    413: "Too large",
    422: "Bad request",
    429: "Too many requests",
    500: "Internal error",
}


def harden(response: Response, framed_by: tuple[str, ...] = ()) -> Response:
    """The headers of every response, errors included: no script but the judge's own files, no
    framing but by the LMSs the judge is a tool of, no sniffing, no referrer to other sites, and
    nothing kept in a cache (pages show sources and results). A route that set its own policy
    (content_policy() with more allowed) keeps it."""
    response.headers.setdefault("Content-Security-Policy", content_policy(framed_by))
    response.headers["X-Content-Type-Options"] = "nosniff"
    if not framed_by:
        response.headers["X-Frame-Options"] = "DENY"  # for browsers before frame-ancestors
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Cache-Control"] = "no-store"
    return response


async def http_error(request: Request, error: HTTPException) -> Response:
    message = error.message if isinstance(error, WebError) else str(error.detail)
    next_link = error.next_link if isinstance(error, WebError) else "/"
    next_label = error.next_label if isinstance(error, WebError) else "Back to the problems"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=error.status_code)
    if error.status_code == 401 and request.method == "GET":
        # A page that needs a login shows the login form itself, and leads back to the page.
        at_root = request.url.path in ("", "/")
        return site_of(request).page(
            request,
            "web/login.html.j2",
            200 if at_root else 401,
            message="" if at_root else message,
            next_path=request.url.path,
        )
    return site_of(request).page(
        request,
        "web/error.html.j2",
        error.status_code,
        current_user(request),
        status=error.status_code,
        title=_TITLES.get(error.status_code, "Error"),
        message=message,
        next_link=next_link,
        next_label=next_label,
    )


async def bad_form(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    fields = sorted({".".join(str(p) for p in e["loc"][1:]) or "request" for e in error.errors()})
    return await http_error(
        request, WebError(400, f"The request is missing or has a malformed field: {', '.join(fields)}.")
    )


async def crash(request: Request, error: Exception) -> Response:
    log.exception("unexpected error on %s", request.url.path)
    # This answer leaves from outside the middleware below: it is hardened here too.
    return harden(
        await http_error(
            request, WebError(500, "The judge failed on this request; the teacher can see why in its log.")
        )
    )


async def _checked(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    length = request.headers.get("content-length")
    chunked = "transfer-encoding" in request.headers
    if chunked and length is not None:
        # Two lengths that may disagree are how requests are smuggled past a proxy.
        return await http_error(request, WebError(400, "The request gives both Content-Length and Transfer-Encoding."))
    if request.method != "POST":
        if chunked or (length is not None and length != "0"):
            return await http_error(request, WebError(413, "This page takes no request body."))
        return await call_next(request)
    # A browser names the page a form came from: a post from another site (CSRF) is
    # refused, on top of the SameSite cookie. Clients that send no Origin are not browsers.
    origin = request.headers.get("origin")
    foreign = request.url.path in FOREIGN_POSTS
    if (
        not foreign
        and origin is not None
        and (origin == "null" or urlsplit(origin).netloc != request.headers.get("host"))
    ):
        return await http_error(
            request, WebError(403, "This form was sent from another site; open the judge's own page and try again.")
        )
    if length is None or not length.isdigit():
        return await http_error(request, WebError(411, "The request must say its length."))
    # An honest length over the limit is refused before reading; a false one is cut at
    # the limit by the body's own count (max_body_size).
    site = site_of(request)
    path = request.url.path
    limit = (
        site.submit_bytes
        if path.endswith("/submit")
        else site.submit_bytes + OWN_INPUT_BYTES
        if path.endswith("/run")
        else LAUNCH_BYTES
        if foreign
        else TEAM_FILE_BYTES + FORM_BYTES
        if "/teacher/teams/" in path and path.endswith("/import")
        else FORM_BYTES
    )
    if int(length) > limit:
        return await http_error(request, WebError(413, site.too_large(limit)))
    return await call_next(request)


async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    async def gated(checked: Request) -> Response:
        # What an exam refuses (an address, another assignment's page) before any route runs.
        refused = await run_in_threadpool(exams.gate, checked)
        return await (http_error(checked, refused) if refused is not None else call_next(checked))

    return harden(await _checked(request, gated), site_of(request).framed_by())


def install(app: FastAPI) -> None:
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, bad_form)
    app.add_exception_handler(Exception, crash)
    app.middleware("http")(guard)
