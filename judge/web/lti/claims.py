"""What a validated LTI 1.3 launch says, read from its claims (pure): who, in which LMS course,
with which roles and services, asking for what. The names are the IMS specifications'."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from judge.web.state.accounts import valid_user_id

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
DEPLOYMENT = LTI + "deployment_id"
CONTEXT = LTI + "context"
ROLES = LTI + "roles"
CUSTOM = LTI + "custom"
LIS = LTI + "lis"
PRESENTATION = LTI + "launch_presentation"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
DEEP_LINKING = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
RESOURCE_LAUNCH = "LtiResourceLinkRequest"
DEEP_LINK_LAUNCH = "LtiDeepLinkingRequest"
# Context roles (LIS vocabulary) that get the teacher's pages; a teaching assistant (the
# sub-role Instructor#TeachingAssistant, which an LMS sends beside Instructor) the grader's,
# who may grade but not change the course; Learner the student's.
MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
TEACHING = ("Instructor", "ContentDeveloper")
ASSISTING = ("TeachingAssistant",)
LEARNING = ("Learner",)


@dataclass(frozen=True)
class Launched:
    issuer: str
    client_id: str
    deployment_id: str
    sub: str
    name: str
    email: str
    sourced_id: str  # the institution's id of the person (lis.person_sourcedid), "" if none
    role: str | None  # teacher, ta, student, or None (an observer, a mentor: no page here)
    context_id: str
    context_title: str
    message: str  # LtiResourceLinkRequest, LtiDeepLinkingRequest
    lineitems_url: str
    memberships_url: str
    target: str  # custom `assignment` or `problem` asked for: "assignment:ID", "problem:ID" or ""
    return_origin: str  # where the LMS's pages are (launch_presentation.return_url), "" if unsaid


def role_of(roles: object) -> str | None:
    """teacher for an Instructor of the course, ta for a TeachingAssistant (also when the LMS
    sends Instructor beside it), student for a Learner."""
    if not isinstance(roles, list):
        return None
    said = [str(role) for role in roles]
    names = {role.rsplit("#", 1)[-1] for role in said if role.startswith(MEMBERSHIP) or "#" not in role}
    names |= {role.rsplit("/", 1)[-1].split("#")[0] for role in said if "/membership/" in role}
    subroles = {role.rsplit("#", 1)[-1] for role in said if "/membership/" in role and "#" in role}
    if (names | subroles) & set(ASSISTING):
        return "ta"
    if names & set(TEACHING):
        return "teacher"
    if names & set(LEARNING):
        return "student"
    return None


def _text(found: object) -> str:
    return found if isinstance(found, str) else ""


def _map(found: object) -> Mapping[str, Any]:
    return found if isinstance(found, Mapping) else {}


def origin_of(url: str) -> str:
    """scheme://host[:port] of an http(s) URL, else ""."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


def launched(claims: Mapping[str, Any]) -> Launched:
    aud = claims.get("aud")
    client_id = aud[0] if isinstance(aud, list) and aud else _text(aud)
    context = _map(claims.get(CONTEXT))
    custom = _map(claims.get(CUSTOM))
    target = ""
    for kind in ("assignment", "problem"):
        if _text(custom.get(kind)):
            target = f"{kind}:{custom[kind]}"
            break
    return Launched(
        issuer=_text(claims.get("iss")),
        client_id=_text(claims.get("azp")) or client_id,
        deployment_id=_text(claims.get(DEPLOYMENT)),
        sub=_text(claims.get("sub")),
        name=_text(claims.get("name"))
        or " ".join(t for t in (_text(claims.get("given_name")), _text(claims.get("family_name"))) if t),
        email=_text(claims.get("email")),
        sourced_id=_text(_map(claims.get(LIS)).get("person_sourcedid")),
        role=role_of(claims.get(ROLES)),
        context_id=_text(context.get("id")),
        context_title=_text(context.get("title")) or _text(context.get("label")),
        message=_text(claims.get(MESSAGE_TYPE)),
        lineitems_url=_text(_map(claims.get(AGS)).get("lineitems")),
        memberships_url=_text(_map(claims.get(NRPS)).get("context_memberships_url")),
        target=target,
        return_origin=origin_of(_text(_map(claims.get(PRESENTATION)).get("return_url"))),
    )


def wanted_ids(sourced_id: str, email: str) -> list[str]:
    """The roster ids an LMS user may take here, in order: the institution's id of them
    (what a roster imported from the registrar holds), then the login part of their email."""
    found = [sourced_id, email.split("@", 1)[0] if "@" in email else ""]
    return [name for name in dict.fromkeys(found) if name and valid_user_id(name)]
