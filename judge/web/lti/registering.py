"""LTI Dynamic Registration: an LMS's administrator pastes one URL of the judge's (made by the
teacher: `judge lti registration-url`, or the teacher's LTI page) and the LMS and the judge
register each other. The URL holds a one-use key, so no one else can register a platform.

The judge reads the platform's OpenID configuration (its issuer must be where the configuration
is served), posts its own configuration (login, launch and keys URLs, the services' scopes,
the deep-linking message) to the platform's registration endpoint, and keeps the client id and
deployment id it answers with, as `judge lti add-platform` would."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlsplit

from pylti1p3.dynamic_registration import DynamicRegistration
from pylti1p3.exception import LtiException

from judge.web.lti import claims, services
from judge.web.lti.tool import Timed
from judge.web.state.lti import LtiRecords, Platform

KEY = "register:"
KEY_S = 7 * 24 * 3600
PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"


def same_site(issuer: str, served_at: str) -> bool:
    """The issuer's host is the configuration's, or its sibling under one parent domain (Canvas
    Cloud's issuer canvas.instructure.com, configured from school.instructure.com)."""
    one, two = urlsplit(issuer).hostname or "", urlsplit(served_at).hostname or ""
    parent = one.split(".", 1)[-1]
    return one == two or (one.count(".") >= 2 and parent == two.split(".", 1)[-1])


def new_url(store: LtiRecords, tool: str) -> str:
    """A registration URL for one LMS, valid a week or until used."""
    key = secrets.token_urlsafe(18)
    store.put_lti_value(KEY + key, "1", KEY_S)
    return f"{tool}/lti/register?key={key}"


class Registering(DynamicRegistration):
    """One registration, for the judge at `tool`, with the platform's configuration URL and token."""

    client_name = "the judge"
    description = "Programming problems judged in a sandbox: submissions, verdicts, grades."

    def __init__(self, store: LtiRecords, tool: str, configuration_url: str, token: str, title: str) -> None:
        self.store = store
        self.tool = tool
        self.configuration_url = configuration_url
        self.token = token
        self.client_name = f"the judge: {title}" if title else self.client_name
        self.registered: Platform | None = None

    def get_request_session(self) -> Timed:
        return Timed()

    def get_initiate_login_uri(self) -> str:
        return f"{self.tool}/lti/login"

    def get_jwks_uri(self) -> str:
        return f"{self.tool}/lti/jwks"

    def get_redirect_uris(self) -> list[str]:
        return [f"{self.tool}/lti/launch"]

    def get_target_link_uri(self) -> str:
        return f"{self.tool}/lti/launch"

    def get_scopes(self) -> list[str]:
        return [*services.AGS_SCOPES, services.NRPS_SCOPE]

    def get_domain(self) -> str:
        return urlsplit(self.tool).netloc

    def get_claims(self) -> list[str]:
        return ["iss", "sub", "name", "given_name", "family_name", "email"]

    def get_messages(self) -> list[dict[str, str]]:
        return [
            {
                "type": claims.DEEP_LINK_LAUNCH,
                "target_link_uri": f"{self.tool}/lti/launch",
                "label": "The judge: add an assignment",
            }
        ]

    def get_logo_uri(self) -> str:
        return ""

    def lti_registration_data(self) -> dict[str, Any]:
        data = super().lti_registration_data()
        data.pop("logo_uri", None)  # the judge has none; an empty one is refused by some LMSs
        return data

    def get_openid_configuration_endpoint(self) -> str:
        return self.configuration_url

    def get_registration_token(self) -> str:
        return self.token

    def get_openid_configuration(self) -> dict[str, Any]:
        """The platform's configuration, checked before the judge registers with it: its issuer
        is where it is served (one served elsewhere cannot name another LMS as its issuer)."""
        configuration: dict[str, Any] = super().get_openid_configuration()
        issuer = str(configuration.get("issuer", "")).rstrip("/")
        if not claims.origin_of(issuer) or not same_site(issuer, self.configuration_url):
            raise LtiException(f"the LMS's configuration names issuer {issuer!r}, not its own address")
        return configuration

    def complete_registration(self, configuration: dict[str, Any], registration: dict[str, Any]) -> Platform:
        """The platform kept, once its configuration and its answer hold together."""
        issuer = str(configuration.get("issuer", "")).rstrip("/")
        found = {
            key: str(configuration.get(key, "")) for key in ("authorization_endpoint", "token_endpoint", "jwks_uri")
        }
        missing = [key for key, value in found.items() if not claims.origin_of(value)]
        client_id = str(registration.get("client_id", ""))
        tool = registration.get(TOOL_CONFIGURATION)
        deployment = str(tool.get("deployment_id", "")) if isinstance(tool, dict) else ""
        if missing or not client_id or not deployment:
            absent = [
                *missing,
                *(["client_id"] if not client_id else []),
                *(["deployment_id"] if not deployment else []),
            ]
            raise LtiException(f"the LMS's registration lacks {', '.join(absent)}")
        platform_info = configuration.get(PLATFORM_CONFIGURATION)
        family = str(platform_info.get("product_family_code", "")) if isinstance(platform_info, dict) else ""
        name = f"{family} {urlsplit(issuer).netloc}".strip()
        audience = str(configuration.get("authorization_server", ""))
        platform = Platform(
            issuer,
            client_id,
            name,
            found["authorization_endpoint"],
            found["token_endpoint"],
            found["jwks_uri"],
            audience,
            (deployment,),
        )
        self.store.add_platform(platform)
        self.store.note_frame_origin(claims.origin_of(issuer))
        self.registered = platform
        return platform
