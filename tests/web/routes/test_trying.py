"""Run on the problem page (issue 59), through its routes: queued apart from submissions (the
quota and the list untouched), one at a time, at most the course's runs_per_minute, another
student's run not found, one's own input only where the program reads input."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from judge.author import scaffold
from judge.web.serving.app import Settings, create_app
from judge.web.state.runs import Runs, TriedCase, TriedResult
from judge.web.state.store import Store


def _client(tmp_path: Path, course_extra: str = "") -> tuple[TestClient, dict[str, str]]:
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "sums", "python3")
    scaffold.create(problems, "maxf", "python3", kind="functions")
    scaffold.create(problems, "stack", "python3", kind="functions", shape="class")
    (tmp_path / "course.yaml").write_text(
        "title: C\nassignments:\n  - {id: w, problems: [sums, maxf, stack], max_submissions: 3}\n" + course_extra
    )
    store = Store(tmp_path / "data")
    tokens = {who: store.add_user(who) for who in ("ada", "bo")}
    app = create_app(Settings(problems_dir=problems, data_dir=tmp_path / "data"), start_workers=False)
    return TestClient(app, follow_redirects=False), tokens


def _log_in(client: TestClient, who: str, token: str) -> None:
    assert client.post("/login", data={"user": who, "token": token}).status_code == 303


def _finish(tmp_path: Path) -> int:
    runs = Runs(Store(tmp_path / "data"))
    taken = runs.claim(worker=1)
    assert taken is not None
    case = TriedCase("samples/01", "AC", "", 0.02, "5\n", "4\n", "4\n", "")
    assert runs.finish(taken.claim.id, 1, TriedResult("", "", (case,)))
    return taken.claim.id


def test_a_run_is_queued_apart_and_shown_to_its_student_alone(tmp_path: Path) -> None:
    client, tokens = _client(tmp_path)
    _log_in(client, "ada", tokens["ada"])
    page = client.get("/problems/sums").text
    assert 'id="run-samples"' in page and 'id="run-input"' in page and "Submissions: 0 of 3 used" in page
    sent = client.post("/problems/sums/run", data={"language": "python3", "source": "print(4)\n", "on": "samples"})
    assert sent.status_code == 303 and sent.headers["location"].startswith("/runs/")
    shown = client.get(sent.headers["location"])
    assert shown.status_code == 200 and "Waiting for a worker" in shown.text
    # Not a submission: no quota used, nothing in the list or the store's submissions.
    assert Store(tmp_path / "data").of_student("ada") == []
    assert "0 of 3 used" in client.get("/problems/sums").text
    again = client.post("/problems/sums/run", data={"language": "python3", "source": "print(4)\n", "on": "samples"})
    assert again.status_code == 429 and "still running" in again.text
    run_id = _finish(tmp_path)
    done = client.get(f"/runs/{run_id}").text
    assert "samples/01" in done and 'class="v AC"' in done and "0.02 s" in done
    own = client.post(
        "/problems/sums/run",
        data={"language": "python3", "source": "print(4)\n", "on": "input", "own_input": "3\n1 2 3\n"},
    )
    assert own.status_code == 303
    assert Runs(Store(tmp_path / "data")).get(int(own.headers["location"].rsplit("/", 1)[1])).own_input == "3\n1 2 3\n"  # type: ignore[union-attr]
    # Another student: that run does not exist.
    other = TestClient(client.app, follow_redirects=False)
    _log_in(other, "bo", tokens["bo"])
    assert other.get(f"/runs/{run_id}").status_code == 404


def test_the_cap_a_minute_holds_and_a_function_takes_ones_own_call(tmp_path: Path) -> None:
    client, tokens = _client(tmp_path, "runs_per_minute: 2\n")
    _log_in(client, "ada", tokens["ada"])
    for _ in range(2):
        sent = client.post("/problems/sums/run", data={"language": "python3", "source": "print(4)\n"})
        assert sent.status_code == 303
        _finish(tmp_path)
    capped = client.post("/problems/sums/run", data={"language": "python3", "source": "print(4)\n"})
    assert capped.status_code == 429 and "2 runs in the last minute is the most allowed" in capped.text
    page = client.get("/problems/maxf").text
    assert 'id="run-samples"' in page and 'id="run-input"' in page and "Your own call" in page
    # A class: one's own input is a scenario, a call a line, the constructor first.
    stack = client.get("/problems/stack").text
    assert "Your own scenario" in stack and "<code>MinStack(...)</code> first" in stack and "Your own call" not in stack


def test_a_course_without_runs_shows_no_run_button(tmp_path: Path) -> None:
    client, tokens = _client(tmp_path, "runs_per_minute: 0\n")
    _log_in(client, "ada", tokens["ada"])
    assert 'id="run-samples"' not in client.get("/problems/sums").text
    refused = client.post("/problems/sums/run", data={"language": "python3", "source": "print(4)\n"})
    assert refused.status_code == 403


def test_a_run_takes_a_program_as_long_as_a_submission_and_odd_ids_are_not_found(tmp_path: Path) -> None:
    client, tokens = _client(tmp_path)
    _log_in(client, "ada", tokens["ada"])
    long = "# a comment that makes the file long\n" * 200 + "print(4)\n"  # 7 KiB: past a plain form's 4
    sent = client.post("/problems/sums/run", data={"language": "python3", "source": long, "on": "samples"})
    assert sent.status_code == 303, sent.text
    for odd in ("9223372036854775808", "0", "99999999999999999999999"):
        assert client.get(f"/runs/{odd}").status_code == 404


def test_a_malformed_call_is_refused_beside_its_box_and_costs_no_run(tmp_path: Path) -> None:
    """Issue 59: a call that is no call of the signature was counted (and queued) before the
    worker refused it; now it is refused at the door, beside the input box, the input kept."""
    client, tokens = _client(tmp_path, "runs_per_minute: 1\n")
    _log_in(client, "ada", tokens["ada"])
    code = "def max_sum(xs):\n    return max(xs)\n"
    for wrong in ("max_sum(", '["x"]'):
        sent = client.post(
            "/problems/maxf/run", data={"language": "python3", "source": code, "on": "input", "own_input": wrong}
        )
        assert sent.status_code == 400 and 'id="own-error"' in sent.text, sent.text
        kept = wrong.replace('"', "&#34;")
        assert f">{kept}</textarea>" in sent.text  # the input kept, in its box
        assert "def max_sum(xs):" in sent.text  # and the code
    assert (
        "Write the call as max_sum(...) or its arguments as a JSON list."
        in client.post(
            "/problems/maxf/run", data={"language": "python3", "source": code, "on": "input", "own_input": "max_sum("}
        ).text
    )
    assert Runs(Store(tmp_path / "data")).get(1) is None  # nothing queued
    # The cap of one a minute is still whole: a good call runs.
    good = client.post(
        "/problems/maxf/run", data={"language": "python3", "source": code, "on": "input", "own_input": "max_sum([1])"}
    )
    assert good.status_code == 303


def _multipart(fields: dict[str, bytes]) -> tuple[bytes, str]:
    boundary = "judgeboundary59"
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value + b"\r\n"
        for name, value in fields.items()
    )
    return body + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def test_own_input_that_is_not_utf8_is_refused_never_read_as_latin1(tmp_path: Path) -> None:
    """Starlette reads a form field that is not UTF-8 as Latin-1 without a word: b'\\xff' ran as
    'ÿ'. The run is refused with why beside the box, multipart or urlencoded; UTF-8 runs."""
    client, tokens = _client(tmp_path)
    _log_in(client, "ada", tokens["ada"])
    fields = {"language": b"python3", "source": b"print(input())\n", "on": b"input"}
    body, kind = _multipart({**fields, "own_input": b"caf\xe9\n"})
    sent = client.post("/problems/sums/run", content=body, headers={"content-type": kind})
    assert sent.status_code == 400 and "Your input is not UTF-8 text" in sent.text and 'id="own-error"' in sent.text
    plain = b"language=python3&source=print%28input%28%29%29&on=input&own_input=caf%E9"
    sent = client.post(
        "/problems/sums/run", content=plain, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert sent.status_code == 400 and "Your input is not UTF-8 text" in sent.text
    source, kind = _multipart({**fields, "source": b"print('\xe9')\n", "own_input": b"1\n"})
    sent = client.post("/problems/sums/run", content=source, headers={"content-type": kind})
    assert sent.status_code == 400 and "The source is not UTF-8 text" in sent.text
    both, kind = _multipart({"own_input": b"\xff", "language": b"python3", "source": b"#\xe9\n", "on": b"samples"})
    sent = client.post("/problems/sums/run", content=both, headers={"content-type": kind})
    assert sent.status_code == 400 and "The source is not UTF-8 text" in sent.text  # on the samples too
    assert Runs(Store(tmp_path / "data")).get(1) is None
    body, kind = _multipart({**fields, "own_input": "café\n".encode()})
    sent = client.post("/problems/sums/run", content=body, headers={"content-type": kind})
    assert sent.status_code == 303
    found = Runs(Store(tmp_path / "data")).get(1)
    assert found is not None and found.own_input == "café\n"


def test_a_run_stopped_for_a_submission_says_so_on_its_page(tmp_path: Path) -> None:
    """Issue 59: a run that gave its worker up to a classmate's submission waits, and says why."""
    client, tokens = _client(tmp_path)
    _log_in(client, "ada", tokens["ada"])
    sent = client.post("/problems/sums/run", data={"language": "python3", "source": "print(4)\n"})
    runs = Runs(Store(tmp_path / "data"))
    taken = runs.claim(worker=1)
    assert taken is not None and "Running" in client.get(sent.headers["location"]).text
    assert runs.requeue(taken.claim.id, worker=1)
    page = client.get(sent.headers["location"]).text
    assert "Stopped for a classmate's submission, which goes first" in page


