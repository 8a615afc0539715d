"""LTI 1.3 against a running `judge serve`, with an LMS of the tests' own (lms.py, built on
lti1p3platform): a launch signs in without a token, each forged launch is refused, a teacher
links the LMS course, the class list comes from the LMS, deep linking adds an assignment, and
grades reach the LMS's line item once, updated and never lost while the LMS is down."""

from __future__ import annotations

import html
import http.cookiejar
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.grade.test_grading import small_problems
from tests.web.conftest import Client, Reply, Server, judge_cli
from tests.web.lti.lms import CLIENT_ID, DEPLOYMENT, INSTRUCTOR, LEARNER, OBSERVER, Course, Lms, Person, form_fields
from tests.web.test_app import ACCEPTED, PROBLEM, WRONG, submitted_id

COURSE = """\
title: Puzzles 2026
assignments:
  - id: week1
    title: Rotations
    problems: [sicily-rotations]
"""


class LtiClient(Client):
    """A browser as LTI needs it: it sends Secure cookies back to a judge on this machine (as
    browsers do for localhost), and says where a post comes from."""

    def __init__(self, base: str) -> None:
        super().__init__(base)
        self.cookie_jar().set_policy(http.cookiejar.DefaultCookiePolicy(secure_protocols=("https", "wss", "http")))

    def cookie_jar(self) -> http.cookiejar.CookieJar:
        for handler in self.opener.handlers:
            if isinstance(handler, urllib.request.HTTPCookieProcessor):
                return handler.cookiejar
        raise AssertionError("no cookie jar")

    def post_from(self, path: str, fields: dict[str, str], origin: str) -> Reply:
        body = urllib.parse.urlencode(fields).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": origin}
        return self.request("POST", path, body, headers)


def _client(server: Server) -> LtiClient:
    return LtiClient(server.base)


def login_redirect(
    client: LtiClient, lms: Lms, sub: str, course: str, message: str = "resource", custom: str = ""
) -> str:
    started = client.get("/lti/login?" + urllib.parse.urlencode(lms.login_params(sub, course, message, custom)))
    assert started.status == 302, started.body
    return started.headers["location"]


def launch(
    client: LtiClient,
    lms: Lms,
    sub: str,
    course: str = "c1",
    message: str = "resource",
    custom: str = "",
    **changes: object,
) -> Reply:
    """One launch as a browser makes it: the login, the LMS's answer, the form posted back."""
    fields = lms.answer(login_redirect(client, lms, sub, course, message, custom), **changes)
    return client.post_from("/lti/launch", fields, lms.base)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Lms]]:
    root = tmp_path_factory.mktemp("lti")
    server, lms = serve_with_lms(root, small_problems(root / "problems"), COURSE)
    yield server, lms
    server.stop()
    lms.stop()


def serve_with_lms(root: Path, problems: Path, course: str) -> tuple[Server, Lms]:
    """A judge serving `problems` with `course` (its course.yaml), registered with a started
    LMS whose course c1 has a teacher t1 and students s1, s2, s3 (and an observer)."""
    (root / "course.yaml").write_text(course)
    server = Server(problems, root / "data", extra=("--lms-retry", "1"))
    lms = Lms(server.base)
    lms.courses["c1"] = Course(
        "c1",
        "CS 101",
        [
            Person("t1", "Tess Teacher", "tess@school.edu", INSTRUCTOR),
            Person("s1", "Sam Student", "sam@school.edu", LEARNER, "s1001"),
            Person("s2", "Kim Student", "kim@school.edu", LEARNER),
            Person("s3", "Lee Late", "lee@school.edu", LEARNER, "s1003"),
            Person("o1", "Oli Observer", "oli@home.net", OBSERVER),
        ],
    )
    lms.courses["c2"] = Course("c2", "Unlinked", [Person("s1", "Sam Student", "sam@school.edu", LEARNER, "s1001")])
    lms.start()
    judge_cli(
        "lti",
        "add-platform",
        "--issuer",
        lms.issuer,
        "--client-id",
        CLIENT_ID,
        "--deployment",
        DEPLOYMENT,
        "--login-url",
        f"{lms.base}/auth",
        "--token-url",
        f"{lms.base}/token",
        "--keys-url",
        f"{lms.base}/jwks",
        "--data",
        str(server.data),
    )
    server.start()
    return server, lms


@pytest.fixture(scope="module")
def linked(setup: tuple[Server, Lms]) -> tuple[Server, Lms, LtiClient]:
    return link(*setup)


