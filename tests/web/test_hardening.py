"""The web judge's defences, against the app itself in this process (no workers): bodies
counted as they arrive, sessions on the server, the login throttle, the headers of every
response (errors included), ids out of range; and the request-read deadline of judge serve's
HTTP protocol against a real socket."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn

from judge.web.routes import student
from judge.web.routes.site import FORM_BYTES
from judge.web.serving.app import Settings, create_app
from judge.web.serving.protocol import DeadlineH11Protocol
from judge.web.state.accounts import ACCOUNT_THROTTLE
from judge.web.state.store import Store
from tests.conftest import PROBLEMS
from tests.web.conftest import free_port

FORM = (b"content-type", b"application/x-www-form-urlencoded")


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    asked: int  # pieces of the body the app read


def asgi(
    app: object,
    method: str,
    path: str,
    headers: list[tuple[bytes, bytes]] = [],  # noqa: B006 (never changed)
    chunks: list[bytes] | None = None,
    cookie: str = "",
) -> Answer:
    """One request to the app as a (possibly lying) client sends it."""
    pieces = chunks or [b""]
    asked = 0
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        nonlocal asked
        if asked >= len(pieces):
            await asyncio.sleep(3600)  # the client says nothing more
        asked += 1
        return {"type": "http.request", "body": pieces[asked - 1], "more_body": asked < len(pieces)}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    extra = [(b"cookie", f"judge_session={cookie}".encode())] if cookie else []
    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1"), *headers, *extra],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    try:
        asyncio.run(app(scope, receive, send))  # type: ignore[operator]
    except RuntimeError:
        # Starlette raises a crash again once its 500 is sent, for the server to log.
        assert any(m["type"] == "http.response.start" for m in sent)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")  # type: ignore[misc]
    found = {k.decode(): v.decode() for k, v in start["headers"]}  # type: ignore[attr-defined]
    return Answer(int(start["status"]), found, body.decode(errors="replace"), asked)  # type: ignore[call-overload]


def form(fields: dict[str, str]) -> tuple[list[tuple[bytes, bytes]], list[bytes]]:
    body = urllib.parse.urlencode(fields).encode()
    return [FORM, (b"content-length", str(len(body)).encode())], [body]


def login(app: object, user: str, token: str) -> Answer:
    headers, chunks = form({"user": user, "token": token})
    return asgi(app, "POST", "/login", headers, chunks)


def session_of(answer: Answer) -> str:
    return answer.headers["set-cookie"].split(";")[0].split("=", 1)[1]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def app(data: Path) -> object:
    return create_app(Settings(problems_dir=PROBLEMS, data_dir=data), start_workers=False)


def test_a_body_longer_than_its_content_length_is_cut_at_the_limit(app: object) -> None:
    # It claims 100 bytes and sends 1000 pieces of 1 KiB: 413 after about FORM_BYTES read.
    answer = asgi(app, "POST", "/login", [FORM, (b"content-length", b"100")], [b"a" * 1024] * 1000)
    assert answer.status == 413 and answer.asked <= FORM_BYTES // 1024 + 2
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    # A submission's route has room for a source, and still stops reading past it.
    answer = asgi(app, "POST", "/problems/lanqiao/submit", [FORM, (b"content-length", b"100")], [b"a" * 1024] * 10**5)
    assert answer.status == 413 and answer.asked < 200
    # An honest small form is read whole (and judged on its merits: a wrong login).
    assert login(app, "a", "b").status == 401


def test_forms_refuse_many_fields_and_bodies_where_none_belong(app: object) -> None:
    fields = "&".join(f"f{i}=" for i in range(900)).encode()[:4000]
    answer = asgi(app, "POST", "/login", [FORM, (b"content-length", str(len(fields)).encode())], [fields])
    assert answer.status == 400 and "Too many fields" in answer.body
    honest = b"a" * 10**6
    answer = asgi(app, "POST", "/login", [FORM, (b"content-length", str(len(honest)).encode())], [honest])
    assert answer.status == 413 and answer.asked == 0  # refused by its length, before reading
    both = [FORM, (b"content-length", b"10"), (b"transfer-encoding", b"chunked")]
    assert asgi(app, "POST", "/login", both, [b"user=a&b=c"]).status == 400
    assert asgi(app, "POST", "/login", [FORM, (b"transfer-encoding", b"chunked")], [b"x"]).status == 411
    assert asgi(app, "GET", "/login", [(b"content-length", b"5")], [b"hello"]).status == 413
    assert asgi(app, "GET", "/login", [(b"transfer-encoding", b"chunked")], [b"hello"]).status == 413


def test_logout_ends_the_session_and_a_copied_cookie_with_it(app: object, data: Path) -> None:
    token = Store(data).add_user("ana")
    cookie = session_of(login(app, "ana", token))
    assert asgi(app, "GET", "/", cookie=cookie).status == 200
    assert asgi(app, "GET", "/submissions", cookie=cookie + "x").status == 401
    headers, chunks = form({})
    assert asgi(app, "POST", "/logout", headers, chunks, cookie=cookie).status == 303
    assert asgi(app, "GET", "/submissions", cookie=cookie).status == 401  # the copy kept elsewhere is dead too


def test_the_teacher_ends_a_students_sessions(app: object, data: Path) -> None:
    store = Store(data)
    student = session_of(login(app, "bo", store.add_user("bo")))
    teacher = session_of(login(app, "teach", store.add_user("teach", "teacher")))
    headers, chunks = form({"student": "bo"})
    answer = asgi(app, "POST", "/teacher/sessions", headers, chunks, cookie=teacher)
    assert answer.status == 303 and "1+session(s)+of+bo+ended" in answer.headers["location"]
    assert asgi(app, "GET", "/submissions", cookie=student).status == 401
    assert asgi(app, "GET", "/", cookie=teacher).status == 200
    headers, chunks = form({"student": "nobody"})
    assert asgi(app, "POST", "/teacher/sessions", headers, chunks, cookie=teacher).status == 404
    headers, chunks = form({"student": "teach"})
    assert asgi(app, "POST", "/teacher/sessions", headers, chunks, cookie=student).status == 401


def test_guessing_a_token_is_throttled_and_the_lock_survives_a_restart(app: object, data: Path) -> None:
    token = Store(data).add_user("cy")
    for _ in range(5):
        assert login(app, "cy", "wrong").status == 401
    locked = login(app, "cy", token)  # the right token, during the lock: refused unread
    assert locked.status == 429 and int(locked.headers["retry-after"]) > 0
    assert "Too many failed logins" in locked.body
    assert login(app, "cy", "wrong").status == 429  # guesses in the lock are not even tried
    again = create_app(Settings(problems_dir=PROBLEMS, data_dir=data), start_workers=False)  # a restart
    assert login(again, "cy", token).status == 429
    # Another account from the same address is not locked by cy's five failures.
    assert login(again, "dee", "wrong").status == 401
    # After the lock (moved along by the store's clock), the right token works and resets it.
    store = Store(data)
    assert store.login_wait({"user:cy": ACCOUNT_THROTTLE}, now=time.time() + 3600) == 0.0
    with sqlite(data) as db:
        db.execute("UPDATE login_failures SET locked_until = 0")
    assert login(again, "cy", token).status == 303
    assert login(again, "cy", "wrong").status == 401  # the count started again


def sqlite(data: Path):  # type: ignore[no-untyped-def]
    import sqlite3

    return sqlite3.connect(data / "judge.sqlite3", isolation_level=None)


def test_every_response_is_hardened_errors_and_crashes_included(
    app: object, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cookie = session_of(login(app, "eve", Store(data).add_user("eve")))

    def broken(*_: object, **__: object) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(student.shown, "page_parts", broken)
    answers = {
        "ok": asgi(app, "GET", "/", cookie=cookie),
        "401": asgi(app, "GET", "/submissions"),
        "404": asgi(app, "GET", "/submissions/99999999999999999999", cookie=cookie),
        "500": asgi(app, "GET", "/problems/lanqiao", cookie=cookie),
        "api": asgi(app, "GET", "/api/submissions/-5", cookie=cookie),
        "healthz": asgi(app, "GET", "/healthz"),
    }
    assert [a.status for a in answers.values()] == [200, 401, 404, 500, 404, 200]
    assert "Traceback" not in answers["500"].body and "a bug" not in answers["500"].body
    for name, answer in answers.items():
        assert "default-src 'none'" in answer.headers["content-security-policy"], name
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"], name
        assert answer.headers["x-content-type-options"] == "nosniff", name
        assert answer.headers["x-frame-options"] == "DENY", name
        assert answer.headers["referrer-policy"] == "same-origin", name
        assert answer.headers["cache-control"] == "no-store", name


class _Quick(DeadlineH11Protocol):
    read_deadline_s = 1.0


@pytest.fixture
def quick_server() -> Iterator[int]:
    """A uvicorn of the judge's protocol (with a 1 s read deadline) on a tiny app."""

    async def hello(scope: dict[str, object], receive: object, send: object) -> None:
        assert scope["type"] == "http"
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})  # type: ignore[operator]
        await send({"type": "http.response.body", "body": b"ok"})  # type: ignore[operator]

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(hello, host="127.0.0.1", port=port, http=_Quick, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    yield port
    server.should_exit = True
    thread.join(10)


def closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(100) == b""
    except TimeoutError:
        return False


def test_a_half_sent_request_is_dropped_at_the_deadline(quick_server: int) -> None:
    with socket.create_connection(("127.0.0.1", quick_server)) as silent:  # says nothing at all
        assert closed_within(silent, 10)
    with socket.create_connection(("127.0.0.1", quick_server)) as slow:  # a header a second
        slow.sendall(b"GET / HTTP/1.1\r\n")
        started = time.monotonic()
        for _ in range(5):
            try:
                slow.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
            time.sleep(0.5)
        assert closed_within(slow, 10) and time.monotonic() - started < 10
    with socket.create_connection(("127.0.0.1", quick_server)) as honest:  # in time: answered
        honest.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer(honest).startswith(b"HTTP/1.1 200")
        time.sleep(1.5)  # idle after its answer: keep-alive rules, and a second request still works
        try:
            honest.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            reply = answer(honest)
        except OSError:
            reply = b""
        assert reply == b"" or reply.startswith(b"HTTP/1.1 200")


def answer(sock: socket.socket) -> bytes:
    """One whole response of the tiny app (its body is "ok"), or what came before the close."""
    sock.settimeout(10)
    got = b""
    while not got.endswith(b"\r\n\r\nok"):
        piece = sock.recv(100)
        if not piece:
            break
        got += piece
    return got
