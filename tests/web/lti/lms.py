"""An LMS for the tests: an LTI 1.3 platform built on lti1p3platform (its registration, launch
messages, access tokens and deep-linking checks), served over HTTP on a loopback port, with the
services a tool calls (Names and Role Provisioning, line items and scores) kept in memory.

It signs its id tokens with its own key (named by `kid` in its JWKS), answers the judge's
login redirect with the auto-posting form an LMS sends a browser, and can be taken down
(`down`: every service answers 503) to test what the judge does while an LMS is away."""

from __future__ import annotations

import html
import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
import uvicorn
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.registration import Registration

from tests.web.conftest import free_port

CLIENT_ID = "judge-tool"
DEPLOYMENT = "deployment-1"
KID = "lms-key-1"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
OBSERVER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"


def pem_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


class _Named(Registration):  # type: ignore[misc]
    """The platform's registration of the tool, its key named (lti1p3platform leaves kid out)."""

    def get_kid(self) -> str:
        return KID

    def get_jwks(self) -> list[dict[str, Any]]:
        return [{**Registration.get_jwk(self.get_platform_public_key()), "kid": KID}]


class _Conf(LTI1P3PlatformConfAbstract):  # type: ignore[misc]
    def init_platform_config(self, **kwargs: Any) -> None:
        self.registration_made = kwargs["registration"]

    def get_registration_by_params(self, **kwargs: Any) -> Registration:
        return self.registration_made


class _Launch(LTIAdvantageMessageLaunchAbstract):  # type: ignore[misc]
    """A launch answered with its fields (the platform's page posts them: _authorize)."""

    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return launch_data

    def get_preflight_response(self) -> dict[str, Any]:
        return self.preflight

    def set_preflight(self, preflight: dict[str, Any]) -> None:
        self.preflight = preflight


@dataclass
class Person:
    sub: str
    name: str
    email: str
    role: str
    sourced_id: str = ""


@dataclass
class Course:
    id: str
    title: str
    people: list[Person]
    lineitems: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> line item
    scores: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # line item id -> scores posted


