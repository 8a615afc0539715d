"""Teams in the web judge, in process with the server's clock (the test is the worker): a team of
three with a late joiner, the team's quota, leaving, the lock, the teacher's page, the LMS's
passback per member, and a hostile student's forged forms."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.web import rejudging
from judge.web.lti import passback
from judge.web.serving.app import create_app
from judge.web.state.lti import LmsCourse, Platform
from judge.web.state.proposal import Judged, Proposal
from tests.conftest import PROBLEMS, REPO
from tests.web.test_course import Course, record, scoreboard_rows

TEAMS = """\
title: Teams 2026
timezone: UTC
assignments:
  - id: pair
    title: Pair work
    problems: [lanqiao]
    opens: 2026-12-01 09:00
    due: 2026-12-20 23:59
    max_submissions: 3
    scoreboard: named
    teams: {size: [2, 3], formed: students, lock: 2026-12-15 12:00}
  - id: solo
    problems: [eight-digits]
"""


class Teamed(Course):
    def __init__(self, tmp_path: Path) -> None:
        super().__init__(tmp_path, TEAMS)
        for student in ("dave", "erin"):
            self.tokens[student] = self.store.add_user(student)

    def post(self, user: str, action: str, **fields: str) -> tuple[int, str]:
        reply = self.client(user).post(f"/assignments/pair/team/{action}", data=fields)
        return reply.status_code, reply.text

    def invitation(self, user: str) -> str:
        found = re.search(r'name="invitation" value="(\d+)"', self.client(user).get("/assignments/pair/team").text)
        assert found is not None
        return found.group(1)

    def team(self, starter: str, *others: str) -> None:
        assert self.post(starter, "start")[0] == 303
        for other in others:
            assert self.post(starter, "invite", student=other)[0] == 303
            assert self.post(other, "accept", invitation=self.invitation(other))[0] == 303

    def counted(self, user: str) -> str:
        home = self.client(user).get("/").text
        return home.split('data-problem="lanqiao"')[1].split("</tr>")[0]


def test_a_team_of_three_with_a_late_joiner(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    course.team("alice", "bob")
    assert course.submit("alice", "lanqiao")[0] == 303
    first = course.judge("AC", 100)
    course.clock.set("2026-12-05 10:00")
    assert course.post("bob", "invite", student="carol")[0] == 303
    assert course.post("carol", "accept", invitation=course.invitation("carol"))[0] == 303
    # The joiner sees and gets what the team made before them: the counted score, the
    # submission in their list and its page, and the team's quota used.
    assert "AC</span> 100" in course.counted("carol") and "1 of 3 used" in course.counted("carol")
    assert f'href="/submissions/{first}"' in course.client("carol").get("/submissions").text
    assert course.client("carol").get(f"/submissions/{first}").status_code == 200
    assert course.client("dave").get(f"/submissions/{first}").status_code == 404  # no team of his
    page = course.client("carol").get("/assignments/pair/team").text
    assert all(f"<li>{m}" in page for m in ("alice", "bob", "carol"))
    assert course.submit("carol", "lanqiao")[0] == 303
    course.judge("WA", 30)
    grades = course.grades()
    assert [grades[s]["pair:lanqiao"] for s in ("alice", "bob", "carol", "dave")] == ["100", "100", "100", ""]
    matrix = course.client("prof").get("/teacher/assignments/pair").text
    assert "/teacher/teams/pair" in matrix and "teams of 2 to 3" in matrix


def test_the_quota_is_the_team_and_a_team_too_small_cannot_submit(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    assert course.post("alice", "start")[0] == 303
    status, text = course.submit("alice", "lanqiao")
    assert status == 403 and "Your team has 1 member(s)" in text
    assert course.post("alice", "invite", student="bob")[0] == 303
    assert course.post("bob", "accept", invitation=course.invitation("bob"))[0] == 303
    for user in ("alice", "bob", "alice"):
        assert course.submit(user, "lanqiao")[0] == 303
        course.judge("WA", 10)
    status, text = course.submit("bob", "lanqiao")
    assert status == 429 and "3 of 3 used" in text
    assert "3 of 3 used" in course.counted("bob")
    assert course.submit("carol", "eight-digits")[0] == 303  # an assignment without teams: as ever
    course.judge("AC", 100)
    status, text = course.submit("carol", "lanqiao")
    assert status == 403 and "join or start a team" in text


def test_one_who_leaves_keeps_what_the_team_made_and_gets_nothing_after(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    course.team("alice", "bob", "carol")
    assert course.submit("bob", "lanqiao")[0] == 303
    course.judge("WA", 40)
    course.clock.set("2026-12-03 10:00")
    assert course.post("bob", "leave")[0] == 303
    assert course.submit("alice", "lanqiao")[0] == 303
    course.judge("AC", 100)
    grades = course.grades()
    assert [grades[s]["pair:lanqiao"] for s in ("alice", "bob", "carol")] == ["100", "40", "100"]
    # Submitting for the team he left, a forged field naming it too: refused, and nothing stored.
    reply = course.client("bob").post(
        "/problems/lanqiao/submit", data={"language": "python3", "team": "1"}, files={"file": ("main.py", b"1\n")}
    )
    assert reply.status_code == 403 and "join or start a team" in reply.text
    assert len(course.store.all()) == 2


def test_a_hostile_student_forges_forms(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    course.team("alice", "bob")
    assert course.post("alice", "invite", student="carol")[0] == 303
    assert course.post("alice", "invite", student="dave")[0] == 303
    for_carol, for_dave = course.invitation("carol"), course.invitation("dave")
    # erin accepts the invitation meant for carol, by its id: not hers, not found.
    status, text = course.post("erin", "accept", invitation=for_carol)
    assert status == 404 and "no such invitation for you" in text
    assert course.post("erin", "accept", invitation="999")[0] == 404
    assert course.post("carol", "accept", invitation=for_carol)[0] == 303  # three: full
    # dave's invitation was real, but the team filled since: joining a full team is refused.
    status, text = course.post("dave", "accept", invitation=for_dave)
    assert status == 409 and "full" in text
    assert course.post("alice", "invite", student="erin")[0] == 409  # no room to invite into either
    # carol replays her spent invitation after leaving: it is gone.
    assert course.post("carol", "leave")[0] == 303
    assert course.post("carol", "accept", invitation=for_carol)[0] == 404
    teams = course.app.state.site.team_book.teams()
    assert [teams.team_of("pair", s) is None for s in ("carol", "dave", "erin")] == [True, True, True]


def test_locked_by_the_teacher_or_at_the_date(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    course.team("alice", "bob")
    assert course.post("alice", "invite", student="carol")[0] == 303
    invitation = course.invitation("carol")  # the page offers no Accept once locked: a forged form
    assert course.client("bob").post("/teacher/teams/pair/lock", data={"action": "lock"}).status_code == 403
    assert course.client("prof").post("/teacher/teams/pair/lock", data={"action": "lock"}).status_code == 303
    status, text = course.post("carol", "accept", invitation=invitation)
    assert status == 403 and "locked" in text
    assert course.post("bob", "leave")[0] == 403
    page = course.client("prof").get("/teacher/teams/pair").text
    assert "Unlock the teams" in page and "alice" in page and "In no team: carol, dave, erin." in page
    assert course.client("prof").post("/teacher/teams/pair/lock", data={"action": "unlock"}).status_code == 303
    course.clock.set("2026-12-15 13:00")  # its last minute (the clock reads Berlin time): still open
    assert course.post("bob", "leave")[0] == 303
    course.clock.set("2026-12-15 13:01")
    assert course.post("alice", "leave")[0] == 403
    assert "The teams are locked" in course.client("alice").get("/assignments/pair/team").text


def test_the_lms_gets_the_team_score_for_each_member(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    site = course.app.state.site
    site.lti.add_platform(
        Platform("https://lms", "tool", "lms", "https://lms/a", "https://lms/t", "https://lms/k", "", ("d",))
    )
    site.lti.link_course(
        LmsCourse("https://lms", "c", "tool", "d", "C", "https://lms/items", "", "https://judge", "prof")
    )
    site.lti.member_seen("https://lms", "c", [(s, "student") for s in ("alice", "bob", "carol")], whole=True)
    course.team("alice", "bob")
    assert course.submit("bob", "lanqiao")[0] == 303
    course.judge("AC", 100)
    mark = passback.step(site, None)
    assert sorted((s.user, s.assignment, s.score) for s in site.lti.sends()) == [
        ("alice", "pair", 100.0),
        ("bob", "pair", 100.0),
    ]
    # carol joins late: her score goes too, though no judging ended since.
    course.post("alice", "invite", student="carol")
    assert course.post("carol", "accept", invitation=course.invitation("carol"))[0] == 303
    passback.step(site, mark)
    assert ("carol", "pair", 100.0) in [(s.user, s.assignment, s.score) for s in site.lti.sends()]


def test_the_scoreboard_has_a_team_submission_in_each_members_row(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    course.team("alice", "bob")
    assert course.submit("bob", "lanqiao")[0] == 303
    course.judge("AC", 100)
    rows = {r[1]: r for r in scoreboard_rows(course.client("carol").get("/assignments/pair/scoreboard").text)}
    # solved and the total, by the gradebook's one rule: alice made nothing herself
    assert (rows["alice"][2], rows["alice"][3]) == ("1", "100") and (rows["bob"][2], rows["bob"][3]) == ("1", "100")
    assert rows["carol"][3] == "0"


def test_a_rejudge_dry_run_moves_each_members_score(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    course.team("alice", "bob", "carol")
    assert course.submit("alice", "lanqiao")[0] == 303
    first = course.judge("WA", 40)
    course.clock.set("2026-12-05 10:00")
    assert course.post("carol", "leave")[0] == 303
    assert course.post("alice", "invite", student="dave")[0] == 303
    assert course.post("dave", "accept", invitation=course.invitation("dave"))[0] == 303
    site = course.app.state.site
    finished = course.store.get(first).finished
    plan = Proposal(("lanqiao",), (), 0.0, (Judged(first, finished, record("alice", "lanqiao", "AC", 100)),))
    moves = rejudging.moved(course.store, site.course, {"lanqiao": 100.0}, plan)
    # The team now (with dave, a late joiner) and carol, a member when it came, each move from 40 to 100.
    assert sorted((m.student, m.old, m.new) for m in moves) == [
        ("alice", 40.0, 100.0),
        ("bob", 40.0, 100.0),
        ("carol", 40.0, 100.0),
        ("dave", 40.0, 100.0),
    ]


def test_the_teacher_imports_teams_from_the_page(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    course = Teamed(tmp_path)
    prof = course.client("prof")

    def send(user: str, data: bytes, **headers: str) -> tuple[int, str]:
        reply = course.client(user).post(
            "/teacher/teams/pair/import", files={"file": ("teams.csv", data)}, headers=headers
        )
        return reply.status_code, reply.text

    assert 'id="teams-import"' in prof.get("/teacher/teams/pair").text
    assert send("alice", b"red,alice,bob\n")[0] == 403  # a student: the teacher's alone
    assert send("prof", b"red,alice,bob\n", Origin="http://evil")[0] == 403  # another site's form
    # Checked whole before anything is written: the first two rows are good, the third is not.
    status, text = send("prof", b"team,members\nred,alice,bob\nblue,carol,dave\ngreen,erin,zed\n")
    assert status == 400 and "teams.csv:4: &#39;zed&#39; is not a student on the roster" in text
    status, text = send("prof", b"red,alice,bob,carol,dave\n")
    assert status == 400 and "teams.csv:1: team &#39;red&#39; has 4 member(s); this assignment takes 2 to 3" in text
    status, text = send("prof", "red,alice,b\u00f6b\n".encode("latin-1"))
    assert status == 400 and "teams.csv: not UTF-8 text" in text
    assert send("prof", b"x" * (65 * 1024))[0] == 413
    assert course.app.state.site.team_book.names("pair") == {}
    with caplog.at_level("INFO", logger="judge.web"):
        assert send("prof", b"red,alice,bob\nblue,carol,dave\n")[0] == 303
    assert "pair: prof imported 2 team(s) from teams.csv; 4 student(s) changed team" in caplog.text
    teams = course.app.state.site.team_book.teams()
    assert teams.team_of("pair", "alice") == teams.team_of("pair", "bob") != teams.team_of("pair", "carol")
    # Pasted rows, as the file: carol moves to red and keeps blue's past; dave is left in none.
    reply = prof.post("/teacher/teams/pair/import", data={"text": "red,alice,bob,carol\n"})
    assert reply.status_code == 303 and "1+team(s)+imported;+2+student(s)+changed+team" in reply.headers["location"]
    page = prof.get(reply.headers["location"]).text
    assert "1 team(s) imported; 2 student(s) changed team" in page and "In no team: dave, erin." in page


def test_teams_removed_after_team_submissions_are_refused_naming_the_assignment(tmp_path: Path) -> None:
    course = Teamed(tmp_path)
    course.team("alice", "bob")
    site = course.app.state.site
    without = TEAMS.replace("    teams: {size: [2, 3], formed: students, lock: 2026-12-15 12:00}\n", "")
    # Teams removed before any team submission: taken (nothing counted for a team yet).
    (tmp_path / "course.yaml").write_text(without)
    site.watch.checked = -1e9  # looked at now, not in a second
    assert course.client("alice").get("/assignments/pair/team").status_code == 404 and site.watch.error == ""
    (tmp_path / "course.yaml").write_text(TEAMS)
    site.watch.checked = -1e9
    assert course.client("alice").get("/assignments/pair/team").status_code == 200
    assert course.submit("alice", "lanqiao")[0] == 303
    course.judge("AC", 100)
    (tmp_path / "course.yaml").write_text(without + "# the teams went\n")
    site.watch.checked = -1e9
    # The mistake is refused: the course in force keeps its teams, bob's grade does not move,
    # and the teacher's dashboard says why, naming the file and the assignment.
    assert course.client("alice").get("/assignments/pair/team").status_code == 200
    assert course.grades()["bob"]["pair:lanqiao"] == "100"
    dashboard = course.client("prof").get("/teacher").text
    assert "assignment &#39;pair&#39; has no `teams:` but 1 team submission(s) were made to it" in dashboard
    assert str(tmp_path / "course.yaml") in dashboard
    # A server started on that file stops at once with the same line.
    with pytest.raises(JudgeError, match=r"course\.yaml: assignment 'pair' has no `teams:` but 1 team submission"):
        create_app(course.app.state.site.settings, start_workers=False)
    # And so do the commands that read the gradebook (judge rejudge loads it as judge gradebook does).
    command = [
        sys.executable,
        "-m",
        "judge",
        "--problems",
        str(PROBLEMS),
        "gradebook",
        "--data",
        str(tmp_path / "data"),
    ]
    offline = subprocess.run(
        [*command, "--course", str(tmp_path / "course.yaml")], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert offline.returncode == 2 and offline.stdout == ""
    assert offline.stderr.count("\n") == 1 and "assignment 'pair' has no `teams:`" in offline.stderr