def test_a_students_judged_submission_holds_run_and_submit_until_its_result_is_shown(tmp_path: Path) -> None:
    """Run (or Submit), asked again and again, opened the moment judging ended: it timed the
    judging to a poll where the result step shows it in whole steps. Both wait for the step."""
    from judge.grade import results

    client, tokens = _client(tmp_path)
    _log_in(client, "ada", tokens["ada"])
    sent = client.post("/problems/sums/submit", data={"language": "python3", "source": "print(4)\n"})
    assert sent.status_code == 303
    store = Store(tmp_path / "data")
    later = time.time() + 3600  # judged an hour from now: its step ends after, however slow the machine
    claim = store.claim(now=later)
    assert claim is not None
    assert store.finish(claim, results.failed("ada", "sums", "a.py", "python3", "h", 1.0, "t", "n"), now=later + 0.1)
    assert client.get(f"/api/submissions/{claim.id}").json()["status"] == "running"  # not shown yet
    ran = client.post("/problems/sums/run", data={"language": "python3", "source": "print(4)\n", "on": "samples"})
    assert ran.status_code == 429
    again = client.post("/problems/sums/submit", data={"language": "python3", "source": "print(4)\n"})
    assert again.status_code == 429 and "still being judged" in again.text
    assert Runs(store).claim(worker=1) is None and len(store.of_student("ada")) == 1
