"""The LTI 1.3 routes of `judge serve`: the platform's login request and the launch it posts
(tool.py checks them), the tool's public keys, the teacher's pick of an assignment for the
LMS (deep linking), the link of an LMS course to this judge's course, and the teacher's page of
what LTI did (courses, their members, grades sent and pending).

A launch signs its user in (no token): the LMS's `sub` is their roster id here (classlist.py),
Instructors and TeachingAssistants get the teacher's pages, Learners the student's. A launch
from an LMS course no teacher has linked yet is refused to a student with one sentence their
teacher can act on; a teacher is offered the link."""

from __future__ import annotations

import json
import secrets
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, cast
from urllib.parse import urlencode

import requests
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.lineitem import LineItem
from starlette.concurrency import run_in_threadpool

from judge.web.lti import claims, classlist, keys, passback, registering
from judge.web.lti.tool import Asked, LaunchState, ToolConfig, ToolLaunch, ToolLogin, check_claims
from judge.web.routes.auth import require_teacher, sign_in, throttled
from judge.web.routes.site import FORM_BYTES, Site, WebError, base, content_policy, site_of
from judge.web.state.accounts import User
from judge.web.state.lti import LmsCourse

LOGIN_PARAMS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "client_id", "lti_deployment_id")
OFFER = "offer:"  # a teacher's offer to link an LMS course: its launch's claims, by a random key
OFFER_S = 3600
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
PENDING_MAX = 50_000  # live values of launches (nonces, states): about 250 logins a second for ten minutes


def _secure(request: Request) -> bool:
    """Whether cookies may be Secure (and so SameSite=None, for the LMS's frame): served over
    HTTPS, or on this machine (where browsers treat plain HTTP as secure)."""
    return request.url.scheme == "https" or (request.url.hostname or "") in LOCAL_HOSTS


def tool_url(request: Request) -> str:
    """This judge's address as the LMS and the browser reach it (behind a proxy too)."""
    return str(request.base_url).rstrip("/")


async def _params(request: Request) -> dict[str, str]:
    if request.method == "GET":
        return dict(request.query_params)
    form = await request.form()
    return {key: value for key, value in form.items() if isinstance(value, str)}


def _refused(what: str, err: Exception) -> WebError:
    reason = str(err).rstrip(".") or type(err).__name__
    return WebError(403, f"The LMS's {what} was refused: {reason}. Open the judge again from the LMS.")


async def login(request: Request, site: Site = Depends(site_of)) -> Response:
    """The platform's third-party initiated login (GET or POST): a redirect to its
    authorization endpoint with a state (a cookie) and a nonce (kept in the store)."""
    params = await _params(request)
    return await run_in_threadpool(_login, request, site, params)


def _login(request: Request, site: Site, params: dict[str, str]) -> Response:
    if site.lti.lti_values_count() >= PENDING_MAX:
        # Each login keeps a nonce and a state for ten minutes: a flood of them is refused
        # before it fills the store.
        raise WebError(429, "Too many launches are in progress; open the judge from the LMS again in a minute.")
    asked = Asked(params, request.cookies, _secure(request))
    started = ToolLogin(asked, site.lti)
    # Kept by the state: a launch that finds no state cookie (a browser that refuses cookies
    # in frames) offers the same login in a new window.
    started.pass_params_to_launch({key: params[key] for key in LOGIN_PARAMS if params.get(key)})
    try:
        url = started.get_redirect_object(f"{tool_url(request)}/lti/launch").get_redirect_url()
    except (LtiException, OIDCException) as err:
        raise _refused("login request", err) from None
    return started.cookies.apply(RedirectResponse(url, status_code=302))


def _validated(request: Request, site: Site, params: dict[str, str]) -> tuple[ToolLaunch, claims.Launched]:
    asked = Asked(params, request.cookies, _secure(request))
    launch = ToolLaunch(asked, site.lti)
    try:
        launch.validate()
        person = claims.launched(launch.get_launch_data())
        platform = ToolConfig(site.lti).platform(person.issuer, person.client_id)
        if platform is None:
            raise LtiException("no LMS is registered here with this issuer and client id")
        check_claims(launch, params.get("id_token", ""), platform)
    except (LtiException, OIDCException, ValueError, KeyError, TypeError, AttributeError) as err:
        # The library's own refusals, and what a malformed token or key set makes it raise.
        state = params.get("state", "")
        if state and "State not found" in str(err) and asked.get_cookie(f"lti1p3-{state}") is None:
            raise _NoCookie(LaunchState(site.lti).get_state_params(state)) from None
        raise _refused("launch", err) from None
    return launch, person


