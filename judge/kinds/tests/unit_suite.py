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
# A run's caps count the suite's own time: a file's pair's wall time past its start allowance
# (START_FACTOR times the wall time of a pair of the judge's own empty test file, measured at
# the judging's start on the same machine, and START_EXTRA_S more: `start_allowance`). Process
# starts are the judge's cost, which load stretches, so they are measured, never counted against
# the student; what the tests do past them is the suite's, which no figure of the student's
# process reports (issue 60: a cap on the whole wall time had to be sized for 20 files' starts
# on a loaded worker, and so let a suite of slow tests hold a worker for 17 minutes).
START_FACTOR, START_EXTRA_S = 2.0, 0.25
# A guarded run of the suite on a bug (and the reference's run beside it) may take this many
# times the reference's slowest validity run's own time, this much more, and one test's own
# deadline (so a test that times out on a real TLE bug still catches it): a suite that stalls
# on a bug's wrong answers (sleeps to its deadline) is cut about a deadline after the
# reference's time, not max_tests deadlines later (issue 60).
CAP_FACTOR, CAP_EXTRA_S = 3.0, 5.0
# Each of the reference's validity runs may take this much of the suite's own time (autograder.io
# gives a mutation suite's run 10 s by default): a test it cuts is invalid (`invalid`). An honest
# suite's tests take a small part of it on a busy machine too, starts not counted.
REFERENCE_CAP_S = 10.0
# Besides, the whole judging of a submission (the reference's runs and every bug's) ends by the
# spec's `time_cap_s` from its start: each run's end is the sooner of its own and the
# judging's, what is cut catches nothing, and the bugs left are not run. Its default
# (`time_cap_for`): each run the judging may make, its files' start allowances and a validity
# run's cap, so the average run is held to what a validity run may take.
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


@dataclass(frozen=True)
class SuiteRun:
    """One run of the student's tests on a module: each test's verdict, and the suite's own
    time (its files' pairs' wall time past their start allowances: `own_time`)."""

    decided: dict[str, CaseVerdict]
    own_s: float
    deadline_s: float = 0.0  # one test's own wall deadline in this run (pairs.deadline_wall)


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
    allowance_s: float = 0.0,
) -> dict[str, CaseVerdict]:
    """The student's tests `ids` against one of the problem's modules (`run_suite`): each
    test's verdict."""
    return run_suite(problem, kind, path, ids, stand_ins, guarded, offered, budget_s, until, allowance_s).decided


def run_suite(
    problem: Problem,
    kind: Kind,
    path: str | Mutant,
    ids: tuple[str, ...],
    stand_ins: tuple[tuple[str, Path], ...] = (),
    guarded: bool = True,
    offered: tuple[str, ...] = (),
    budget_s: float | None = None,
    until: float | None = None,
    allowance_s: float = 0.0,
) -> SuiteRun:
    """The student's tests `ids` against one of the problem's modules (`path`: its reference or
    a bug), in its own box behind the bridge's guarded side, a pair a file. `stand_ins`: a JUnit
    problem's, made from its reference (`junit_stand_ins`); `budget_s`: the suite's own time at
    most (with one test's deadline: the caller's), each file's pair given its start `allowance_s` besides
    (`pair_cap`); `until`: the judging's end (time.monotonic()). What either cuts off is
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
        return SuiteRun(dict.fromkeys(ids, CaseVerdict(Verdict.IE, f"the module does not build: {err}")), 0.0)
    limits = run_limits(problem, languages.load().languages[built.language])
    launch = Launch(built.argv, built.language)
    # The build's folder is the module's box: run_pairs copies it fresh for each pair.
    by_file: dict[str, list[str]] = {}
    for test in ids:
        by_file.setdefault(test.split("::", 1)[0], []).append(test)
    decided: dict[str, CaseVerdict] = {}
    own_s = 0.0
    for file in by_file.values():  # a process (pair) per file: what one file does to its own reaches no other's
        began = time.monotonic()
        left_s = pair_cap(None if budget_s is None else budget_s - own_s, allowance_s, began, until)
        guard = pairs.GuardedPair(stand_ins, offered, left_s) if guarded else None
        results = pairs.run_pairs(problem, launch, built.directory, file, limits, guard)
        own_s += own_time(time.monotonic() - began, allowance_s)
        decided.update((test, result.decided) for test, result in results.items())
    return SuiteRun(decided, own_s, pairs.deadline_wall(limits))


def own_time(wall_s: float, allowance_s: float) -> float:
    """A file's own time: its pairs' wall time past the start allowance (none below it). A file
    whose tests end its process again and again pays the pairs' starts after the first."""
    return max(0.0, wall_s - allowance_s)


