"""The code of a C-like source (Java, C#, Kotlin, JavaScript) with its comments and string and
character literals blanked (pure): a pre-check that looks for `moves(` must not find it in a
comment or a string, where the compiler would not. Newlines are kept, so lines keep their
numbers; what is blanked becomes spaces."""

from __future__ import annotations

_QUOTES = frozenset(b"\"'`")


def _blank(part: bytes) -> bytes:
    return bytes(b if b == 0x0A else 0x20 for b in part)


def _literal_end(source: bytes, start: int) -> int:
    """Where the literal opening at `start` ends: its closing quote (a backslash escapes the
    next byte), or the line's end for a quote left open; a backtick's runs over lines."""
    quote = source[start]
    i = start + 1
    while i < len(source):
        byte = source[i]
        if byte == 0x5C:  # a backslash
            i += 2
            continue
        if byte == quote:
            return i + 1
        if byte == 0x0A and quote != 0x60:
            return i
        i += 1
    return len(source)


def code_only(source: bytes) -> bytes:
    """`source` with every comment (// and /* */) and literal ("...", '...', `...`, and the
    triple-quoted text blocks of Java and Kotlin) made blank."""
    out = bytearray()
    i, n = 0, len(source)
    while i < n:
        if source.startswith(b"//", i):
            end = source.find(b"\n", i)
            end = n if end < 0 else end
        elif source.startswith(b"/*", i):
            end = source.find(b"*/", i + 2)
            end = n if end < 0 else end + 2
        elif source.startswith(b'"""', i):
            end = source.find(b'"""', i + 3)
            end = n if end < 0 else end + 3
        elif source[i] in _QUOTES:
            end = _literal_end(source, i)
        else:
            out.append(source[i])
            i += 1
            continue
        out += _blank(source[i:end])
        i = end
    return bytes(out)
