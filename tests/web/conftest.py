"""A real web judge for the tests: `judge serve` on a free loopback port, in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.grade.test_grading import small_problems


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: str

    def json(self) -> dict[str, object]:
        return dict(json.loads(self.body))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        return None


class Client:
    """A browser-like HTTP client (cookies kept, redirects not followed)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()), _NoRedirect())

    def request(
        self, method: str, path: str, data: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Reply:
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        try:
            with self.opener.open(req, timeout=60) as response:
                return Reply(response.status, dict(response.headers), response.read().decode("utf-8", "replace"))
        except urllib.error.HTTPError as error:
            return Reply(error.code, dict(error.headers), error.read().decode("utf-8", "replace"))

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, fields: dict[str, str]) -> Reply:
        body = urllib.parse.urlencode(fields).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def upload(self, path: str, fields: dict[str, str], filename: str, content: bytes) -> Reply:
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
            for k, v in fields.items()
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n".encode()
            + content
            + b"\r\n"
        )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.request("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def login(self, user: str, token: str) -> Reply:
        return self.post("/login", {"user": user, "token": token})

    def submit(self, problem: str, filename: str, content: bytes, language: str = "auto") -> Reply:
        return self.upload(f"/problems/{problem}/submit", {"language": language}, filename, content)

    def wait_done(self, submission_id: int, timeout: float = 120) -> dict[str, object]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.get(f"/api/submissions/{submission_id}").json()
            if status["status"] == "done":
                return status
            time.sleep(0.2)
        raise AssertionError(f"submission {submission_id} not judged in {timeout} s")


def judge_cli(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "judge", *args], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


class Server:
    """`judge serve` in a subprocess; restartable on the same data."""

    def __init__(
        self,
        problems: Path,
        data: Path,
        workers: int = 2,
        env: dict[str, str] | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        # Results at once unless a test asks for the step (it would slow every wait by seconds).
        extra = extra if any(a == "--result-step" for a in extra) else ("--result-step", "0", *extra)
        self.problems, self.data, self.workers, self.extra = problems, data, workers, extra
        self.env = {**os.environ, **(env or {})}
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data.parent / f"serve-{self.port}.log"

    def roster(self, *ids: str, teacher: bool = False) -> dict[str, str]:
        out = judge_cli("roster", "add", *ids, *(["--teacher"] if teacher else []), "--data", str(self.data))
        return dict(line.split(",", 1) for line in out.splitlines())

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "judge",
                    "--problems",
                    str(self.problems),
                    "serve",
                    "--port",
                    str(self.port),
                    "--data",
                    str(self.data),
                    "--workers",
                    str(self.workers),
                    *self.extra,
                ],
                cwd=REPO,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env=self.env,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not start:\n" + self.log.read_text())

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, sig) if sig == signal.SIGKILL else self.process.send_signal(sig)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)
        self.process = None

    def client(self) -> Client:
        return Client(self.base)

    def teacher(self) -> Client:
        """A client logged in as a teacher, who sees every case of every submission."""
        tokens = self.roster("teacher-of-tests", teacher=True)
        client = self.client()
        assert client.login("teacher-of-tests", tokens["teacher-of-tests"]).status == 303
        return client


def log_in(page: Any, base: str, user: str, token: str) -> None:
    """A Playwright page logged in through the site's front door (the login form at its root)."""
    page.goto(base + "/")
    page.fill("#user", user)
    page.fill("#token", token)
    page.click("button[type=submit]")
    page.wait_for_selector("nav.top form.who")


def write_code(page: Any, code: str) -> None:
    """Code put into the problem page's editor as a student pastes it (Playwright's page)."""
    page.click("#editor .ace_content")
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)
    assert page.evaluate("ace.edit('editor').getValue()") == code


def case_verdicts(status: dict[str, object]) -> list[str]:
    """The verdicts of the cases in a /api/submissions reply."""
    cases = status["cases"]
    assert isinstance(cases, list)
    return [str(c["verdict"]) for c in cases]


@pytest.fixture(scope="module")
def web_problems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_problems(tmp_path_factory.mktemp("web") / "problems")


@pytest.fixture(scope="module")
def server(web_problems: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(web_problems, tmp_path_factory.mktemp("web-data") / "data")
    running.start()
    yield running
    running.stop()
