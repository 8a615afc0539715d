"""The built-in checkers as one table. Each row is a class: its name (problem.yaml's
`checker.type`), its options (the model's fields), the comparison it makes (judge.run.checkers,
pure) and how it reads and writes a package's default output validator flags.

The spec, the runner, `judge run --checker`, the exporter and the importer all read BUILTIN, so
a new built-in checker is one class here and one entry in BUILTIN. A custom checker is a program
of the problem's, not a row: it lives in the spec and runs through judge.run.custom_checker.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from judge.run import bounded, checkers, values
from judge.run.checkers import CheckResult

# The default output validator's flags (ICPC problem format) that the rows read and write.
CASE_SENSITIVE = "case_sensitive"
SPACE_CHANGE_SENSITIVE = "space_change_sensitive"
FLOAT_FLAGS = ("float_tolerance", "float_absolute_tolerance", "float_relative_tolerance")


class _Options(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class TokensChecker(_Options):
    """Whitespace-separated tokens must be equal (the default)."""

    type: Literal["tokens"]
    case_sensitive: bool = Field(default=True, description="false: `Yes` equals `YES` (the ICPC default validator)")

    def compare(self, output: bytes, answer: bytes) -> CheckResult:
        return checkers.tokens(output, answer, self.case_sensitive)

    def package_flags(self) -> tuple[tuple[str, ...], str]:
        """The default validator's flags that check the same, and a note where they differ ("")."""
        return ((CASE_SENSITIVE,) if self.case_sensitive else ()), ""


class ExactChecker(_Options):
    """Byte for byte, after CRLF -> LF."""

    type: Literal["exact"]

    def compare(self, output: bytes, answer: bytes) -> CheckResult:
        return checkers.exact(output, answer)

    def package_flags(self) -> tuple[tuple[str, ...], str]:
        return (CASE_SENSITIVE, SPACE_CHANGE_SENSITIVE), ""


class LinesChecker(_Options):
    """Line by line, trailing whitespace ignored."""

    type: Literal["lines"]

    def compare(self, output: bytes, answer: bytes) -> CheckResult:
        return checkers.lines(output, answer)

    def package_flags(self) -> tuple[tuple[str, ...], str]:
        return (CASE_SENSITIVE, SPACE_CHANGE_SENSITIVE), (
            "checker lines: exported as space_change_sensitive, which also counts trailing spaces"
        )


class FloatChecker(_Options):
    """Tokens; numbers equal within an absolute or relative tolerance."""

    type: Literal["float"]
    abs_tol: float = Field(default=1e-6, ge=0)
    rel_tol: float = Field(default=1e-6, ge=0)
    case_sensitive: bool = Field(default=True, description="false: words other than numbers compared ignoring case")

    def compare(self, output: bytes, answer: bytes) -> CheckResult:
        return checkers.floats(output, answer, self.abs_tol, self.rel_tol, self.case_sensitive)

    def package_flags(self) -> tuple[tuple[str, ...], str]:
        tolerances = ("float_absolute_tolerance", repr(self.abs_tol), "float_relative_tolerance", repr(self.rel_tol))
        return ((CASE_SENSITIVE,) if self.case_sensitive else ()) + tolerances, ""


def _json(data: bytes) -> object:
    import json

    return json.loads(data.decode("utf-8"))


class ValueChecker(_Options):
    """Values (JSON) equal, exactly: a function problem's default."""

    type: Literal["value"]

    def compare(self, output: bytes, answer: bytes) -> CheckResult:
        return _compare_values(output, answer, values.Tolerance())

    def package_flags(self) -> tuple[tuple[str, ...], str]:
        return (), "checker value: the ICPC format has no function problems"


class UnorderedChecker(_Options):
    """Values (JSON) equal, a returned list's elements in any order."""

    type: Literal["unordered"]

    def compare(self, output: bytes, answer: bytes) -> CheckResult:
        return _compare_values(output, answer, values.Tolerance(unordered=True))

    def package_flags(self) -> tuple[tuple[str, ...], str]:
        return (), "checker unordered: the ICPC format has no function problems"


def _compare_values(output: bytes, answer: bytes, rule: values.Tolerance) -> CheckResult:
    """The program's output (untrusted: read with bounds) as one JSON value against the answer's."""
    try:
        got = bounded.loads(output)
    except bounded.OutOfBounds as err:
        return CheckResult(False, f"the output is not one JSON value: {err}")
    return values.compare(got, _json(answer), rule)


BuiltinChecker = TokensChecker | ExactChecker | LinesChecker | FloatChecker | ValueChecker | UnorderedChecker
BUILTIN: dict[str, type[BuiltinChecker]] = {
    "tokens": TokensChecker,
    "exact": ExactChecker,
    "lines": LinesChecker,
    "float": FloatChecker,  # 1e-6 absolute or relative by default
    "value": ValueChecker,  # function problems: JSON values
    "unordered": UnorderedChecker,
}
# The rows each kind of problem may name (a function returns values, a program prints text).
FOR_VALUES = ("value", "float", "unordered")
FOR_TEXT = ("tokens", "exact", "lines", "float")


def named(name: str) -> BuiltinChecker:
    """The built-in checker `name` with its default options (`judge run --checker NAME`)."""
    return BUILTIN[name].model_validate({"type": name})


def _tolerances(flags: list[str], notes: list[str]) -> tuple[float | None, float | None]:
    """The float tolerances the flags give (each flag followed by its value), noting the rest."""
    absolute = relative = None
    i = 0
    while i < len(flags):
        flag = flags[i]
        if flag in FLOAT_FLAGS and i + 1 < len(flags):
            try:
                value = float(flags[i + 1])
            except ValueError:
                notes.append(f"validator flag {flag} {flags[i + 1]}: not a number, ignored")
                i += 2
                continue
            if flag in ("float_tolerance", "float_absolute_tolerance"):
                absolute = value
            if flag in ("float_tolerance", "float_relative_tolerance"):
                relative = value
            i += 2
            continue
        if flag not in (CASE_SENSITIVE, SPACE_CHANGE_SENSITIVE):
            notes.append(f"default validator flag {flag!r}: not known, ignored")
        i += 1
    return absolute, relative


def from_package_flags(flags: list[str]) -> tuple[BuiltinChecker, list[str]]:
    """The default output validator's flags as the built-in checker that checks the same, and
    notes on what could not be kept."""
    notes: list[str] = []
    absolute, relative = _tolerances(flags, notes)
    case_sensitive = CASE_SENSITIVE in flags
    if absolute is not None or relative is not None:
        if SPACE_CHANGE_SENSITIVE in flags:
            notes.append("space_change_sensitive with a float tolerance: whitespace is not checked")
        float_checker = FloatChecker(
            type="float", abs_tol=absolute or 0.0, rel_tol=relative or 0.0, case_sensitive=case_sensitive
        )
        return float_checker, notes
    if SPACE_CHANGE_SENSITIVE in flags:
        if not case_sensitive:
            notes.append("space_change_sensitive without case_sensitive: compared exactly, case included")
        return ExactChecker(type="exact"), notes
    return TokensChecker(type="tokens", case_sensitive=case_sensitive), notes
