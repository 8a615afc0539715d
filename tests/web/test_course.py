"""The web judge running a course, in process with an injected clock (the workers are the test:
it claims and finishes submissions with records of its choosing): deadlines, late penalty,
extensions, quotas, the per-minute cap, fair turns, and one gradebook in every view."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient

from judge.grade.results import CaseRecord, GradeRecord
from judge.grade.runner import GroupRecord
from judge.web.serving.app import Settings, create_app
from judge.web.state.store import Store
from tests.conftest import PROBLEMS

BERLIN = ZoneInfo("Europe/Berlin")
COURSE = """\
title: Algorithms 2026
timezone: Europe/Berlin
assignments:
  - id: week1
    title: Sliding puzzles
    problems: [lanqiao, eight-digits]
    opens: 2026-12-01 09:00
    due: 2026-12-08 23:59
    late: {penalty_per_day: 50, until: 2026-12-10 23:59}
    keep: best
    max_submissions: 3
    scoreboard: anonymous
    feedback: verdict
    announcement: Read eight-digits twice.
  - id: week2
    problems: [sicily-rotations]
    opens: 2026-12-20 09:00
    due: 2026-12-27 23:59
    keep: last
extensions:
  - {student: alice, assignment: week1, due: 2026-12-09 23:59}
  - {student: nobody, assignment: week1, due: 2026-12-09 23:59}
