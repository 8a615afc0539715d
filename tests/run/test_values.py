"""Returned values against answers (pure): exact, within a tolerance, in any order."""

from __future__ import annotations

from judge.run import values

EXACT = values.Tolerance()


def test_exact_values_and_the_first_difference_named() -> None:
    assert values.compare([1, [2, 3]], [1, [2, 3]], EXACT).accepted
    assert values.compare([1, [2, 4]], [1, [2, 3]], EXACT).message == "[1][1]: expected 3, got 4"
    assert values.compare([1, 2, 3], [1, 2], EXACT).message == "the value: 3 elements, expected 2"
    assert values.compare({"a": 1}, {"a": 1, "b": 2}, EXACT).message == 'the value: no key "b"'
    assert values.compare(1, True, EXACT).message == "the value: expected true, got 1"
    assert values.compare(2.0, 2.0, EXACT).accepted and not values.compare(2.0000001, 2.0, EXACT).accepted


def test_a_tolerance_applies_to_every_number_inside() -> None:
    close = values.Tolerance(abs_tol=1e-6, rel_tol=1e-6)
    assert values.compare({"p": [1.0000001, 2]}, {"p": [1.0, 2]}, close).accepted
    assert not values.compare({"p": [1.1, 2]}, {"p": [1.0, 2]}, close).accepted


def test_unordered_compares_the_returned_list_as_a_multiset() -> None:
    rule = values.Tolerance(unordered=True)
    assert values.compare([[2, 1], [1, 2], 3], [3, [1, 2], [2, 1]], rule).accepted
    assert "is missing" in values.compare([1, 1, 2], [1, 2, 2], rule).message
    assert not values.compare([[2, 1]], [[1, 2]], rule).accepted  # only the outer list is unordered


def test_an_answer_that_is_an_exception_is_told_apart_from_a_value() -> None:
    assert values.raised({"$raised": "ValueError"}) == "ValueError"
    assert values.raised({"$raised": "ValueError", "x": 1}) is None
    assert values.raised(3) is None
    assert values.canonical({"b": [1, 2.5], "a": "é"}) == '{"a":"é","b":[1,2.5]}'


def test_a_stated_exception_agrees_with_any_the_reference_raised() -> None:
    assert values.agree({"$raised": "ValueError"}, {"$raised": "std::invalid_argument"})
    assert not values.agree({"$raised": "ValueError"}, 0)
    assert values.agree([None, 2, {"$raised": "IndexError"}], [None, 2, {"$raised": "std::out_of_range"}])
    assert not values.agree([None, 2, {"$raised": "IndexError"}], [None, 3, {"$raised": "IndexError"}])
    assert values.agree({"b": [1.5], "a": 1}, {"a": 1, "b": [1.5]}) and not values.agree(1, 1.0)
