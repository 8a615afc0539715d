"""The judge's calls to an LMS outside a launch, with the tool's key (OAuth 2 client
credentials, a JWT the tool signs): the class list (Names and Role Provisioning) and the
gradebook's columns and scores (Assignment and Grade Services). Blocking calls, each bounded by
tool.HTTP_TIMEOUT_S: the passback runs them in a thread."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.names_roles import NamesRolesProvisioningService

from judge.web.lti import claims, keys
from judge.web.lti.tool import Connector, Signed
from judge.web.state.lti import LmsCourse, LtiRecords, Platform, Send

AGS_SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
]
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
TAG = "judge"  # the line items the judge made or found: tagged so in the LMS


@dataclass(frozen=True)
class LmsMember:
    sub: str
    name: str
    email: str
    sourced_id: str
    role: str | None  # teacher, student, or None (no page here)
    active: bool


def _connector(store: LtiRecords, platform: Platform) -> Connector:
    return Connector(store, Signed(platform, keys.signing_key(store)))


def members(store: LtiRecords, platform: Platform, course: LmsCourse) -> list[LmsMember]:
    """The LMS's class list of the course, every page of it."""
    service = NamesRolesProvisioningService(
        _connector(store, platform), {"context_memberships_url": course.memberships_url}
    )
    found = []
    for member in service.get_members():
        found.append(
            LmsMember(
                str(member.get("user_id", "")),
                str(member.get("name", "")),
                str(member.get("email", "")),
                str(member.get("lis_person_sourcedid", "")),
                claims.role_of(member.get("roles", [])),
                member.get("status", "Active") == "Active",
            )
        )
    return [m for m in found if m.sub]


def _grades(store: LtiRecords, platform: Platform, course: LmsCourse) -> AssignmentsGradesService:
    data = {"scope": AGS_SCOPES, "lineitems": course.lineitems_url}
    return AssignmentsGradesService(_connector(store, platform), data)  # type: ignore[arg-type]


def lineitem(
    store: LtiRecords, platform: Platform, course: LmsCourse, assignment: str, title: str, maximum: float, due: str
) -> str:
    """The URL of the assignment's line item in the LMS course: the one kept, else the one the LMS
    has for it (made by a deep link, or by an earlier judge), else a new one. Kept once found,
    so a second send never makes a second column."""
    kept = store.lineitem(course.issuer, course.context_id, assignment)
    if kept:
        return kept
    wanted = LineItem().set_resource_id(assignment).set_tag(TAG).set_label(title or assignment)
    wanted.set_score_maximum(maximum)
    if due:
        wanted.set_end_date_time(due)
    made = _grades(store, platform, course).find_or_create_lineitem(wanted, find_by="resource_id")
    url = made.get_id()
    if not url:
        raise ValueError("the LMS answered a line item without an id")
    store.set_lineitem(course.issuer, course.context_id, assignment, url)
    return url


def put_score(
    store: LtiRecords, platform: Platform, course: LmsCourse, url: str, sub: str, send: Send, comment: str
) -> None:
    """The student's score in the line item. `timestamp` is now (an LMS keeps a score only over
    an older one); when the counted submission came is `submittedAt`."""
    grade = Grade().set_score_given(send.score).set_score_maximum(send.max_score)
    grade.set_timestamp(datetime.now(UTC)).set_submitted_at(datetime.fromtimestamp(send.at, UTC))
    grade.set_activity_progress("Completed").set_grading_progress("FullyGraded").set_user_id(sub)
    grade.set_comment(comment)
    _grades(store, platform, course).put_grade(grade, LineItem({"id": url}))
