"""The kinds of problem, one row each: a new kind is a module and a row here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.kinds.base import Kind
from judge.kinds.functions.kind import Functions
from judge.kinds.interactive.kind import Interactive
from judge.kinds.stdio import Stdio
from judge.kinds.unit.kind import UnitTests

if TYPE_CHECKING:
    from judge.problem.spec import Problem

KINDS: dict[str, Kind] = {kind.name: kind for kind in (Stdio(), Interactive(), Functions(), UnitTests())}


def of(problem: Problem) -> Kind:
    """The kind of `problem` (its spec says which; the spec's loader checked it is known)."""
    return KINDS[problem.kind]
