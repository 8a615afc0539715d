"""A teaching assistant sees what the teacher sees of submissions and grades, and changes
nothing of the course: no rejudge, no sessions ended, no LMS settings."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from judge.author import scaffold
from judge.web.serving.app import Settings, create_app
from judge.web.state.accounts import User
from judge.web.state.store import Store


def _client(tmp_path: Path, user: str, role: str) -> tuple[TestClient, Store]:
    problems = tmp_path / "problems"
    problems.mkdir(exist_ok=True)
    if not (problems / "sums").exists():
        scaffold.create(problems, "sums", "python3")
    store = Store(tmp_path / "data")
    token = store.add_user(user, role)
    client = TestClient(
        create_app(Settings(problems_dir=problems, data_dir=tmp_path / "data"), start_workers=False),
        follow_redirects=False,
    )
    assert client.post("/login", data={"user": user, "token": token}).status_code == 303
    return client, store


def test_the_rule_is_one_pair() -> None:
    assert [(User("x", r).can_grade, User("x", r).can_manage) for r in ("student", "ta", "teacher")] == [
        (False, False),
        (True, False),
        (True, True),
    ]


def test_a_ta_reads_the_teachers_pages_and_changes_nothing(tmp_path: Path) -> None:
    client, store = _client(tmp_path, "tom", "ta")
    store.add_user("ada")
    sid = store.submit("ada", "sums", "python3", "a.py", b"print(1)\n")
    for path in ("/teacher", "/teacher/class", "/teacher/grades.csv", "/teacher/submissions", "/teacher/students/ada"):
        assert client.get(path).status_code == 200, path
    assert client.get(f"/submissions/{sid}").status_code == 200
    dashboard = client.get("/teacher").text
    assert "(TA)" in dashboard and "/teacher/rejudge" not in dashboard and "/teacher/sessions" not in dashboard
    assert client.post("/teacher/rejudge", data={"problem": "sums"}).status_code == 403
    assert client.post("/teacher/sessions", data={"student": "ada"}).status_code == 403
    assert client.get("/teacher/lti").status_code == 403
    assert store.user("ada") is not None and store.all()[0].status == "queued"


def test_a_student_gets_none_of_it(tmp_path: Path) -> None:
    client, _ = _client(tmp_path, "ada", "student")
    assert client.get("/teacher").status_code == 403 and client.get("/teacher/grades.csv").status_code == 403
