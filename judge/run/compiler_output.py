"""A failed compile's output in the student's terms (issue 59): what the judge's own compile
step adds is cut, so the first thing a student reads is their file and line. Pure.

Python's compile step is a syntax check run from `python3 -c` (languages.yaml): its traceback
begins with the judge's frames (`File "<string>"`, the standard library's ast.py) before the
student's `File "main.py", line 2`. Those frames go; the student's files are relative paths in
the box, the judge's are `<...>` or absolute paths. PyPy's check is Python's, trimmed alike.

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

The interpreters' syntax checks (INTERPRETED: Ruby's `ruby -c`, PHP's `php -l`, Perl's `perl -c`,
Lua's `luac -p`, SWI-Prolog, SBCL's compile-file, `bash -n`, gawk, R's parse) name the box's
file in their own formats (`main.rb:2:`, `in main.php on line 2`, `at main.pl line 2`,
`luac5.4: main.lua:1:`, `ERROR: /box/main.pl:1:16:`, `"/box/main.lisp"`, `main.sh: line 3:`,
`gawk: main.awk:1:`, `Error in parse(file = "main.R") : main.R:2:9:`): every box name the
student's, the tool's prefix (`luac5.4: `, `gawk: `) and R's frame of the judge's call cut, and
the tool's summary lines dropped (`Errors parsing main.php`, `main.pl had compilation errors.`,
swipl's `Halting with status`, SBCL's banner and condition counts, R's `Execution halted`).

Ada's GNAT compiles the files gnatchop wrote, one per unit and named after it (procedure
Hello: hello.adb), so its places name units, not files. `ada_units` maps a unit's file to the
student's file only where that file holds nothing but that unit (one `procedure`, `function` or
`package` in it, no `separate`), as then gnatchop's copy keeps its lines; a file of several
units (or nested subprograms) keeps the unit's name, whose lines are the unit's own. gnatchop's
places name the box's file, which takes the student's name; gnatmake's and gnatchop's closing
lines (`"hello.adb" compilation error`, `chop may not be successful`) go."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

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


# Interpreters whose syntax check names the box's file (languages.yaml's ids; family where set).
INTERPRETED = ("ruby", "php", "perl", "lua", "prolog", "lisp", "bash", "awk", "r", "ada")
# The tool's own prefix on each line and R's frame of the judge's `parse(file = ...)` call.
_PREFIX = re.compile(r'^(?:luac[\d.]*: |gawk: )|^Error in parse\(file = "[^"]*"\) : ?\n?\s*', re.MULTILINE)
_STREAM = re.compile(r'#<SB-INT:FORM-TRACKING-STREAM for "file ([^"]+)" \{[0-9A-F]+\}>')  # SBCL's file
_SUMMARY = re.compile(
    r"^(?:Errors parsing \S+|\S+ had compilation errors\.|Execution of \S+ aborted due to compilation errors\.|"
    r"Warning: Halting with status \d+ due to .*|; compiling file .*|; compiling \(.*|; wrote .*|"
    r"; compilation (?:aborted after|finished in) .*|; compilation unit (?:aborted|finished)|"
    r";\s+caught \d+ (?:fatal )?[A-Z-]+ conditions?|Execution halted|\S+: chop may not be successful|"
    r'gnatmake: "\S+" compilation error)$'
)


def interpreted(text: str, names: Mapping[str, str]) -> str:
    """An interpreter's syntax check (or GNAT's) with each box name (`names`, as `compiled`
    takes them; /box/ and ./ before it too) the student's, and the tool's prefixes and summary
    lines cut."""
    text = renamed(_STREAM.sub(r"\1", _PREFIX.sub("", text)), names)
    kept = [line for line in text.splitlines() if not _SUMMARY.match(line)]
    while kept and not kept[-1].strip(" ;"):
        kept.pop()  # SBCL's spacers (`; `) left at the end by its cut summary
    while kept and not kept[0].strip(" ;"):
        kept.pop(0)
    trimmed = "\n".join(kept)
    return trimmed + "\n" if text.endswith("\n") and trimmed else trimmed


def renamed(text: str, names: Mapping[str, str]) -> str:
    """Each box name in `text` (`names`: box name -> the student's; /box/ or ./ before it too),
    wherever it stands as a name of its own, the student's."""
    if not names:
        return text
    boxes = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    place = re.compile(rf"(?<![\w./-])(?:/box/|\./)?({boxes})(?!\.?[\w/-])")
    return place.sub(lambda found: names[found.group(1)], text)


_ADA_COMMENT = re.compile(r'--[^\n]*|"(?:[^"\n]|"")*"')
_ADA_UNIT = re.compile(r"(?i)\b(procedure|function|package)\s+(body\s+)?([a-z][\w.]*)")


def ada_units(files: Sequence[tuple[str, bytes]], names: Mapping[str, str]) -> dict[str, str]:
    """`names` with gnatchop's file of each unit (lowercase, dots as dashes, .adb a body, .ads
    a spec; a lone subprogram may be either) -> the student's name of the box file holding that
    unit alone. A name two files claim, or a box's own name, is left out: not sound."""
    claimed: dict[str, set[str]] = {}
    for box, content in files:
        text = _ADA_COMMENT.sub("", content.decode("utf-8", errors="replace"))
        units = _ADA_UNIT.findall(text)
        if box not in names or len(units) != 1 or re.search(r"(?i)\bseparate\b", text):
            continue
        kind, body, unit = units[0]
        stem = unit.lower().replace(".", "-")
        suffixes = (".adb",) if body else (".ads",) if kind.lower() == "package" else (".adb", ".ads")
        for suffix in suffixes:
            claimed.setdefault(stem + suffix, set()).add(names[box])
    mapped = dict(names)
    for unit_file, students in claimed.items():
        if len(students) == 1 and unit_file not in names:
            mapped[unit_file] = students.pop()
    return mapped


def _named_frames(text: str, names: Mapping[str, str]) -> str:
    """A traceback's `File "main.py"` as the file the student gave (`sum.py`). A notebook's
    module has bytes of its own, so no name maps to it and it stays the box's."""

    def named(found: re.Match[str]) -> str:
        return f'File "{names.get(found.group(1), found.group(1))}"'

    return re.sub(r'File "([^"]*)"', named, text) if names else text


def for_student(text: str, family: str, names: Mapping[str, str] | None = None, judges: Collection[str] = ()) -> str:
    """A failed compile's output as the student is shown it (`family`: languages.yaml's, else its
    id; `names` and `judges` as `compiled` takes them; for Ada, `ada_units` of them)."""
    if family in ("python", "python3", "pypy3"):
        return _named_frames(python(text) or text, names or {})
    if family in COMPILED:
        return compiled(text, names or {}, judges) or text
    if family in INTERPRETED:
        return interpreted(text, names or {}) or text
    return text
