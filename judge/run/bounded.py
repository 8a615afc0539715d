"""JSON that untrusted code wrote, read with bounds (pure): its size, its nesting and its
encoding are checked, and what breaks one is OutOfBounds, a ValueError of one line for the
caller to make the student's verdict (RE, WA or CE), never a RecursionError or a traceback.

json.loads recurses once a level: a line nested 200,000 deep raises RecursionError inside it,
and a value a few hundred deep would raise it later in every walker (a comparison, a type
check, a message quoting it). So a value read here is at most MAX_DEPTH levels deep (a list
or a dict is a level: `[[1]]` is two), each of its strings is Unicode text (no lone surrogate
such as "\\ud800", which no UTF-8 file, terminal or database takes), each of its numbers
finite (NaN, Infinity and 1e999 are refused), and its text was strict UTF-8 of at most
`max_bytes` bytes.
"""

from __future__ import annotations

import json
import math
import re
from typing import Literal, NoReturn

MAX_DEPTH = 100  # levels of lists and dicts in one value read from untrusted JSON
MAX_BYTES = 16 << 20  # the text of one value (a returned value, a program's JSON output)
# Where a lone surrogate could come from: an escape of the surrogate range (a pair too, checked after).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")
# A JSON string (of valid JSON: this pattern is linear there), and the bytes that are no bracket.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_AS_SQUARE = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


Bound = Literal["size", "text", "json", "depth"]  # text: not UTF-8, or a lone surrogate


class OutOfBounds(ValueError):
    """Untrusted JSON not read: why, in one line (`nested deeper than 100 levels`), and which
    bound it broke."""

    def __init__(self, said: str, bound: Bound) -> None:
        super().__init__(said)
        self.bound = bound


def loads(data: bytes, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> object:
    """The JSON value `data` holds, within the bounds; OutOfBounds saying which it breaks."""
    if len(data) > max_bytes:
        raise OutOfBounds(f"over {_size(max_bytes)} of JSON", "size")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise OutOfBounds(f"not UTF-8 text (byte {err.start + 1})", "text") from None
    try:
        value = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except RecursionError:
        raise OutOfBounds(f"nested deeper than {max_depth} levels", "depth") from None
    except ValueError as err:  # JSONDecodeError, and an int of more digits than Python reads
        said = str(err).splitlines()[0][:100] if str(err) else type(err).__name__
        raise OutOfBounds(f"not JSON ({said})", "json") from None
    if nested_deeper(data, max_depth):
        raise OutOfBounds(f"nested deeper than {max_depth} levels", "depth")
    if _SURROGATE_ESCAPE.search(data):
        lone = lone_surrogate(value)
        if lone:
            raise OutOfBounds(f"not Unicode text: a lone surrogate ({lone}) in a string", "text")
    return value


def _finite(text: str) -> float:
    """A JSON number with a fraction or an exponent as a float, refused where it is beyond one (1e999)."""
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:20]}... is beyond a float")
    return number


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: Python's json reads them, no harness writes them


def nested_deeper(data: bytes, limit: int) -> bool:
    """Whether valid JSON text nests lists and dicts more than `limit` levels, from the text
    alone (no recursion, whatever its depth): strings out, only brackets kept, then the empty
    pairs taken out `limit` times, each time exactly one level off the deepest."""
    if data.count(b"[") + data.count(b"{") <= limit:  # at least one opening bracket a level
        return False
    shape = (_STRING.sub(b"", data) if b'"' in data else data).translate(_AS_SQUARE, _NOT_BRACKETS)
    for _ in range(limit):
        if not shape:
            return False
        shape = shape.replace(b"[]", b"")
    return bool(shape)


def lone_surrogate(value: object) -> str:
    """The first lone surrogate in a JSON value's strings (keys too) as its escape, "\\ud800";
    "" when every string is Unicode text. Only for a value within MAX_DEPTH (json.dumps recurses)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as err:
        return f"\\u{ord(err.object[err.start]):04x}"
    return ""


def _size(count: int) -> str:
    return f"{count >> 20} MiB" if count >= 1 << 20 else f"{count} bytes"
