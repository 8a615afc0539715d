"""The kinds of problem, one row each: a new kind is a module and a row here."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from judge.kinds.base import Kind
from judge.kinds.functions.kind import Functions
from judge.kinds.interactive.kind import Interactive
from judge.kinds.stdio import Stdio
from judge.kinds.tests.kind import Tests
from judge.kinds.unit.kind import UnitTests
from judge.problem import spec as specs
from judge.problem.spec import Problem, ProblemSpec

KINDS: dict[str, Kind] = {kind.name: kind for kind in (Stdio(), Interactive(), Functions(), UnitTests(), Tests())}
DEFAULT = next(iter(KINDS.values()))  # the first row: a spec's kind when it names none


def of(problem: Problem) -> Kind:
    """The kind of `problem` (its spec says which; the spec's loader checked it is known)."""
    return KINDS[problem.kind]


class _Table:
    """The table as the spec's loader sees it (judge.problem.spec.KindTable)."""

    def all(self) -> Sequence[Kind]:
        return tuple(KINDS.values())

    def chosen(self, spec: ProblemSpec) -> Kind | None:
        """The kind the spec names; where it names none (or the default, as specs written
        before `kind: interactive` did), the first kind named by a key it sets
        (named_by_keys), else the first row."""
        if spec.kind is not None and spec.kind != DEFAULT.name:
            return KINDS.get(spec.kind)
        implied = (k for k in KINDS.values() if k.named_by_keys and set(k.spec_keys) & spec.model_fields_set)
        return next(implied, DEFAULT)

    def unnamed(self) -> str:
        """What `chosen` does where the spec names no kind, in words for the spec's schema."""
        implied = [k for k in KINDS.values() if k.named_by_keys]
        said = [f"{k.name} with {' or '.join(f'`{key}`' for key in k.spec_keys)}" for k in implied]
        return ", ".join([*said, f"else {DEFAULT.name}"])


TABLE = _Table()


def load_problem(directory: Path, judging_only: bool = False) -> Problem:
    """Load and check `directory/problem.yaml`, each kind's keys by its own rules (SpecError
    listing every issue). See judge.problem.spec.read_problem."""
    return specs.read_problem(directory, TABLE, judging_only)


def json_schema() -> str:
    """The JSON schema of problem.yaml (problems/problem.schema.json), `kind` from this table."""
    return specs.json_schema(TABLE)