def link(server: Server, lms: Lms) -> tuple[Server, Lms, LtiClient]:
    """The teacher's first launch offers the link; they confirm it with their judge token once."""
    token = server.roster("prof", teacher=True)["prof"]
    teacher = _client(server)
    offered = launch(teacher, lms, "t1")
    assert offered.status == 200 and "Link it to this judge" in offered.body, offered.body
    assert teacher.get("/teacher").status == 401  # an Instructor of an LMS course is no one here yet
    key = re.search(r'name="key" value="([^"]+)"', offered.body)
    assert key is not None
    done = teacher.post("/lti/link", {"key": key.group(1), "user": "prof", "token": token})
    assert done.status == 303, done.body
    assert teacher.get("/teacher").status == 200
    return server, lms, teacher


def test_an_instructor_elsewhere_cannot_link_or_become_a_teacher(linked: tuple[Server, Lms, LtiClient]) -> None:
    """Any Instructor of any course of the LMS may launch (a student in a sandbox course of their
    own, say): without a teacher's token of this judge they link nothing and are no one here."""
    server, lms, _ = linked
    lms.courses["own"] = Course("own", "My sandbox", [Person("s2", "Kim Student", "kim@school.edu", INSTRUCTOR)])
    intruder = _client(server)
    offered = launch(intruder, lms, "s2", course="own")
    assert offered.status == 200 and 'name="token"' in offered.body
    key = re.search(r'name="key" value="([^"]+)"', offered.body)
    assert key is not None
    refused = intruder.post("/lti/link", {"key": key.group(1), "user": "prof", "token": "guess"})
    assert refused.status == 401 and "wrong token" in refused.body
    assert intruder.get("/teacher").status == 401 and intruder.get("/submissions").status == 401
    again = launch(_client(server), lms, "s2", course="own")
    assert again.status == 200 and "Link it to this judge" in again.body  # still not linked
    # Their deep-linking dialog gets the same page: no assignment is added from an unlinked course.
    picked = launch(_client(server), lms, "s2", course="own", message="deeplink")
    assert picked.status == 200 and 'name="token"' in picked.body and "launch_id" not in picked.body


