"""A rejudge that shows whose score moves: a dry run writes nothing, lists nobody when nothing
changed, and lists exactly what a real rejudge (every submission queued and judged again by the
workers' code) then gives; its commit stores those results."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.course.gradebook import Gradebook
from judge.course.spec import implicit
from judge.kinds.table import load_problem
from judge.run import sandbox
from judge.web import rejudging
from judge.web.routes.site import class_book
from judge.web.state import proposal
from judge.web.state.store import Store
from judge.web.worker import judge_claim
from tests.conftest import REPO
from tests.grade.test_grading import small_problems
from tests.web.test_app import ACCEPTED, PROBLEM, WRONG

pytestmark = pytest.mark.skipif(
    not sandbox.detect().isolated or shutil.which("gcc") is None, reason="needs the sandbox and gcc"
)
CLASS = {"ann": ACCEPTED, "bob": WRONG, "cid": ACCEPTED}


def judge_queue(store: Store, problems: Path) -> None:
    """What the web judge's workers do, in this process: every queued submission judged."""
    while (claim := store.claim(worker=1)) is not None:
        record = judge_claim(claim, load_problem(problems / claim.problem), store)
        assert record is not None
        assert store.finish(claim, record)


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class judged on the problem's tests as they were: its problems and data, to copy."""
    root = tmp_path_factory.mktemp("rejudge")
    problems = small_problems(root / "problems")
    store = Store(root / "data")
    for student, source in CLASS.items():
        store.add_user(student)
        store.submit(student, PROBLEM, "c", "main.c", source)
        judge_queue(store, problems)
    return root


@pytest.fixture
def room(judged: Path, tmp_path: Path) -> Path:
    shutil.copytree(judged, tmp_path / "room")
    return tmp_path / "room"


def fix_a_test(problems: Path) -> str:
    """The teacher's fix: a random case's answers become zeros (the accepted program now fails
    it, the one printing zeros passes it); the case's name."""
    answer = sorted((problems / PROBLEM / "tests" / "random").glob("*.ans"))[0]
    answer.write_text("".join("0\n" for _ in answer.read_text().split()))
    return f"random/{answer.stem}"


def scores(book: Gradebook) -> dict[str, float | None]:
    return {row.student: row.cells[0].score for row in book.rows}


def kept(store: Store) -> list[tuple[object, ...]]:
    """Everything of the submissions a rejudge may change."""
    return [(s.id, s.status, s.verdict, s.score, s.started, s.finished, s.finishes) for s in store.all()] + [
        (s.id, store.record(s.id)) for s in store.all()
    ]


def test_an_unchanged_course_lists_nobody_and_nothing_is_written(room: Path) -> None:
    store = Store(room / "data")
    before = kept(store)
    plan = rejudging.dry_run(store, room / "problems", [PROBLEM])
    assert len(plan.judged) == 3
    course = implicit([PROBLEM])
    assert rejudging.moved(store, course, {PROBLEM: 100.0}, plan) == ()
    assert kept(store) == before


def test_the_dry_run_lists_what_a_real_rejudge_gives_and_the_commit_stores_it(room: Path, tmp_path: Path) -> None:
    problems = room / "problems"
    case = fix_a_test(problems)
    store = Store(room / "data")
    course = implicit([PROBLEM])
    old = scores(class_book(course, store, {PROBLEM: load_problem(problems / PROBLEM)}))
    before = kept(store)
    progress: list[tuple[int, int]] = []
    plan = rejudging.dry_run(store, problems, [PROBLEM], lambda judged, total: progress.append((judged, total)))
    assert progress == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert kept(store) == before  # nothing written by the dry run
    moves = rejudging.moved(store, course, {PROBLEM: 100.0}, plan)
    listed = {m.student: (m.old, m.new) for m in moves}
    assert set(listed) == {"ann", "bob", "cid"} and all(old[s] == listed[s][0] for s in listed)
    assert listed["ann"][1] == listed["cid"][1] != old["ann"] and listed["bob"][1] != old["bob"]
    ann = next(m for m in moves if m.student == "ann")
    assert [(c.name, c.old, c.new) for w in ann.why for c in w.cases] == [(case, "AC", "WA")]

    # A real rejudge, on a copy of the same data: every submission queued and judged again.
    shutil.copytree(room / "data", tmp_path / "real")
    real = Store(tmp_path / "real")
    assert real.rejudge(PROBLEM) == 3
    judge_queue(real, problems)
    problem = {PROBLEM: load_problem(problems / PROBLEM)}
    truth = scores(class_book(course, real, problem))
    assert {s: new for s, (_, new) in listed.items()} == truth

    proposal.save(room / "data", plan)
    done = rejudging.commit(store, problems)
    assert (done.written, done.left) == (3, 0)
    assert scores(class_book(course, store, problem)) == truth
    verdicts = [(s.id, s.verdict, s.score) for s in store.all()]
    assert verdicts == [(s.id, s.verdict, s.score) for s in real.all()]
    assert proposal.load(room / "data") is None  # committed once


def test_a_commit_refuses_a_problem_changed_since_and_leaves_a_submission_judged_since(room: Path) -> None:
    problems = room / "problems"
    store = Store(room / "data")
    fix_a_test(problems)
    plan = rejudging.dry_run(store, problems, [PROBLEM])
    proposal.save(room / "data", plan)
    # One submission is judged again by the workers meanwhile: the commit leaves its result.
    assert store.rejudge(PROBLEM) == 3
    claim = store.claim(worker=1)
    assert claim is not None
    record = judge_claim(claim, load_problem(problems / PROBLEM), store)
    assert record is not None and store.finish(claim, record)
    done = rejudging.commit(store, problems)
    assert (done.written, done.left) == (0, 3)  # every one is queued or judged anew: none stale kept
    proposal.save(room / "data", plan)
    (problems / PROBLEM / "tests" / "edge" / "01.ans").write_text("1\n")
    with pytest.raises(Exception, match="changed since the dry run"):
        rejudging.commit(store, problems)


