"""The kinds of problem, one row each: a new kind is a module and a row here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.problem.kinds.base import Kind
from judge.problem.kinds.functions.kind import Functions
from judge.problem.kinds.interactive.kind import Interactive
from judge.problem.kinds.stdio import Stdio
from judge.problem.kinds.unit.kind import UnitTests

if TYPE_CHECKING:
    from judge.problem.spec import Problem

KINDS: dict[str, Kind] = {kind.name: kind for kind in (Stdio(), Interactive(), Functions(), UnitTests())}


def of(problem: Problem) -> Kind:
    """The kind of `problem` (its spec says which; the spec's loader checked it is known)."""
    return KINDS[problem.kind]