def test_a_student_launch_signs_in_without_a_token(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, lms, _ = linked
    student = _client(server)
    reply = launch(student, lms, "s1", custom="problem:sicily-rotations")
    assert reply.status == 303 and reply.headers["location"].endswith("/problems/sicily-rotations")
    page = student.get("/submissions")
    # The institution's id of them (lis.person_sourcedid) is their roster id.
    assert page.status == 200 and "s1001" in page.body
    # The pages may be framed by the LMS (its origin, from the launch), and by nothing else.
    assert f"frame-ancestors 'self' {lms.base}" in page.headers["content-security-policy"]
    assert "x-frame-options" not in {k.lower() for k in page.headers}


def test_a_teaching_assistant_launch_grades_and_manages_nothing(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, lms, teacher = linked
    assert teacher.post_from("/teacher/rejudge", {}, server.base).status != 403  # the form is let through
    assistant = Person(
        "a1", "Ash Assistant", "ash@school.edu", f"{INSTRUCTOR.split('#')[0]}/Instructor#TeachingAssistant"
    )
    lms.courses["c1"].people.append(assistant)
    try:
        ta = _client(server)
        assert launch(ta, lms, "a1").status == 303
        assert ta.get("/teacher").status == 200  # the teacher's pages, to read and grade
        for path in ("/teacher/rejudge", "/teacher/sessions", "/teacher/lti/sync"):
            assert ta.post_from(path, {}, server.base).status == 403, path
    finally:
        lms.courses["c1"].people.remove(assistant)


def test_forged_launches_are_refused_and_sign_no_one_in(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, lms, _ = linked
    from tests.web.lti.lms import pem_pair

    other_key, _ = pem_pair()
    now = int(time.time())
    forged = {
        "a bad signature": {"key": other_key},
        "an expired token": {"iat": now - 900, "exp": now - 600},
        "a token without expiry": {"exp": None},
        "a wrong audience": {"aud": "another-tool", "azp": "another-tool"},
        "another authorized party": {"aud": [CLIENT_ID, "another-tool"], "azp": "another-tool"},
        "an unknown deployment": {"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-9"},
    }
    for why, changes in forged.items():
        client = _client(server)
        reply = launch(client, lms, "s2", **changes)  # type: ignore[arg-type]
        assert reply.status == 403, (why, reply.status, reply.body)
        assert "refused" in reply.body, why
        assert client.get("/submissions").status == 401, why
    # A launch posted twice (its nonce replayed): the second is refused.
    client = _client(server)
    fields = lms.answer(login_redirect(client, lms, "s2", "c1"))
    assert client.post_from("/lti/launch", fields, lms.base).status == 303
    again = _client(server)
    for cookie in client.cookie_jar():
        if cookie.name.startswith("lti1p3"):
            again.cookie_jar().set_cookie(cookie)
    replayed = again.post_from("/lti/launch", fields, lms.base)
    assert replayed.status == 403 and "Nonce" in replayed.body, replayed.body
    assert again.get("/submissions").status == 401


def test_who_may_not_launch_is_told_why(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, lms, _ = linked
    observer = launch(_client(server), lms, "o1")
    assert observer.status == 403 and "for its teachers and students" in observer.body
    unlinked = launch(_client(server), lms, "s1", course="c2")
    assert unlinked.status == 403 and "not linked to the judge yet" in unlinked.body
    assert "your teacher links it by opening the judge from it once" in unlinked.body


def _wait(check: object, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.3)
    raise AssertionError(f"not within {timeout} s: {what}")


def test_the_class_list_comes_from_the_lms(linked: tuple[Server, Lms, LtiClient]) -> None:
    _server, lms, teacher = linked
    # The link asked for the class list: those who never launched are members too.
    _wait(lambda: "Lee Late" in teacher.get("/teacher/lti").body, "the class list fetched")
    page = teacher.get("/teacher/lti").body
    assert "s1003" in page and "Oli Observer" not in page
    held = lms.courses["c1"].people
    lms.courses["c1"].people = [p for p in held if p.sub != "s3"]
    try:
        assert teacher.post("/teacher/lti/sync", {}).status == 303
        _wait(lambda: "dropped" in teacher.get("/teacher/lti").body, "a dropped student marked")
    finally:
        lms.courses["c1"].people = held


def test_deep_linking_adds_an_assignment_with_its_line_item(linked: tuple[Server, Lms, LtiClient]) -> None:
    _server, lms, teacher = linked
    picked = launch(teacher, lms, "t1", message="deeplink")
    assert picked.status == 200 and "assignment:week1" in picked.body, picked.body
    launch_id = re.search(r'name="launch_id" value="([^"]+)"', picked.body)
    assert launch_id is not None
    back = teacher.post("/lti/deep-link", {"launch_id": launch_id.group(1), "choice": "assignment:week1"})
    assert back.status == 200, back.body
    assert f'action="{lms.base}/courses/c1/deep-link-return"' in back.body
    assert f"form-action 'self' {lms.base}" in back.headers["content-security-policy"]
    fields = form_fields(back.body)
    returned = (
        urllib.request.urlopen(
            urllib.request.Request(
                f"{lms.base}/courses/c1/deep-link-return", data=urllib.parse.urlencode({"JWT": fields["JWT"]}).encode()
            )
        )
        .read()
        .decode()
    )
    assert "week1" in returned and "Rotations" in returned
    items = list(lms.courses["c1"].lineitems.values())
    assert [(i["resourceId"], i["scoreMaximum"]) for i in items] == [("week1", 100)]


def test_grades_reach_the_line_item_once_updated_and_after_the_lms_was_down(
    linked: tuple[Server, Lms, LtiClient],
) -> None:
    server, lms, teacher = linked
    course = lms.courses["c1"]
    student = _client(server)
    assert launch(student, lms, "s1").status == 303
    for source in (WRONG, ACCEPTED):
        reply = student.submit(PROBLEM, "main.c", source)
        assert reply.status == 303, reply.body
        student.wait_done(submitted_id(reply.headers["location"]))

    def given(sub: str) -> list[float]:
        return [s["scoreGiven"] for scores in course.scores.values() for s in scores if s["userId"] == sub]

    _wait(lambda: given("s1") and given("s1")[-1] == 100, "the better score sent")
    sent_s1 = given("s1")
    assert len(sent_s1) == len(set(sent_s1)) and sent_s1 == sorted(sent_s1)  # each change once, in turn
    week1 = [i for i in course.lineitems.values() if i.get("resourceId") == "week1"]
    assert len(week1) == 1, course.lineitems  # found again (made by the deep link, or once), never twice
    # The LMS goes down; a classmate's grade waits; the judge restarts meanwhile; it arrives.
    lms.down = True
    other = _client(server)
    assert launch(other, lms, "s2").status == 303
    lms.down = True
    reply = other.submit(PROBLEM, "main.c", ACCEPTED)
    other.wait_done(submitted_id(reply.headers["location"]))
    _wait(lambda: "pending (tried" in teacher.get("/teacher/lti").body, "a send failed while the LMS is down")
    assert not given("s2")
    server.stop()
    server.start()
    lms.down = False
    _wait(lambda: given("s2") == [100], "the grade sent after the restart")
    assert given("s1") == sent_s1  # nothing sent twice, the restart included


def test_the_tool_publishes_its_keys_and_rotates_them(setup: tuple[Server, Lms], tmp_path: Path) -> None:
    server, _ = setup
    first = Client(server.base).get("/lti/jwks").json()["keys"]
    assert len(first) >= 1 and all(k["kid"] and k["alg"] == "RS256" and "d" not in k for k in first)  # type: ignore[index,operator]
    judge_cli("lti", "rotate-key", "--data", str(server.data))
    second = Client(server.base).get("/lti/jwks").json()["keys"]
    assert len(second) == len(first) + 1  # type: ignore[arg-type]


def test_dynamic_registration_from_one_url_that_works_once(setup: tuple[Server, Lms]) -> None:
    """An LMS with Dynamic Registration: its administrator is given the URL, the LMS opens it
    with its configuration's address; the judge registers there and keeps what it answers.
    The URL works once; a configuration that names another issuer is refused."""
    server, _ = setup
    other = Lms(server.base, host="localhost")
    other.courses["k1"] = Course("k1", "Moodle course", [Person("mt", "Mo Teacher", "mo@school.edu", INSTRUCTOR)])
    other.start()
    try:
        url = judge_cli("lti", "registration-url", "--url", server.base, "--data", str(server.data)).strip()
        path = url.removeprefix(server.base)
        asked = urllib.parse.urlencode(
            {
                "openid_configuration": f"{other.base}/.well-known/openid-configuration",
                "registration_token": "reg-token-1",
            }
        )
        other.claimed_issuer = "https://canvas.instructure.com"
        forged = Client(server.base).get(f"{path}&{asked}")
        assert forged.status == 502 and "not its own address" in forged.body
        other.claimed_issuer = ""
        done = Client(server.base).get(f"{path}&{asked}")  # the key survived the failed attempt
        assert done.status == 200 and "Registered" in done.body, done.body
        assert "lti_close.js" in done.body and "frame-ancestors 'self'" in done.headers["content-security-policy"]
        (posted,) = other.registered
        assert posted["initiate_login_uri"] == f"{server.base}/lti/login"
        assert posted["jwks_uri"] == f"{server.base}/lti/jwks" and posted["redirect_uris"] == [
            f"{server.base}/lti/launch"
        ]
        assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in posted["scope"]
        again = Client(server.base).get(f"{path}&{asked}")
        assert again.status == 403 and "unknown, used or expired" in again.body
        # The LMS registered so launches: its teacher is offered the link of their course.
        offered = launch(_client(server), other, "mt", course="k1")
        assert offered.status == 200 and "Link it to this judge" in offered.body
    finally:
        other.stop()


def test_the_teacher_makes_a_registration_url_on_the_lti_page(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, _, teacher = linked
    page = teacher.post("/teacher/lti/registration", {})
    found = re.search(r'id="registration-url">[^<]*<code>([^<]+)</code>', page.body)
    assert page.status == 200 and found is not None and found.group(1).startswith(f"{server.base}/lti/register?key=")
    assert _client(server).post("/teacher/lti/registration", {}).status == 401  # not for anyone else


def test_a_browser_that_keeps_no_cookie_in_the_frame_is_offered_a_new_window(
    linked: tuple[Server, Lms, LtiClient],
) -> None:
    server, lms, _ = linked
    client = _client(server)
    fields = lms.answer(login_redirect(client, lms, "s1", "c1", custom="problem:lanqiao"))
    bare = _client(server)  # the launch arrives without the login's state cookie
    offered = bare.post_from("/lti/launch", fields, lms.base)
    assert offered.status == 200 and "Open the judge in a new window" in offered.body
    link = re.search(r'id="new-window" href="([^"]+)" target="_blank"', offered.body)
    assert link is not None
    again = urllib.parse.parse_qs(urllib.parse.urlsplit(html.unescape(link.group(1))).query)
    assert again["lti1p3_new_window"] == ["1"] and again["login_hint"] == ["s1"] and again["iss"] == [lms.issuer]
    assert bare.get("/submissions").status == 401
    # In the new window the same login goes through, and the student lands signed in.
    window = _client(server)
    redirect = window.get(html.unescape(link.group(1)))
    assert redirect.status == 302
    landed = window.post_from("/lti/launch", lms.answer(redirect.headers["location"]), lms.base)
    assert landed.status == 303 and landed.headers["location"].endswith("/problems/lanqiao")


def test_malformed_logins_and_launches_get_a_sentence_not_a_trace(linked: tuple[Server, Lms, LtiClient]) -> None:
    server, lms, _ = linked
    client = _client(server)
    assert "Could not find issuer" in client.get("/lti/login").body
    unknown = client.get("/lti/login?" + urllib.parse.urlencode({"iss": "https://nowhere.example", "login_hint": "x"}))
    assert unknown.status == 403 and "no LMS is registered here" in unknown.body
    state = login_redirect(client, lms, "s1", "c1")
    fields = lms.answer(state)
    for token in ("garbage", "a.b.c", fields["id_token"].split(".", 1)[1], "e30.e30.e30"):
        reply = client.post_from("/lti/launch", {"id_token": token, "state": fields["state"]}, lms.base)
        assert reply.status == 403 and "refused" in reply.body, (token, reply.status)
        assert "Traceback" not in reply.body
    assert client.post_from("/lti/launch", {}, lms.base).status == 403
