"""Reference problems: input format, strict validator, reference solver and generators.

Each module here is pure (no I/O). A problem spec names one of them as its
`reference`; the registry imports only the one asked for, which keeps `judge solve`
quick to start.
"""

from __future__ import annotations

import importlib

from judge.refs.base import Reference

_MODULES: dict[str, str] = {
    "lanqiao": "judge.refs.lanqiao",
    "eight-digits": "judge.refs.eight_digits",
    "sicily-rotations": "judge.refs.sicily_rotations",
}

NAMES: tuple[str, ...] = tuple(_MODULES)


def get(name: str) -> Reference:
    """The reference named `name`; KeyError names the known ones."""
    try:
        module_name = _MODULES[name]
    except KeyError:
        raise KeyError(f"unknown reference {name!r} (known: {', '.join(NAMES)})") from None
    reference: Reference = importlib.import_module(module_name).REFERENCE
    return reference