def pair_cap(own_left_s: float | None, allowance_s: float, now: float, until: float | None) -> float | None:
    """The wall time a file's pair may take from `now` (None: no cap): the suite's own time left
    (none below nothing) and the file's start allowance, or what is left to the judging's end
    `until` if that comes first."""
    own = None if own_left_s is None else max(0.0, own_left_s) + allowance_s
    if until is None:
        return own
    return until - now if own is None else min(own, until - now)


def start_allowance(start_s: float) -> float:
    """What a file's pair may take before its own time counts: see START_FACTOR."""
    return START_FACTOR * start_s + START_EXTRA_S


def time_cap_for(spec: Suite, bugs: int, run_s: float) -> float:
    """The wall time a submission's whole judging may take: the spec's, or `run_s` (what a
    validity run may take: its files' start allowances, REFERENCE_CAP_S and a deadline) for
    each run it may make, RUNS on the reference and RUNS pairs a bug."""
    return spec.time_cap_s if spec.time_cap_s is not None else round(run_s * RUNS * (1 + 2 * bugs))


def spent(until: float | None) -> bool:
    """Whether the judging's time cap (its end `until`, time.monotonic()) is spent."""
    return until is not None and time.monotonic() >= until


def budget_for(reference_s: float) -> float:
    """The suite's own time a bug's run (or the reference's beside it) may take, but for one
    test's deadline (the caller adds it), from the reference's slowest validity run's own
    time: see CAP_FACTOR."""
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
        if cap_s is not None:
            over = f"the judging's time cap of {cap_s:g} s"
        else:
            over = f"{REFERENCE_CAP_S:g} s of its tests' own time and one test's deadline (process starts not counted)"
        return f"the suite's run on the reference went over {over}, and this test was cut off"
    if decided is None or None in again:
        return "it did not run on the reference"
    if any((decided.verdict is Verdict.AC) != (other is not None and other.verdict is Verdict.AC) for other in again):
        if any(run is not None and run.verdict is Verdict.TLE for run in (decided, *again)):
            return "flaky: passed and ran out of time on the reference (it takes about its deadline)"
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
    allowance_s: float = 0.0,
) -> BugRun:
    """The valid tests on a bug, file after file, each file run as on the reference (all its
    tests, in order, in one process: no test that passed only by what an invalid one left
    behind counts), RUNS times, each beside a run of the reference in a random order
    (still_catching): caught by the first valid test that failed every run of the bug and
    passed the reference's beside each (an IE, or a test a cap cut off, catches nothing).
    A file is a process of its own, so the first file with such a test holds the catch, and
    the files after it are not run; a file's runs stop once none of its tests may still catch.
    Each of the 2 x RUNS runs (the bug's k-th, the reference's k-th) may spend `budget_s` of
    own time over all its files (`run_suite`). Once the judging's end `until` is past, no run
    is made: a bug whose runs are not all done catches nothing (BugRun.spent)."""
    path = bug if isinstance(bug, Mutant) else bug.path
    named = dict(zip(tests.ids, tests.names, strict=True))
    used: dict[tuple[int, bool], float] = {}  # own time of each of the bug's runs, by (k, on the reference)
    cut = False
    for file in dict.fromkeys(file_of(test) for test in valid):
        ids = tuple(test for test in tests.ids if file_of(test) == file)
        candidates = [test for test in valid if file_of(test) == file]
        for k in range(RUNS):
            sides = [False, True] if _COIN.random() < 0.5 else [True, False]  # on the reference?
            for on_reference in sides:
                if spent(until):
                    return BugRun("", cut=True, spent=True)
                side = problem.spec.reference if on_reference else path
                left = None if budget_s is None else budget_s - used.get((k, on_reference), 0.0)
                run = run_suite(problem, kind, side, ids, stand_ins, True, names, left, until, allowance_s)
                used[k, on_reference] = used.get((k, on_reference), 0.0) + run.own_s
                cut = cut or any(found == pairs.CUT for found in run.decided.values())
                candidates = still_catching(candidates, run.decided, on_reference)
                if not candidates:
                    break
            if not candidates:
                break
        if candidates:
            return BugRun(named[candidates[0]], cut=cut)
    return BugRun("", cut=cut, spent=cut and spent(until))


def file_of(test: str) -> str:
    """The file a test's id names (its process: a pair a file)."""
    return test.split("::", 1)[0]


