"""Load: 30 students submit at the same moment. All are judged, none lost, none twice,
and the verdicts are those of sequential grading."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from judge.web.state.store import Store
from tests.conftest import PROBLEMS
from tests.web.conftest import Server, case_verdicts
from tests.web.test_app import PROBLEM, PROGRAMS, grade_verdicts, submitted_id

# Thirty students at once take half a minute: the slow tier (make test-slow).
pytestmark = pytest.mark.slow

SOURCES = {
    "ok": (PROBLEMS / PROBLEM / "solutions" / "accepted" / "cantor_table.c").read_bytes(),
    "zero": (PROGRAMS / "sicily_zero.c").read_bytes(),
    "segv": (PROGRAMS / "segv.c").read_bytes(),
}


def test_thirty_students_at_once(web_problems: Path, tmp_path: Path) -> None:
    server = Server(web_problems, tmp_path / "data", workers=2)
    students = {f"load{i:02d}": list(SOURCES)[i % len(SOURCES)] for i in range(30)}
    tokens = server.roster(*students)
    server.start()
    try:
        start = threading.Barrier(len(students))
        ids: dict[str, int] = {}
        failures: list[str] = []

        def submit(student: str) -> None:
            client = server.client()
            client.login(student, tokens[student])
            start.wait()
            reply = client.submit(PROBLEM, "main.c", SOURCES[students[student]])
            if reply.status != 303:
                failures.append(f"{student}: {reply.status}")
                return
            ids[student] = submitted_id(reply.headers["location"])

        threads = [threading.Thread(target=submit, args=(s,)) for s in students]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert failures == [] and len(ids) == 30
        verdicts = {}
        teacher = server.teacher()  # who sees every case's verdict
        for student, submission in ids.items():
            client = server.client()
            client.login(student, tokens[student])
            assert client.wait_done(submission, timeout=300)["status"] == "done"
            verdicts[student] = case_verdicts(teacher.wait_done(submission, timeout=300))
        stored = Store(server.data).all()
        assert sorted(s.id for s in stored) == sorted(ids.values())  # none lost, none made twice
        assert all(s.status == "done" and s.finishes == 1 and s.attempt == 1 for s in stored)
    finally:
        server.stop()
    sequential = grade_verdicts(tmp_path, web_problems, {s: SOURCES[kind] for s, kind in students.items()})
    assert verdicts == sequential
