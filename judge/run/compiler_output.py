"""A failed compile's output in the student's terms (issue 59): what the judge's own compile
step adds is cut, so the first thing a student reads is their file and line. Pure.

Python's compile step is a syntax check run from `python3 -c` (languages.yaml): its traceback
begins with the judge's frames (`File "<string>"`, the standard library's ast.py) before the
student's `File "main.py", line 2`. Those frames go; the student's files are relative paths in
the box, the judge's are `<...>` or absolute paths. Other languages' compilers already speak of
the student's files and are left as they are."""

from __future__ import annotations

import re

_FRAME = re.compile(r'^\s*File "([^"]*)"')
_TRACEBACK = "Traceback (most recent call last):"


def _judges(path: str) -> bool:
    return path.startswith("<") or path.startswith("/")


def python(text: str) -> str:
    """The traceback without the judge's frames (each with the source lines under it)."""
    kept: list[str] = []
    skipping = False
    for line in text.splitlines():
        if line.strip() == _TRACEBACK:
            skipping = False
            continue
        frame = _FRAME.match(line)
        if frame is not None:
            skipping = _judges(frame.group(1))
            if skipping:
                continue
        elif skipping and line.startswith("    "):
            continue  # the judge's source line and its ^^^ marks
        else:
            skipping = False
        kept.append(line.strip("\n") if frame is None else line.lstrip())
    trimmed = "\n".join(kept)
    return trimmed + "\n" if text.endswith("\n") and trimmed else trimmed


def for_student(text: str, family: str) -> str:
    """A failed compile's output as the student is shown it (`family`: languages.yaml's, else its id)."""
    if family in ("python", "python3", "pypy3"):
        return python(text) or text
    return text