# The judge's own test file of each framework, timed at a judging's start: a pair's start.
START_FILES = {
    "pytest": ("test_judge_start.py", "def test_start():\n    pass\n"),
    "unittest": ("test_judge_start.py", "def test_start():\n    pass\n"),
    JUNIT: (
        "JudgeStartTest.java",
        "import org.junit.jupiter.api.Test;\n\nclass JudgeStartTest {\n    @Test\n    void start() {}\n}\n",
    ),
}


def start_of(
    target: Problem,
    kind: Kind,
    work: Path,
    stand_ins: tuple[tuple[str, Path], ...],
    names: tuple[str, ...],
    pool: matrix.Pool,
    jobs: int,
) -> SuiteRun:
    """Runs of the judge's own empty test file on the reference, `jobs` at once as the suite's
    runs go, here and now: own_s, the slowest one's wall time (no allowance: the whole pair),
    a file's start (the two processes, imports, a JUnit class's compile) under the machine's
    present load, timed on a file no student wrote; deadline_s, one test's."""
    unit = target.spec.unit
    assert unit is not None
    name, text = START_FILES[unit.framework]
    work.mkdir(parents=True, exist_ok=True)
    (work / name).write_text(text)
    ids = tuple(t.id for t in listing.unit_tests(work, 1.0, {}, unit.framework))
    args = (_under_tests(target, work), kind, target.spec.reference, ids, stand_ins, True, names)
    runs: list[SuiteRun] = pool([(run_suite, args)] * max(1, jobs))
    for run in runs:
        if not run.decided or any(v.verdict is not Verdict.AC for v in run.decided.values()):
            said = "; ".join(sorted({v.message for v in run.decided.values()}))[:300]
            raise JudgeError(f"{target.spec_path}: the judge's empty test file failed on the reference: {said}")
    return max(runs, key=lambda run: run.own_s)


def judge_suite(
    spec: Suite, bugs: tuple[AnyBug, ...], target: Problem, kind: Kind, given: Path | tuple[str, bytes], jobs: int = 2
) -> tuple[tuple[Checked, ...], tuple[BugRun, ...]]:
    """The student's test files against the reference, RUNS times, then against each bug (in
    the spec's order, so no student picks the bugs the time cap leaves unrun), all by the
    judging's time cap (`time_cap_for`)."""
    unit = target.spec.unit
    assert unit is not None
    began = time.monotonic()  # system-wide on Linux: the pool's workers share it
    work = lifecycle.make_temp_dir("unit-suite")
    try:
        # The folder is named by its content: the tests' program is built once per content.
        digest = hashlib.sha256(submission_bytes(given, spec, unit.framework)).hexdigest()[:16]
        tests = read(given, spec, work / f"{FOLDER}-{digest}", unit.framework)
        problem = _under_tests(target, work / f"{FOLDER}-{digest}")
        stand_ins = junit_stand_ins(problem, kind, work / "standins") if unit.framework == JUNIT else ()
        names = offered(target) if unit.framework != JUNIT else ()
        with matrix.worker_pool(jobs) as pool:
            empty = start_of(target, kind, work / "start", stand_ins, names, pool, jobs)
            allowance = start_allowance(empty.own_s)
            files = len({test.split("::", 1)[0] for test in tests.ids})
            cap = time_cap_for(spec, len(bugs), files * allowance + REFERENCE_CAP_S + empty.deadline_s)
            until = began + cap if spec.time_cap_s is not None else time.monotonic() + cap
            cap_own = REFERENCE_CAP_S + empty.deadline_s  # the one deadline: see CAP_FACTOR
            run = (problem, kind, target.spec.reference, tests.ids, stand_ins, True, names, cap_own, until, allowance)
            on_reference = pool([(run_suite, run)] * RUNS)
            budget = budget_for(max(done.own_s for done in on_reference)) + empty.deadline_s
            cap_s = cap if spent(until) else None
            checked = tuple(
                Checked(name, invalid(*(done.decided.get(test) for done in on_reference), cap_s=cap_s))
                for test, name in zip(tests.ids, tests.names, strict=True)
            )
            valid = tuple(test for test, c in zip(tests.ids, checked, strict=True) if not c.why)
            if not valid:
                return checked, tuple(BugRun("", spent=cap_s is not None) for _ in bugs)
            bug_runs = [(problem, kind, bug, tests, valid, stand_ins, names, budget, until, allowance) for bug in bugs]
            return checked, tuple(pool([(run_bug, args) for args in bug_runs]))
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
