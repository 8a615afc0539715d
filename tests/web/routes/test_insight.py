"""The teacher's and teaching assistants' pages around review: names from the roster (never
shown to a student)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from fastapi.testclient import TestClient

from judge.author import scaffold
from judge.web.serving.app import Settings, create_app
from judge.web.state.store import Store


def _app(tmp_path: Path) -> tuple[Store, TestClient]:
    problems = tmp_path / "problems"
    problems.mkdir(exist_ok=True)
    scaffold.create(problems, "sums", "python3")
    store = Store(tmp_path / "data")
    client = TestClient(
        create_app(Settings(problems_dir=problems, data_dir=tmp_path / "data"), start_workers=False),
        follow_redirects=False,
    )
    return store, client


def _log_in(client: TestClient, store: Store, user: str, role: str = "student") -> None:
    token = store.add_user(user, role)
    client.cookies.clear()
    assert client.post("/login", data={"user": user, "token": token}).status_code == 303


def test_names_reach_the_graders_pages_and_exports_and_no_student(tmp_path: Path) -> None:
    store, client = _app(tmp_path)
    store.add_user("ada")
    store.add_user("bo")
    store.set_details("ada", "Ada Lovelace", "ada@uni.edu", "A1")
    store.submit("ada", "sums", "python3", "a.py", b"print(1)\n")
    _log_in(client, store, "tom", "ta")
    for path in ("/teacher/class", "/teacher/submissions", "/teacher/students/ada", "/teacher/people"):
        assert "Ada Lovelace" in client.get(path).text, path
    assert "Every submission of Ada Lovelace (ada)" in client.get("/teacher/students/ada").text
    assert "ada@uni.edu" in client.get("/teacher/people").text
    rows = list(csv.DictReader(io.StringIO(client.get("/teacher/grades.csv").text)))
    assert {r["student"]: (r["name"], r["email"]) for r in rows} == {
        "ada": ("Ada Lovelace", "ada@uni.edu"),
        "bo": ("", ""),
    }
    _log_in(client, store, "bo")
    assert client.get("/teacher/people").status_code == 403
    for path in ("/", "/submissions", "/problems/sums"):
        assert "Ada Lovelace" not in client.get(path).text, path
