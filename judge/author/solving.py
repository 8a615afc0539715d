"""`judge solve`: the reference answer for one input, printed as a correct submission would.

This path is kept light on purpose: a teacher or a script may call it thousands of
times, and `make bench` holds it to the start-up of a plain C++ search. Once the spec
and tables are cached it imports no click, pydantic, YAML, numpy, pathlib, typing or
dataclasses (each costs 15-30 ms here). The checked spec is remembered by the SHA-256
of problem.yaml, so an edited spec is checked again.
"""

from __future__ import annotations

import hashlib
import os
import sys

from judge.errors import EXIT_USAGE, JudgeError
from judge.paths import cache_dir
from judge.problem import refs
from judge.problem.locate import SPEC_FILE, find_problem
from judge.problem.tables import TableStore


def reference_name(problem_dir: str) -> str:
    """The spec's `reference`, from a cache keyed by the spec's bytes, or by a full load."""
    with open(os.path.join(problem_dir, SPEC_FILE), "rb") as stream:
        digest = hashlib.sha256(stream.read()).hexdigest()
    memo = os.path.join(cache_dir(), "specs", f"{digest}.reference")
    try:
        with open(memo, encoding="utf-8") as stream:
            name = stream.read().strip()
        if name in refs.NAMES:
            return name
    except OSError:
        pass
    from pathlib import Path  # only on a cache miss, like the full spec check below

    from judge.kinds.table import load_problem

    name = load_problem(Path(problem_dir)).spec.reference
    try:
        os.makedirs(os.path.dirname(memo), exist_ok=True)
        tmp = f"{memo}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as stream:
            stream.write(name + "\n")
        os.replace(tmp, memo)
    except OSError:
        pass  # a read-only cache only costs speed
    return name


def read_input(source: str | None) -> tuple[str, str]:
    """(label for messages, text) of the input file, or of stdin when `source` is None or '-'."""
    if source is None or source == "-":
        label, data = "<stdin>", sys.stdin.buffer.read()
    else:
        label = source
        try:
            with open(source, "rb") as stream:
                data = stream.read()
        except OSError as err:
            raise JudgeError(f"{source}: cannot read input: {err.strerror}") from None
    if b"\0" in data:
        raise JudgeError(f"{label}: binary data (NUL byte), not a test input")
    try:
        return label, data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise JudgeError(f"{label}:{line}: not UTF-8 text") from None


def solve(problem: str, source: str | None, problems_dir: str | os.PathLike[str]) -> str:
    """The reference output for the input; JudgeError for an invalid input or spec."""
    directory = find_problem(problem, problems_dir)
    name = reference_name(directory)
    label, text = read_input(source)
    if name not in refs.NAMES:
        return _solve_with_program(directory, label, text)
    reference = refs.module(name)
    if not reference.accepts(text):
        issues = reference.validate(text)
        # Layout a submission never sees (CRLF, tabs, a missing last newline, a case split
        # over lines) still gets its answer, with a note; wrong content does not.
        canonical = reference.canonical(text)
        if not reference.accepts(canonical):
            raise JudgeError("\n".join(f"{label}:{i.line}: {i.message}" for i in issues))
        first = issues[0]
        _note(f"{label}:{first.line}: not in the strict input format ({first.message}); answered from its tokens")
        text = canonical
    answer: str = reference.solve(text, TableStore(notify=_note))
    return answer


def _solve_with_program(directory: str, label: str, text: str) -> str:
    """A program reference: the problem's validators first, then the program, in the sandbox."""
    from pathlib import Path

    from judge.author import parts
    from judge.kinds.table import load_problem

    problem = load_problem(Path(directory))
    own = parts.load(problem)
    issues = parts.check_inputs(own, [(text, ())])[0]
    if issues:
        raise JudgeError(
            "\n".join(f"{label}:{i.line}: {i.message}" if i.line else f"{label}: {i.message}" for i in issues)
        )
    return parts.solve(own, [text], [label])[0]


def _note(message: str) -> None:
    print(f"judge: {message}", file=sys.stderr)


def main(problem: str, source: str | None, problems_dir: str) -> int:
    """Entry of the fast path: prints the answer or one line per error."""
    try:
        sys.stdout.write(solve(problem, source, problems_dir))
    except JudgeError as err:
        for line in str(err).splitlines():
            print(f"judge: error: {line}", file=sys.stderr)
        return err.exit_code if err.exit_code else EXIT_USAGE
    return 0
