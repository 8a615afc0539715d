"""Who is in a linked LMS course: each launch adds its user, and the LMS's own list (Names and
Role Provisioning) adds those who have not launched yet and marks those it no longer lists as
dropped. A dropped student keeps their submissions and their row in the gradebook."""

from __future__ import annotations

from dataclasses import dataclass

from judge.web.lti import claims, services
from judge.web.state.lti import LmsCourse, LtiRecords, Platform


@dataclass(frozen=True)
class Synced:
    listed: int  # members the LMS listed with a role here
    dropped: int  # members it no longer lists


def enrol(store: LtiRecords, person: claims.Launched) -> str:
    """The roster id of a launching user, their role as the LMS gives it, and their seat in the
    LMS course (the LMS is the authority on who teaches it)."""
    assert person.role is not None
    user = store.person_user(
        person.issuer, person.sub, claims.wanted_ids(person.sourced_id, person.email), person.name, person.email
    )
    store.set_role(user, person.role)
    store.member_seen(person.issuer, person.context_id, [(user, person.role)], whole=False)
    return user


def sync(store: LtiRecords, platform: Platform, course: LmsCourse) -> Synced:
    """The LMS's list of the course, taken whole: those it lists with a role are members (made
    users if new), the others are marked dropped."""
    seated: list[tuple[str, str]] = []
    for member in services.members(store, platform, course):
        if member.role is None or not member.active:
            continue
        wanted = claims.wanted_ids(member.sourced_id, member.email)
        user = store.person_user(course.issuer, member.sub, wanted, member.name, member.email)
        store.set_role(user, member.role)
        seated.append((user, member.role))
    before = {m.user for m in store.members(course.issuer, course.context_id) if m.dropped is None}
    store.member_seen(course.issuer, course.context_id, seated, whole=True)
    return Synced(len(seated), len(before - {user for user, _ in seated}))
