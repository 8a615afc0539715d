"""Reference problems: input format, reference solver, validator; their generators in judge.problem.gens.

A problem spec names one of them as its `reference`. `module(name)` imports only the
light part that `judge solve` needs; `get(name)` assembles the full Reference.
"""

from __future__ import annotations

import importlib
from types import ModuleType

TYPE_CHECKING = False  # the typing module costs `judge solve` 20 ms to import
if TYPE_CHECKING:
    from judge.problem.refs.base import Reference

_MODULES: dict[str, str] = {
    "lanqiao": "lanqiao",
    "eight-digits": "eight_digits",
    "sicily-rotations": "sicily_rotations",
}

NAMES: tuple[str, ...] = tuple(_MODULES)


def _module_name(name: str) -> str:
    try:
        return _MODULES[name]
    except KeyError:
        raise KeyError(f"unknown reference {name!r} (known: {', '.join(NAMES)})") from None


def module(name: str) -> ModuleType:
    """The reference's own module: TABLES, accepts, canonical, validate, diagnose, solve."""
    return importlib.import_module(f"judge.problem.refs.{_module_name(name)}")


def get(name: str) -> Reference:
    """The full reference, generators included; KeyError names the known ones."""
    from judge.problem.refs.base import Reference

    own = module(name)
    generators = importlib.import_module(f"judge.problem.gens.{_module_name(name)}").GENERATORS
    return Reference(name=name, validate=own.validate, solve=own.solve, generators=generators, tables=own.TABLES)