def judge_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=REPO, capture_output=True, text=True, timeout=600)


def test_the_command_shows_progress_and_whose_score_moves_then_commits(room: Path) -> None:
    problems, data = room / "problems", room / "data"
    case = fix_a_test(problems)
    dry = judge_cli("--problems", str(problems), "rejudge", "--dry-run", PROBLEM, "--data", str(data))
    assert dry.returncode == 0, dry.stderr
    assert "judged 2 of 3" in dry.stderr and "3 student(s) whose score would change" in dry.stderr
    assert "ann" in dry.stdout and f"{case} AC -> WA" in dry.stdout
    store = Store(data)
    assert all(s.finishes == 1 for s in store.all())
    before = [(s.id, s.score) for s in store.all()]
    commit = judge_cli("--problems", str(problems), "rejudge", "--data", str(data))
    assert commit.returncode == 0, commit.stderr
    assert "3 result(s) stored" in commit.stderr
    assert [(s.id, s.score) for s in store.all()] != before
    again = judge_cli("--problems", str(problems), "rejudge", "--data", str(data))
    assert again.returncode != 0 and "no dry run to commit" in again.stderr and "Traceback" not in again.stderr
    unknown = judge_cli("--problems", str(problems), "rejudge", "--dry-run", "nosuch", "--data", str(data))
    assert unknown.returncode != 0 and "no problem 'nosuch'" in unknown.stderr and "Traceback" not in unknown.stderr


@pytest.mark.slow  # heavy end to end: make test-slow
def test_the_teachers_page_runs_the_dry_run_lists_the_moves_and_commits(room: Path) -> None:
    import time

    from fastapi.testclient import TestClient

    from judge.web.serving.app import Settings, create_app

    problems, data = room / "problems", room / "data"
    case = fix_a_test(problems)
    store = Store(data)
    token = store.add_user("prof", "teacher")
    before = kept(store)
    app = create_app(Settings(problems_dir=problems, data_dir=data, result_step_s=0), start_workers=False)
    teacher = TestClient(app, follow_redirects=False)
    assert teacher.post("/login", data={"user": "prof", "token": token}).status_code == 303
    assert "Dry run: whose score moves" in teacher.get("/teacher").text
    started = teacher.post("/teacher/rejudging", data={"problem": PROBLEM})
    assert started.status_code == 303 and "started" in started.headers["location"]
    seen: list[str] = []
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        page = teacher.get("/teacher/rejudging").text
        seen.append(page)
        if 'id="summary"' in page:
            break
        time.sleep(0.2)
    running = seen[:-1]  # the progress while it runs
    assert all('id="progress"' in p for p in running) and any("of 3." in p for p in running)
    assert kept(store) == before  # the dry run wrote nothing
    assert "3 student(s) whose counted score would change" in page and f"{case} AC -&gt; WA" in page
    assert 'data-student="ann"' in page
    assert store.case_io(1)  # what it printed on the old tests, kept by its judging
    committed = teacher.post("/teacher/rejudging/commit")
    assert committed.status_code == 303 and "3+result%28s%29+stored" in committed.headers["location"]
    assert [s.score for s in store.all()] != [row[3] for row in before[:3]]
    assert "No dry run waits" in teacher.get("/teacher/rejudging").text
    # The output printed on the old tests is gone, and its page says why.
    assert store.case_io(1) == {} and "dropped when a rejudge" in teacher.get("/teacher/submissions/1/io").text


def test_a_dry_run_waits_while_a_students_submission_is_queued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "data")
    store.add_user("ann")
    store.submit("ann", PROBLEM, "c", "main.c", WRONG)
    slept: list[float] = []

    def a_worker_takes_it(seconds: float) -> None:
        slept.append(seconds)
        assert store.claim(worker=1) is not None

    yielding = rejudging.Yielding(store, a_worker_takes_it)
    assert yielding.waiting()
    yielding.wait()
    assert slept == [rejudging.LOOK_S] and not yielding.waiting()
    # A queue no worker takes (no server running) is not waited for.
    store.add_user("bob")
    store.submit("bob", PROBLEM, "c", "main.c", WRONG)
    monkeypatch.setattr(rejudging, "STUCK_S", 0.0)
    stuck = rejudging.Yielding(store, lambda seconds: None)
    stuck.wait()
    assert not stuck.waiting()


def test_the_commands_dry_run_shows_on_the_page_and_two_never_run_at_once(room: Path) -> None:
    import os

    problems, data = room / "problems", room / "data"
    dry = judge_cli("--problems", str(problems), "rejudge", "--dry-run", PROBLEM, "--data", str(data))
    assert dry.returncode == 0, dry.stderr
    kept_progress = proposal.load_progress(data)  # what the teacher's page reads
    assert kept_progress is not None
    assert (kept_progress.status, kept_progress.problems, kept_progress.judged, kept_progress.total) == (
        "done",
        (PROBLEM,),
        3,
        3,
    )
    proposal.save_progress(data, proposal.DryRunProgress("running", (PROBLEM,), 1, 3, os.getpid()))
    again = judge_cli("--problems", str(problems), "rejudge", "--dry-run", PROBLEM, "--data", str(data))
    assert again.returncode != 0 and "still running" in again.stderr and "Traceback" not in again.stderr
    assert proposal.load(data) is not None  # the waiting proposal is left as it was
