"""What a launch says (pure): roles to pages, the claims read, the roster ids an LMS user may take."""

from __future__ import annotations

from judge.web.lti import claims

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"


def test_roles_give_the_teachers_or_the_students_pages_or_none() -> None:
    assert claims.role_of([f"{MEMBERSHIP}#Instructor"]) == "teacher"
    # A teaching assistant grades and does not manage the course, whatever else the LMS sends.
    assert claims.role_of([f"{MEMBERSHIP}/Instructor#TeachingAssistant"]) == "ta"
    assert claims.role_of([f"{MEMBERSHIP}#Instructor", f"{MEMBERSHIP}/Instructor#TeachingAssistant"]) == "ta"
    assert claims.role_of(["TeachingAssistant"]) == "ta"
    assert claims.role_of(["Instructor"]) == "teacher"  # the short form some LMSs send
    assert claims.role_of([f"{MEMBERSHIP}#Learner", f"{MEMBERSHIP}#Mentor"]) == "student"
    assert claims.role_of([f"{MEMBERSHIP}#Learner", f"{MEMBERSHIP}#Instructor"]) == "teacher"
    assert claims.role_of([f"{MEMBERSHIP}#Mentor"]) is None
    # An institution's role is not a role in the course.
    assert claims.role_of(["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor"]) is None
    assert claims.role_of("Learner") is None


def test_a_launch_is_read_warily() -> None:
    body = {
        "iss": "https://lms.example.org",
        "aud": ["tool-1"],
        "azp": "tool-1",
        "sub": "u-42",
        "given_name": "Ada",
        "family_name": "Lovelace",
        "email": "ada@example.org",
        claims.DEPLOYMENT: "d1",
        claims.MESSAGE_TYPE: claims.RESOURCE_LAUNCH,
        claims.CONTEXT: {"id": "c-7", "label": "CS101"},
        claims.ROLES: [f"{MEMBERSHIP}#Learner"],
        claims.CUSTOM: {"assignment": "week1"},
        claims.LIS: {"person_sourcedid": "s1001"},
        claims.AGS: {"lineitems": "https://lms.example.org/c-7/lineitems"},
        claims.NRPS: {"context_memberships_url": "https://lms.example.org/c-7/members"},
        claims.PRESENTATION: {"return_url": "https://school.example.org/courses/7?x=1"},
    }
    read = claims.launched(body)
    assert (read.issuer, read.client_id, read.deployment_id, read.sub) == (
        "https://lms.example.org",
        "tool-1",
        "d1",
        "u-42",
    )
    assert (read.name, read.role, read.context_title, read.target) == (
        "Ada Lovelace",
        "student",
        "CS101",
        "assignment:week1",
    )
    assert read.return_origin == "https://school.example.org"
    assert read.lineitems_url.endswith("/lineitems") and read.memberships_url.endswith("/members")
    # Claims of the wrong shape are absent, not a crash.
    odd = claims.launched(
        {
            "iss": 5,
            "aud": None,
            claims.CONTEXT: "c",
            claims.CUSTOM: ["x"],
            claims.PRESENTATION: {"return_url": "javascript:x"},
        }
    )
    assert (odd.issuer, odd.context_id, odd.target, odd.return_origin) == ("", "", "", "")


def test_the_roster_id_comes_from_the_institution_then_the_email() -> None:
    base = claims.launched({"sub": "u", claims.LIS: {"person_sourcedid": "s1001"}, "email": "ada.l@example.org"})
    assert claims.wanted_ids(base.sourced_id, base.email) == ["s1001", "ada.l"]
    odd = claims.launched({"sub": "u", claims.LIS: {"person_sourcedid": "not an id!"}, "email": "no-at-sign"})
    assert claims.wanted_ids(odd.sourced_id, odd.email) == []
