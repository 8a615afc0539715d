"""A call's or a scenario's outcome against its answer (pure): the first differing step named."""

from __future__ import annotations

import pytest

from judge.kinds.functions import outcome, types
from judge.run import values

COUNTER = types.parse_api("class Counter:\n  Counter(start: int)\n  add(k: int) -> None\n  total() -> long\n")
STEPS = [["Counter", 5], ["add", 2], ["total"]]
EXACT = values.Tolerance()


def _said(result: dict[str, object] | None, answer: object, api: types.Api = COUNTER, call: object = STEPS) -> str:
    decided, _ = outcome.decide(api, EXACT, result, call, answer)
    return f"{decided.verdict.value} {decided.message}".strip()


def test_each_step_is_compared_and_the_first_difference_is_named() -> None:
    played = {"steps": [{"returned": None}, {"returned": None}, {"returned": 7}]}
    assert _said(played, [None, None, 7]) == "AC"
    assert _said(played, [None, None, 8]) == "WA step 3, total(): expected 8, got 7"
    raised = {"steps": [{"returned": None}, {"raised": "KeyError", "message": "k"}, {"returned": 5}]}
    assert _said(raised, [None, None, 7]) == "RE step 2, add(2): raised KeyError: k"
    assert _said(raised, [None, {"$raised": "ValueError"}, 5]) == "AC"  # any exception where one was expected
    short = {"steps": [{"returned": None}]}
    assert _said(short, [None, None, 7]) == "WA step 2, add(2): returned nothing (the scenario ended before it)"
    typed = {"steps": [{"returned": None}, {"returned": None}, {"returned": "7"}]}
    assert _said(typed, [None, None, 7]) == "WA step 3, total(): returned str: expected long, got str"


def test_what_the_module_lacks_is_said_before_any_step() -> None:
    assert _said(None, [None, None, 7]) == "WA Counter returned nothing (the program ended before it returned)"
    assert _said({"missing": "Counter"}, [None]) == "RE no class Counter in the module"
    assert _said({"import": {"raised": "SyntaxError"}}, [None]) == "RE the module raised SyntaxError when imported"
    function = types.parse("f(a: int) -> int")
    assert _said({"missing": "f"}, 1, function, [1]) == "RE no function f in the module"
    assert _said({"returned": 2}, 1, function, [1]) == "WA the value: expected 1, got 2"


def test_a_reference_result_becomes_its_answer() -> None:
    played = {"steps": [{"returned": None}, {"raised": "ValueError", "message": ""}, {"returned": 3}]}
    assert outcome.answer_of(played) == [None, {"$raised": "ValueError"}, 3]
    assert outcome.answer_of({"returned": [1, 2]}) == [1, 2]
    assert outcome.answer_of(outcome.result_of(b'noise\n\x1ejudge-result\x1e {"returned": 4}\n')) == 4


def test_a_named_exception_is_the_one_a_language_must_raise() -> None:
    function = types.parse("f(a: int) -> int")
    raised = {"raised": "KeyError", "message": "k"}
    expected = {"$raised": "ValueError"}
    assert _said(raised, expected, function, [1]) == "AC"  # no name given: any exception
    decided, _ = outcome.decide(function, EXACT, raised, [1], expected, required="ValueError")
    assert (decided.verdict.value, decided.message) == ("WA", "raised KeyError, expected ValueError")
    right = {"raised": "ValueError", "message": ""}
    assert outcome.decide(function, EXACT, right, [1], expected, required="ValueError")[0].verdict.value == "AC"


def test_a_custom_checker_sees_a_whole_scenario_once_its_steps_are_well_typed() -> None:
    from judge.run.checkers import CheckResult

    seen: list[object] = []

    def custom(value: object) -> CheckResult:
        seen.append(value)
        return CheckResult(value == [None, None, 9], "not nine")

    played = {"steps": [{"returned": None}, {"returned": None}, {"returned": 7}]}
    decided, _ = outcome.decide(COUNTER, EXACT, played, STEPS, [None, None, 7], custom=custom)
    assert (decided.verdict.value, decided.message, seen) == ("WA", "not nine", [[None, None, 7]])
    typed = {"steps": [{"returned": None}, {"returned": None}, {"returned": "7"}]}
    decided, _ = outcome.decide(COUNTER, EXACT, typed, STEPS, [None, None, 7], custom=custom)
    assert decided.verdict.value == "WA" and len(seen) == 1  # a wrong type is said before the checker runs


LINE = b"printed by the function\n\x1ejudge-result\x1e "
MAX_SUM = types.parse("max_sum(xs: list[int]) -> long")
GRID = types.parse("grid(n: int) -> list[list[int]]")


