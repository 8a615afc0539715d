"""The teacher's page of what a program printed: each case's input (capped), collapsed cases
with the first failed one open, and "failed only"."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from judge.author import scaffold
from judge.grade import runner
from judge.grade.results import CaseRecord, GradeRecord
from judge.web.serving.app import Settings, create_app
from judge.web.state.store import Store


def test_the_case_page_shows_inputs_collapsed_and_failed_only(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "sums", "python3")
    tests = problems / "sums" / "tests"
    (tests / "samples").mkdir(parents=True, exist_ok=True)
    (tests / "large").mkdir(exist_ok=True)
    (tests / "samples" / "01.in").write_text("1 2\n")
    (tests / "samples" / "01.ans").write_text("3\n")
    (tests / "large" / "01.in").write_text("9" * (runner.TRACE_CAP + 5000) + "\n")
    (tests / "large" / "01.ans").write_text("18\n")
    store = Store(tmp_path / "data")
    store.add_user("ada")
    token = store.add_user("tom", "ta")
    sid = store.submit("ada", "sums", "python3", "a.py", b"print(3)\n")
    claim = store.claim(worker=1)
    assert claim is not None
    store.keep_io(claim, "samples/01", b"3\n", b"")
    store.keep_io(claim, "large/01", b"3\n", b"")
    cases = (
        CaseRecord("samples/01", "samples", True, "AC", "", 0.1, 0.1, 1000, None, 0),
        CaseRecord("large/01", "large", False, "WA", "", 0.1, 0.1, 1000, None, 0),
    )
    record = GradeRecord("ada", "sums", "a.py", "python3", "h", "WA", 50, 100, "", "bwrap", "", cases, ())
    assert store.finish(claim, record)
    client = TestClient(
        create_app(Settings(problems_dir=problems, data_dir=tmp_path / "data"), start_workers=False),
        follow_redirects=False,
    )
    assert client.post("/login", data={"user": "tom", "token": token}).status_code == 303
    page = client.get(f"/teacher/submissions/{sid}/io").text
    assert '<details class="case" id="case-samples/01"><summary>' in page  # passed: closed
    assert '<details class="case" id="case-large/01" open><summary>' in page  # the first failed: open
    assert '<pre class="input" tabindex="0">1 2\n</pre>' in page
    assert "9" * runner.TRACE_CAP + "</pre>" in page and "9" * (runner.TRACE_CAP + 1) not in page
    assert f"The first {runner.TRACE_CAP // 1024} KiB of" in page
    assert "2 case(s), 1 failed" in page and f"/teacher/submissions/{sid}/io?failed=true" in page
    failed = client.get(f"/teacher/submissions/{sid}/io", params={"failed": "true"}).text
    assert 'id="case-large/01"' in failed and 'id="case-samples/01"' not in failed
    assert "1 failed case(s) of 2" in failed
