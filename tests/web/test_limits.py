"""Request bodies against the app itself (in this process, no server): the body is counted as
it arrives, whatever its headers claim, and reading stops at the route's limit."""

from __future__ import annotations

import asyncio
from pathlib import Path

from judge.web.app import FORM_BYTES, Settings, create_app

from ..conftest import PROBLEMS


def call(
    app: object, path: str, headers: list[tuple[bytes, bytes]], chunks: int, chunk: bytes
) -> tuple[int, int, dict[bytes, bytes]]:
    """POST `chunks` pieces of `chunk` to `path` as a lying client would: (status, pieces the
    app asked for, response headers)."""
    asked = 0
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        nonlocal asked
        asked += 1
        return {"type": "http.request", "body": chunk, "more_body": asked < chunks}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[operator]
    start = next(m for m in sent if m["type"] == "http.response.start")
    return int(start["status"]), asked, dict(start["headers"])  # type: ignore[call-overload, arg-type]


def test_a_body_longer_than_its_content_length_is_cut_at_the_limit(tmp_path: Path) -> None:
    app = create_app(Settings(PROBLEMS, tmp_path / "data"), start_workers=False)
    form = [(b"content-type", b"application/x-www-form-urlencoded")]
    # It claims 100 bytes and sends 1000 pieces of 1 KiB: 413 after about FORM_BYTES read.
    status, asked, headers = call(app, "/login", [*form, (b"content-length", b"100")], 1000, b"a" * 1024)
    assert status == 413
    assert asked <= FORM_BYTES // 1024 + 2
    assert b"frame-ancestors 'none'" in headers[b"content-security-policy"]
    # A submission's route has room for a source, and still stops reading past it.
    status, asked, _ = call(app, "/problems/lanqiao/submit", [*form, (b"content-length", b"100")], 100_000, b"a" * 1024)
    assert status == 413 and asked < 200
    # An honest small form is read whole (and judged on its merits: a wrong login).
    status, asked, _ = call(app, "/login", [*form, (b"content-length", b"12")], 1, b"user=a&token")
    assert status == 401 and asked == 1