class Lms:
    """The platform: `start()` serves it; `launch_form()` is the form a browser would post."""

    def __init__(self, tool: str, host: str = "127.0.0.1") -> None:
        self.port = free_port()
        self.base = f"http://{host}:{self.port}"
        self.issuer = self.base
        self.tool = tool
        self.private, self.public = pem_pair()
        self.down = False
        self.registration_token = "reg-token-1"
        self.registered: list[dict[str, Any]] = []  # what tools posted to Dynamic Registration
        self.claimed_issuer = ""  # an issuer its configuration names instead of its own (a forgery)
        self.courses: dict[str, Course] = {}
        self.token_requests = 0
        registration = _Named()
        registration.set_iss(self.issuer).set_client_id(CLIENT_ID).set_deployment_id(DEPLOYMENT)
        registration.set_launch_url(f"{tool}/lti/launch").set_oidc_login_url(f"{tool}/lti/login")
        registration.set_deeplink_launch_url(f"{tool}/lti/launch")
        registration.set_platform_private_key(self.private).set_platform_public_key(self.public)
        registration.set_tool_key_set_url(f"{tool}/lti/jwks")
        self.registration = registration
        self.app = self._app()
        self.server: uvicorn.Server | None = None

    # --- what a test drives -----------------------------------------------------------------

    def login_params(self, sub: str, course: str, message: str = "resource", custom: str = "") -> dict[str, str]:
        """The third-party login a launch starts with: the LMS sends the browser here."""
        hint = json.dumps({"course": course, "message": message, "custom": custom})
        return {
            "iss": self.issuer,
            "login_hint": sub,
            "target_link_uri": f"{self.tool}/lti/launch",
            "lti_message_hint": hint,
            "client_id": CLIENT_ID,
            "lti_deployment_id": DEPLOYMENT,
        }

    def answer(self, redirect: str, **changes: Any) -> dict[str, str]:
        """The platform's answer to the judge's redirect to its authorization endpoint: the
        launch form's fields (id_token, state). `changes` alter the id token's claims (a
        test of what the judge refuses); `key` signs with another key."""
        query = {k: v[0] for k, v in parse_qs(urlsplit(redirect).query).items()}
        return self._launch(query, changes)

    def start(self) -> None:
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        threading.Thread(target=self.server.run, daemon=True).start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the test LMS did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True

    # --- the platform's side of a launch ------------------------------------------------------

    def _launch(self, query: dict[str, str], changes: dict[str, Any]) -> dict[str, str]:
        """The launch lti1p3platform makes for the login's user and message, signed; then, for
        a test of a forgery, its claims changed and signed again (with `key` if given)."""
        hint = json.loads(query["lti_message_hint"])
        course = self.courses[hint["course"]]
        person = next(p for p in course.people if p.sub == query["login_hint"])
        launch = _Launch({"form_data": query}, _Conf(registration=self.registration))
        launch.set_preflight(query)
        launch.set_user_data(person.sub, [person.role], person.name, person.email)
        launch.set_launch_context_claim(course.id, context_title=course.title)
        launch.set_resource_link_claim(f"link-{hint['custom'] or 'home'}")
        if hint["custom"]:
            kind, _, name = hint["custom"].partition(":")
            launch.set_custom_parameters_claim({kind: name})
        launch.set_launch_presentation_claim(return_url=f"{self.base}/courses/{course.id}")
        launch.set_ags(f"{self.base}/courses/{course.id}/lineitems")
        launch.set_nrps(f"{self.base}/courses/{course.id}/memberships")
        launch.set_extra_claims(
            {"https://purl.imsglobal.org/spec/lti/claim/lis": {"person_sourcedid": person.sourced_id}}
        )
        if hint["message"] == "deeplink":
            launch.set_dl(f"{self.base}/courses/{course.id}/deep-link-return", "Add", "the judge")
        made = launch.lti_launch()
        fields = {"id_token": made["id_token"], "state": made["state"]}
        if changes:
            claims = jwt.decode(fields["id_token"], options={"verify_signature": False})
            key = changes.pop("key", self.private)
            for name, value in changes.items():
                if value is None:
                    claims.pop(name, None)
                else:
                    claims[name] = value
            fields["id_token"] = jwt.encode(claims, key, algorithm="RS256", headers={"kid": KID})
        return fields

    # --- its HTTP endpoints ---------------------------------------------------------------------

    def _app(self) -> FastAPI:
        app = FastAPI()
        app.add_api_route("/jwks", lambda: {"keys": self.registration.get_jwks()}, methods=["GET"])
        app.add_api_route("/auth", self._authorize, methods=["GET"])
        app.add_api_route("/.well-known/openid-configuration", self._configuration, methods=["GET"])
        app.add_api_route("/register", self._register, methods=["POST"])
        app.add_api_route("/token", self._token, methods=["POST"])
        app.add_api_route("/courses/{course}/memberships", self._members, methods=["GET"])
        app.add_api_route("/courses/{course}/lineitems", self._lineitems, methods=["GET", "POST"])
        app.add_api_route("/courses/{course}/lineitems/{item}/scores", self._score, methods=["POST"])
        app.add_api_route("/courses/{course}/deep-link-return", self._returned, methods=["POST"])
        app.add_api_route("/courses/{course}/play", self._play, methods=["GET"])
        app.add_api_route("/courses/{course}", self._course_page, methods=["GET"])
        return app

    def _configuration(self) -> dict[str, Any]:
        return {
            "issuer": self.claimed_issuer or self.issuer,
            "authorization_endpoint": f"{self.base}/auth",
            "token_endpoint": f"{self.base}/token",
            "jwks_uri": f"{self.base}/jwks",
            "registration_endpoint": f"{self.base}/register",
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "test-lms",
                "messages_supported": [{"type": "LtiResourceLinkRequest"}, {"type": "LtiDeepLinkingRequest"}],
            },
        }

    async def _register(self, request: Request) -> Response:
        if request.headers.get("authorization") != f"Bearer {self.registration_token}":
            return Response(status_code=401)
        posted = json.loads(await request.body())
        self.registered.append(posted)
        tool = posted["https://purl.imsglobal.org/spec/lti-tool-configuration"]
        answer = {**posted, "client_id": CLIENT_ID}
        answer["https://purl.imsglobal.org/spec/lti-tool-configuration"] = {**tool, "deployment_id": DEPLOYMENT}
        return JSONResponse(answer)

    def _authorize(self, request: Request) -> HTMLResponse:
        fields = self._launch(dict(request.query_params), {})
        inputs = "".join(f'<input type="hidden" name="{k}" value="{html.escape(v)}">' for k, v in fields.items())
        target = html.escape(request.query_params["redirect_uri"])
        page = (
            f'<form id="launch" method="post" action="{target}">{inputs}</form>'
            "<script>document.getElementById('launch').submit();</script>"
        )
        return HTMLResponse(page)

    def _authorized(self, request: Request) -> bool:
        header = request.headers.get("authorization", "")
        token = header.removeprefix("Bearer ").strip()
        try:
            jwt.decode(token, self.public, algorithms=["RS256"])
        except jwt.InvalidTokenError:
            return False
        return True

    async def _token(self, request: Request) -> Response:
        if self.down:
            return Response(status_code=503)
        self.token_requests += 1
        form = dict(await request.form())
        conf = _Conf(registration=self.registration)
        conf.get_registration()
        try:
            return JSONResponse(conf.get_access_token(form))
        except Exception as err:  # the platform refuses what it cannot verify
            return JSONResponse({"error": "invalid_client", "error_description": str(err)}, status_code=400)

    def _members(self, course: str, request: Request) -> Response:
        if self.down or not self._authorized(request):
            return Response(status_code=503 if self.down else 401)
        held = self.courses[course]
        members = [
            {
                "user_id": p.sub,
                "name": p.name,
                "email": p.email,
                "lis_person_sourcedid": p.sourced_id,
                "roles": [p.role],
                "status": "Active",
            }
            for p in held.people
        ]
        return JSONResponse(
            {"id": f"{self.base}/courses/{course}/memberships", "context": {"id": course}, "members": members}
        )

    async def _lineitems(self, course: str, request: Request) -> Response:
        if self.down or not self._authorized(request):
            return Response(status_code=503 if self.down else 401)
        held = self.courses[course]
        if request.method == "GET":
            return JSONResponse(list(held.lineitems.values()))
        item = json.loads(await request.body())
        item["id"] = f"{self.base}/courses/{course}/lineitems/{len(held.lineitems) + 1}"
        held.lineitems[item["id"]] = item
        return JSONResponse(item)

    async def _score(self, course: str, item: str, request: Request) -> Response:
        if self.down or not self._authorized(request):
            return Response(status_code=503 if self.down else 401)
        held = self.courses[course]
        key = f"{self.base}/courses/{course}/lineitems/{item}"
        if key not in held.lineitems:
            return Response(status_code=404)
        held.scores.setdefault(key, []).append(json.loads(await request.body()))
        return Response(status_code=204)

    async def _returned(self, course: str, request: Request) -> HTMLResponse:
        form = dict(await request.form())
        conf = _Conf(registration=self.registration)
        conf.get_registration()
        items = conf.validate_deeplinking_resp(form)
        held = self.courses[course]
        for item in items:
            line = item.get("lineItem")
            if line:
                made = {**line, "id": f"{self.base}/courses/{course}/lineitems/{len(held.lineitems) + 1}"}
                held.lineitems[made["id"]] = made
        return HTMLResponse(f"<p id='added'>{html.escape(json.dumps(items))}</p>")

    def _play(self, course: str, sub: str, custom: str = "", message: str = "resource") -> HTMLResponse:
        """The LMS's page of a link to the tool: the tool in a frame, its login started there."""
        login = f"{self.tool}/lti/login?{urlencode(self.login_params(sub, course, message, custom))}"
        title = html.escape(self.courses[course].title)
        frame = f'<iframe id="tool" title="the judge" src="{html.escape(login)}" width="100%" height="700"></iframe>'
        return HTMLResponse(f"<!doctype html><title>{title}</title><h1>{title}</h1>{frame}")

    def _course_page(self, course: str) -> HTMLResponse:
        return HTMLResponse(f"<h1>{html.escape(self.courses[course].title)}</h1>")


def form_fields(page: str) -> dict[str, str]:
    """The hidden fields of an auto-posting form (the platform's answer, the deep-link return)."""
    return {m[0]: html.unescape(m[1]) for m in re.findall(r'name="([^"]+)" value="([^"]*)"', page)}