"""
SOURCE = b"print(1)\n"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def set(self, text: str) -> None:
        self.now = datetime.fromisoformat(text).replace(tzinfo=BERLIN).timestamp()

    def __call__(self) -> float:
        return self.now


def record(student: str, problem: str, verdict: str, score: float, max_score: float = 100.0) -> GradeRecord:
    secret = CaseRecord("secret/01", "secret", False, verdict, "", 0.1, 0.1, 1000, None, 0)
    return GradeRecord(
        student,
        problem,
        "main.py",
        "python3",
        "h",
        verdict,
        score,
        max_score,
        "",
        "bwrap",
        "",
        (secret,),
        (GroupRecord("secret", max_score, score, 1 if verdict == "AC" else 0, 1),),
    )


class Course:
    """The app, its store and clock, and a logged-in client per user."""

    def __init__(self, tmp_path: Path, course: str | None = COURSE, per_minute: int = 10) -> None:
        self.clock = Clock()
        self.clock.set("2026-12-02 10:00")
        data = tmp_path / "data"
        self.store = Store(data)
        self.tokens = {u: self.store.add_user(u) for u in ("alice", "bob", "carol")}
        self.tokens["prof"] = self.store.add_user("prof", "teacher")
        course_file = None
        if course is not None:
            course_file = tmp_path / "course.yaml"
            course_file.write_text(course)
        settings = Settings(
            problems_dir=PROBLEMS, data_dir=data, course_file=course_file, result_step_s=0, per_minute=per_minute
        )
        self.app = create_app(settings, start_workers=False, clock=self.clock)
        self.clients: dict[str, TestClient] = {}

    def client(self, user: str) -> TestClient:
        if user not in self.clients:
            client = TestClient(self.app, follow_redirects=False)
            assert client.post("/login", data={"user": user, "token": self.tokens[user]}).status_code == 303
            self.clients[user] = client
        return self.clients[user]

    def submit(self, user: str, problem: str) -> tuple[int, str]:
        reply = self.client(user).post(
            f"/problems/{problem}/submit", data={"language": "python3"}, files={"file": ("main.py", SOURCE)}
        )
        return reply.status_code, reply.text if reply.status_code != 303 else reply.headers["location"]

    def judge(self, verdict: str, score: float) -> int:
        """The next queued submission gets this result, at the current clock."""
        claim = self.store.claim(now=self.clock())
        assert claim is not None
        assert self.store.finish(claim, record(claim.student, claim.problem, verdict, score), now=self.clock())
        return claim.id

    def grades(self) -> dict[str, dict[str, str]]:
        text = self.client("prof").get("/teacher/grades.csv").text
        return {row["student"]: row for row in csv.DictReader(io.StringIO(text))}


@pytest.fixture
def course(tmp_path: Path) -> Iterator[Course]:
    yield Course(tmp_path)


def test_best_keeps_the_ac_and_the_three_views_agree(course: Course) -> None:
    assert course.submit("alice", "lanqiao")[0] == 303
    course.judge("AC", 100)
    assert course.submit("alice", "lanqiao")[0] == 303
    course.judge("TLE", 60)
    grades = course.grades()
    assert grades["alice"]["week1:lanqiao"] == "100" and grades["alice"]["week1"] == "100"
    # A roster student who submitted nothing has a row: blanks, and 0 in the totals.
    assert grades["bob"]["week1:lanqiao"] == "" and grades["bob"]["total"] == "0"
    assert "prof" not in grades  # a teacher is not a student
    matrix = course.client("prof").get("/teacher/class").text
    assert 'data-student="alice"' in matrix and 'data-student="bob"' in matrix
    alice_row = matrix.split('data-student="alice"')[1].split("</tr>")[0]
    assert ">100</span>" in alice_row
    home = course.client("alice").get("/").text
    lanqiao = home.split('data-problem="lanqiao"')[1].split("</tr>")[0]
    assert "AC</span> 100" in lanqiao and "2 of 3 used" in lanqiao
    assert "due Tue 8 Dec 2026 23:59 CET" not in home  # alice's own extension is shown instead
    assert "due Wed 9 Dec 2026 23:59 CET (your extension) (in 7 days 14 h)" in home


def test_last_keeps_the_newest(tmp_path: Path) -> None:
    course = Course(tmp_path)
    course.clock.set("2026-12-21 10:00")
    course.submit("bob", "sicily-rotations")
    course.judge("AC", 100)
    course.submit("bob", "sicily-rotations")
    course.judge("WA", 20)
    assert course.grades()["bob"]["week2:sicily-rotations"] == "20"


def test_deadlines_late_penalty_and_cutoff(course: Course) -> None:
    course.clock.set("2026-12-08 23:59:59")  # the due minute is on time
    assert course.submit("bob", "lanqiao")[0] == 303
    course.judge("WA", 10)
    course.clock.set("2026-12-09 00:59")  # an hour late: 50 percent
    assert course.submit("bob", "lanqiao")[0] == 303
    late_id = course.judge("AC", 100)
    assert course.grades()["bob"]["week1:lanqiao"] == "50"
    page = course.client("bob").get(f"/submissions/{late_id}").text
    assert "late -50%" in page
    # The scoreboard agrees with the gradebook: a late AC is solved (issue 59; it read "solved 0").
    [bob] = [
        r for r in scoreboard_rows(course.client("prof").get("/assignments/week1/scoreboard").text) if r[1] == "bob"
    ]
    assert bob[2] == "1" and bob[3] == "50"
    course.clock.set("2026-12-09 12:00")  # alice is inside her extension: on time
    assert course.submit("alice", "lanqiao")[0] == 303
    course.judge("AC", 100)
    assert course.grades()["alice"]["week1:lanqiao"] == "100"
    course.clock.set("2026-12-11 00:00")  # past late.until: refused with the closing time
    status, text = course.submit("bob", "eight-digits")
    assert status == 403 and "closed at Thu 10 Dec 2026 23:59 CET" in text
    status, _ = course.submit("alice", "eight-digits")  # her late window moved with her due date
    assert status == 303
    matrix = course.client("prof").get("/teacher/assignments/week1").text
    assert '<b title="late: -50%">L</b>' in matrix and '<b title="extension">E</b>' in matrix


def test_an_assignment_not_yet_open_is_not_there(course: Course) -> None:
    bob = course.client("bob")
    assert bob.get("/problems/sicily-rotations").status_code == 404
    status, _ = course.submit("bob", "sicily-rotations")
    assert status == 404
    home = bob.get("/").text
    assert "sicily-rotations" not in home and "opens Sun 20 Dec 2026 09:00 CET" in home
    assert course.client("prof").get("/problems/sicily-rotations").status_code == 200  # the teacher sees it
    course.clock.set("2026-12-20 09:00")
    assert bob.get("/problems/sicily-rotations").status_code == 200


def test_the_quota_and_the_per_minute_cap(tmp_path: Path) -> None:
    course = Course(tmp_path, per_minute=2)
    for _ in range(2):
        assert course.submit("bob", "lanqiao")[0] == 303
        course.judge("WA", 0)
    status, text = course.submit("bob", "lanqiao")
    assert status == 429 and "2 submissions in the last minute" in text
    course.clock.now += 61
    assert course.submit("bob", "lanqiao")[0] == 303
    course.judge("IE", 0)  # the judge's failure: not counted against the quota
    assert course.submit("bob", "lanqiao")[0] == 303
    course.judge("WA", 0)
    course.clock.now += 61
    status, text = course.submit("bob", "lanqiao")
    assert status == 429 and "3 of 3 used" in text
    assert "3 of 3 used" in course.client("bob").get("/problems/lanqiao").text


def test_fair_turns_take_the_student_who_waited_least_on_the_judge_first(course: Course) -> None:
    # bob's programs ran long; carol's did not run at all. Both queue; carol goes first.
    course.submit("bob", "lanqiao")
    claim = course.store.claim(now=course.clock())
    assert claim is not None
    course.clock.now += 120
    course.store.finish(claim, record("bob", "lanqiao", "TLE", 0), now=course.clock())
    course.clock.now += 61
    assert course.submit("bob", "lanqiao")[0] == 303
    assert course.submit("carol", "lanqiao")[0] == 303
    first = course.store.claim(now=course.clock())
    assert first is not None and first.student == "carol"


def test_the_scoreboard_is_anonymous_for_students(course: Course) -> None:
    course.submit("alice", "lanqiao")
    course.judge("AC", 100)
    bob_view = course.client("bob").get("/assignments/week1/scoreboard")
    assert bob_view.status_code == 200 and 'http-equiv="refresh"' in bob_view.text
    assert "alice" not in bob_view.text and "anonymous" in bob_view.text and "bob" in bob_view.text
    assert "alice" in course.client("prof").get("/assignments/week1/scoreboard").text
    assert course.client("bob").get("/assignments/week2/scoreboard").status_code == 404


def scoreboard_rows(page: str) -> list[list[str]]:
    table = page[page.index('<table id="scoreboard">') : page.index("</table>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]


def test_an_anonymous_scoreboard_gives_no_name_away(course: Course) -> None:
    """No row for who never submitted, 0 where a problem was not tried, and equal rows share a
    rank in an order that does not follow the student ids."""
    for user in ("carol", "alice"):  # the same result: a tie
        course.submit(user, "lanqiao")
        course.judge("WA", 0)
    for viewer in ("alice", "carol", "bob"):
        rows = scoreboard_rows(course.client(viewer).get("/assignments/week1/scoreboard").text)
        # bob (never submitted) sees his own row; nobody sees a row for another who did not
        expected = 3 if viewer == "bob" else 2
        assert len(rows) == expected, (viewer, rows)
        assert all(row[0] == "1" for row in rows if row[1] != "bob")  # the tie shares rank 1
        assert all(cell != "" for row in rows for cell in row[4:])  # no blank: a 0
        others = [row for row in rows if row[1] not in (viewer,)]
        assert all(row[1] == "anonymous" for row in others), rows
        if viewer != "bob":
            assert rows[0][1] == viewer  # among equal rows the viewer's own comes first
    teacher = scoreboard_rows(course.client("prof").get("/assignments/week1/scoreboard").text)
    assert [row[:2] for row in teacher] == [["1", "alice"], ["1", "bob"], ["1", "carol"]]  # every name


def test_the_assignment_feedback_level_and_no_secret_case_on_student_pages(course: Course) -> None:
    course.submit("bob", "lanqiao")
    submission = course.judge("WA", 0)
    status = course.client("bob").get(f"/api/submissions/{submission}").json()
    # The verdict level: no secret case, the secret groups only as one total without counts.
    assert status["feedback"] == "verdict" and status["cases"] == []
    assert [(g["public"], g["passed"], g["verdict"]) for g in status["groups"]] == [(False, None, None)]
    assert "secret/01" not in course.client("bob").get(f"/submissions/{submission}").text
    assert course.client("bob").get(f"/teacher/submissions/{submission}/io").status_code == 403


def test_the_teacher_reads_a_secret_case_output_and_stderr(course: Course) -> None:
    course.submit("bob", "lanqiao")
    claim = course.store.claim(now=course.clock())
    assert claim is not None
    course.store.keep_io(claim, "secret/01", b"42\n", b"Traceback: ZeroDivisionError\n")
    course.store.finish(claim, record("bob", "lanqiao", "RE", 0), now=course.clock())
    page = course.client("prof").get(f"/teacher/submissions/{claim.id}/io").text
    assert "42" in page and "ZeroDivisionError" in page
    dashboard = course.client("prof").get("/teacher").text
    assert re.search(r'id="storage">The database: [\d.]+ MiB on disk, 0\.0 MiB of it the output', dashboard)


def test_the_dashboard_names_an_extension_for_someone_not_on_the_roster(course: Course) -> None:
    page = course.client("prof").get("/teacher").text
    assert "course.yaml:22: an extension for &#39;nobody&#39;, who is not on the roster" in page
    assert "/teacher/assignments/week1" in page


def test_rejudge_one_assignment(course: Course) -> None:
    course.submit("bob", "lanqiao")
    course.judge("WA", 0)
    reply = course.client("prof").post("/teacher/assignments/week1/rejudge")
    assert reply.status_code == 303 and "1+submission" in reply.headers["location"]
    assert course.store.get(1) is not None and course.store.get(1).status == "queued"  # type: ignore[union-attr]


def test_without_a_course_file_every_problem_is_open(tmp_path: Path) -> None:
    course = Course(tmp_path, course=None)
    course.clock.set("2030-01-01 00:00")
    assert course.submit("bob", "sicily-rotations")[0] == 303
    course.judge("AC", 100)
    assert course.grades()["bob"]["all:sicily-rotations"] == "100"


def test_judge_gradebook_offline_gives_the_numbers_of_grades_csv(course: Course, tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.conftest import REPO

    course.submit("alice", "lanqiao")
    course.judge("AC", 100)
    course.clock.set("2026-12-09 00:59")
    course.submit("bob", "lanqiao")
    course.judge("AC", 100)
    online = course.client("prof").get("/teacher/grades.csv").text
    data, course_file = tmp_path / "data", tmp_path / "course.yaml"

    def gradebook(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "judge", "--problems", str(PROBLEMS), "gradebook", "--data", str(data)]
        return subprocess.run([*command, *args], cwd=REPO, capture_output=True, text=True, timeout=120)

    offline = gradebook("--course", str(course_file), "-o", str(tmp_path / "out" / "grades.csv"))
    assert offline.returncode == 0, offline.stderr
    assert (tmp_path / "out" / "grades.csv").read_text() == online
    assert "\nbob,,,50,,,50,0,50\n" in online  # bob: an hour late at 50 percent a day
    canvas = gradebook("--course", str(course_file), "--format", "canvas")
    assert canvas.stdout.splitlines()[:2] == [
        "Student,ID,SIS User ID,SIS Login ID,Section,Sliding puzzles,week2",
        "Points Possible,,,,,200,100",
    ]
    broken = tmp_path / "broken.yaml"
    broken.write_text(COURSE.replace("keep: best", "keep: newest"))
    refused = gradebook("--course", str(broken))
    assert refused.returncode == 2 and "broken.yaml:10: assignments[0].keep" in refused.stderr
    assert "Traceback" not in refused.stderr