class _NoCookie(Exception):
    """The launch came back without the login's cookie: the browser keeps none in the frame."""

    def __init__(self, login_params: dict[str, object]) -> None:
        super().__init__("no state cookie")
        self.login_params = login_params


async def launch(request: Request, site: Site = Depends(site_of)) -> Response:
    """The launch the platform posts: checked (which may fetch the platform's keys: off the
    event loop, as every store write here), then its user signed in where they may be."""
    params = await _params(request)
    return await run_in_threadpool(_launch, request, site, params)


def _launch(request: Request, site: Site, params: dict[str, str]) -> Response:
    try:
        started, person = _validated(request, site, params)
    except _NoCookie as missing:
        again = {k: str(v) for k, v in missing.login_params.items()} | {"lti1p3_new_window": "1"}
        return site.page(request, "web/lti_window.html.j2", 200, again=f"{base(request)}/lti/login?{urlencode(again)}")
    origin = request.headers.get("origin", "")
    for seen in (person.return_origin, claims.origin_of(origin)):
        site.lti.note_frame_origin(seen)
    if person.role is None:
        raise WebError(
            403, "Your role in this LMS course has no page in the judge, which is for its teachers and students."
        )
    deep = person.message == claims.DEEP_LINK_LAUNCH
    if deep and person.role != "teacher":
        raise WebError(403, "Only a teacher of the LMS course adds the judge's assignments to it.")
    course = site.lti.lms_course(person.issuer, person.context_id)
    if course is None:
        if person.role != "teacher":
            raise WebError(
                403,
                f"This LMS course ({person.context_title or person.context_id}) is not linked to the judge yet: "
                "your teacher links it by opening the judge from it once.",
            )
        # An Instructor of any course of the LMS may launch; only a teacher of this judge links.
        return _offer(request, site, person, started.get_launch_id() if deep else "")
    site.lti.link_course(
        replace(
            course,
            title=person.context_title or course.title,
            deployment_id=person.deployment_id,
            lineitems_url=person.lineitems_url,
            memberships_url=person.memberships_url,
            tool_url=tool_url(request),
        )
    )
    passback.ask_sync(site.lti, course)
    user = User(classlist.enrol(site.lti, person), person.role)
    response: Response
    if deep:
        response = _pick_page(request, site, user, started.get_launch_id(), person, True)
    else:
        response = RedirectResponse(f"{base(request)}{_target(site, person.target)}", status_code=303)
    sign_in(response, site, user.id, _secure(request))
    return response


def _offer(request: Request, site: Site, person: claims.Launched, launch_id: str) -> Response:
    """The page that links an LMS course: a teacher of this judge confirms it, by their session
    (an LMS user known here as a teacher is signed in for it) or by their id and token."""
    key = secrets.token_urlsafe(16)
    offer = {"person": person.__dict__, "tool": tool_url(request), "launch_id": launch_id}
    site.lti.put_lti_value(OFFER + key, json.dumps(offer), OFFER_S)
    known = site.lti.lti_person(person.issuer, person.sub)
    found = site.store.user(known) if known is not None else None
    teacher = found if found is not None and found.role == "teacher" else None
    response = _link_page(request, site, key, person, teacher)
    if teacher is not None:
        sign_in(response, site, teacher.id, _secure(request))
    return response


def _target(site: Site, target: str) -> str:
    """The page a launch asked for (its link's custom `assignment` or `problem`)."""
    kind, _, name = target.partition(":")
    if kind == "problem" and name in site.problems:
        return f"/problems/{name}"
    if kind == "assignment":
        found = next((a for a in site.course.assignments if a.id == name), None)
        if found is not None and len(found.problems) == 1:
            return f"/problems/{found.problems[0]}"
    return "/"


def _course_of(person: claims.Launched, tool: str, by: str) -> LmsCourse:
    return LmsCourse(
        person.issuer,
        person.context_id,
        person.client_id,
        person.deployment_id,
        person.context_title,
        person.lineitems_url,
        person.memberships_url,
        tool,
        by,
    )


def _link_page(
    request: Request, site: Site, key: str, person: claims.Launched, teacher: User | None, refused: str = ""
) -> HTMLResponse:
    """The offer to link: `teacher`, the LMS user known here as one (no token asked); `refused`,
    why the last try was (a 401)."""
    return site.page(
        request,
        "web/lti_link.html.j2",
        401 if refused else 200,
        teacher,
        key=key,
        lms_title=person.context_title,
        linked=site.lti.lms_courses(),
        needs_token=teacher is None,
        message=refused,
    )


