"""The mutants of a tests problem (`tests: mutants:`): made from the reference of the problem
under test (judge.kinds.tests.mutation), each run on that problem's own tests (its tests/, or a
unit problem's test files), and kept only when it builds and some test catches it (its verdict
not AC). Which were kept is cached once per
machine under the judge's cache folder, keyed by the reference's bytes, the operators, the cap
and the data that filtered them; `judge gen` and `judge verify` make it, loading reads it."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from judge.errors import JudgeError
from judge.kinds.base import Kind
from judge.kinds.tests import matrix, mutation, unit_suite
from judge.kinds.tests.mutation import Mutant
from judge.kinds.tests.scoring import AnyBug, BugRun
from judge.kinds.unit import listing
from judge.kinds.unit.found import per_test_table
from judge.paths import cache_dir
from judge.problem import testdata
from judge.problem.locate import SPEC_FILE
from judge.problem.spec import TESTS_DIR, Problem, Suite
from judge.run import programs
from judge.run.programs import ProgramError
from judge.run.verdicts import Verdict

CACHE_VERSION = 1


@dataclass(frozen=True)
class Made:
    """The mutants kept, and what became of the others tried."""

    kept: tuple[Mutant, ...]
    tried: int
    survived: int  # every test of the data passed: equivalent, or the data too weak
    broken: int  # did not build

    @property
    def said(self) -> str:
        return (
            f"{len(self.kept)} mutants kept of {self.tried} tried: {self.survived} survived the problem's own"
            f" tests, {self.broken} did not build"
        )


def _reference(target_dir: Path) -> tuple[Path, tuple[tuple[str, bytes], ...], dict[str, object]] | None:
    """The reference of the problem under test: its path, its files (name, bytes; a folder's
    by their names in it) and the problem's spec as read; None without such a file."""
    try:
        data = yaml.safe_load((target_dir / SPEC_FILE).read_text(encoding="utf-8"))
        path = target_dir / str(data["reference"])
        if not path.is_dir():
            return path, ((path.name, path.read_bytes()),), data
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        return path, tuple((p.relative_to(path).as_posix(), p.read_bytes()) for p in files), data
    except (OSError, UnicodeDecodeError, yaml.YAMLError, KeyError, TypeError):
        return None


def _hash_folder(digest: Any, folder: Path, base: Path) -> None:
    for item in sorted(folder.rglob("*")) if folder.is_dir() else ():
        if item.is_file() and "__pycache__" not in item.parts:
            digest.update(f"\0{item.relative_to(base)}\0".encode() + item.read_bytes())


def _key(target_dir: Path, suite: Suite) -> str | None:
    """The cache key: the reference's bytes, the operators and cap, and the problem's spec and
    test data (what decides which mutants its tests catch); None without a reference file."""
    assert suite.mutants is not None
    found = _reference(target_dir)
    if found is None:
        return None
    path, files, spec = found
    digest = hashlib.sha256(f"judge-mutants {CACHE_VERSION}\0{path.name}\0".encode())
    if len(files) == 1:
        digest.update(files[0][1])
    for name, data in files if len(files) > 1 else ():
        digest.update(f"\0{name}\0".encode() + data)
    digest.update(f"\0{sorted(suite.mutants.operators)}\0{suite.mutants.max}\0".encode())
    digest.update((target_dir / SPEC_FILE).read_bytes())
    _hash_folder(digest, target_dir / TESTS_DIR, target_dir / TESTS_DIR)
    unit = spec.get("unit")  # a unit problem's own tests are its test files
    if isinstance(unit, dict) and unit.get("tests"):
        _hash_folder(digest, target_dir / str(unit["tests"]), target_dir)
    return digest.hexdigest()


def _cache_file(key: str) -> Path:
    return Path(cache_dir()) / "mutants" / f"{key}.json"


def candidates(target_dir: Path, suite: Suite) -> tuple[Mutant, ...]:
    """Every mutant of the reference by the spec's operators, in the order they are tried: of
    one file in Python, C or C++, or of each .py file of a Python reference of several."""
    assert suite.mutants is not None
    found = _reference(target_dir)
    if found is None:
        return ()
    try:
        program = programs.load(found[0])
    except ProgramError:
        return ()
    family, operators = program.language.family, suite.mutants.operators
    if program.single and family in mutation.FAMILIES:
        made = mutation.mutants_of(family, found[1][0][1].decode("utf-8", errors="replace"), operators)
        return mutation.ordered(made, hashlib.sha256(found[1][0][1]).hexdigest())
    if program.single or family != "python":
        return ()
    texts = [(name, data.decode("utf-8", errors="replace")) for name, data in program.files if name.endswith(".py")]
    seed = hashlib.sha256(b"".join(f"{name}\0".encode() + data + b"\0" for name, data in program.files))
    return mutation.ordered(mutation.in_files(texts, operators), seed.hexdigest())


