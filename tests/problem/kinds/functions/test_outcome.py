"""A call's or a scenario's outcome against its answer (pure): the first differing step named."""

from __future__ import annotations

from judge.problem.kinds.functions import outcome, types, values

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
