"""What a problem's own solutions must get (pure rules, no I/O).

A solution's folder names its verdict, as in the ICPC/Kattis package format
(`solutions/accepted/`, `solutions/wrong_answer/`, ...). A header comment may state the
verdicts it may get instead, e.g. `// @EXPECTED: WA or TLE`; the set must hold the
folder's own verdict, so a file cannot contradict the folder it sits in.

Solutions run once at a raised CPU limit (MARGIN x the real one); the verdict at the real
limit follows from the measured CPU time, so a slow solution is not run twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from judge.run.verdicts import Verdict

FOLDERS: dict[str, Verdict] = {
    "accepted": Verdict.AC,
    "wrong_answer": Verdict.WA,
    "time_limit_exceeded": Verdict.TLE,
    "run_time_error": Verdict.RE,
    "memory_limit_exceeded": Verdict.MLE,
    "output_limit_exceeded": Verdict.OLE,
}

# An ICPC package has no folder for MLE or OLE. There a heap that runs out is a run-time
# error, and a flood of output runs into the time limit (DOMjudge and problemtools keep it
# running, truncated): the judge, which stops it at the output limit, says OLE.
ICPC_ALSO: dict[Verdict, Verdict] = {Verdict.RE: Verdict.MLE, Verdict.TLE: Verdict.OLE}

MARGIN = 1.5  # a time_limit_exceeded solution should need more than this x the limit
SLOW_SHARE = 0.5  # an accepted solution should need at most this share of the limit
HEADER_LINES = 30  # how far into a file the @EXPECTED header is looked for

_HEADER = re.compile(r"@EXPECTED\s*:(.*)")
_SEPARATORS = re.compile(r"\s*(?:\bor\b|,|\||/)\s*|\s+", re.IGNORECASE)
_CODES = {v.value: v for v in Verdict if v not in (Verdict.IE, Verdict.NG)}


@dataclass(frozen=True)
class Expectation:
    verdicts: frozenset[Verdict]
    line: int  # of the @EXPECTED header; 0 when the folder alone says it


class ExpectationError(ValueError):
    """A header that cannot be honoured; .line is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def expectation(folder: str, text: str, icpc: bool = False) -> Expectation:
    """The verdicts allowed for a solution in `folder` whose source is `text`; `icpc`: the
    folder means what it means in an ICPC package (ICPC_ALSO)."""
    own = FOLDERS[folder]
    for number, line in enumerate(text.splitlines()[:HEADER_LINES], start=1):
        found = _HEADER.search(line)
        if found is None:
            continue
        words = [w for w in _SEPARATORS.split(found.group(1).strip().rstrip("*/#-").strip()) if w]
        if not words:
            raise ExpectationError(number, "@EXPECTED names no verdict")
        allowed: set[Verdict] = set()
        for word in words:
            if word.upper() not in _CODES:
                raise ExpectationError(number, f"unknown verdict {word!r} in @EXPECTED (known: {', '.join(_CODES)})")
            allowed.add(_CODES[word.upper()])
        if own not in allowed:
            raise ExpectationError(number, f"@EXPECTED leaves out {own.value}, the verdict of its folder {folder}/")
        if own is Verdict.AC and allowed != {Verdict.AC}:
            raise ExpectationError(number, "an accepted solution may only expect AC")
        return Expectation(frozenset(allowed), number)
    if icpc and own in ICPC_ALSO:
        return Expectation(frozenset({own, ICPC_ALSO[own]}), 0)
    return Expectation(frozenset({own}), 0)


@dataclass(frozen=True)
class Measured:
    """One case as run at the raised limit."""

    group: str
    verdict: Verdict
    cpu_s: float


def at_limit(case: Measured, limit_s: float) -> Verdict:
    """The case's verdict had it run at the real CPU limit."""
    if case.verdict not in (Verdict.CE, Verdict.IE) and case.cpu_s > limit_s:
        return Verdict.TLE
    return case.verdict


@dataclass(frozen=True)
class GroupOutcome:
    name: str
    verdict: Verdict  # the first case that failed at the real limit, else AC
    max_cpu_s: float
    run: int  # cases run (a failing solution stops at its first failure in a group)
    total: int


def group_outcomes(
    groups: Sequence[tuple[str, int]], cases: Sequence[Measured], limit_s: float, compiled: bool
) -> tuple[GroupOutcome, ...]:
    """Per group (name, number of cases): verdict at the real limit and the slowest case."""
    outcomes = []
    for name, total in groups:
        mine = [c for c in cases if c.group == name]
        verdicts = [at_limit(c, limit_s) for c in mine]
        first = next((v for v in verdicts if v is not Verdict.AC), Verdict.AC) if compiled else Verdict.CE
        outcomes.append(GroupOutcome(name, first, max((c.cpu_s for c in mine), default=0.0), len(mine), total))
    return tuple(outcomes)


def time_warnings(folder: str, cases: Sequence[Measured], limit_s: float) -> list[str]:
    """Time-limit sensitivity: a correct solution close to the limit, or a slow one close under it."""
    if not cases:
        return []
    if FOLDERS[folder] is Verdict.AC:
        slowest = max(c.cpu_s for c in cases)
        if slowest > SLOW_SHARE * limit_s:
            return [
                f"uses {slowest:.2f} s of the {limit_s:g} s limit (more than {SLOW_SHARE:.0%}): one noisy run from TLE"
            ]
        return []
    if FOLDERS[folder] is Verdict.TLE:
        over = [c for c in cases if at_limit(c, limit_s) is Verdict.TLE]
        # A case stopped at the raised limit needs more than MARGIN x the limit: safely TLE.
        if over and all(c.verdict is not Verdict.TLE for c in over):
            slowest = max(c.cpu_s for c in over)
            return [
                f"exceeds the {limit_s:g} s limit by little: finishes in {slowest:.2f} s, "
                f"under {MARGIN:g}x the limit ({MARGIN * limit_s:g} s)"
            ]
    return []


def failure_stops_group(folder: str) -> bool:
    """A solution expected to fail may skip the rest of a group after its first failure."""
    return FOLDERS[folder] is not Verdict.AC