def cached(target_dir: Path, suite: Suite) -> Made | None:
    """The mutants made on this machine for this reference, operators and data; None when
    not made yet (or the spec asks for none)."""
    if suite.mutants is None:
        return None
    key = _key(target_dir, suite)
    try:
        record = json.loads(_cache_file(key).read_text(encoding="utf-8")) if key else None
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    by_name = {m.name: m for m in candidates(target_dir, suite)}
    kept = tuple(by_name[name] for name in record.get("kept", ()) if name in by_name)
    return Made(kept, int(record.get("tried", 0)), int(record.get("survived", 0)), int(record.get("broken", 0)))


def make(
    target: Problem, kind: Kind, suite: Suite, jobs: int = 2, notify: Callable[[int, int], None] | None = None
) -> Made:
    """Make (or read from the cache) the mutants: each candidate, in order, built and run on the
    problem's own tests until `max` are caught by some test; `notify(kept, tried)` as it goes."""
    assert suite.mutants is not None
    found = cached(target.directory, suite)
    if found is not None:
        return found
    key = _key(target.directory, suite)
    queue = candidates(target.directory, suite)
    if key is None or not queue:
        raise JudgeError(
            f"{target.spec_path}: no mutant can be made of its reference {target.spec.reference}: mutants need"
            " a reference of one file in Python, C or C++, or of Python files (a unit problem's modules), with a"
            " comparison, an integer, a condition or a statement"
        )
    trial = _trial(target, kind)
    kept: list[Mutant] = []
    tried = survived = broken = 0
    with matrix.worker_pool(jobs) as pool:
        while tried < len(queue) and len(kept) < suite.mutants.max:
            batch = queue[tried : tried + max(jobs, suite.mutants.max - len(kept))]
            runs = pool([trial(mutant) for mutant in batch])
            for mutant, run in zip(batch, runs, strict=True):
                if len(kept) == suite.mutants.max:
                    break  # the rest of the batch as if never tried: the same mutants whatever `jobs`
                tried += 1
                if run.failure:
                    broken += 1
                elif not run.caught_by:
                    survived += 1
                else:
                    kept.append(mutant)
            if notify is not None:
                notify(len(kept), tried)
    made = Made(tuple(kept), tried, survived, broken)
    _store(key, made)
    return made


def _trial(target: Problem, kind: Kind) -> Callable[[Mutant], matrix.Job]:
    """How a mutant is tried on the problem's own tests: a stdio or function problem's cases
    (tests/), or a unit problem's test files, all of them, as it judges a submission (unguarded:
    the teacher's tests may reach into the module as they do a student's)."""
    unit = target.spec.unit
    if unit is None:
        subject = matrix.subject(target, kind)
        cases = tuple((f"{c.group}/{c.name}", c.input, c.answer) for c in testdata.load_cases(target))
        return lambda mutant: (matrix.run_bug, (subject, mutant, cases))
    try:
        tests = listing.unit_tests(
            target.directory / unit.tests, unit.default_points, per_test_table(unit.per_test), unit.framework
        )
    except listing.ListingError as err:
        raise JudgeError(f"{target.spec_path}: its tests cannot be listed: {err}") from None
    ids = tuple(t.id for t in tests if not t.skipped)
    return lambda mutant: (own_tests_on, (target, kind, mutant, ids))


def own_tests_on(target: Problem, kind: Kind, mutant: Mutant, ids: tuple[str, ...]) -> BugRun:
    """A unit problem's own tests on a mutant of its reference: caught by the first that does
    not pass (an IE catches nothing), as unit_suite.run_bug decides a student's."""
    decided = unit_suite.verdicts(target, kind, mutant, ids, guarded=False)
    for test in ids:
        if test in decided and decided[test].verdict not in (Verdict.AC, Verdict.IE):
            return BugRun(test)
    return BugRun("")


def _store(key: str, made: Made) -> None:
    """Written to a temporary file and renamed: a reader sees the whole record or none."""
    path = _cache_file(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"kept": [m.name for m in made.kept], "tried": made.tried, "survived": made.survived}
    record["broken"] = made.broken
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def bugs(target_dir: Path, suite: Suite) -> tuple[AnyBug, ...]:
    """Every bug of the suite: the solutions, then the mutants made on this machine (none until made)."""
    made = cached(target_dir, suite)
    return (*matrix.bugs_of(target_dir, suite), *(made.kept if made is not None else ()))


def required(problem: Problem, target_dir: Path) -> None:
    """JudgeError in one line when the spec asks for mutants this machine has not made: a
    submission judged without them would be scored on fewer bugs than its problem has."""
    suite = problem.spec.tests
    if suite is not None and suite.mutants is not None and cached(target_dir, suite) is None:
        raise JudgeError(
            f"{problem.spec_path}: its mutants are not made on this machine (or {suite.of}'s reference or"
            f" tests changed since): run `judge gen {problem.id}`"
        )
