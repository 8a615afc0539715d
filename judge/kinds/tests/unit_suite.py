"""A student's own pytest files (or JUnit test classes) for a unit problem (a tests problem `for` a unit problem): run
against the problem's reference (validity: every test must pass there) and each bug (its wrong
solutions: other modules of the same name), a bug caught when some valid test fails on it.

The roles of the unit kind swapped: the tests are the student's, in the tests' box with the
stand-ins (nothing of the problem's there), and the module is the teacher's, in a box of its own
where no student's file ever is, served by the bridge's guarded side (bridge_student.py
--guarded, or JudgeStudent --guarded): only the module's own public names, values as data. Of
a JUnit problem, the tests' box holds stand-ins made in a box of the teacher's (guarded_junit.py),
never the classes' sources. docs/tests.md."""

from __future__ import annotations

import ast
import hashlib
import random
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from judge.errors import JudgeError
from judge.kinds.base import DataCase, run_limits
from judge.kinds.tests import matrix, scoring, suite
from judge.kinds.tests.mutation import Mutant
from judge.kinds.tests.scoring import AnyBug, BugRun, Checked
from judge.kinds.unit import found, guarded_junit, listing, pairs
from judge.problem.locate import SPEC_FILE
from judge.run import languages, lifecycle, programs, sources
from judge.run.programs import ProgramError
from judge.run.sources import Launch
from judge.run.verdicts import CaseVerdict, Verdict

if TYPE_CHECKING:
    from judge.kinds.base import Kind
    from judge.problem.spec import Problem, Suite

FOLDER = "tests"
JUNIT = "junit5"
JAVA_CLASS = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,99}\.java")
IE = CaseVerdict(Verdict.IE, "the test did not run")
# A student's test runs this many times on the reference (valid: passed each) and on a bug that
# it fails (caught: failed each): a coin-flip test earns a bug with chance at most 1/4**RUNS
# (docs/tests.md, "Luck").
RUNS = 3
# A guarded run of the suite on a bug (and the reference's run beside it) may take this many
# times the reference's slowest first run, this much more, and one test's own deadline (so a
# test that times out on a real TLE bug still catches it): a suite that stalls on a bug's wrong
# answers (sleeps to its deadline) then holds a worker about that long a run, not max_tests
# deadlines (issue 60). Scaled from the reference measured on the same machine, so load that
# slows both does not cut an honest suite.
CAP_FACTOR, CAP_EXTRA_S = 3.0, 5.0
# Each of the reference's validity runs may take this much wall time, and one test's deadline
# (`verdicts` adds it): without a cap, a suite whose every test sleeps on the reference held a
# worker max_tests deadlines a run, RUNS runs (issue 60). Generous: an honest suite is far
# faster, on a busy machine too; what goes over is cut, and a test cut is invalid (`invalid`).
REFERENCE_CAP_S = 60.0
# Besides, the whole judging of a submission (the reference's runs and every bug's) ends by the
# spec's `time_cap_s` from its start: each run's end is the sooner of its own and the
# judging's (`run_end`), what is cut catches nothing, and the bugs left are not run (issue 60:
# a suite slow everywhere held a worker for minutes a bug, the per-run caps scaling with it).
# Its default (`time_cap_for`) gives each run the judging may make a validity run's cap: an
# honest suite of 20 JUnit classes took about 54 s of a worker a run at load 15 on 2 cores,
# all process starts, so a lower default would cut honest suites on a web judge's one worker.
_COIN = random.SystemRandom()  # which of a bug's run and the reference's beside it comes first


@dataclass(frozen=True)
class UnitSuite:
    """A student's test files, checked and listed: each test's id and the name it is shown by."""

    files: tuple[tuple[str, bytes], ...]
    ids: tuple[str, ...]
    names: tuple[str, ...]


