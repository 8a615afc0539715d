"""The door of a program sent from the problem page (a submission or a run): its upload read
within the site's size limit, and identified once, by run/sources.py's rules."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Collection, Coroutine
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

from fastapi import Request, Response, UploadFile
from fastapi.routing import APIRoute

from judge.errors import JudgeError
from judge.problem.spec import Problem
from judge.run import sources
from judge.web.routes.site import Site, WebError
from judge.web.state.accounts import User


def read_upload(site: Site, file: UploadFile | None, source: str, back: str) -> tuple[str, bytes]:
    """The submitted file's name and bytes (or the pasted text's), refused in one sentence
    when its name is a path or it is over the site's size limit."""
    limit = site.settings.max_source_bytes
    if file is not None and file.filename:
        name = file.filename
        if any(bad in name for bad in ("/", "\\", "\0")) or name.startswith(".") or ".." in name or len(name) > 128:
            raise WebError(
                400,
                f"The file name {name!r} looks like a path; upload a plain file name such as main.cpp.",
                back,
                "Back to the form",
            )
        data = file.file.read(limit + 1)
    else:
        name = "pasted"
        data = source.replace("\r\n", "\n").encode("utf-8")
    if len(data) > limit:
        raise WebError(413, f"The source is over the {limit // 1024} KiB limit.", back, "Back to the form")
    return name, data  # empty, binary, not UTF-8: run/sources.py's rules, in program_of


def program_of(
    site: Site, problem: Problem, language: str, name: str, data: bytes, back: str, fallback: str | None
) -> sources.Sources:
    """The upload as a program, identified once, here at the door, by run/sources.py's rules
    (empty, binary, not UTF-8, an archive's entries) and the problem's rule on build scripts,
    as `judge grade` would: what is refused here is never queued."""
    chosen = (
        None
        if sources.is_archive(Path(name)) and language == "auto"
        else chosen_language(site, language, name, back, fallback)
    )
    build_scripts: sources.BuildScripts = "use" if problem.spec.build_script else "refuse"
    try:
        return sources.from_upload(name, data, sources.SUBMISSION_CAPS, chosen, build_scripts)
    except JudgeError as err:
        raise WebError(400, f"{err}.", back, "Back to the form") from None


def chosen_language(site: Site, language: str, name: str, back: str, fallback: str | None) -> str:
    known = ", ".join(site.table.languages)
    if language == "auto":
        if name == "pasted":
            if fallback is not None:
                return fallback
            raise WebError(400, f"Choose the language of pasted source ({known}).", back, "Back to the form")
        try:
            return site.table.detect(Path(name)).id
        except JudgeError:
            raise WebError(
                400, f"Unknown language for {name!r}: choose one of {known}.", back, "Back to the form"
            ) from None
    if language in site.table.languages:
        return language
    raise WebError(400, f"Unknown language {language!r}: choose one of {known}.", back, "Back to the form")


def default_language(site: Site, user: User, problem: Problem) -> str | None:
    """The language the page starts in, and that of pasted code sent with none chosen: the
    student's last on this problem, else their last anywhere, else the course's
    `default_language`; None when there is none. Never the reference's: a Java reference
    made a Python paste a Java CE."""
    mine = site.store.of_student(user.id)
    for row in [r for r in mine if r.problem == problem.id] + mine:
        if row.language in site.table.languages:
            return row.language
    chosen = site.course.default_language
    return chosen if chosen in site.table.languages else None


# The bytes of a request's body, kept where RawRoute's routes read them (the request's scope).
RAW = "judge.raw_body"


class _KeptBody(Request):
    """A request that keeps its body's bytes as they are read: Starlette decodes a form's fields
    and reads a field that is not UTF-8 as Latin-1 without a word; the bytes tell."""

    async def stream(self) -> AsyncGenerator[bytes, None]:
        kept: list[bytes] = self.scope.setdefault(RAW, [])
        async for chunk in super().stream():
            kept.append(chunk)
            yield chunk


class RawRoute(APIRoute):
    """A route whose form's bytes can be asked after (not_utf8): its body, within the route's
    size limit, is kept beside the fields Starlette decoded."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def keeping(request: Request) -> Response:
            return await handler(_KeptBody(request.scope, request.receive))

        return keeping


def raw_body(request: Request) -> bytes:
    """What a RawRoute's request body held (b"" elsewhere)."""
    return b"".join(request.scope.get(RAW, []))


def not_utf8(content_type: str, body: bytes, names: Collection[str]) -> frozenset[str]:
    """Those of the form's text fields `names` whose bytes are not UTF-8 (a form of either
    encoding a browser sends: multipart or urlencoded). Pure."""
    kind = content_type.split(";", 1)[0].strip().lower()
    fields: list[tuple[str, bytes]] = []
    if kind == "multipart/form-data":
        head = b"Content-Type: " + content_type.encode("latin-1", errors="replace") + b"\r\n\r\n"
        message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
        assert isinstance(message, EmailMessage)
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            data = part.get_payload(decode=True)
            if isinstance(name, str) and part.get_filename() is None and isinstance(data, bytes):
                fields.append((name, data))
    elif kind == "application/x-www-form-urlencoded":
        for pair in body.split(b"&"):
            key, _, value = pair.partition(b"=")
            name = unquote_to_bytes(key.replace(b"+", b" ")).decode("utf-8", errors="replace")
            fields.append((name, unquote_to_bytes(value.replace(b"+", b" "))))
    wrong = set()
    for name, data in fields:
        if name in names:
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                wrong.add(name)
    return frozenset(wrong)
