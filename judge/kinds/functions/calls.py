"""A function problem's sample as the student writes it (issue 59): `count_vowels("hello")`
and what it returns, from the spec's JSON, in the language's spelling of values where it
differs from JSON's (Python's True, False, None). Pure."""

from __future__ import annotations

import json

from judge.run import values

CUT = 200  # characters of a call or a value named in a message (a secret case's may be huge)
_PYTHON = {"true": "True", "false": "False", "null": "None"}


def literal(value: object, family: str) -> str:
    """One value as a literal: JSON's spelling, Python's where `family` is python."""
    if family != "python":
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if isinstance(value, bool) or value is None:
        return _PYTHON[json.dumps(value)]
    if isinstance(value, list):
        return "[" + ", ".join(literal(v, family) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k, family)}: {literal(v, family)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


def call(name: str, args: object, family: str) -> str:
    """`name(arg, ...)` of a case's arguments (its .in: a JSON list)."""
    listed = args if isinstance(args, list) else [args]
    return f"{name}({', '.join(literal(a, family) for a in listed)})"


def returned(answer: object, family: str) -> str:
    """What the call gives: its value, or `raises X` where the reference raised."""
    error = values.raised(answer)
    return f"raises {error}" if error is not None else literal(answer, family)


def cut(text: str) -> str:
    return text if len(text) <= CUT else text[: CUT - 1] + "…"
