"""Returned values against expected ones (pure), outside the sandbox: both are plain JSON read by
the judge, so nothing the student's code made (an object that equals anything, a patched
encoder) takes part in the comparison. The answer of a case is its expected result: a value, or
an exception the reference raised ({"$raised": "ValueError"})."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass

from judge.run.checkers import CheckResult

RAISED = "$raised"  # an answer that is an exception: {"$raised": its type}
QUOTE_CAP = 60  # characters of a value quoted in a message


@dataclass(frozen=True)
class Tolerance:
    """How values are compared: exactly, numbers within a tolerance, a list in any order."""

    abs_tol: float | None = None  # None: numbers are compared exactly
    rel_tol: float = 0.0
    unordered: bool = False  # the returned list's elements in any order (a multiset)


def canonical(value: object) -> str:
    """The one text of a JSON value: what test files and results hold."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)


def quote(value: object) -> str:
    text = canonical(value)
    return text if len(text) <= QUOTE_CAP else text[: QUOTE_CAP - 3] + "..."


def raised(answer: object) -> str | None:
    """The exception type an answer expects, or None when it expects a value."""
    if type(answer) is dict and set(answer) == {RAISED} and type(answer[RAISED]) is str:
        return str(answer[RAISED])
    return None


def _same_number(got: object, want: object, rule: Tolerance) -> bool:
    if type(got) is bool or type(want) is bool:
        return got is want
    assert isinstance(got, int | float) and isinstance(want, int | float)
    if rule.abs_tol is None:
        return (got == want and type(got) is type(want)) or (isinstance(want, float) and float(got) == want)
    return abs(got - want) <= rule.abs_tol or abs(got - want) <= rule.rel_tol * abs(want)


def difference(got: object, want: object, rule: Tolerance, where: str = "") -> str:
    """Where the returned value first differs from the expected one ("" when it does not)."""
    at = where or "the value"
    numbers = (int, float)
    if isinstance(want, numbers) and not isinstance(want, bool) and isinstance(got, numbers):
        if not isinstance(got, bool) and _same_number(got, want, rule):
            return ""
        return f"{at}: expected {quote(want)}, got {quote(got)}"
    if type(want) is list and type(got) is list:
        if rule.unordered and not where:
            return _multiset_difference(got, want)
        for index, (g, w) in enumerate(zip(got, want, strict=False)):
            found = difference(g, w, rule, f"{where}[{index}]")
            if found:
                return found
        if len(got) != len(want):
            return f"{at}: {len(got)} elements, expected {len(want)}"
        return ""
    if type(want) is dict and type(got) is dict:
        for key in sorted(set(want) | set(got)):
            if key not in got:
                return f"{at}: no key {quote(key)}"
            if key not in want:
                return f"{at}: an extra key {quote(key)}"
            found = difference(got[key], want[key], rule, f"{where}[{quote(key)}]")
            if found:
                return found
        return ""
    if type(got) is type(want) and got == want:
        return ""
    return f"{at}: expected {quote(want)}, got {quote(got)}"


def _multiset_difference(got: list[object], want: list[object]) -> str:
    left = Counter(canonical(v) for v in got)
    right = Counter(canonical(v) for v in want)
    missing, extra = right - left, left - right
    if missing:
        return f"the value (in any order): {min(missing)[:QUOTE_CAP]} is missing"
    if extra:
        return f"the value (in any order): {min(extra)[:QUOTE_CAP]} is not expected"
    return ""


def agree(stated: object, made: object) -> bool:
    """Whether two answers are one: the same value, or both an exception (of whatever name), a
    scenario's step by step."""
    if raised(stated) is not None or raised(made) is not None:
        return raised(stated) is not None and raised(made) is not None
    if type(stated) is list and type(made) is list and any(raised(v) is not None for v in stated + made):
        return len(stated) == len(made) and all(agree(a, b) for a, b in zip(stated, made, strict=True))
    return canonical(stated) == canonical(made)


def compare(returned: object, answer: object, rule: Tolerance) -> CheckResult:
    """A returned value against the case's answer (a value; an exception is settled before)."""
    found = difference(returned, answer, rule)
    return CheckResult(not found, found)


def finite(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(finite(v) for v in value)
    if isinstance(value, dict):
        return all(finite(v) for v in value.values())
    return True
