"""What a student's tests earn, and what the student may learn of it (pure: no I/O).

Each bug is a group of one case: AC when some valid test caught it. The names a student sees
follow the spec's `shows`: opaque (bug-1, ...) for count, the bug's title or file name for
names and hints; a bug's code and its tests' outputs are never among them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from judge.kinds.base import DataCase as Row
from judge.kinds.tests.mutation import Mutant
from judge.problem.spec import Bug, Suite
from judge.run.verdicts import Verdict

VALIDITY = "validity"  # the group of the student's tests themselves: 0 points, each test valid or why not


@dataclass(frozen=True)
class Checked:
    """One student test after the validator and the reference: `why` it is invalid, "" if valid."""

    name: str
    why: str


@dataclass(frozen=True)
class BugRun:
    """One bug against the valid tests: the first test that caught it ("" none), or why it
    could not be run (the judge's failure, never the student's); `cut`: the judging's time cap
    cut some of its runs short (unit_suite.budget_for); `spent`: the cap of the submission's
    whole judging (Suite.time_cap_s) ran out before its runs were done."""

    caught_by: str
    failure: str = ""
    cut: bool = False
    spent: bool = False


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-_")[:48] or "bug"


AnyBug = Bug | Mutant  # a solution of the problem under test, or a mutant of its reference


def secret(suite: Suite, bug: AnyBug) -> bool:
    """Whether students may not learn which bug this is: at `shows: count`, or a secret mutant."""
    return suite.shows == "count" or (isinstance(bug, Mutant) and suite.mutants is not None and suite.mutants.secret)


def group_names(suite: Suite, bugs: tuple[AnyBug, ...]) -> tuple[str, ...]:
    """The group of each bug, as students may see it: unique, and opaque when they may not
    learn which (bug-N; a secret mutant mutant-N); a mutant's name is its line and change."""
    names: list[str] = []
    mutants = 0
    for index, bug in enumerate(bugs, start=1):
        mutants += isinstance(bug, Mutant)
        if suite.shows == "count":
            base = f"bug-{index}"
        elif isinstance(bug, Mutant):
            base = f"mutant-{mutants}" if secret(suite, bug) else bug.group
        else:
            base = _slug(bug.title or PurePosixPath(bug.path).stem)
        name = base
        while name in names or name == VALIDITY:
            name = f"{base}-{index}"
        names.append(name)
    return tuple(names)


def bug_points(suite: Suite, count: int) -> float:
    """A caught bug's points: the spec's per bug, or its whole shared out."""
    if suite.scoring == "fraction":
        return round(suite.points / count, 4) if count else 0.0
    return suite.points_per_bug


def rows(
    suite: Suite, bugs: tuple[AnyBug, ...], checked: tuple[Checked, ...], runs: tuple[BugRun, ...]
) -> tuple[Row, ...]:
    """The record's cases: each student test's validity (public: the test is the student's own),
    then each bug, caught or not, said as `shows` allows."""
    # An invalid test is not run on any bug (NJ, which no verdict is made of): it earns nothing.
    found = [
        Row(VALIDITY, f"{VALIDITY}/{c.name}", True, Verdict.NJ if c.why else Verdict.AC, c.why or "valid")
        for c in checked
    ]
    for name, bug, run in zip(group_names(suite, bugs), bugs, runs, strict=True):
        public = not secret(suite, bug)
        if run.failure:
            found.append(Row(name, f"{name}/01", public, Verdict.IE, run.failure))
        elif run.caught_by:
            found.append(Row(name, f"{name}/01", public, Verdict.AC, f"caught by {run.caught_by}.in"))
        else:
            missed = "not caught (the judging's time cap cut its runs short)" if run.cut else "not caught"
            if run.spent:  # before a hint: the suite's own slowness cost this bug
                missed = "not caught: the judging's time cap was spent before its runs were done"
                public = True  # even a secret bug's: the words are the same for every bug
            elif suite.shows == "hints" and isinstance(bug, Bug) and bug.hint:  # a mutant has no hint
                missed = f"not caught: {bug.hint}"
            found.append(Row(name, f"{name}/01", public, Verdict.WA, missed))
    return tuple(found)


def caught(runs: tuple[BugRun, ...]) -> int:
    return sum(bool(run.caught_by) for run in runs)
