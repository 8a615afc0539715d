"""Signatures and the JSON types of calls and returned values (pure)."""

from __future__ import annotations

import pytest

from judge.kinds.functions import types


def test_a_signature_reads_back_as_it_was_written() -> None:
    for text in (
        "moves(start: str, goal: str) -> int",
        "f(xs: list[list[int]], d: dict[str, float | None]) -> list[str] | None",
        "g() -> None",
        "h(flag: bool, n: long) -> float",
    ):
        assert str(types.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("moves(a str) -> int", "character 9: expected ':', found 'str'"),
        ("f(a: set[int]) -> int", "character 6: unknown type 'set'"),
        ("f(a: dict[int, int]) -> int", "a dict's keys are str"),
        ("f(a: int, a: int) -> int", "parameter 'a' twice"),
        ("f(a: int) -> ", "the end: expected more"),
        ("f(a: int) -> int extra", "unexpected 'extra' after the return type"),
        ("f(a: int | str) -> int", "`|` is followed by None only"),
    ],
)
def test_a_bad_signature_says_what_and_where(text: str, said: str) -> None:
    with pytest.raises(types.SignatureError, match=None) as raised:
        types.parse(text)
    assert said in str(raised.value)


def test_values_are_checked_against_their_types_with_the_place_named() -> None:
    signature = types.parse("f(xs: list[int], d: dict[str, list[float] | None], s: str, b: bool) -> long")
    assert types.arguments_issue(signature, [[1, 2], {"a": [1, 2.5], "b": None}, "x", True]) == ""
    assert types.arguments_issue(signature, [[1, "2"], {}, "x", True]) == "argument 1 (xs)[1]: expected int, got str"
    assert types.arguments_issue(signature, [[1], {"a": ["no"]}, "x", True]) == (
        "argument 2 (d)['a'][0]: expected float, got str"
    )
    assert types.arguments_issue(signature, [[1], {}, "x", 1]) == "argument 4 (b): expected bool, got int"
    assert types.arguments_issue(signature, [[1], {}]) == "2 argument(s), f takes 4"
    assert types.arguments_issue(signature, {"xs": []}).startswith("expected a JSON array")
    assert types.issue(2**31, types.parse_type("int")) == "2147483648 is out of range for int"
    assert types.issue(2**31, types.parse_type("long")) == ""
    assert types.issue(True, types.parse_type("int")) == "expected int, got bool"  # a bool is no number here
    assert types.issue(float("nan"), types.parse_type("float")) == "nan is not a finite float"


COUNTER = "class Counter:\n  Counter(start: int)\n  add(k: int) -> None\n  total() -> long\n"


def test_a_class_signature_reads_back_and_checks_its_scenarios() -> None:
    counter = types.parse_api(COUNTER)
    assert isinstance(counter, types.ClassSignature) and str(counter) + "\n" == COUNTER
    assert types.call_issue(counter, [["Counter", 5], ["add", 2], ["total"]]) == ""
    assert types.call_issue(counter, [["add", 2]]) == "step 1: 'add' is not the constructor [\"Counter\", ...]"
    assert types.call_issue(counter, [["Counter", 5], ["sub", 1]]) == "step 2: 'sub' is not a method of Counter"
    assert types.call_issue(counter, [["Counter", 5], ["add"]]) == "step 2 (add): 0 argument(s), add takes 1"
    assert types.call_issue(counter, [["Counter", 5], "total"]).startswith('step 2: expected ["name"')
    assert types.call_issue(counter, []).startswith("expected a JSON array of steps")
    steps = [["Counter", 5], ["add", 2], ["total"]]
    assert types.answer_issue(counter, steps, [None, None, 7]) == ""
    assert (
        types.answer_issue(counter, steps, [None, None, "7"]) == "the answer of step 3 (total): expected long, got str"
    )
    assert types.answer_issue(counter, steps, [None, None]) == "the answer: 2 value(s) for 3 step(s)"
    assert types.answer_issue(counter, steps, [{"$raised": "ValueError"}]) == ""  # the constructor raised: no more
    assert isinstance(types.parse_api("f(a: int) -> int"), types.Signature)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("class C:\n", "class C has no methods"),
        ("class C:\n  f(a int) -> int\n", "line 2, character 7: expected ':'"),
        ("class C:\n  C(a: int) -> int\n  f() -> int\n", "line 2, character 13: a constructor returns nothing"),
        ("class C:\n  C()\n  C(a: int)\n  f() -> int\n", "line 3, a second constructor of C"),
        ("class C:\n  f() -> int\n  f() -> str\n", "line 3: method 'f' twice"),
    ],
)
def test_a_bad_class_signature_says_which_line(text: str, said: str) -> None:
    with pytest.raises(types.SignatureError) as raised:
        types.parse_api(text)
    assert said in str(raised.value)