def _line_said(line: bytes, api: types.Api = MAX_SUM, answer: object = 4, call: object = ((1,),)) -> str:
    decided, _ = outcome.decide(api, EXACT, outcome.result_of(LINE + line + b"\n"), call, answer)
    assert "\n" not in decided.message and len(decided.message) < 700
    return f"{decided.verdict.value} {decided.message}".strip()


def test_a_result_line_nested_200000_deep_is_a_wa_saying_so() -> None:
    deep = b'{"returned": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    said = "WA the returned value is nested deeper than 100 levels"
    assert _line_said(deep) == said
    assert _line_said(deep, answer={"$raised": "ValueError"}) == said
    # The bound is the returned value's own: 100 levels are read (and are a wrong type here), 101 are not.
    at_most = b'{"returned": ' + b"[" * 100 + b"]" * 100 + b"}"
    assert _line_said(at_most) == "WA returned list: expected long, got list"
    assert _line_said(at_most.replace(b"[", b"[[", 1).replace(b"]", b"]]", 1)) == said
    # In a scenario, each step's value is bounded alike.
    step = b'{"steps": [{"returned": null}, {"returned": null}, {"returned": ' + b"[" * 101 + b"]" * 101 + b"}]}"
    assert _line_said(step, COUNTER, [None, None, 7], STEPS) == "WA " + said[3:]
    with pytest.raises(ValueError, match="nested deeper than 100 levels"):
        outcome.answer_of(outcome.result_of(LINE + deep))


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (b'{"returned": "\\ud800"}', "WA the result line is not Unicode text: a lone surrogate (\\ud800) in a string"),
        (b'{"returned": "\xed\xa0\x80"}', "WA the result line is not UTF-8 text (byte 15)"),
        (b'{"returned": NaN}', "WA the result line is not JSON (NaN is not JSON)"),
        (b'{"returned": 1e999}', "WA the result line is not JSON (1e999... is beyond a float)"),
        (b'{"returned": 4', "WA the result line is not JSON (Expecting ',' delimiter: line 2 column 1 (char 15))"),
        (b'{"returned": ' + b"7" * 5000 + b"}", "WA the result line is not JSON (Exceeds the limit (4300 digits)"),
        (
            b'{"returned": ' + b"7" * 400 + b"}",
            "WA returned int: 7777777777777777777777777777777777777777777777777777777",
        ),
    ],
)
def test_a_result_line_that_is_no_unicode_or_no_strict_json_is_a_wa_in_one_line(line: bytes, said: str) -> None:
    assert _line_said(line).startswith(said)


def test_a_returned_value_over_the_size_is_a_wa_before_it_is_parsed() -> None:
    big = b'{"returned": [' + b"1," * (outcome.MAX_RESULT_BYTES // 2) + b"1]}"
    assert _line_said(big, GRID, [[1]], [1]) == "WA the returned value is over 16 MiB as JSON"


def test_what_a_forged_line_names_is_cut_in_the_verdict() -> None:
    name = b"E" * 100_000
    said = _line_said(b'{"raised": "' + name + b'", "message": "' + name + b'"}')
    assert said.startswith("RE raised EEEE") and len(said) < outcome.NAME_CAP + outcome.MESSAGE_CAP + 20
    assert len(_line_said(b'{"unserializable": "' + name + b'"}')) < outcome.NAME_CAP + 60
    assert len(_line_said(b'{"import": {"raised": "' + name + b'"}}')) < outcome.NAME_CAP + 60
    assert _line_said(b'{"raised": [1, {"a": null}], "message": 5}') == 'RE raised [1,{"a":null}]: 5'
    out_of_range = _line_said(b'{"returned": ' + b"9" * 4000 + b"}")
    assert out_of_range.startswith("WA returned int: 99999") and out_of_range.endswith("... is out of range for long")
    keyed = types.parse("f() -> dict[str, int]")
    long_key = _line_said(b'{"returned": {"' + b"k" * 10_000 + b'": "x"}}', keyed, {}, [])
    assert long_key.endswith("...']: expected int, got str")


def test_a_forged_scenario_with_steps_beyond_the_call_reaches_the_checker_cut_to_the_call() -> None:
    from judge.run.checkers import CheckResult

    seen: list[object] = []

    def custom(value: object) -> CheckResult:
        seen.append(value)
        return CheckResult(True, "")

    played = {"steps": [{"returned": None}, {"returned": None}, {"returned": 7}, 5, {"nothing": 1}]}
    decided, _ = outcome.decide(COUNTER, EXACT, played, STEPS, [None, None, 7], custom=custom)
    assert decided.verdict.value == "AC" and seen == [[None, None, 7]]
