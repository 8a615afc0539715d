"""The table of built-in checkers: every row is reachable by name, compares as its run-stage
function does, and goes out to a package's flags and back."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from judge.problem import checkers
from judge.problem.spec import Checker
from judge.run.checkers import CheckResult


def test_every_row_is_named_by_its_own_type_and_the_spec_accepts_it() -> None:
    for name, model in checkers.BUILTIN.items():
        made = checkers.named(name)
        assert isinstance(made, model) and made.type == name
        assert TypeAdapter(Checker).validate_python({"type": name}) == made


@pytest.mark.parametrize(
    ("name", "output", "accepted"),
    [
        ("tokens", b"1  2\n", True),
        ("exact", b"1  2\n", False),
        ("lines", b"1 2   \n\n", True),
        ("float", b"1.0000001 2\n", True),
        ("float", b"1.1 2\n", False),
    ],
)
def test_each_row_compares_as_its_name_says(name: str, output: bytes, accepted: bool) -> None:
    assert checkers.named(name).compare(output, b"1 2\n").accepted is accepted


@pytest.mark.parametrize(
    "checker",
    [
        checkers.TokensChecker(type="tokens"),
        checkers.TokensChecker(type="tokens", case_sensitive=False),
        checkers.ExactChecker(type="exact"),
        checkers.FloatChecker(type="float", abs_tol=0.5, rel_tol=0.25, case_sensitive=False),
    ],
)
def test_a_checker_goes_out_as_package_flags_and_comes_back_the_same(checker: checkers.BuiltinChecker) -> None:
    flags, note = checker.package_flags()
    back, notes = checkers.from_package_flags(list(flags))
    assert back == checker and note == "" and notes == []


def test_lines_goes_out_as_exact_and_says_what_differs() -> None:
    flags, note = checkers.LinesChecker(type="lines").package_flags()
    back, _ = checkers.from_package_flags(list(flags))
    assert back == checkers.ExactChecker(type="exact") and "trailing spaces" in note


def test_unknown_and_broken_flags_are_noted_not_raised() -> None:
    back, notes = checkers.from_package_flags(["float_tolerance", "wide", "shout"])
    assert back == checkers.TokensChecker(type="tokens", case_sensitive=False)
    assert notes == [
        "validator flag float_tolerance wide: not a number, ignored",
        "default validator flag 'shout': not known, ignored",
    ]


@pytest.mark.parametrize(
    ("output", "said"),
    [
        (b"[" * 200_000 + b"]" * 200_000, "the output is not one JSON value: nested deeper than 100 levels"),
        (b'["\\ud800"]', "the output is not one JSON value: not Unicode text: a lone surrogate (\\ud800) in a string"),
        (b"[NaN]", "the output is not one JSON value: not JSON (NaN is not JSON)"),
    ],
)
def test_a_programs_json_output_is_read_with_bounds(output: bytes, said: str) -> None:
    """`judge run --checker value`: the program's output is untrusted JSON, a WA in one line."""
    for name in ("value", "unordered"):
        assert checkers.named(name).compare(output, b"[1]\n") == CheckResult(False, said)
    assert checkers.named("value").compare(b"[1, 2]\n", b"[1,2]\n").accepted
