"""A student's tests as submitted (a folder or archive of `NAME.in` files, `NAME.ans` optional,
or for a function problem one `NAME.jsonl` of calls): read under the spec's caps, each file
named in the one-line error that refuses it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.problem.spec import Suite
from judge.run import sources

# A test's name: a plain name at the top of the submission (never a path, never hidden).
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
SUFFIXES = (".in", ".ans")
CALLS = ".jsonl"  # a function problem's tests as calls, a line each (`calls`)


@dataclass(frozen=True)
class StudentTest:
    name: str
    input: bytes
    answer: bytes | None  # the student's expected output; None: the reference's is used


def read(given: Path | tuple[str, bytes], suite: Suite) -> tuple[StudentTest, ...]:
    """The tests of a submission on disk or uploaded (name, bytes); JudgeError naming the file
    for anything but tests within the caps."""
    return parse(*submitted(given, suite))


def submitted(given: Path | tuple[str, bytes], suite: Suite) -> tuple[str, list[tuple[str, bytes]], Suite]:
    """A submission's files (a folder, an archive, one file; on disk or uploaded), read under the
    suite's caps: how to name it, its (name, content) files, the suite."""
    caps = sources.Caps(bytes=suite.max_tests * 2 * suite.max_test_bytes, files=suite.max_tests * 2 + 1)
    if isinstance(given, Path):
        shown = str(given)
        files = sources.read_files(given, caps)
        if not given.is_dir() and not sources.is_archive(given):
            files = [(given.name, data) for _, data in files]
    else:
        shown = given[0]
        if sources.is_archive(Path(given[0])):
            files = sources.archive_files(Path(given[0]), given[1], caps)
        else:
            files = [(Path(given[0]).name, given[1])]
    return shown, files, suite


def where(shown: str, name: str) -> str:
    """The file a message names: the submission and its file, once when they are one (an
    uploaded `07.in` was said as `07.in: 07.in: ...`)."""
    return name if Path(shown).name == name else f"{shown}: {name}"


def calls(shown: str, name: str, data: bytes) -> list[tuple[str, bytes]]:
    """A function problem's tests as calls, a line each: `[args]` or `[args] -> expected` (JSON),
    as the files NN.in (the arguments) and NN.ans (the expected value) they stand for."""
    from judge.run import bounded
    from judge.run.values import canonical

    decoder = json.JSONDecoder()
    found: list[tuple[str, bytes]] = []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            end = decoder.raw_decode(text)[1]  # only where the arguments end: they are read below
            rest = text[end:].strip()
            if rest and not rest.startswith("->"):
                raise ValueError("expected `-> value` after the arguments")
            # Read with bounds: NaN, Infinity and a list nested thousands deep made the web
            # judge's door answer 500 (json reads them; writing a test file or recursing did not).
            args = bounded.loads(text[:end].encode())
            expected = bounded.loads(rest[2:].strip().encode()) if rest else None
        except RecursionError:
            raise JudgeError(f"{where(shown, name)}:{number}: nested deeper than {bounded.MAX_DEPTH} levels") from None
        except bounded.OutOfBounds as err:  # its own words: `not JSON (NaN is not JSON)`
            raise JudgeError(f"{where(shown, name)}:{number}: {err}") from None
        except ValueError as err:
            said = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise JudgeError(f"{where(shown, name)}:{number}: not `[args] -> expected` in JSON ({said})") from None
        if not isinstance(args, list):
            raise JudgeError(f"{where(shown, name)}:{number}: the arguments are a JSON list, e.g. [[1, 2, 3]]")
        test = f"line-{number:02d}"  # what the student's report names it by
        found.append((f"{test}.in", (canonical(args) + "\n").encode()))
        if rest:
            found.append((f"{test}.ans", (canonical(expected) + "\n").encode()))
    return found


def parse(shown: str, files: list[tuple[str, bytes]], suite: Suite) -> tuple[StudentTest, ...]:
    """The tests of these (name, content) files; JudgeError naming the first one refused."""
    inputs: dict[str, bytes] = {}
    answers: dict[str, bytes] = {}
    if len(files) == 1 and files[0][0].endswith(CALLS):
        files = calls(shown, *files[0])
    for name, data in files:
        stem, dot, suffix = name.rpartition(".")
        if not dot or f".{suffix}" not in SUFFIXES or not NAME.match(stem):
            raise JudgeError(
                f"{where(shown, name)}: not a test file (NAME.in, NAME.ans beside it optional, NAME letters, digits, - and _;"
                " or one NAME.jsonl of calls)"
            )
        if len(data) > suite.max_test_bytes:
            raise JudgeError(
                f"{where(shown, name)}: {len(data)} bytes, over the cap of {suite.max_test_bytes} per test"
            )
        (inputs if suffix == "in" else answers)[stem] = data
    lonely = sorted(set(answers) - set(inputs))
    if lonely:
        raise JudgeError(f"{where(shown, lonely[0] + '.ans')}: no {lonely[0]}.in beside it")
    if not inputs:
        raise JudgeError(f"{shown}: no tests (NAME.in files)")
    if len(inputs) > suite.max_tests:
        raise JudgeError(f"{shown}: {len(inputs)} tests, over the cap of {suite.max_tests}")
    return tuple(StudentTest(name, inputs[name], answers.get(name)) for name in sorted(inputs))
