"""Untrusted JSON read with bounds: a value too deep, too big, not Unicode text or not strict JSON
is one line saying which bound it broke, never a RecursionError or a traceback."""

from __future__ import annotations

import time

import pytest

from judge.run import bounded
from judge.run.bounded import OutOfBounds


def nested(depth: int, inside: bytes = b"") -> bytes:
    return b"[" * depth + inside + b"]" * depth


def refused(data: bytes, max_bytes: int = bounded.MAX_BYTES) -> OutOfBounds:
    with pytest.raises(OutOfBounds) as raised:
        bounded.loads(data, max_bytes)
    assert "\n" not in str(raised.value)
    return raised.value


def test_a_value_nested_200000_deep_is_refused_at_once() -> None:
    started = time.monotonic()
    for data in (nested(200_000), b'{"a":' * 200_000 + b"1" + b"}" * 200_000, nested(1000)):
        said = refused(data)
        assert (said.bound, str(said)) == ("depth", "nested deeper than 100 levels")
    assert time.monotonic() - started < 5


def test_depth_is_counted_in_levels_of_lists_and_dicts_not_in_brackets_inside_strings() -> None:
    assert bounded.loads(nested(100, b"1")) is not None
    assert refused(nested(101, b"1")).bound == "depth"
    assert refused(b'{"a":' + nested(100) + b"}").bound == "depth"
    assert bounded.loads(b'[{"a": [{}]}]', max_depth=4) == [{"a": [{}]}]
    with pytest.raises(OutOfBounds):
        bounded.loads(b'[{"a": [{}]}]', max_depth=3)
    # Brackets and escaped quotes in strings are text: 500 of them nest nothing.
    text = b'["' + b'[{\\"' * 500 + b'", "]]]"]'
    assert len(bounded.loads(text)) == 2  # type: ignore[arg-type]
    wide = b"[" + b",".join([nested(99)] * 2000) + b"]"
    assert bounded.loads(wide) is not None
    assert bounded.nested_deeper(wide, 99) and not bounded.nested_deeper(wide, 100)


def test_a_value_over_the_size_is_refused_before_it_is_parsed() -> None:
    said = refused(b"[" + b"1," * 600 + b"1]", max_bytes=1000)
    assert (said.bound, str(said)) == ("size", "over 1000 bytes of JSON")
    assert str(refused(b" " * ((16 << 20) + 1))) == "over 16 MiB of JSON"


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b'"caf\xe9"', "not UTF-8 text (byte 5)"),
        (b'"\xed\xa0\x80"', "not UTF-8 text (byte 2)"),  # a surrogate's own bytes
        (b'["ok", "\\ud800"]', "not Unicode text: a lone surrogate (\\ud800) in a string"),
        (b'{"\\uDFFF": 1}', "not Unicode text: a lone surrogate (\\udfff) in a string"),
        (b'["\\ud83d"]', "not Unicode text: a lone surrogate (\\ud83d) in a string"),  # half a pair
    ],
)
def test_text_that_is_not_unicode_is_refused(data: bytes, said: str) -> None:
    found = refused(data)
    assert (found.bound, str(found)) == ("text", said)


def test_a_pair_of_surrogates_and_an_escaped_backslash_are_text() -> None:
    assert bounded.loads(b'["\\ud83d\\ude00"]') == ["\U0001f600"]
    assert bounded.loads(b'["\\\\ud800"]') == ["\\ud800"]


@pytest.mark.parametrize(
    "data", [b"NaN", b"[Infinity]", b"[-Infinity]", b"[1e999]", b"[-1e400]", b"[" + b"9" * 400 + b".5]", b"[1,"]
)
def test_what_is_not_strict_json_or_no_finite_number_is_refused(data: bytes) -> None:
    assert refused(data).bound == "json"


def test_an_integer_of_more_digits_than_python_reads_is_refused_in_one_line() -> None:
    said = refused(b"[" + b"7" * 5000 + b"]")
    assert said.bound == "json" and len(str(said)) < 120


def test_big_finite_numbers_are_read() -> None:
    assert bounded.loads(b"[1e308, -2.5e-300, 123456789012345678901234567890]") == [
        1e308,
        -2.5e-300,
        123456789012345678901234567890,
    ]
