"""Output checkers (pure): compare a program's output with the expected answer.

Built from small normalisers, as the judges people trust do it: CRLF is always LF,
then `exact` compares bytes, `lines` ignores trailing whitespace per line (and blank
lines at the end), `tokens` compares whitespace-separated tokens, `float` compares
tokens with numbers equal within a tolerance. Each result carries a short message
naming the first difference, for the report. Custom checkers run programs, so they
live in judge.run.custom_checker.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

MESSAGE_CAP = 80  # characters of a token or line quoted in a message


@dataclass(frozen=True)
class CheckResult:
    accepted: bool
    message: str  # empty when accepted; else the first difference, briefly
    # Where the first difference is (1-based line of the output; 0 when not by line),
    # for the diff shown on sample cases.
    line: int = 0


def _quote(text: str) -> str:
    return repr(text if len(text) <= MESSAGE_CAP else text[:MESSAGE_CAP] + "...")


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n")


def exact(output: bytes, answer: bytes) -> CheckResult:
    out, ans = _text(output), _text(answer)
    if out == ans:
        return CheckResult(True, "")
    out_lines, ans_lines = out.split("\n"), ans.split("\n")
    for no, (got, want) in enumerate(zip(out_lines, ans_lines, strict=False), start=1):
        if got != want:
            return CheckResult(False, f"line {no}: expected {_quote(want)}, got {_quote(got)}", no)
    no = min(len(out_lines), len(ans_lines))
    if len(out_lines) > len(ans_lines):
        return CheckResult(False, f"extra output from line {no + 1}", no + 1)
    return CheckResult(False, f"output ends early: line {no + 1} expected", no + 1)


def lines(output: bytes, answer: bytes) -> CheckResult:
    out = [line.rstrip() for line in _text(output).split("\n")]
    ans = [line.rstrip() for line in _text(answer).split("\n")]
    while out and not out[-1]:
        out.pop()
    while ans and not ans[-1]:
        ans.pop()
    for no, (got, want) in enumerate(zip(out, ans, strict=False), start=1):
        if got != want:
            return CheckResult(False, f"line {no}: expected {_quote(want)}, got {_quote(got)}", no)
    if len(out) > len(ans):
        return CheckResult(False, f"extra output from line {len(ans) + 1}", len(ans) + 1)
    if len(out) < len(ans):
        return CheckResult(False, f"output ends early: line {len(out) + 1} expected", len(out) + 1)
    return CheckResult(True, "")


def _tokens_with_lines(text: str) -> list[tuple[str, int]]:
    return [(tok, no) for no, line in enumerate(text.split("\n"), start=1) for tok in line.split()]


def _compare_tokens(output: bytes, answer: bytes, same: Callable[[str, str], bool]) -> CheckResult:
    out = _tokens_with_lines(_text(output))
    ans = [tok for tok, _ in _tokens_with_lines(_text(answer))]
    for index, ((got, no), want) in enumerate(zip(out, ans, strict=False), start=1):
        if not same(got, want):
            return CheckResult(False, f"token {index} (line {no}): expected {_quote(want)}, got {_quote(got)}", no)
    if len(out) > len(ans):
        return CheckResult(False, f"extra output: {len(out)} tokens, {len(ans)} expected", out[len(ans)][1])
    if len(out) < len(ans):
        # The first missing token belongs after the last line printed.
        after = out[-1][1] + 1 if out else 1
        return CheckResult(False, f"output ends early: {len(out)} tokens, {len(ans)} expected", after)
    return CheckResult(True, "")


def _same_word(case_sensitive: bool) -> Callable[[str, str], bool]:
    return str.__eq__ if case_sensitive else (lambda got, want: got.casefold() == want.casefold())


def tokens(output: bytes, answer: bytes, case_sensitive: bool = True) -> CheckResult:
    return _compare_tokens(output, answer, _same_word(case_sensitive))


def _parse_float(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def floats(output: bytes, answer: bytes, abs_tol: float, rel_tol: float, case_sensitive: bool = True) -> CheckResult:
    same_word = _same_word(case_sensitive)

    def same(got: str, want: str) -> bool:
        expected = _parse_float(want)
        if expected is None:  # a word in the answer is compared as a word
            return same_word(got, want)
        value = _parse_float(got)
        return value is not None and (
            abs(value - expected) <= abs_tol or abs(value - expected) <= rel_tol * abs(expected)
        )

    return _compare_tokens(output, answer, same)
