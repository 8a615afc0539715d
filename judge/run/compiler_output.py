"""A failed compile's output in the student's terms (issue 59): what the judge's own compile
step adds is cut, so the first thing a student reads is their file and line. Pure.

Python's compile step is a syntax check run from `python3 -c` (languages.yaml): its traceback
begins with the judge's frames (`File "<string>"`, the standard library's ast.py) before the
student's `File "main.py", line 2`. Those frames go; the student's files are relative paths in
the box, the judge's are `<...>` or absolute paths.

C, C++ and Java (gcc's, g++'s and javac's `file:line[:col]: ...` lines): a function problem
compiles the student's file beside the judge's harness, under a name of the harness's
(solution.hpp), and a program's entry file is named by its language (main.c). Each line that
starts with a box name of the student's takes the name the student gave; the judge's files'
`In file included from` and `In function` lines go, and so does each diagnostic's location in
them and the harness's source lines under it, keeping its message (a missing function is
reported in the harness that calls it: `error: 'max_sum' was not declared in this scope`).
Other languages are left as they are."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

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


# gcc's `file:line:col: error: ...` and `file: In function ...`, javac's `File.java:3: error: ...`.
_LOCATED = re.compile(r"^([^\s:][^:]*):(\d+(?::\d+)?: |\s*(?:In |At ))")
_INCLUDED = re.compile(r"^(?:In file included from|\s+from) ([^:]+):\d+[:,]")
COMPILED = ("c", "cpp", "java")  # the families whose compilers' lines are trimmed


def compiled(text: str, names: Mapping[str, str], judges: Collection[str]) -> str:
    """gcc's or javac's output with the student's box names (`names`: box name -> the name
    they gave) renamed and the judge's own files (`judges`, box names) cut."""
    kept: list[str] = []
    in_judges = False  # under a diagnostic located in the judge's file: its source lines go
    for line in text.splitlines():
        included = _INCLUDED.match(line)
        if included is not None and included.group(1) in judges:
            continue
        located = _LOCATED.match(line)
        if located is not None:
            where = located.group(1)
            in_judges = where in judges
            rest = line[len(where) + 1 :]
            if in_judges:
                if located.group(2).lstrip().startswith(("In ", "At ")):
                    continue  # the harness's `In function 'int main()':`
                kept.append(rest.split(": ", 1)[1].strip())
                continue
            kept.append(f"{names.get(where, where)}:{rest}")
            continue
        if in_judges and line[:1].isspace():
            continue  # the harness's source line and its ^~~~ marks
        in_judges = False
        kept.append(line)
    trimmed = "\n".join(kept)
    return trimmed + "\n" if text.endswith("\n") and trimmed else trimmed


def for_student(text: str, family: str, names: Mapping[str, str] | None = None, judges: Collection[str] = ()) -> str:
    """A failed compile's output as the student is shown it (`family`: languages.yaml's, else its
    id; `names` and `judges` as `compiled` takes them)."""
    if family in ("python", "python3", "pypy3"):
        return python(text) or text
    if family in COMPILED:
        return compiled(text, names or {}, judges) or text
    return text
