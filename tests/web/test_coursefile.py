"""course.yaml taken without a restart: a changed file is read again (at most once a second),
a broken one keeps the old course and says why in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.author import scaffold
from judge.course.spec import load_course
from judge.web import coursefile
from judge.web.coursefile import CourseWatch
from judge.web.routes import site as site_module
from judge.web.serving.app import Settings, create_app
from judge.web.state.store import Store

COURSE = "title: Algorithms\nassignments:\n  - id: week1\n    problems: [sums]\n    due: 2026-12-08 23:59\n"


class Ticks:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _save(path: Path, text: str, bump: int) -> None:
    """Write, and move the modification time on, as a later save would (the same second twice
    is otherwise told apart only by the size)."""
    path.write_text(text)
    stamp = path.stat().st_mtime_ns + bump * 1_000_000_000
    os.utime(path, ns=(stamp, stamp))


def test_a_changed_file_is_read_again_once_a_second_at_most(tmp_path: Path) -> None:
    path = tmp_path / "course.yaml"
    _save(path, COURSE, 0)
    ticks = Ticks()
    watch = CourseWatch(lambda: load_course(path, {"sums"}), path, 1.0, ticks)
    assert watch.current().title == "Algorithms"
    _save(path, COURSE.replace("Algorithms", "Algorithms II"), 1)
    ticks.now += 0.5
    assert watch.current().title == "Algorithms"  # not looked at yet
    ticks.now += 0.6
    assert watch.current().title == "Algorithms II" and watch.reloads == 1 and watch.error == ""
    ticks.now += 5
    assert watch.current().title == "Algorithms II" and watch.reloads == 1  # unchanged: not read


def test_a_broken_file_keeps_the_old_course_and_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "course.yaml"
    _save(path, COURSE, 0)
    ticks = Ticks()
    watch = CourseWatch(lambda: load_course(path, {"sums"}), path, 1.0, ticks)
    _save(path, COURSE.replace("due: 2026-12-08 23:59", "due: someday"), 1)
    ticks.now += 2
    assert watch.current().title == "Algorithms" and watch.reloads == 0
    assert watch.error.startswith(f"{path}:5: ") and "\n" not in watch.error
    assert "still in force" in watch.error
    _save(path, COURSE.replace("Algorithms", "Fixed"), 2)
    ticks.now += 2
    assert watch.current().title == "Fixed" and watch.error == ""


def test_the_server_takes_an_assignment_added_while_it_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(site_module, "COURSE_CHECK_S", 0.0)  # every request looks
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "sums", "python3")
    scaffold.create(problems, "other", "python3")
    course = tmp_path / "course.yaml"
    _save(course, COURSE, 0)
    store = Store(tmp_path / "data")
    token = store.add_user("prof", "teacher")
    store.add_user("ada")
    app = create_app(Settings(problems_dir=problems, data_dir=tmp_path / "data"), start_workers=False)
    client = TestClient(app, follow_redirects=False)
    assert client.post("/login", data={"user": "prof", "token": token}).status_code == 303
    assert "week1" in client.get("/teacher").text and "week2" not in client.get("/teacher").text
    _save(course, COURSE + "  - id: week2\n    problems: [other]\n", 1)
    assert "/teacher/assignments/week2" in client.get("/teacher").text
    _save(course, COURSE + "  - id: week2\n    problems: [other]\n    keep: newest\n", 2)
    dashboard = client.get("/teacher").text
    assert f"{course}:8: " in dashboard and "still in force" in dashboard
    assert "/teacher/assignments/week2" in dashboard  # the last good course


def test_the_stamp_of_an_absent_file_is_none(tmp_path: Path) -> None:
    assert coursefile.Stamp.of(tmp_path / "nope.yaml") == coursefile.Stamp(None)
    assert coursefile.Stamp.of(None) == coursefile.Stamp(None)
