"""The built-in checkers, without processes."""

from __future__ import annotations

import pytest

from judge.run import checkers


@pytest.mark.parametrize(
    ("output", "answer", "accepted"),
    [
        (b"3\n", b"3\n", True),
        (b"3", b"3\n", True),
        (b"  3 \r\n\n", b"3\n", True),
        (b"1 2\n3\n", b"1\n2 3\n", True),
        (b"4\n", b"3\n", False),
        (b"3 3\n", b"3\n", False),
        (b"", b"3\n", False),
        (b"03\n", b"3\n", False),
    ],
)
def test_tokens(output: bytes, answer: bytes, accepted: bool) -> None:
    assert checkers.tokens(output, answer).accepted is accepted


def test_tokens_message_names_the_first_difference() -> None:
    result = checkers.tokens(b"0\n4\n9\n", b"0\n3\n9\n")
    assert result.message == "token 2 (line 2): expected '3', got '4'" and result.line == 2
    short = checkers.tokens(b"0\n", b"0\n3\n")
    assert short.message == "output ends early: 1 tokens, 2 expected" and short.line == 2
    extra = checkers.tokens(b"0\n3\n5\n", b"0\n3\n")
    assert extra.message.startswith("extra output") and extra.line == 3


def test_exact_normalises_crlf_only() -> None:
    assert checkers.exact(b"a b\r\nc\r\n", b"a b\nc\n").accepted
    assert not checkers.exact(b"a b \nc\n", b"a b\nc\n").accepted
    assert not checkers.exact(b"a b\nc", b"a b\nc\n").accepted
    assert checkers.exact(b"x\ny\n", b"x\nz\n").message == "line 2: expected 'z', got 'y'"


def test_lines_ignores_trailing_whitespace_and_final_blank_lines() -> None:
    assert checkers.lines(b"a b  \nc\t\n\n\n", b"a b\nc\n").accepted
    assert not checkers.lines(b"a  b\nc\n", b"a b\nc\n").accepted
    assert not checkers.lines(b"a b\n\nc\n", b"a b\nc\n").accepted


def test_floats_within_tolerance() -> None:
    assert checkers.floats(b"0.333335\n", b"0.333333\n", 1e-6, 0).accepted is False
    assert checkers.floats(b"0.333335\n", b"0.333333\n", 1e-5, 0).accepted
    assert checkers.floats(b"1000001\n", b"1000000\n", 0, 1e-6).accepted
    assert checkers.floats(b"yes 1.0\n", b"yes 1\n", 1e-9, 1e-9).accepted
    assert not checkers.floats(b"nan\n", b"1\n", 1, 1).accepted
    assert not checkers.floats(b"no 1\n", b"yes 1\n", 1, 1).accepted


def test_long_tokens_are_shortened_in_messages() -> None:
    message = checkers.tokens(b"x" * 500, b"y").message
    assert len(message) < 200 and message.endswith("...'")
