"""Each validator accepts what its statement allows and names the line of what it does not."""

from __future__ import annotations

import pytest

from judge.problem import refs


def issues(problem: str, text: str) -> list[tuple[int, str]]:
    return [(i.line, i.message) for i in refs.get(problem).validate(text)]


@pytest.mark.parametrize(
    ("problem", "text"),
    [
        ("lanqiao", "12345678.\n123.46758\n"),
        ("eight-digits", "2  3  4  1  5  x  7  6  8 \n"),  # the statement's own sample
        ("eight-digits", " 1 2 3 4 5 6 7 8 x\n"),
        ("sicily-rotations", "1 2 3 4 5 6 7 8 9\n4 1 3 5 2 6 7 8 9\n"),
        ("sicily-rotations", "9  8 7 6 5 4 3 2 1 \n"),
    ],
)
def test_valid_inputs(problem: str, text: str) -> None:
    assert issues(problem, text) == []


@pytest.mark.parametrize(
    ("problem", "text", "line", "fragment"),
    [
        ("lanqiao", "12345678.\n", 1, "expected 2 lines"),
        ("lanqiao", "12345678.\n123.4675\n", 2, "expected 9 characters, found 8"),
        ("lanqiao", "12345678.\n1234567.8\n12345678.\n", 3, "expected 2 lines"),
        ("lanqiao", "1234567x.\n123.46758\n", 1, "character 8 is 'x'"),
        ("lanqiao", "12345677.\n123.46758\n", 1, "'7' appears more than once"),
        ("lanqiao", "12345678.\r\n123.46758\r\n", 1, "carriage return"),
        ("lanqiao", "12345678.\n123.46758", 2, "no newline at the end"),
        ("lanqiao", "", 1, "empty input"),
        ("eight-digits", "1 2 3 4 5 6 7 8\n", 1, "expected 9 tokens, found 8"),
        ("eight-digits", "1 2 3 4 5 6 7 8 0\n", 1, "token 9 is '0'"),
        ("eight-digits", "1 2 3 4 5 6 7 x x\n", 1, "'x' appears more than once"),
        ("eight-digits", "1 2 3\t4 5 6 7 8 x\n", 1, "whitespace other than spaces"),
        ("eight-digits", "1 2 3 4 5 6 7 8 x\n\n", 2, "expected 1 line"),
        ("sicily-rotations", "1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8\n", 2, "expected 9 integers, found 8"),
        ("sicily-rotations", "1 2 3 4 5 6 7 8 9\n\n", 2, "empty line"),
        ("sicily-rotations", "1 2 3 4 5 6 7 8 10\n", 1, "integer 9 is '10'"),
        ("sicily-rotations", "01 2 3 4 5 6 7 8 9\n", 1, "integer 1 is '01'"),
        ("sicily-rotations", "1 2 3 4 5 6 7 8 9\n1 1 3 4 5 6 7 8 9\n", 2, "'1' appears more than once"),
        ("sicily-rotations", "", 1, "empty input"),
    ],
)
def test_invalid_inputs(problem: str, text: str, line: int, fragment: str) -> None:
    found = issues(problem, text)
    assert any(no == line and fragment in msg for no, msg in found), found
