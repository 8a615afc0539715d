"""Exams in the web judge, in process with the server's clock moved (the test is the worker):
each edge of a student's window with extra time and the due minute, another assignment closed
during it, a refused address (a forged forwarded header too), a second browser ending the
first, time added live, a replayed form after the end, and the gradebook as for any submission."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tests.web.test_course import Course

EXAM = """\
title: Exams 2026
timezone: UTC
assignments:
  - id: midterm
    title: Midterm
    problems: [lanqiao]
    opens: 2026-12-07 09:00
    due: 2026-12-07 11:00
    exam: {duration: 40m, addresses: [10.1.0.0/16], one_session: true, lock_others: true}
  - id: week1
    problems: [eight-digits]
extensions:
  - {student: bob, assignment: midterm, extra: 10m}
"""
ROOM = ("10.1.0.5", 40000)
SOURCE = ("main.py", b"print(1)\n")


class Exam(Course):
    def __init__(self, tmp_path: Path, text: str = EXAM) -> None:
        super().__init__(tmp_path, text)
        self.at("08:30")

    def at(self, hhmm: str) -> None:
        self.clock.now = datetime.fromisoformat(f"2026-12-07 {hhmm}").replace(tzinfo=UTC).timestamp()

    def browser(self, user: str, client: tuple[str, int] = ROOM) -> TestClient:
        browser = TestClient(self.app, follow_redirects=False, client=client)
        assert browser.post("/login", data={"user": user, "token": self.tokens[user]}).status_code == 303
        return browser

    def client(self, user: str) -> TestClient:
        if user not in self.clients:
            self.clients[user] = self.browser(user)
        return self.clients[user]


def post_submission(browser: TestClient, problem: str = "lanqiao") -> tuple[int, str]:
    reply = browser.post(f"/problems/{problem}/submit", data={"language": "python3"}, files={"file": SOURCE})
    return reply.status_code, reply.text


def test_each_edge_of_the_window_with_extra_time_and_the_due_minute(tmp_path: Path) -> None:
    exam = Exam(tmp_path)
    alice, bob, carol = exam.client("alice"), exam.client("bob"), exam.client("carol")
    assert alice.get("/problems/lanqiao").status_code == 404  # before it opens: not there
    assert alice.post("/exams/midterm/start").status_code == 403
    exam.at("09:00")
    refused = alice.get("/problems/lanqiao")
    assert refused.status_code == 403 and "start it on the home page first" in refused.text
    assert "Start the exam" in alice.get("/").text and "An exam of 40 min" in alice.get("/").text
    assert post_submission(alice)[0] == 403  # nothing before the start either
    exam.at("09:10")
    started = alice.post("/exams/midterm/start")
    assert started.status_code == 303 and started.headers["location"].endswith("/problems/lanqiao")
    assert bob.post("/exams/midterm/start").status_code == 303
    page = alice.get("/problems/lanqiao").text
    assert 'data-exam-left="2400"' in page and "ends 09:50:00 UTC" in page  # the server's figure
    assert 'data-exam-left="3000"' in bob.get("/").text  # 40 min and bob's 10
    exam.at("09:49")
    assert post_submission(alice)[0] == 303
    exam.judge("AC", 100)
    # A second start (a replayed form) keeps the first moment.
    assert alice.post("/exams/midterm/start").status_code == 303
    exam.at("09:50")
    status, text = post_submission(alice)
    assert status == 403 and "Your time in Midterm ended at 09:50:00 UTC; nothing more is accepted." in text
    assert post_submission(bob)[0] == 303  # his extra time
    exam.judge("WA", 0)
    exam.at("10:00")
    assert post_submission(bob)[0] == 403
    # Started ten minutes before the due minute ends: the due minute's end is the end.
    exam.at("10:51")
    assert carol.post("/exams/midterm/start").status_code == 303
    assert 'data-exam-left="600"' in carol.get("/").text
    exam.at("11:00")
    assert post_submission(carol)[0] == 303
    exam.judge("AC", 100)
    exam.at("11:01")
    assert post_submission(carol)[0] == 403
    assert exam.client("bob").post("/exams/midterm/start").status_code == 403  # over: no start after due
    # The gradebook counts an exam's submissions as any.
    grades = exam.grades()
    assert grades["alice"]["midterm:lanqiao"] == "100" and grades["bob"]["midterm:lanqiao"] == "0"
    assert grades["carol"]["midterm:lanqiao"] == "100"


def test_other_assignments_are_closed_during_the_exam_and_open_after(tmp_path: Path) -> None:
    exam = Exam(tmp_path)
    alice = exam.client("alice")
    exam.at("09:00")
    assert alice.get("/problems/eight-digits").status_code == 200  # not started: open
    assert post_submission(alice, "eight-digits")[0] == 303
    week1 = exam.judge("AC", 100)
    assert alice.post("/exams/midterm/start").status_code == 303
    closed = alice.get("/problems/eight-digits")
    assert (
        closed.status_code == 403
        and "During your exam Midterm the pages of other assignments are closed" in closed.text
    )
    assert alice.get(f"/submissions/{week1}").status_code == 403
    assert alice.get(f"/api/submissions/{week1}").status_code == 403
    assert post_submission(alice, "eight-digits")[0] == 403
    exam.at("09:40")
    assert alice.get("/problems/eight-digits").status_code == 200
    assert alice.get(f"/api/submissions/{week1}").status_code == 200
    assert exam.client("prof").get("/problems/eight-digits").status_code == 200  # never the teacher's


def test_an_address_outside_the_ranges_is_refused_and_a_forged_forwarded_header_changes_nothing(
    tmp_path: Path,
) -> None:
    exam = Exam(tmp_path)
    exam.at("09:05")
    home = exam.browser("alice", ("203.0.113.9", 5000))
    forged = {"X-Forwarded-For": "10.1.0.5", "Forwarded": "for=10.1.0.5"}
    refused = home.post("/exams/midterm/start", headers=forged)
    assert refused.status_code == 403 and "this request came from 203.0.113.9" in refused.text
    assert home.get("/problems/lanqiao", headers=forged).status_code == 403
    assert exam.client("alice").post("/exams/midterm/start").status_code == 303  # from the room
    # Behind the proxy `judge serve --behind-proxy` trusts (uvicorn's middleware and its list),
    # the proxy's forwarded address is the client's; anyone else's header is not read.
    proxied = ProxyHeadersMiddleware(exam.app, trusted_hosts=["127.0.0.1"])
    via_proxy = TestClient(proxied, follow_redirects=False, client=("127.0.0.1", 6000))  # type: ignore[arg-type]
    via_proxy.cookies = exam.client("alice").cookies
    assert via_proxy.get("/problems/lanqiao", headers={"X-Forwarded-For": "10.1.3.4"}).status_code == 200
    assert via_proxy.get("/problems/lanqiao", headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 403
    # A student's own header, which nginx's $proxy_add_x_forwarded_for keeps on the left: the
    # address the proxy saw (the rightmost one it did not trust) decides.
    chain = {"X-Forwarded-For": "10.1.3.4, 198.51.100.1"}
    assert via_proxy.get("/problems/lanqiao", headers=chain).status_code == 403
    outsider = TestClient(proxied, follow_redirects=False, client=("203.0.113.9", 6000))  # type: ignore[arg-type]
    outsider.cookies = exam.client("alice").cookies
    assert outsider.get("/problems/lanqiao", headers={"X-Forwarded-For": "10.1.3.4"}).status_code == 403
    page = exam.client("prof").get("/teacher/exams/midterm").text
    alice_row = page.split('data-student="alice"')[1].split("</tr>")[0]
    assert "from 10.1.0.5" in alice_row and '<td class="num">5</td>' in alice_row  # five refused
    assert "address refused (from 203.0.113.9)" in page and "; no explanations." in page


def test_a_second_browser_ends_the_first_which_says_why_and_the_teacher_sees_it(tmp_path: Path) -> None:
    exam = Exam(tmp_path)
    exam.at("09:00")
    first, early = exam.browser("alice"), exam.browser("alice")
    assert first.post("/exams/midterm/start").status_code == 303
    # The browser that starts is the one session: one signed in before is ended.
    assert early.get("/problems/lanqiao").status_code == 401
    exam.at("09:05")
    second = exam.browser("alice")
    assert second.get("/problems/lanqiao").status_code == 200
    ended = first.get("/problems/lanqiao")
    assert ended.status_code == 401
    assert "signed in again elsewhere during the exam Midterm, which allows one session at a time" in ended.text
    assert post_submission(first)[0] == 401  # its replayed form too
    page = exam.client("prof").get("/teacher/exams/midterm").text
    assert "alice: session ended" in page
    alice_row = page.split('data-student="alice"')[1].split("</tr>")[0]
    assert "in the exam" in alice_row and '<td class="num">2</td>' in alice_row
    # Outside an exam, two browsers are fine.
    exam.at("09:45")
    third = exam.browser("alice")
    assert second.get("/").status_code == 200 and third.get("/").status_code == 200


def test_the_teacher_adds_time_live_and_it_is_logged(tmp_path: Path) -> None:
    exam = Exam(tmp_path)
    exam.at("09:00")
    alice, prof = exam.client("alice"), exam.client("prof")
    assert alice.post("/exams/midterm/start").status_code == 303
    page = prof.get("/teacher/exams/midterm").text
    assert "1 in the exam, 2 not started, 0 finished." in page and 'data-exam-left="2400"' in page
    exam.at("09:30")
    foreign = prof.post(
        "/teacher/exams/midterm/time", data={"student": "alice", "minutes": "15"}, headers={"Origin": "http://evil"}
    )
    assert foreign.status_code == 403  # another site's form: the CSRF rule of every form
    assert alice.post("/teacher/exams/midterm/time", data={"student": "alice", "minutes": "15"}).status_code == 403
    added = prof.post("/teacher/exams/midterm/time", data={"student": "alice", "minutes": "15", "why": "fire alarm"})
    assert added.status_code == 303
    assert 'data-exam-left="1500"' in alice.get("/").text  # 10 min left + 15
    exam.at("09:50")
    assert post_submission(alice)[0] == 303
    page = prof.get("/teacher/exams/midterm").text
    assert "alice: time added (15 min: fire alarm) by prof" in page
    assert prof.post("/teacher/exams/midterm/time", data={"student": "alice", "minutes": "0"}).status_code == 400
    assert prof.post("/teacher/exams/midterm/time", data={"student": "zed", "minutes": "5"}).status_code == 404
    exam.at("10:05")
    assert post_submission(alice)[0] == 403


def post_run(browser: TestClient, problem: str = "lanqiao") -> tuple[int, str]:
    reply = browser.post(
        f"/problems/{problem}/run", data={"language": "python3", "on": "samples"}, files={"file": SOURCE}
    )
    return reply.status_code, reply.headers.get("location", "") or reply.text


def test_runs_keep_to_the_window_as_submissions_do(tmp_path: Path) -> None:
    """Issue 61, a hostile student: Run and explain on the exam's problem went on after their end,
    and the page of a run of another assignment (its samples, code and output: notes brought in)
    opened during the exam."""
    exam = Exam(tmp_path)
    alice = exam.client("alice")
    exam.at("09:00")
    status, week1_run = post_run(alice, "eight-digits")
    assert status == 303 and "/runs/" in week1_run
    assert alice.get(week1_run).status_code == 200
    exam.at("09:10")
    assert alice.post("/exams/midterm/start").status_code == 303
    closed = alice.get(week1_run)
    assert closed.status_code == 403 and "the pages of other assignments are closed" in closed.text
    bob = exam.client("bob")
    assert bob.post("/exams/midterm/start").status_code == 303 and post_submission(bob)[0] == 303
    failed = exam.judge("WA", 0)
    # Explaining it inside bob's window: the exam says nothing of explanations, so none.
    assert "/explain" not in bob.get(f"/submissions/{failed}").text
    inside = bob.post(f"/submissions/{failed}/explain")
    assert inside.status_code == 403 and "Midterm is an exam without explanations" in inside.text
    exam.at("09:50")
    status, text = post_run(alice)
    assert status == 403 and "Your time in Midterm ended at 09:50:00 UTC" in text
    # Nor an explanation (a failing input with the reference's answer) of an exam's submission.
    exam.at("10:00")  # bob's end: his 10 min extra
    explained = bob.post(f"/submissions/{failed}/explain")
    assert explained.status_code == 403 and "Your time in Midterm ended at 10:00:00 UTC" in explained.text
    assert alice.get(week1_run).status_code == 200  # the exam over: open again
    assert post_run(exam.client("carol"))[0] == 403  # never started: no run either


def test_an_exam_that_allows_explanations_gives_them_inside_the_window_only(tmp_path: Path) -> None:
    exam = Exam(tmp_path, EXAM.replace("lock_others: true}", "lock_others: true, explain: true}"))
    bob = exam.client("bob")
    exam.at("09:10")
    assert bob.post("/exams/midterm/start").status_code == 303 and post_submission(bob)[0] == 303
    failed = exam.judge("WA", 0)
    assert "failing submissions may be explained" in exam.client("prof").get("/teacher/exams/midterm").text
    assert f"/submissions/{failed}/explain" in bob.get(f"/submissions/{failed}").text
    assert bob.post(f"/submissions/{failed}/explain").status_code == 303
    exam.at("10:00")  # bob's end
    assert "/explain" not in bob.get(f"/submissions/{failed}").text
    ended = bob.post(f"/submissions/{failed}/explain")
    assert ended.status_code == 403 and "Your time in Midterm ended at 10:00:00 UTC" in ended.text