def link(request: Request, key: str = Form(""), user: str = Form(""), token: str = Form("")) -> Response:
    """A teacher of this judge links the LMS course they launched from to this judge's course,
    and their LMS user becomes them here."""
    site = site_of(request)
    held = site.lti.take_lti_value(OFFER + key)
    offer = json.loads(held) if held is not None else None
    if not isinstance(offer, dict):
        raise WebError(400, "This offer to link an LMS course has expired: open the judge from the LMS again.")
    person = claims.Launched(**offer["person"])
    teacher = _teacher_for(request, site, person, user.strip(), token.strip())
    if teacher is None:
        site.lti.put_lti_value(OFFER + key, held or "", OFFER_S)  # a mistyped token may be tried again
        return _link_page(request, site, key, person, None, "Unknown id or wrong token, or not a teacher's.")
    site.lti.link_person(person.issuer, person.sub, teacher.id, person.name, person.email)
    course = _course_of(person, str(offer["tool"]), teacher.id)
    site.lti.link_course(course)
    site.lti.member_seen(person.issuer, person.context_id, [(teacher.id, "teacher")], whole=False)
    passback.ask_sync(site.lti, course)
    launch_id = str(offer.get("launch_id") or "")
    if launch_id:
        response: Response = _pick_page(request, site, teacher, launch_id, person, True)
    else:
        response = RedirectResponse(f"{base(request)}{_target(site, person.target)}", status_code=303)
    sign_in(response, site, teacher.id, _secure(request))
    return response


def _teacher_for(request: Request, site: Site, person: claims.Launched, user: str, token: str) -> User | None:
    """The judge's teacher who confirms the link: the LMS user's own account here when it is a
    teacher's, else the id and token given (failures throttled as a login's)."""
    known = site.lti.lti_person(person.issuer, person.sub)
    found = site.store.user(known) if known is not None else None
    if found is not None and found.role == "teacher":
        return found
    keys = throttled(user, request)
    if site.store.login_wait(keys) > 0:
        return None
    given = site.store.authenticate(user, token)
    if given is None or given.role != "teacher":
        site.store.login_failed(keys)
        return None
    site.store.login_succeeded([f"user:{given.id}"])
    return given


def _pick_page(
    request: Request, site: Site, user: User, launch_id: str, person: claims.Launched, linked: bool
) -> Response:
    return site.page(
        request,
        "web/lti_pick.html.j2",
        200,
        user,
        launch_id=launch_id,
        assignments=site.course.assignments,
        problems=sorted(site.problems.values(), key=lambda p: p.id),
        lms_title=person.context_title,
        linked=linked,
    )


def deep_link(
    request: Request, launch_id: str = Form(""), choice: str = Form(""), user: User = Depends(require_teacher)
) -> Response:
    """The teacher's pick, signed and posted back to the LMS: a link that launches the
    assignment (or problem), with its line item (its maximum score, its due date)."""
    site = site_of(request)
    asked = Asked({}, request.cookies, _secure(request))
    body = LaunchState(site.lti).get_launch_data(launch_id) if launch_id.startswith("lti1p3-launch-") else {}
    if not body:
        raise WebError(400, "This choice came too late: add the judge's assignment from the LMS again.")
    person = claims.launched(body)
    if site.lti.lti_person(person.issuer, person.sub) != user.id:
        raise WebError(403, "This choice belongs to another teacher's launch.")
    restored = ToolLaunch(asked, site.lti)
    restored.set_launch_id(launch_id).set_auto_validation(enable=False).set_jwt(cast(Any, {"body": body}))
    restored.set_restored().validate_registration()
    if site.lti.lms_course(person.issuer, person.context_id) is None:
        raise WebError(403, "This LMS course is not linked to the judge: open the judge from it once to link it.")
    resource = _resource(site, tool_url(request), choice)
    token = restored.get_deep_link().get_response_jwt([resource])
    settings = body.get(claims.DEEP_LINKING, {})
    back = str(settings.get("deep_link_return_url", "")) if isinstance(settings, dict) else ""
    if not claims.origin_of(back):
        raise WebError(400, "The LMS gave no address to return the choice to.")
    response = site.page(request, "web/lti_return.html.j2", 200, user, action=back, token=token)
    response.headers["Content-Security-Policy"] = content_policy(site.framed_by(), (claims.origin_of(back),))
    return response


