"""The quick acceptance test and the line-by-line diagnosis are two readings of one format:
they must agree on every input, valid or broken."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.problem import refs

VALID = {
    "lanqiao": "13524678.\n46758123.\n",
    "eight-digits": "2  3  4  1  5  x  7  6  8 \n",
    "sicily-rotations": "1 2 3 4 5 6 7 8 9\n4 1 3 5 2 6 7 8 9\n9 8 7 6 5 4 3 2 1\n",
}
ALPHABET = "0123456789x. \t\r\n\x0b\x1c\u00a0\u200b-"


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    chars = list(text)
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "swap"]))
        at = draw(st.integers(0, max(len(chars) - 1, 0)))
        if kind == "insert":
            chars.insert(at, draw(st.sampled_from(ALPHABET)))
        elif chars and kind == "delete":
            del chars[at]
        elif chars and kind == "replace":
            chars[at] = draw(st.sampled_from(ALPHABET))
        elif len(chars) > 1:
            other = draw(st.integers(0, len(chars) - 1))
            chars[at], chars[other] = chars[other], chars[at]
    return "".join(chars)


@st.composite
def reassembled(draw: st.DrawFn, text: str) -> str:
    """Valid lines in another number and order (too many, too few, repeated), maybe unterminated."""
    lines = draw(st.lists(st.sampled_from(text.splitlines()), max_size=4))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n", "\r\n"]))


@pytest.mark.parametrize("name", refs.NAMES)
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_accepts_agrees_with_diagnose(name: str, data: st.DataObject) -> None:
    module = refs.module(name)
    text = data.draw(st.one_of(mutated(VALID[name]), reassembled(VALID[name]), st.text(ALPHABET, max_size=30)))
    assert module.accepts(text) == (module.diagnose(text) == []), repr(text)
    assert all(issue.message != "not in the input format" for issue in module.validate(text))


@pytest.mark.parametrize("name", refs.NAMES)
def test_the_samples_are_accepted(name: str) -> None:
    module = refs.module(name)
    assert module.accepts(VALID[name]) and module.diagnose(VALID[name]) == []
