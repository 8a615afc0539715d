"""The teacher's and teaching assistants' pages around review: names from the roster (never
shown to a student)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from fastapi.testclient import TestClient

from judge.author import scaffold
from judge.grade.results import CaseRecord, GradeRecord
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


def _judged(store: Store, student: str, verdicts: dict[str, str], score: float, source: bytes = b"print(1)\n") -> int:
    sid = store.submit(student, "sums", "python3", "a.py", source)
    claim = store.claim(worker=1)
    assert claim is not None and claim.id == sid
    cases = tuple(CaseRecord(n, "secret", False, v, "", 0.1, 0.1, 1000, None, 0) for n, v in verdicts.items())
    verdict = next((v for v in verdicts.values() if v != "AC"), "AC")
    record = GradeRecord(student, "sums", "a.py", "python3", "h", verdict, score, 100.0, "", "bwrap", "", cases, ())
    assert store.finish(claim, record)
    return sid


def test_the_list_of_every_submission_filters_and_its_links_keep_the_filters(tmp_path: Path) -> None:
    store, client = _app(tmp_path)
    for student in ("ada", "bo"):
        store.add_user(student)
    store.set_details("bo", "Bo Peep")
    first = _judged(store, "ada", {"1": "AC", "2": "WA"}, 50)
    second = _judged(store, "bo", {"1": "AC", "2": "AC"}, 100)
    _log_in(client, store, "prof", "teacher")
    every = client.get("/teacher/submissions").text
    assert f'data-id="{first}"' in every and f'data-id="{second}"' in every and 'id="filters"' in every
    only_wa = client.get("/teacher/submissions", params={"verdict": "WA"}).text
    assert f'data-id="{first}"' in only_wa and f'data-id="{second}"' not in only_wa
    assert "(1 of 2 match)" in only_wa and "<option selected>WA</option>" in only_wa
    # The problem's link keeps the verdict filter.
    assert 'href="/teacher/submissions?problem=sums&amp;verdict=WA"' in only_wa
    by_name = client.get("/teacher/submissions", params={"student": "peep"}).text
    assert f'data-id="{second}"' in by_name and f'data-id="{first}"' not in by_name


def test_a_problems_page_has_its_pass_rates_verdicts_and_histogram(tmp_path: Path) -> None:
    store, client = _app(tmp_path)
    for student in ("ada", "bo", "cy"):
        store.add_user(student)
    _judged(store, "ada", {"1": "AC", "2": "WA"}, 50)
    _judged(store, "ada", {"1": "AC", "2": "AC"}, 100)  # ada's newest: her cases count from this one
    _judged(store, "bo", {"1": "AC", "2": "WA"}, 50)
    _judged(store, "cy", {"1": "WA", "2": "WA"}, 0)
    _log_in(client, store, "tom", "ta")
    page = client.get("/teacher/problems/sums").text
    assert "4 judged submission(s) by 3 student(s); 1 solved it." in page
    assert '<tr data-case="1"><td>1</td><td class="num">2 / 3</td>' in page
    assert '<tr data-case="2"><td>2</td><td class="num">1 / 3</td>' in page
    assert "0-10%: 1; 10-20%: 0; 20-30%: 0; 30-40%: 0; 40-50%: 0; 50-60%: 1;" in page and "90-100%: 1." in page
    assert '>WA</span></a></td><td class="num">3</td>' in page
    assert 'data-problem="sums"' in client.get("/teacher/problems").text
    assert client.get("/teacher/problems/nope").status_code == 404


def test_the_similarity_report_of_a_problem_from_the_dashboard(tmp_path: Path) -> None:
    store, client = _app(tmp_path)
    for student in ("ada", "bo"):
        store.add_user(student)
    program = (
        b"total = 0\nfor line in open(0):\n    for word in line.split():\n        total += int(word)\nprint(total)\n"
    )
    _judged(store, "ada", {"1": "AC"}, 100, program)
    _judged(store, "bo", {"1": "AC"}, 100, program.replace(b"total", b"acc"))  # ada's, renamed
    _log_in(client, store, "prof", "teacher")
    assert 'href="/teacher/similarity"' in client.get("/teacher").text
    assert 'href="/teacher/similarity/sums"' in client.get("/teacher/similarity").text
    report = client.get("/teacher/similarity/sums")
    assert report.status_code == 200 and "ada" in report.text and "bo" in report.text and "1.00" in report.text
    # Its first link leads back to the list, and the programs are named inside the export.
    assert '<a href="/teacher/similarity">&larr; similarity of every problem</a>' in report.text
    assert "<code>ada/sums</code>" in report.text and str(tmp_path) not in report.text
    kept = sorted(p.name for p in (tmp_path / "data" / "similarity").glob("*.html"))
    assert kept == ["sums-2.html"]  # made once, until a newer submission comes
    assert client.get("/teacher/similarity/sums").text == report.text
    assert client.get("/teacher/similarity/nope").status_code == 404
    _log_in(client, store, "cy")
    assert client.get("/teacher/similarity/sums").status_code == 403


def test_the_deadline_filter_reads_the_courses_marks(tmp_path: Path) -> None:
    (tmp_path / "course.yaml").write_text(
        "title: C\nassignments:\n  - id: w1\n    problems: [sums]\n    due: 2020-01-01 09:00\n"
    )
    store, client = _app(tmp_path)
    store.add_user("ada")
    late = _judged(store, "ada", {"1": "AC"}, 100)  # after the deadline of 2020
    _log_in(client, store, "prof", "teacher")
    assert f'data-id="{late}"' in client.get("/teacher/submissions", params={"late": "late"}).text
    assert f'data-id="{late}"' not in client.get("/teacher/submissions", params={"late": "on-time"}).text
