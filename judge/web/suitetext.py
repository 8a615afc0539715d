"""A student's tests as the tests page sends them (pure: no I/O): one text of files, each
after a header line `== NAME.in` (or `== NAME.ans`), made into the .zip a submission of tests
is. The page's editor writes this text from its rows (static/tests.js); without scripts the
student writes it in the textarea. One form field holds every test: no form of the judge has
more than four fields (routes/site.py's FORM_FIELDS)."""

from __future__ import annotations

import io
import re
import zipfile

from judge.errors import JudgeError

HEADER = re.compile(r"^== *(\S*) *$")
# A test's file: a plain name (never a path, never hidden) and .in or .ans, as the kind reads it.
FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}\.(in|ans)$")
SHOWN = "your tests"  # how a refusal names the text (it has no file name of its own)
ZIP_NAME = "tests.zip"
CALLS_NAME = "tests.jsonl"
# A fixed time in the archive: the same tests make the same bytes (and the same hash).
STAMP = (2020, 1, 1, 0, 0, 0)


def parse(text: str) -> list[tuple[str, str]]:
    """The files of the text, in order; JudgeError naming the line of the first fault."""
    files: list[tuple[str, list[str]]] = []
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        header = HEADER.match(line)
        if header is not None:
            name = header.group(1)
            if not FILE.match(name):
                raise JudgeError(
                    f"{SHOWN}: line {number}: {name!r} is not a test's file name"
                    " (NAME.in or NAME.ans, NAME letters, digits, - and _)"
                )
            if any(name == seen for seen, _ in files):
                raise JudgeError(f"{SHOWN}: line {number}: {name} is there twice")
            files.append((name, []))
        elif files:
            files[-1][1].append(line)
        elif line.strip():
            raise JudgeError(f"{SHOWN}: line {number}: a test starts with a line `== NAME.in`")
    return [(name, _ended("\n".join(lines))) for name, lines in files]


def _ended(body: str) -> str:
    # The blank lines that part one file from the next header are not the test's.
    body = body.rstrip("\n")
    return body + "\n" if body else ""


def pack(files: list[tuple[str, str]]) -> bytes:
    """The files as a .zip, the same bytes for the same files."""
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in files:
            archive.writestr(zipfile.ZipInfo(name, STAMP), body.encode("utf-8"))
    return packed.getvalue()
