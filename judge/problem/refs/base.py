"""The records of the reference registry, and the helpers that explain a bad input.

Imported only when a full Reference is wanted or an input is refused: `judge solve`
on valid input never loads this module (dataclasses alone cost it 30 ms to import).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from judge.problem.tables import TableSource


@dataclass(frozen=True)
class InputIssue:
    """One reason a test input breaks its problem's format (line is 1-based)."""

    line: int
    message: str


@dataclass(frozen=True)
class Generator:
    """A seeded test generator: (rng, count, tables, args) -> list of input texts."""

    name: str
    description: str
    make: Callable[[random.Random, int, TableSource, Mapping[str, int]], list[str]]
    # Arguments it accepts, with their defaults; anything else in a spec is an error.
    args: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Reference:
    name: str
    validate: Callable[[str], list[InputIssue]]
    # Valid input text -> the exact output a correct submission prints.
    solve: Callable[[str, TableSource], str]
    generators: Mapping[str, Generator]
    # Every table this problem may need, so `judge gen` can build them in one go.
    tables: Sequence[str]


def check_tokens(line_no: int, tokens: Sequence[str], allowed: Sequence[str], what: str) -> list[InputIssue]:
    """Each allowed token exactly once (the common core of the three validators)."""
    if sorted(tokens) == sorted(allowed):
        return []  # the common case, checked fast: thousands of lines per file
    issues: list[InputIssue] = []
    if len(tokens) != len(allowed):
        issues.append(InputIssue(line_no, f"expected {len(allowed)} {what}, found {len(tokens)}"))
        return issues
    seen: set[str] = set()
    for pos, tok in enumerate(tokens, start=1):
        if tok not in allowed:
            issues.append(InputIssue(line_no, f"{what[:-1]} {pos} is {tok!r}, not one of {' '.join(allowed)}"))
            return issues
        if tok in seen:
            issues.append(InputIssue(line_no, f"{tok!r} appears more than once"))
            return issues
        seen.add(tok)
    return issues


def split_lines(text: str) -> tuple[list[str], list[InputIssue]]:
    """Lines without their newline, plus issues common to every format here."""
    issues: list[InputIssue] = []
    if not text:
        return [], [InputIssue(1, "empty input")]
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        issues.append(InputIssue(len(lines), "no newline at the end of the last line"))
    for no, line in enumerate(lines, start=1):
        if "\r" in line:
            issues.append(InputIssue(no, "carriage return (CRLF line ending)"))
    return lines, issues


def space_separated(line_no: int, line: str, issues: list[InputIssue]) -> list[str]:
    """Tokens separated by runs of spaces; other whitespace is reported into `issues`."""
    # isprintable() is a fast C test that spaces pass and tabs, CR and the like fail.
    odd = [] if line.isprintable() else sorted({repr(ch) for ch in line if ch.isspace() and ch not in " \r"})
    if odd:
        issues.append(InputIssue(line_no, f"whitespace other than spaces: {', '.join(odd)}"))
    return line.split()
