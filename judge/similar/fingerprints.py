"""Fingerprints of source code for `judge similar` (pure): pygments' tokens, normalised so that
renaming, comments, layout and the language's own spelling do not count, then winnowed
k-grams (Schleimer, Wilkerson and Aiken, "Winnowing", SIGMOD 2003; the method of MOSS and of
copydetect).

Normalising: comments, whitespace, preprocessor lines and import/package statements go; every
name (variable, function, class, type from a library) becomes `N`, numbers `0`, strings `"`,
built-in types `T`; access modifiers go; `::`, `->` and `.` are one token. What is left is the
shape of the code, which a renamed or re-spaced copy keeps, and a C++ program copied into Java
keeps for most of its length.

Winnowing: hash every run of `K` tokens; in every window of `WINDOW` hashes keep the smallest.
Any run of `K + WINDOW - 1` tokens two programs share gives them a fingerprint in common, and
reordering functions moves fingerprints without losing them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pygments.lexer import Lexer
from pygments.token import Comment, Keyword, Literal, Name, Operator, Punctuation, String, Text, is_token_subtype

K = 8  # tokens per k-gram: shorter runs are in every program; longer ones break across languages
WINDOW = 6  # any shared run of K + WINDOW - 1 = 13 tokens is certain to be seen

_DROPPED_KEYWORDS = {
    "public", "private", "protected", "static", "final", "const", "constexpr", "inline", "unsigned", "signed",
    "struct", "class", "def", "self", "this", "auto", "var", "let", "new", "[", "]", "throws",
}  # fmt: skip
_SAME = {"::": ".", "->": ".", "&&": "and", "||": "or", "!": "not", "elif": "else if", "True": "1", "False": "0"}


@dataclass(frozen=True)
class Tokens:
    """A program's normalised tokens, each with where it starts and ends in the source."""

    values: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]  # character offsets [start, end) in the source


@dataclass(frozen=True)
class Fingerprint:
    """The winnowed hashes of a program, each with the token range its k-gram covers."""

    hashes: frozenset[int]
    where: tuple[tuple[int, int, int], ...]  # (hash, first token, last token + 1), in order


def lexer_for(language: str) -> Lexer:
    """The pygments lexer of one of the judge's languages."""
    from pygments.lexers import get_lexer_by_name

    names = {"c": "c", "cpp": "cpp", "python3": "python3", "java": "java"}
    return get_lexer_by_name(names.get(language, language))


def tokens(source: str, lexer: Lexer) -> Tokens:
    values: list[str] = []
    spans: list[tuple[int, int]] = []
    skipping_import = False
    for start, kind, text in lexer.get_tokens_unprocessed(source):
        value = text.strip()
        if not value or is_token_subtype(kind, Text) or is_token_subtype(kind, Comment):
            continue  # whitespace, comments and preprocessor lines (pygments files those under Comment)
        if is_token_subtype(kind, Keyword.Namespace) or value in ("import", "package", "using", "from"):
            skipping_import = True  # an import line says which library, not how the program works
            continue
        if skipping_import:
            if value == ";":
                skipping_import = False
                continue
            if is_token_subtype(kind, Name) or value in (".", "*", ",", "as", "namespace", "::"):
                continue
            skipping_import = False  # a Python import ends with its names; this token is code
        if value in _DROPPED_KEYWORDS:
            continue
        if is_token_subtype(kind, Keyword.Type):
            norm = "T"
        elif is_token_subtype(kind, Name):
            norm = "N"
        elif is_token_subtype(kind, Literal.Number):
            norm = "0"
        elif is_token_subtype(kind, String):
            if values and values[-1] == '"':
                continue  # one string however the lexer cuts it up
            norm = '"'
        elif is_token_subtype(kind, Operator) or is_token_subtype(kind, Punctuation) or is_token_subtype(kind, Keyword):
            norm = _SAME.get(value, value)
        else:
            norm = value
        values.append(norm)
        spans.append((start, start + len(text)))
    return Tokens(tuple(values), tuple(spans))


def _hash(gram: Sequence[str]) -> int:
    return int.from_bytes(hashlib.blake2b("\x1f".join(gram).encode(), digest_size=8).digest(), "big")


def fingerprint(found: Tokens, k: int = K, window: int = WINDOW) -> Fingerprint:
    """Winnow the k-grams of the tokens: the least hash of every window (rightmost on ties)."""
    grams = [_hash(found.values[i : i + k]) for i in range(len(found.values) - k + 1)]
    if not grams:
        return Fingerprint(frozenset(), ())
    chosen: list[tuple[int, int, int]] = []
    last = -1
    for first in range(max(1, len(grams) - window + 1)):
        block = grams[first : first + window]
        low = min(block)
        at = first + max(i for i, h in enumerate(block) if h == low)
        if at != last:
            chosen.append((low, at, at + k))
            last = at
    return Fingerprint(frozenset(h for h, _, _ in chosen), tuple(chosen))


def without(print_: Fingerprint, common: Iterable[int]) -> Fingerprint:
    """The fingerprint less the hashes of code everyone was given (the boilerplate)."""
    gone = frozenset(common)
    return Fingerprint(print_.hashes - gone, tuple(item for item in print_.where if item[0] not in gone))


def score(a: Fingerprint, b: Fingerprint) -> float:
    """How alike two programs are, 0..1: the Dice coefficient of their fingerprints."""
    if not a.hashes or not b.hashes:
        return 0.0
    return 2 * len(a.hashes & b.hashes) / (len(a.hashes) + len(b.hashes))


def shared_spans(mine: Fingerprint, found: Tokens, other: Fingerprint) -> list[tuple[int, int]]:
    """The parts of the source (character ranges, merged) that the other program shares."""
    common = mine.hashes & other.hashes
    ranges = sorted((found.spans[first][0], found.spans[end - 1][1]) for h, first, end in mine.where if h in common)
    merged: list[tuple[int, int]] = []
    for start, end in ranges:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