def framework_of(target_dir: Path) -> str | None:
    """The problem under test's unit framework (pytest, unittest, junit5), None when it is not a
    unit problem (its problem.yaml does not say `kind: unit`)."""
    try:
        spec = yaml.safe_load((target_dir / SPEC_FILE).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return None  # the spec's loader says why, naming the file
    if not isinstance(spec, dict) or spec.get("kind") != "unit":
        return None
    unit = spec.get("unit")
    framework = unit.get("framework", "pytest") if isinstance(unit, dict) else "pytest"
    return framework if framework in found.FRAMEWORKS else "pytest"


def read(given: Path | tuple[str, bytes], spec: Suite, work: Path, framework: str = "pytest") -> UnitSuite:
    """The student's pytest files (test_*.py or *_test.py at the top) or JUnit classes
    (NAMETest.java), written into `work` and listed there; JudgeError naming the file (and
    line) for anything else."""
    shown, files = checked_files(given, spec, framework)
    work.mkdir(parents=True, exist_ok=True)
    for name, data in files:
        (work / name).write_bytes(data)
    try:
        tests = [t for t in listing.unit_tests(work, 1.0, {}, framework) if not t.skipped]
    except listing.ListingError as err:
        line = f":{err.line}" if err.line else ""
        raise JudgeError(f"{shown}: {err.path.name}{line}: {err}") from None
    if not tests:
        what = (
            "@Test methods in NAMETest.java classes"
            if framework == JUNIT
            else "functions named test_... in test_NAME.py files"
        )
        raise JudgeError(f"{shown}: no tests ({what})")
    if len(tests) > spec.max_tests:
        raise JudgeError(f"{shown}: {len(tests)} tests, over the cap of {spec.max_tests}")
    taken: set[str] = set()
    names = tuple(found.group_name(t.id, taken) for t in tests)
    return UnitSuite(tuple(sorted(files)), tuple(t.id for t in tests), names)


def unit_shown(spec: Suite, framework: str = "pytest") -> str:
    """What a submission is, in short lines (the statement's box in place of samples)."""
    if framework == JUNIT:
        return (
            f"Tests of {spec.of}: JUnit 5 classes NAMETest.java\n(a folder or .zip of them, or one file)"
            f" that use its public classes,\nat most {spec.max_tests} tests, files of at most {spec.max_test_bytes} bytes.\n"
        )
    return (
        f"Tests of {spec.of}: pytest files test_NAME.py\n(a folder or .zip of them, or one file)"
        f" that import its module,\nat most {spec.max_tests} tests, files of at most {spec.max_test_bytes} bytes.\n"
    )


def checked_files(
    given: Path | tuple[str, bytes], spec: Suite, framework: str = "pytest"
) -> tuple[str, list[tuple[str, bytes]]]:
    """How to name the submission, and its files if each is a test file of the framework at the
    top within the cap (else JudgeError naming the file): what the web judge's door reads too."""
    shown, files, _ = suite.submitted(given, spec)
    if isinstance(given, tuple) and not sources.is_archive(Path(given[0])) and Path(given[0]).name != given[0]:
        raise JudgeError(f"{given[0]}: {name_refused(given[0], framework)}")  # one file sent under a path
    for name, data in files:
        if refused := name_refused(name, framework):
            raise JudgeError(f"{shown}: {name}: {refused}")
        if len(data) > spec.max_test_bytes:
            raise JudgeError(f"{shown}: {name}: {len(data)} bytes, over the cap of {spec.max_test_bytes} per file")
    return shown, files


def name_refused(name: str, framework: str = "pytest") -> str:
    """Why `name` is no test file's name of the framework ("" if it is one): a file at the top,
    named by the kind's pattern (the web judge's typed files are checked by it too)."""
    wanted, _ = found.FRAMEWORKS[framework]
    if framework == JUNIT:
        # A Java class's name (the file's), never one of the judge's runner (Judge...).
        if (
            "/" in name
            or "\\" in name
            or not wanted(name)
            or not JAVA_CLASS.fullmatch(name)
            or name.startswith("Judge")
        ):
            return "not a JUnit test class (NAMETest.java, TestNAME.java, at the top)"
    elif "/" in name or "\\" in name or not wanted(name) or not suite.NAME.match(name.removesuffix(".py")):
        return "not a pytest file of tests (test_NAME.py or NAME_test.py, at the top)"
    return ""


def submission_bytes(given: Path | tuple[str, bytes], spec: Suite, framework: str = "pytest") -> bytes:
    """The submission's bytes as its hash takes them (its files, by name), checked as `read` does."""
    files = checked_files(given, spec, framework)[1]
    return b"".join(f"{name}\0{len(content)}\0".encode() + content for name, content in sorted(files))


def read_bytes(given: Path | tuple[str, bytes], spec: Suite, framework: str = "pytest") -> bytes:
    """The submission's bytes (as `submission_bytes`) once its files read as tests, so a file
    that is not Python or holds no test is refused naming it (and its line) before it is judged:
    the web judge's door, where a refusal spends no submission."""
    work = lifecycle.make_temp_dir("unit-suite-read")
    try:
        read(given, spec, work / FOLDER, framework)  # its tests listed from the source, none run
    finally:
        lifecycle.remove_dir(work)
    return submission_bytes(given, spec, framework)


def _under_tests(target: Problem, tests: Path) -> Problem:
    """The problem under test with the student's folder as its tests, always `mode: apart`."""
    unit = target.spec.unit
    assert unit is not None
    made = unit.model_copy(update={"tests": str(tests), "mode": "apart", "isolate": "file"})
    problem = replace(target, spec=target.spec.model_copy(update={"unit": made}))
    # Its digest is the problem under test's (the tests' folder, outside it, is keyed by content).
    object.__setattr__(problem, "digest", target.digest)
    return problem


def verdicts(
    problem: Problem,
    kind: Kind,
    path: str | Mutant,
    ids: tuple[str, ...],
    stand_ins: tuple[tuple[str, Path], ...] = (),
    guarded: bool = True,
    offered: tuple[str, ...] = (),
    budget_s: float | None = None,
    until: float | None = None,
) -> dict[str, CaseVerdict]:
    """The student's tests `ids` against one of the problem's modules (`path`: its reference or
    a bug), in its own box behind the bridge's guarded side: each test's verdict. `stand_ins`:
    a JUnit problem's, made from its reference (`junit_stand_ins`); `budget_s`: the whole run's
    wall time at most, `until`: the judging's end (time.monotonic()), what either cuts off
    verdict pairs.CUT."""
    try:  # a mutant: the reference with one file changed (guarded=False: the teacher's own tests)
        source = (
            matrix.mutant_program(problem, path)
            if isinstance(path, Mutant)
            else programs.load(problem.directory / path)
        )
        program = kind.program(problem, source)
        built = programs.build(program, problem.spec.limits.memory_mib)
    except ProgramError as err:
        return dict.fromkeys(ids, CaseVerdict(Verdict.IE, f"the module does not build: {err}"))
    limits = run_limits(problem, languages.load().languages[built.language])
    launch = Launch(built.argv, built.language)
    # The build's folder is the module's box: run_pairs copies it fresh for each pair.
    by_file: dict[str, list[str]] = {}
    for test in ids:
        by_file.setdefault(test.split("::", 1)[0], []).append(test)
    decided: dict[str, CaseVerdict] = {}
    ends = run_end(time.monotonic(), budget_s, pairs.deadline_wall(limits), until)
    for file in by_file.values():  # a process (pair) per file: what one file does to its own reaches no other's
        left_s = None if ends is None else ends - time.monotonic()
        guard = pairs.GuardedPair(stand_ins, offered, left_s) if guarded else None
        results = pairs.run_pairs(problem, launch, built.directory, file, limits, guard)
        decided.update((test, result.decided) for test, result in results.items())
    return decided


def timed_verdicts(*args: object) -> tuple[dict[str, CaseVerdict], float]:
    """`verdicts` (its arguments as they are) and the wall time the run took."""
    start = time.monotonic()
    found = verdicts(*args)  # type: ignore[arg-type]
    return found, time.monotonic() - start


def run_end(now: float, budget_s: float | None, deadline_s: float, until: float | None) -> float | None:
    """When a run started `now` must end (time.monotonic(); None: never): after its budget and
    one test's deadline, or at the judging's end `until` if that comes first."""
    own = None if budget_s is None else now + budget_s + deadline_s
    if until is None:
        return own
    return until if own is None else min(own, until)


def time_cap_for(spec: Suite, bugs: int) -> float:
    """The wall time a submission's whole judging may take: the spec's, or REFERENCE_CAP_S for
    each run it may make (RUNS on the reference, and RUNS pairs a bug)."""
    return spec.time_cap_s if spec.time_cap_s is not None else REFERENCE_CAP_S * RUNS * (1 + 2 * bugs)


def spent(until: float | None) -> bool:
    """Whether the judging's time cap (its end `until`, time.monotonic()) is spent."""
    return until is not None and time.monotonic() >= until


def budget_for(reference_s: float) -> float:
    """The wall time a bug's run (or the reference's beside it) may take, but for one test's
    deadline (`verdicts` adds it): see CAP_FACTOR."""
    return CAP_FACTOR * reference_s + CAP_EXTRA_S


def failed_on(decided: CaseVerdict | None) -> bool:
    """Whether a test failed a run: neither passed, nor left unjudged (IE, or cut off: NJ)."""
    return decided is not None and decided.verdict not in (Verdict.AC, Verdict.IE, Verdict.NJ)


def still_catching(candidates: list[str], run: dict[str, CaseVerdict], on_reference: bool) -> list[str]:
    """The catch rule, one run at a time: of the tests that may still catch a bug, those that
    passed this run of the reference (`on_reference`) or failed this run of the bug. A test
    catches when it stays through every pair of runs (a bug's and the reference's beside it, in
    either order): whatever it reads (a clock), the reference's run saw it too."""
    if on_reference:
        return [test for test in candidates if (found := run.get(test)) is not None and found.verdict is Verdict.AC]
    return [test for test in candidates if failed_on(run.get(test))]


def invalid(decided: CaseVerdict | None, *again: CaseVerdict | None, cap_s: float | None = None) -> str:
    """Why a test is invalid by its verdicts on the reference, one a run ("" if it passed
    every run); `cap_s`: the judging's time cap, when it was spent by these runs. The bridge
    calls the module "the student's code", which here is the reference."""
    if pairs.CUT in (decided, *again):
        over = f"{REFERENCE_CAP_S:g} s" if cap_s is None else f"the judging's time cap of {cap_s:g} s"
        return f"the suite's run on the reference went over {over}, and this test was cut off"
    if decided is None or None in again:
        return "it did not run on the reference"
    if any((decided.verdict is Verdict.AC) != (other is not None and other.verdict is Verdict.AC) for other in again):
        return "flaky: passed and failed on the reference"
    if decided.verdict is Verdict.AC:
        return ""
    message = decided.message.replace("the student's code", "the reference").replace("the student's", "the")
    return f"it fails on the reference ({decided.verdict.value}): {message}"[:600]


def public_names(source: bytes) -> frozenset[str]:
    """The public names a Python module's source defines at its top (functions, classes,
    assigned names), read, never run."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return frozenset()
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.update(t.id for t in targets if isinstance(t, ast.Name))
    return frozenset(name for name in found if not name.startswith("_"))


def offered(target: Problem) -> tuple[str, ...]:
    """Each module under test with the names its reference defines (NAME=a,b): what the guarded
    side offers on the reference and on every bug alike, so no bug is told apart by a name of
    its own (one it lacks is missing where it is used)."""
    unit = target.spec.unit
    assert unit is not None
    try:
        reference = programs.load(target.directory / target.spec.reference)
    except ProgramError as err:
        raise JudgeError(f"{target.spec_path}: {err}") from None
    files = dict(reference.files)
    found = []
    for module in pairs.modules_of(unit):
        source = next(iter(files.values())) if reference.single else files.get(f"{module}.py", b"")
        found.append(f"{module}={','.join(sorted(public_names(source)))}")
    return tuple(found)


def junit_stand_ins(problem: Problem, kind: Kind, where: Path) -> tuple[tuple[str, Path], ...]:
    """The stand-ins of a JUnit problem's public classes, made from its reference in a box of
    its own (guarded_junit.py) and written into `where`: the same for the reference and every
    bug, so a bug is judged by the reference's API (a method it lacks fails its call)."""
    try:
        program = kind.program(problem, programs.load(problem.directory / problem.spec.reference))
        built = programs.build(program, problem.spec.limits.memory_mib)
        return guarded_junit.stand_ins(built, problem.program_limits, where)
    except ProgramError as err:
        raise JudgeError(f"{problem.spec_path}: {err}") from None


def run_bug(
    problem: Problem,
    kind: Kind,
    bug: AnyBug,
    tests: UnitSuite,
    valid: tuple[str, ...],
    stand_ins: tuple[tuple[str, Path], ...] = (),
    names: tuple[str, ...] = (),
    budget_s: float | None = None,
    until: float | None = None,
) -> BugRun:
    """Every test on a bug, the very runs the reference had (the same tests, order and
    processes, so no test that passed only by what an invalid one left behind counts), RUNS
    times, each beside a run of the reference in a random order (still_catching): caught by
    the first valid test that failed every run of the bug and passed the reference's beside
    each (an IE, or a test the cap `budget_s` cut off, catches nothing). A run is made only
    while some test may still catch: one that catches nothing costs one or two runs. Once the
    judging's end `until` is past, no run is made: a bug whose runs are not all done catches
    nothing (BugRun.spent)."""
    path = bug if isinstance(bug, Mutant) else bug.path
    named = dict(zip(tests.ids, tests.names, strict=True))
    candidates, cut = list(valid), False
    for _ in range(RUNS):
        sides = [False, True] if _COIN.random() < 0.5 else [True, False]  # on the reference?
        for on_reference in sides:
            if spent(until):
                return BugRun("", cut=True, spent=True)
            side = problem.spec.reference if on_reference else path
            run = verdicts(problem, kind, side, tests.ids, stand_ins, True, names, budget_s, until)
            cut = cut or any(found == pairs.CUT for found in run.values())
            candidates = still_catching(candidates, run, on_reference)
            if not candidates:
                return BugRun("", cut=cut, spent=cut and spent(until))
    return BugRun(named[candidates[0]], cut=cut)


def judge_suite(
    spec: Suite, bugs: tuple[AnyBug, ...], target: Problem, kind: Kind, given: Path | tuple[str, bytes], jobs: int = 2
) -> tuple[tuple[Checked, ...], tuple[BugRun, ...]]:
    """The student's test files against the reference, RUNS times, then against each bug (in
    the spec's order, so no student picks the bugs the time cap leaves unrun), all by the spec's
    time cap from here."""
    unit = target.spec.unit
    assert unit is not None
    until = time.monotonic() + time_cap_for(spec, len(bugs))  # system-wide on Linux: the pool's workers share it
    work = lifecycle.make_temp_dir("unit-suite")
    try:
        # The folder is named by its content: the tests' program is built once per content.
        digest = hashlib.sha256(submission_bytes(given, spec, unit.framework)).hexdigest()[:16]
        tests = read(given, spec, work / f"{FOLDER}-{digest}", unit.framework)
        problem = _under_tests(target, work / f"{FOLDER}-{digest}")
        stand_ins = junit_stand_ins(problem, kind, work / "standins") if unit.framework == JUNIT else ()
        with matrix.worker_pool(jobs) as pool:
            names = offered(target) if unit.framework != JUNIT else ()
            run = (problem, kind, target.spec.reference, tests.ids, stand_ins, True, names, REFERENCE_CAP_S, until)
            timed = pool([(timed_verdicts, run)] * RUNS)
            on_reference = [found for found, _ in timed]
            budget = budget_for(max(seconds for _, seconds in timed))
            cap_s = time_cap_for(spec, len(bugs)) if spent(until) else None
            checked = tuple(
                Checked(name, invalid(*(run.get(test) for run in on_reference), cap_s=cap_s))
                for test, name in zip(tests.ids, tests.names, strict=True)
            )
            valid = tuple(test for test, c in zip(tests.ids, checked, strict=True) if not c.why)
            if not valid:
                return checked, tuple(BugRun("", spent=cap_s is not None) for _ in bugs)
            return checked, tuple(
                pool([(run_bug, (problem, kind, bug, tests, valid, stand_ins, names, budget, until)) for bug in bugs])
            )
    finally:
        lifecycle.remove_dir(work)


def judged(
    spec: Suite, bugs: tuple[AnyBug, ...], target: Problem, kind: Kind, given: Path | tuple[str, bytes]
) -> tuple[DataCase, ...]:
    """The submission's cases against `bugs` (the solutions, then any mutants), as the kind's
    rows say them: a test is named by its name alone (the rows name a stdio test by its input file)."""
    checked, runs = judge_suite(spec, bugs, target, kind, given)
    named = {f"caught by {run.caught_by}.in": f"caught by {run.caught_by}" for run in runs if run.caught_by}
    return tuple(
        replace(row, message=named.get(row.message, row.message)) for row in scoring.rows(spec, bugs, checked, runs)
    )
