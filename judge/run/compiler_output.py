"""A failed compile's output in the student's terms (issue 59): what the judge's own compile
step adds is cut, so the first thing a student reads is their file and line. Pure.

Python's compile step is a syntax check run from `python3 -c` (languages.yaml): its traceback
begins with the judge's frames (`File "<string>"`, the standard library's ast.py) before the
student's `File "main.py", line 2`. Those frames go; the student's files are relative paths in
the box, the judge's are `<...>` or absolute paths.

The compiled languages (COMPILED: C, C++, Java, Go, Rust, C#, Kotlin, Scala, Haskell, Pascal,
Fortran, OCaml, TypeScript, and JavaScript's syntax check): a function problem compiles the
student's file beside the judge's harness, under a name of the harness's (solution.hpp,
solution.go), and a program's entry file is named by its language (main.c, Main.hs). Each place
a compiler names (`file:line`, `file(line,col)`, ` --> file:line`, `File "file", line`) that is
a box name of the student's takes the name the student gave; the judge's files' `In file
included from` and `In function` lines go, and so does each diagnostic's location in them and
the harness's source lines under it, keeping its message (a missing function is reported in the
harness that calls it: `error: 'max_sum' was not declared in this scope`). Lines of the judge's
toolchain go too (fpc's banner, ghc's progress, go's package line, node's internal frames).
Ada's GNAT names a unit's file after the unit (gnatchop), not the box's: left as it is; so are
the interpreted languages' syntax checks other than Python's and JavaScript's."""

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


# Where a compiler names a file: gcc's, javac's, go's, kotlinc's, ghc's, gfortran's and scalac's
# `file:line[:col]: ...` (go's as `./file`, node's as `/box/file:line`) and gcc's `file: In function`;
# mcs's, fpc's and tsc's `file(line,col)`; rustc's ` --> file:line:col`; ocaml's `File "file", line`.
_LOCATED = re.compile(
    r'^(?P<lead>\s*--> |File ")?(?P<box>\./|/box/)?(?P<path>[^\s:()"]+)'
    r'(?P<place>", line [\d, a-z-]*:?|\(\d+(?:,\d+)?\):?|:\d+(?::\d+)?(?:-\d+)?:?|:\s*(?=In |At ))\s?'
)
_INCLUDED = re.compile(r"^(?:In file included from|\s+from) ([^:]+):\d+[:,]")
_CONTEXT = re.compile(r"^(?:\s+\S|\d+\s+\|)")  # a quoted source line, its marks, rustc's `= note`
# Lines of the judge's toolchain, never of the student's code: go's package line, ghc's progress
# (which names the judge's /tmp/ghc), fpc's banner and driver, the JVM's warning, node's frames.
_NOISE = re.compile(
    r"^(?:# command-line-arguments$|\[\d+ of \d+\] Compiling |Free Pascal Compiler version |"
    r"Copyright \(c\) \d+-\d+ by Florian|Error: /\S+/ppc\w+ returned an error exitcode|"
    r"OpenJDK 64-Bit Server VM warning: |\s+at .*\(node:internal/|Node\.js v\d)"
)
# The families (or ids) whose compilers' lines are trimmed to the student's files.
COMPILED = (
    "c", "cpp", "java", "go", "rust", "csharp", "kotlin", "scala", "haskell", "pascal", "fortran", "ocaml",
    "typescript", "javascript",
)  # fmt: skip


def compiled(text: str, names: Mapping[str, str], judges: Collection[str]) -> str:
    """A compiler's output with the student's box names (`names`: box name -> the name they
    gave) renamed and the judge's own files (`judges`, box names) cut: a diagnostic located in
    one keeps its message without the place, and its quoted source lines go."""
    kept: list[str] = []
    in_judges = False  # under a diagnostic located in the judge's file: its source lines go
    for line in text.splitlines():
        included = _INCLUDED.match(line)
        if (included is not None and included.group(1) in judges) or _NOISE.match(line):
            continue
        located = _LOCATED.match(line)
        if located is not None and (located["path"] in names or located["path"] in judges):
            in_judges = located["path"] in judges
            if in_judges:
                message = line[located.end() :].strip()
                if message and not message.startswith(("In ", "At ")):
                    kept.append(message)  # the harness's `In function 'int main()':` goes
                continue
            lead = located["lead"] or ""
            kept.append(lead + names[located["path"]] + line[located.start("place") :])
            continue
        if in_judges and _CONTEXT.match(line):
            continue
        in_judges = False
        kept.append(line)
    trimmed = "\n".join(kept).lstrip("\n")  # a cut first line (ghc's progress) leaves no gap
    return trimmed + "\n" if text.endswith("\n") and trimmed else trimmed


def for_student(text: str, family: str, names: Mapping[str, str] | None = None, judges: Collection[str] = ()) -> str:
    """A failed compile's output as the student is shown it (`family`: languages.yaml's, else its
    id; `names` and `judges` as `compiled` takes them)."""
    if family in ("python", "python3", "pypy3"):
        return python(text) or text
    if family in COMPILED:
        return compiled(text, names or {}, judges) or text
    return text