def _resource(site: Site, tool: str, choice: str) -> DeepLinkResource:
    kind, _, name = choice.partition(":")
    assignment = next((a for a in site.course.assignments if a.id == name), None) if kind == "assignment" else None
    if assignment is not None:
        title = assignment.title or assignment.id
        maximum = sum(site.problems[p].max_score for p in assignment.problems if p in site.problems)
        item = LineItem().set_label(title).set_score_maximum(maximum).set_resource_id(assignment.id)
        item.set_tag("judge")
        if assignment.due is not None:
            item.set_end_date_time(assignment.due.isoformat())
        resource = DeepLinkResource().set_lineitem(item)
    elif kind == "problem" and name in site.problems:
        title = site.problems[name].spec.title or name
        resource = DeepLinkResource()
    else:
        raise WebError(400, "Pick one of the course's assignments or problems.")
    return resource.set_url(f"{tool}/lti/launch").set_title(title).set_custom_params({kind: name})


def jwks(site: Site = Depends(site_of)) -> JSONResponse:
    return JSONResponse(keys.published(site.lti))


def register(request: Request, key: str = "", openid_configuration: str = "", registration_token: str = "") -> Response:
    """Dynamic Registration: the LMS opens the URL the teacher gave its administrator (with
    its configuration's address and a token); the judge and the LMS register each other."""
    site = site_of(request)
    if not key or site.lti.take_lti_value(registering.KEY + key) is None:
        raise WebError(
            403,
            "This registration URL is unknown, used or expired: make a new one on the judge's LMS page "
            "(or with judge lti registration-url).",
        )
    if not claims.origin_of(openid_configuration):
        raise WebError(400, "The LMS did not say where its configuration is (openid_configuration).")
    title = site.course.title or ""
    made = registering.Registering(site.lti, tool_url(request), openid_configuration, registration_token, title)
    try:
        made.register()
    except (LtiException, requests.RequestException, AssertionError, ValueError, KeyError) as err:
        site.lti.put_lti_value(registering.KEY + key, "1", registering.KEY_S)  # the administrator may try again
        raise WebError(502, f"The LMS's registration failed: {str(err).rstrip('.') or type(err).__name__}.") from None
    platform = made.registered
    assert platform is not None
    response = site.page(request, "web/lti_registered.html.j2", 200, platform=platform)
    framing = (*site.framed_by(), claims.origin_of(platform.issuer), claims.origin_of(openid_configuration))
    response.headers["Content-Security-Policy"] = content_policy(tuple(dict.fromkeys(framing)))
    return response


def registration_url(request: Request, user: User = Depends(require_teacher)) -> HTMLResponse:
    """A new Dynamic Registration URL, shown once on the teacher's LTI page."""
    return _lti_page(request, user, registering.new_url(site_of(request).lti, tool_url(request)))


def lti_page(request: Request, user: User = Depends(require_teacher)) -> HTMLResponse:
    return _lti_page(request, user, "")


def _lti_page(request: Request, user: User, made_url: str) -> HTMLResponse:
    """The teacher's page of LTI; `made_url`, a registration URL just made (shown once)."""
    site = site_of(request)
    courses = site.lti.lms_courses()
    return site.page(
        request,
        "web/lti.html.j2",
        200,
        user,
        platforms=site.lti.platforms(),
        courses=[(c, site.lti.members(c.issuer, c.context_id)) for c in courses],
        sends=site.lti.sends(),
        tool=tool_url(request),
        made_url=made_url,
        when=lambda moment: site.when(datetime.fromtimestamp(moment, UTC)),
    )


def sync(request: Request, user: User = Depends(require_teacher)) -> Response:
    site = site_of(request)
    for course in site.lti.lms_courses():
        passback.ask_sync(site.lti, course)
    return RedirectResponse(f"{base(request)}/teacher/lti", status_code=303)


def resend(request: Request, user: User = Depends(require_teacher)) -> Response:
    site_of(request).lti.resend()
    return RedirectResponse(f"{base(request)}/teacher/lti", status_code=303)


def routes() -> APIRouter:
    router = APIRouter()
    router.add_api_route("/lti/login", login, methods=["GET", "POST"])
    router.add_api_route("/lti/launch", launch, methods=["POST"])
    router.add_api_route("/lti/jwks", jwks, methods=["GET"])
    router.add_api_route("/lti/register", register, methods=["GET"])
    router.add_api_route("/lti/link", link, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/lti/deep-link", deep_link, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/teacher/lti", lti_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/teacher/lti/sync", sync, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/teacher/lti/registration", registration_url, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/teacher/lti/resend", resend, methods=["POST"], max_body_size=FORM_BYTES)
    return router
