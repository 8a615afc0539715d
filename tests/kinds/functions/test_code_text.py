"""code_text.code_only: the code of a C-like source, its comments and literals blanked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from judge.kinds.functions.code_text import code_only


def test_comments_and_literals_are_blank_and_code_is_kept() -> None:
    source = (
        b"// moves( in a line comment\n"
        b"/* moves( in a block\n   over lines */\n"
        b'class Solution { String s = "moves(\\" still"; char c = \'(\'; }\n'
        b'var t = `moves(\n`; String u = """\nmoves(\n""";\n'
        b"long max_sum(int[] xs) { return 0; } // the end\n"
    )
    kept = code_only(source)
    assert b"moves(" not in kept
    assert b"class Solution {" in kept and b"long max_sum(int[] xs) { return 0; }" in kept
    assert kept.count(b"\n") == source.count(b"\n") and len(kept) == len(source)


def test_a_literal_left_open_ends_at_its_line() -> None:
    kept = code_only(b'String s = "open\nint moves(int x) {}\n')
    assert b"int moves(int x) {}" in kept


@given(st.binary(max_size=400))
def test_any_bytes_keep_their_length_and_lines(source: bytes) -> None:
    kept = code_only(source)
    assert len(kept) == len(source)
    assert [i for i, b in enumerate(kept) if b == 0x0A] == [i for i, b in enumerate(source) if b == 0x0A]
