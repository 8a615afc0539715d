"""A student's own pytest files for a unit problem (a tests problem `for` a unit problem): run
against the problem's reference (validity: every test must pass there) and each bug (its wrong
solutions: other modules of the same name), a bug caught when some valid test fails on it.

The roles of the unit kind swapped: the tests are the student's, in the tests' box with the
stand-ins (nothing of the problem's there), and the module is the teacher's, in a box of its own
where no student's file ever is, served by the bridge's guarded side (bridge_student.py
--guarded): only the module's own public names, values as data. docs/tests.md."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from judge.errors import JudgeError
from judge.kinds.base import DataCase, run_limits
from judge.kinds.tests import matrix, scoring, suite
from judge.kinds.tests.scoring import BugRun, Checked
from judge.kinds.unit import found, listing, pairs
from judge.problem.locate import SPEC_FILE
from judge.run import languages, lifecycle, programs
from judge.run.programs import ProgramError
from judge.run.sources import Launch
from judge.run.verdicts import CaseVerdict, Verdict

if TYPE_CHECKING:
    from judge.kinds.base import Kind
    from judge.problem.spec import Bug, Problem, Suite

FOLDER = "tests"


@dataclass(frozen=True)
class UnitSuite:
    """A student's test files, checked and listed: each test's id and the name it is shown by."""

    files: tuple[tuple[str, bytes], ...]
    ids: tuple[str, ...]
    names: tuple[str, ...]


def is_unit(target_dir: Path) -> bool:
    """Whether the problem under test is a unit problem (its problem.yaml says `kind: unit`)."""
    try:
        spec = yaml.safe_load((target_dir / SPEC_FILE).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return False  # the spec's loader says why, naming the file
    return isinstance(spec, dict) and spec.get("kind") == "unit"


def read(given: Path | tuple[str, bytes], spec: Suite, work: Path) -> UnitSuite:
    """The student's pytest files (test_*.py or *_test.py at the top), written into `work` and
    listed there; JudgeError naming the file (and line) for anything else."""
    shown, files = checked_files(given, spec)
    work.mkdir(parents=True, exist_ok=True)
    for name, data in files:
        (work / name).write_bytes(data)
    try:
        tests = [t for t in listing.unit_tests(work, 1.0, {}) if not t.skipped]
    except listing.ListingError as err:
        line = f":{err.line}" if err.line else ""
        raise JudgeError(f"{shown}: {err.path.name}{line}: {err}") from None
    if not tests:
        raise JudgeError(f"{shown}: no tests (functions named test_... in test_NAME.py files)")
    if len(tests) > spec.max_tests:
        raise JudgeError(f"{shown}: {len(tests)} tests, over the cap of {spec.max_tests}")
    taken: set[str] = set()
    names = tuple(found.group_name(t.id, taken) for t in tests)
    return UnitSuite(tuple(sorted(files)), tuple(t.id for t in tests), names)


def unit_shown(spec: Suite) -> str:
    """What a submission is, in short lines (the statement's box in place of samples)."""
    return (
        f"Tests of {spec.of}: pytest files test_NAME.py\n(a folder or .zip of them, or one file)"
        f" that import its module,\nat most {spec.max_tests} tests, files of at most {spec.max_test_bytes} bytes.\n"
    )


def checked_files(given: Path | tuple[str, bytes], spec: Suite) -> tuple[str, list[tuple[str, bytes]]]:
    """How to name the submission, and its files if each is a pytest file of tests at the top
    within the cap (else JudgeError naming the file): what the web judge's door reads too."""
    shown, files, _ = suite.submitted(given, spec)
    wanted, _ = found.FRAMEWORKS["pytest"]
    for name, data in files:
        if "/" in name or not wanted(name) or not suite.NAME.match(name.removesuffix(".py")):
            raise JudgeError(f"{shown}: {name}: not a pytest file of tests (test_NAME.py or NAME_test.py, at the top)")
        if len(data) > spec.max_test_bytes:
            raise JudgeError(f"{shown}: {name}: {len(data)} bytes, over the cap of {spec.max_test_bytes} per file")
    return shown, files


def submission_bytes(given: Path | tuple[str, bytes], spec: Suite) -> bytes:
    """The submission's bytes as its hash takes them (its files, by name), checked as `read` does."""
    files = checked_files(given, spec)[1]
    return b"".join(f"{name}\0{len(content)}\0".encode() + content for name, content in sorted(files))


def read_bytes(given: Path | tuple[str, bytes], spec: Suite) -> bytes:
    """The submission's bytes (as `submission_bytes`) once its files read as tests, so a file
    that is not Python or holds no test is refused naming it (and its line) before it is judged:
    the web judge's door, where a refusal spends no submission."""
    work = lifecycle.make_temp_dir("unit-suite-read")
    try:
        read(given, spec, work / FOLDER)  # its tests listed from the source (ast), none run
    finally:
        lifecycle.remove_dir(work)
    return submission_bytes(given, spec)


def _under_tests(target: Problem, tests: Path) -> Problem:
    """The problem under test with the student's folder as its tests, always `mode: apart`."""
    unit = target.spec.unit
    assert unit is not None
    made = unit.model_copy(update={"tests": str(tests), "mode": "apart", "isolate": "file"})
    problem = replace(target, spec=target.spec.model_copy(update={"unit": made}))
    # Its digest is the problem under test's (the tests' folder, outside it, is keyed by content).
    object.__setattr__(problem, "digest", target.digest)
    return problem


def verdicts(problem: Problem, kind: Kind, path: str, ids: tuple[str, ...]) -> dict[str, CaseVerdict]:
    """The student's tests `ids` against one of the problem's modules (`path`: its reference or
    a bug), in its own box behind the bridge's guarded side: each test's verdict."""
    try:
        program = kind.program(problem, programs.load(problem.directory / path))
        built = programs.build(program, problem.spec.limits.memory_mib)
    except ProgramError as err:
        return dict.fromkeys(ids, CaseVerdict(Verdict.IE, f"the module does not build: {err}"))
    limits = run_limits(problem, languages.load().languages[built.language])
    launch = Launch(built.argv, built.language)
    # The build's folder is the module's box: run_pairs copies it fresh for each pair.
    results = pairs.run_pairs(problem, launch, built.directory, list(ids), limits, guarded=True)
    return {test: result.decided for test, result in results.items()}


def invalid(decided: CaseVerdict | None) -> str:
    """Why a test is invalid by its verdict on the reference ("" if it passed there). The bridge
    calls the module "the student's code", which here is the reference."""
    if decided is None:
        return "it did not run on the reference"
    if decided.verdict is Verdict.AC:
        return ""
    message = decided.message.replace("the student's code", "the reference").replace("the student's", "the")
    return f"it fails on the reference ({decided.verdict.value}): {message}"[:600]


def run_bug(problem: Problem, kind: Kind, bug: Bug, tests: UnitSuite, valid: tuple[str, ...]) -> BugRun:
    """The valid tests on a bug: caught by the first that does not pass (an IE catches nothing)."""
    decided = verdicts(problem, kind, bug.path, valid)
    named = dict(zip(tests.ids, tests.names, strict=True))
    for test in valid:
        verdict = decided[test].verdict if test in decided else Verdict.IE
        if verdict not in (Verdict.AC, Verdict.IE):
            return BugRun(named[test])
    return BugRun("")


def judge_suite(
    spec: Suite, bugs: tuple[Bug, ...], target: Problem, kind: Kind, given: Path | tuple[str, bytes], jobs: int = 2
) -> tuple[tuple[Checked, ...], tuple[BugRun, ...]]:
    """The student's pytest files against the reference, then the valid tests against each bug."""
    unit = target.spec.unit
    assert unit is not None
    if unit.framework == "junit5":
        raise JudgeError(f"{target.spec_path}: a JUnit problem cannot be under test yet (pytest and unittest ones can)")
    work = lifecycle.make_temp_dir("unit-suite")
    try:
        # The folder is named by its content: the tests' program is built once per content.
        digest = hashlib.sha256(submission_bytes(given, spec)).hexdigest()[:16]
        tests = read(given, spec, work / f"{FOLDER}-{digest}")
        problem = _under_tests(target, work / f"{FOLDER}-{digest}")
        with matrix.worker_pool(jobs) as pool:
            on_reference = pool([(verdicts, (problem, kind, target.spec.reference, tests.ids))])[0]
            checked = tuple(
                Checked(name, invalid(on_reference.get(test)))
                for test, name in zip(tests.ids, tests.names, strict=True)
            )
            valid = tuple(test for test, c in zip(tests.ids, checked, strict=True) if not c.why)
            if not valid:
                return checked, tuple(BugRun("") for _ in bugs)
            return checked, tuple(pool([(run_bug, (problem, kind, bug, tests, valid)) for bug in bugs]))
    finally:
        lifecycle.remove_dir(work)


def judged(spec: Suite, target: Problem, kind: Kind, given: Path | tuple[str, bytes]) -> tuple[DataCase, ...]:
    """The submission's cases, as the kind's rows say them: a test is named by its name alone
    (the rows name a stdio test by its input file)."""
    bugs = matrix.bugs_of(target.directory, spec)
    checked, runs = judge_suite(spec, bugs, target, kind, given)
    named = {f"caught by {run.caught_by}.in": f"caught by {run.caught_by}" for run in runs if run.caught_by}
    return tuple(
        replace(row, message=named.get(row.message, row.message)) for row in scoring.rows(spec, bugs, checked, runs)
    )
