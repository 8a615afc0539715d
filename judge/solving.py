"""`judge solve`: the reference answer for one input, printed as a correct submission would.

This path is kept light on purpose (no click, pydantic, YAML or numpy once the spec and
tables are cached): a teacher or a script may call it thousands of times. The checked
spec is remembered by the SHA-256 of problem.yaml, so an edited spec is checked again.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import BinaryIO

from judge import refs
from judge.errors import EXIT_USAGE, JudgeError
from judge.locate import SPEC_FILE, find_problem
from judge.tables import TableStore, cache_dir


def reference_name(problem_dir: Path) -> str:
    """The spec's `reference`, from a cache keyed by the spec's bytes, or by a full load."""
    spec_bytes = (problem_dir / SPEC_FILE).read_bytes()
    memo = cache_dir() / "specs" / f"{hashlib.sha256(spec_bytes).hexdigest()}.reference"
    try:
        name = memo.read_text(encoding="utf-8").strip()
        if name in refs.NAMES:
            return name
    except OSError:
        pass
    from judge.spec import load_problem  # only on a cache miss: pydantic is slow to import

    name = load_problem(problem_dir).spec.reference
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        tmp = memo.with_suffix(".tmp")
        tmp.write_text(name + "\n", encoding="utf-8")
        tmp.replace(memo)
    except OSError:
        pass  # a read-only cache only costs speed
    return name


def read_input(source: str | None, stdin: BinaryIO) -> tuple[str, str]:
    """(label for messages, text) of the input file, or of stdin when `source` is None or '-'."""
    if source is None or source == "-":
        label, data = "<stdin>", stdin.read()
    else:
        label = source
        try:
            data = Path(source).read_bytes()
        except OSError as err:
            raise JudgeError(f"{source}: cannot read input: {err.strerror}") from None
    if b"\0" in data:
        raise JudgeError(f"{label}: binary data (NUL byte), not a test input")
    try:
        return label, data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise JudgeError(f"{label}:{line}: not UTF-8 text") from None


def solve(problem: str, source: str | None, problems_dir: Path) -> str:
    """The reference output for the input; JudgeError for an invalid input or spec."""
    reference = refs.get(reference_name(find_problem(problem, problems_dir)))
    label, text = read_input(source, sys.stdin.buffer)
    issues = reference.validate(text)
    if issues:
        raise JudgeError("\n".join(f"{label}:{i.line}: {i.message}" for i in issues))
    store = TableStore(notify=lambda message: print(f"judge: {message}", file=sys.stderr))
    return reference.solve(text, store)


def main(problem: str, source: str | None, problems_dir: Path) -> int:
    """Entry of the fast path: prints the answer or one line per error."""
    try:
        sys.stdout.write(solve(problem, source, problems_dir))
    except JudgeError as err:
        for line in str(err).splitlines():
            print(f"judge: error: {line}", file=sys.stderr)
        return err.exit_code if err.exit_code else EXIT_USAGE
    return 0
