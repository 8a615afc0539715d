"""Running the tests of a unit-test problem against a built submission, a process pair at a
time: the student's process (bridge_student.py beside the student's modules, in the submission's
box) and the tests' (pytest, the teacher's files and the stand-ins, in a sandbox of its own),
talking over two pipes (run.exchange lays them).

A pair runs every test of one file (`isolate: file`) or one test (`isolate: test`). When the
student's process is lost during a test (it crashed, exited, hit a limit, or did not return in
the test's time), that test has its verdict and the file's remaining tests run in a new pair:
a test that fails so costs only itself. The first test of a file asked for runs the whole file;
the others take their results from that run (kept per box and build, in this process).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from judge.errors import SandboxFailure
from judge.kinds.unit import kit, listing, outcome, pytest_kit
from judge.kinds.unit.bridge_tests import DEADLINE, RESULTS
from judge.paths import cache_dir
from judge.run import exchange, languages, lifecycle, programs, sandbox
from judge.run.verdicts import CaseVerdict, PartnerEnd, Verdict

if TYPE_CHECKING:
    from judge.problem.spec import Problem, Unit
    from judge.run.sources import Launch

STUDENT_ENTRY = "bridge_student.py"
TESTS_ENTRY = "bridge_tests.py"
TOGETHER_ENTRY = "bridge_together.py"
COLLECT_ENTRY = "bridge_collect.py"
GUARDED = "--guarded"  # bridge_student.py's first argument when the module is the teacher's
GATE = b"%judge-gate%\n"  # what a guarded module side writes once ready (bridge_student.GATE)
# In a JUnit tests' box, the student's sources: Stack.java as Stack.java.student, moved into
# the folder student/ by the tests' JVM (JudgeTests.STUDENT), which reads their signatures there.
JUNIT_STUDENT_FOLDER = "student"
JUNIT_STUDENT_SUFFIX = ".student"
START_CPU_S = 2.0  # the student's process's own start (Python, the module's import) on top of its tests
DEADLINE_CPU_S, DEADLINE_WALLS = 1.0, 2  # deadline_arg
RESULTS_BYTES = 1 << 20  # the results file read of a pair: beyond, in kind tests, the tests' fault
TESTS_CPU_S = 10.0  # the tests' process: pytest's start and the teacher's code, on top of a second a test

# A stand-in module: importing it makes it the student's, over in the other sandbox.
STAND_IN = "import _judge_unit\n\n_judge_unit.stand_in(__name__)\n"
TESTS_MAIN = "import sys\n\nimport _judge_unit\n\nsys.exit(_judge_unit.main())\n"
# gradescope-utils' decorators as tests import them: the judge reads them from the source
# (found.py), so here they only need to exist.
GRADESCOPE_DECORATORS = '''"""The judge's stand-in for gradescope_utils' decorators: points and visibility are read
from the test files' source by the judge, so most leave each test as it is."""

import functools


def _keep(*_args, **_kwargs):
    def decorate(test):
        return test

    return decorate


weight = visibility = number = tags = hide_errors = _keep


def partial_credit(points):
    """The test sets its score; the judge gives a test its points whole: full marks or none.
    A test that sets none and passes has them all, as on Gradescope."""

    def decorate(test):
        @functools.wraps(test)
        def run(*args, **kwargs):
            given = []
            kwargs["set_score"] = given.append
            test(*args, **kwargs)
            score = given[-1] if given else points
            if score < points:
                raise AssertionError(f"partial credit {score:g} of {points:g} (the judge gives a test its points whole)")

        return run

    return decorate


def leaderboard(*_args, **_kwargs):
    def decorate(test):
        @functools.wraps(test)
        def run(*args, **kwargs):
            kwargs["set_leaderboard_value"] = lambda value: None
            return test(*args, **kwargs)

        return run

    return decorate
'''
GRADESCOPE_FILES = '''"""The judge's stand-in for gradescope_utils' file check: the judge refuses a submission
without the problem's student_files before any test runs (a CE), so none is missing here."""


def check_submitted_files(paths, base=None):
    return []
'''
PRAIRIELEARN_HELPERS = '''"""The judge's stand-in for PrairieLearn's pl_helpers decorators (read from the source)."""


def _keep(*_args, **_kwargs):
    def decorate(test):
        return test

    return decorate


name = points = _keep


def not_repeated(test):
    """Written bare (@not_repeated): PrairieLearn runs such a test once when a suite repeats,
    and the judge runs every test once."""
    return test
'''


def pytest_here() -> str:
    """The pytest the tests will use (the system's, or the judge's kit: pytest_kit.py), or why
    none can be had (then it starts with "missing"). It fetches nothing."""
    return pytest_kit.here()


@dataclass(frozen=True)
class UnitResult:
    """One test judged: its verdict, and the figures and output to show with it."""

    decided: CaseVerdict
    run: sandbox.RunResult


def bridge(name: str) -> str:
    return resources.files("judge.kinds.unit").joinpath(name).read_text(encoding="utf-8")


def modules_of(unit: Unit) -> tuple[str, ...]:
    return tuple(name.removesuffix(".py") for name in unit.student_files)


@lru_cache(maxsize=16)
def _tests_program(tests: Path, modules: tuple[str, ...], digest: str, memory_mib: int) -> programs.Built:
    """The tests' side, built once per problem version (`digest`): the runner, the stand-ins
    and the teacher's files (the folder's whole content, its helpers and conftest.py too)."""
    work = lifecycle.make_temp_dir("unit-tests")
    try:
        folder = work / "tests"
        shutil.copytree(tests, folder)
        (folder / "main.py").write_text(TESTS_MAIN)
        (folder / "_judge_unit.py").write_text(bridge(TESTS_ENTRY))
        for module in modules:
            (folder / f"{module}.py").write_text(STAND_IN)
        for name, text in support_files().items():
            if not (folder / name).exists():
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_text(text)
        built = programs.load_and_build(folder, memory_mib)
        timeless(built.directory)
        return built
    finally:
        lifecycle.remove_dir(work)


FIXED_MTIME = 946684800  # 2000-01-01 UTC: every file's time in a box copy (timeless)


def timeless(folder: Path) -> None:
    """Every file and folder under `folder` (and itself) dated FIXED_MTIME: a box's copy keeps
    its times, and a build's time against the copy's (a ctime) would tell a student's test how
    long the judging has run (issue 60)."""
    for path in [*folder.rglob("*"), folder]:  # the folders' own times after their files'
        os.utime(path, (FIXED_MTIME, FIXED_MTIME), follow_symlinks=False)


@lru_cache(maxsize=16)
def _junit_tests_program(tests: Path, digest: str, made: kit.Kit, memory_mib: int) -> programs.Built:
    """The tests' side of a JUnit problem in mode apart, once per problem version (`digest`):
    the teacher's files, and a folder student/ that each run fills with the student's sources
    (the tests' JVM reads their signatures there, and runs none of them)."""
    # Named by content, not path: a tests problem's student's folder is a fresh temporary one
    # each judging, and the same classes judged again take the same folder.
    folder = Path(cache_dir()) / "unit-junit-tests" / f"{digest[:12]}-{_box_digest(tests)[:24]}"
    if not (folder / JUNIT_STUDENT_FOLDER).is_dir():
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = lifecycle.make_temp_dir("unit-junit-tests", where=folder.parent)
        try:
            shutil.copytree(tests, work / "tests", ignore=shutil.ignore_patterns("__pycache__"))
            (work / "tests" / JUNIT_STUDENT_FOLDER).mkdir()
            try:
                (work / "tests").rename(folder)
            except OSError:
                if not (folder / JUNIT_STUDENT_FOLDER).is_dir():  # another judge may have won the race
                    raise
        finally:
            lifecycle.remove_dir(work)
    timeless(folder)  # a folder cached before its times were fixed too
    java = languages.load().by_id("java")
    return programs.Built(
        f"{tests} (JUnit, mode apart)",
        folder,
        tuple(made.argv(memory_mib, main=kit.TESTS_CLASS)),
        "java",
        java.address_space_limit,
        java.jvm_allowance_mib,
    )


@dataclass(frozen=True)
class GuardedPair:
    """A pair whose module is the teacher's and whose tests are a student's (kind tests): the
    module's side answers only public names (of a Python module, those `offered` lists, the
    reference's); a JUnit problem's tests' box gets `stand_ins` (guarded_junit.py), never its
    sources. `budget_s`: the wall time the pairs of one run_pairs may take in all; what is left
    when it runs out is cut (CUT), never run."""

    stand_ins: tuple[tuple[str, Path], ...] = ()
    offered: tuple[str, ...] = ()
    budget_s: float | None = None


# A test the budget of a guarded run cut off (GuardedPair.budget_s): not judged, so it neither
# passes nor fails, and is no internal error of the judge's.
CUT = CaseVerdict(Verdict.NJ, "cut off: the judging's time cap ran out")


def _tests_files(built: programs.Built, where: Path, guard: GuardedPair | None) -> tuple[tuple[str, Path], ...]:
    """What a JUnit tests' box gets of the module's side: the student's sources, or, guarded
    (the module is the teacher's), only the stand-ins made in a box of the teacher's."""
    if guard is None:
        return _student_sources(built, where)
    if built.language == "java" and not guard.stand_ins:
        raise programs.ProgramError("a guarded JUnit pair needs the stand-ins of the teacher's classes")
    return guard.stand_ins


def _student_sources(built: programs.Built, where: Path) -> tuple[tuple[str, Path], ...]:
    """The student's top-level .java files, copied into a JUnit tests' box (mode apart)."""
    if built.language != "java":
        return ()
    return tuple(
        (f"{path.name}{JUNIT_STUDENT_SUFFIX}", path)
        for path in sorted(where.glob("*.java"))
        if path.is_file() and not path.is_symlink()
    )


@lru_cache(maxsize=4)
def _collector_program(memory_mib: int) -> programs.Built:
    """The judge's end of a together-mode channel (bridge_collect.py), built once."""
    work = lifecycle.make_temp_dir("unit-collect")
    try:
        folder = work / "collect"
        folder.mkdir()
        (folder / "main.py").write_text(bridge(COLLECT_ENTRY))
        return programs.load_and_build(folder, memory_mib)
    finally:
        lifecycle.remove_dir(work)


def support_files() -> dict[str, str]:
    """What tests import beside the student's module: stand-ins for gradescope-utils and
    PrairieLearn's helpers (their decorators are read from the source by the judge)."""
    return {
        "gradescope_utils/__init__.py": "",
        "gradescope_utils/autograder_utils/__init__.py": "",
        "gradescope_utils/autograder_utils/decorators.py": GRADESCOPE_DECORATORS,
        "gradescope_utils/autograder_utils/files.py": GRADESCOPE_FILES,
        "pl_helpers.py": PRAIRIELEARN_HELPERS,
    }


def ids_in_file(problem: Problem, file: str, public: bool) -> list[str]:
    """The tests of one file of one visibility, in order (each a group of its own, its id the
    case's input). A pair never holds a public test and a secret one: what a secret test hands
    the student's process (its values) could come back in a public test's message."""
    ids = []
    for group in problem.spec.groups:
        for case in group.cases or ():
            test = (case.input or "").strip()
            if test.split("::", 1)[0] == file and (group.visibility == "public") == public:
                ids.append(test)
    return ids


def _is_public(problem: Problem, test_id: str) -> bool:
    return any(
        group.visibility == "public" and (case.input or "").strip() == test_id
        for group in problem.spec.groups
        for case in group.cases or ()
    )


_memo: dict[tuple[str, str, str], dict[str, UnitResult]] = {}


def _box_digest(where: Path) -> str:
    """The build in the box, by content: another build in the same box is another key."""
    digest = hashlib.sha256()
    for path in sorted(where.rglob("*")):
        if path.is_file() and not path.is_symlink():
            digest.update(path.relative_to(where).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def result_of(problem: Problem, launch: Launch, where: Path, test_id: str, limits: sandbox.RunLimits) -> UnitResult:
    """The verdict of one test of the built submission in the box `where`."""
    unit = problem.spec.unit
    assert unit is not None
    file = test_id.split("::", 1)[0]
    if unit.isolate == "test":
        return run_pairs(problem, launch, where, [test_id], limits)[test_id]
    public = _is_public(problem, test_id)
    key = (str(where), _box_digest(where), f"{problem.directory}\0{problem.digest}\0{file}\0{public}\0{limits}")
    found = _memo.get(key)
    if found is None or test_id not in found:
        _memo.clear()  # one file's results at a time: the next file, or the next build, starts anew
        ids = ids_in_file(problem, file, public) or [test_id]
        found = _memo[key] = run_pairs(problem, launch, where, ids, limits)
    return found[test_id]


def run_pairs(
    problem: Problem,
    launch: Launch,
    where: Path,
    ids: list[str],
    limits: sandbox.RunLimits,
    guard: GuardedPair | None = None,
) -> dict[str, UnitResult]:
    """Every test of `ids`, pair after pair until each has its verdict; with a `guard`, the
    module is the teacher's and the tests a student's (GuardedPair)."""
    unit = problem.spec.unit
    assert unit is not None
    memory_kib = limits.memory_mib * 1024
    together = unit.runs == "together"
    done: dict[str, UnitResult] = {}
    remaining = list(ids)
    ends = None if guard is None or guard.budget_s is None else time.monotonic() + guard.budget_s
    while remaining:
        left_s = None if ends is None else ends - time.monotonic()
        if left_s is not None and left_s <= 0:
            return {**done, **_cut(remaining)}
        try:
            student, said = _pair(problem, launch, where, remaining, limits, guard, left_s)
        except (SandboxFailure, programs.ProgramError) as err:
            failed = CaseVerdict(Verdict.IE, str(err))
            empty = sandbox.RunResult(None, None, 0.0, 0.0, 0, 0, None, False, b"", b"")
            return {**done, **{i: UnitResult(failed, empty) for i in remaining}}
        for record in said.records:
            if record.id in remaining and record.id not in done:
                decided = outcome.decide(record, limits.cpu_s, student, memory_kib, shared=together)
                shown = replace(student, cpu_s=record.cpu_s, wall_s=record.wall_s, stdout=record.printed.encode())
                done[record.id] = UnitResult(decided, shown)
        if ends is not None and time.monotonic() >= ends:
            # The cap ended this pair: the test it was in and the rest are cut, not failed.
            return {**done, **_cut([i for i in remaining if i not in done])}
        for test, decided in said.failed:
            done.setdefault(test, UnitResult(decided, student))
        if said.current is not None and said.current not in done:
            # The test the student's process was in when it ended (mode together).
            done[said.current] = UnitResult(outcome.ended(student, memory_kib), student)
        left = [i for i in remaining if i not in done]
        if left and (said.broken is not None or len(left) == len(remaining)):
            # Nothing more of these will run: the file could not be collected, or the pair
            # ended without a word on them.
            # Together, the tests' process is the student's: its end before a word is theirs.
            ended = outcome.ended(student, memory_kib) if together else None
            why = said.broken or ended or CaseVerdict(Verdict.IE, "the tests' process ended before this test")
            if guard is not None and why.verdict is Verdict.IE:
                why = CaseVerdict(Verdict.RE, why.message)  # a student's tests' process: its end is theirs
            return {**done, **{i: UnitResult(why, student) for i in left}}
        remaining = left
    return done


def _cut(ids: list[str]) -> dict[str, UnitResult]:
    empty = sandbox.RunResult(None, None, 0.0, 0.0, 0, 0, None, False, b"", b"")
    return {i: UnitResult(CUT, empty) for i in ids}


def _lines(kept: tuple[tuple[str, bytes], ...]) -> list[object]:
    """The JSON lines of the results file, a line that is not JSON as None. Its text is the
    student's in part (messages, what their code printed): a lone surrogate, which JSON can
    escape and no file or page can hold, becomes U+FFFD."""
    found: list[object] = []
    # Lines end at "\n" alone: str.splitlines would also end one at U+2028 or U+0085, which a
    # student's message may hold (the tests' side writes them as they are), breaking its record.
    for line in dict(kept).get(RESULTS, b"").decode("utf-8", errors="replace").split("\n"):
        if not line.strip():
            continue
        try:
            found.append(_scrubbed(json.loads(line), 0))
        except (ValueError, RecursionError):
            found.append(None)
    return found


_SURROGATE = re.compile("[\ud800-\udfff]")  # json.loads has joined every pair: these are lone


def _scrubbed(value: object, depth: int) -> object:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if depth > 8:  # a record is three levels deep: deeper is no record
        return None
    if isinstance(value, list):
        return [_scrubbed(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(_scrubbed(k, depth + 1)): _scrubbed(v, depth + 1) for k, v in value.items()}
    return value


def _pair(
    problem: Problem,
    launch: Launch,
    where: Path,
    ids: list[str],
    limits: sandbox.RunLimits,
    guard: GuardedPair | None = None,
    left_s: float | None = None,
) -> tuple[sandbox.RunResult, outcome.Collected]:
    """One pair run on `ids`: the student's run, and what the pair said of its tests; the
    tests' process ends after `left_s` of wall time at the most (GuardedPair.budget_s)."""
    unit = problem.spec.unit
    guarded = guard is not None
    assert unit is not None
    tool = problem.program_limits
    together = unit.runs == "together"
    start, reads = launch.argv, limits.read_only
    # Python's tests run pytest: the system's, or the judge's kit, bound read-only where it runs.
    kit_folder = pytest_kit.resolve().folder if unit.framework != "junit5" else ""
    if together:
        built = _collector_program(tool.memory_mib)
        # The runner tells the student's exceptions by file (Python) or class (Java).
        names = unit.student_files
        if unit.framework == "junit5":
            # The judge's runner, from its kit (bound read-only): it compiles the box's sources.
            made = kit.kit()
            start, reads = tuple(made.argv(problem.spec.limits.memory_mib)), (*reads, str(made.folder))
            names = tuple(n.removesuffix(".java") for n in names)
        if unit.framework != "junit5":
            start = (*start, kit_folder)
            reads = (*reads, kit_folder) if kit_folder else reads
        argv = [*start, ",".join(names), *ids]
    elif unit.framework == "junit5":
        # Two JVMs from the judge's kit: the student's (JudgeStudent, in the box) and the tests'.
        made, flags = kit.kit(), kit.GUARDED_FLAGS if guarded else ()
        start, reads = (
            tuple(made.argv(problem.spec.limits.memory_mib, main=kit.STUDENT_CLASS, flags=flags)),
            (*reads, str(made.folder)),
        )
        built = _junit_tests_program(problem.directory / unit.tests, problem.digest, made, tool.memory_mib)
        argv = [*start, *((GUARDED,) if guarded else ())]
    else:
        built = _tests_program(problem.directory / unit.tests, modules_of(unit), problem.digest, tool.memory_mib)
        argv = [*start, *((GUARDED,) if guarded else ()), *((guard.offered if guard else ()) or modules_of(unit))]
    # Together, the student's process runs pytest (or compiles and runs JUnit) itself, and a JVM
    # compiles the student's classes before serving them: its start counts.
    cpu = START_CPU_S * (3 if together or unit.framework == "junit5" else 1) + limits.cpu_s * len(ids)
    memory = limits.memory_mib + (memory_jitter() if guarded else 0)  # a teacher's module: MEMORY_JITTER_MIB
    # Guarded, the tests' process starts only once the module side is ready (the gate): the
    # module side's wall clock then runs through that start too, no longer beside it.
    wall = sandbox.wall_for(cpu) + (sandbox.wall_for(cpu - limits.cpu_s * len(ids)) if guarded else 0.0)
    student_limits = replace(limits, cpu_s=cpu, wall_s=wall, read_only=reads, memory_mib=memory)
    own = tool.sandbox_limits(built)
    if built.language == "java" and not together:
        own = replace(own, read_only=(*own.read_only, str(kit.kit().folder)))
    elif kit_folder and not together:
        own = replace(own, read_only=(*own.read_only, kit_folder))
    # The tests' process may spend each test's whole deadline on the student's replies (the
    # wall limit of its CPU time): a student's code that keeps it busy costs a test, not the run.
    per_test_wall_s = sandbox.wall_for(limits.cpu_s)
    tests_cpu = max(own.cpu_s, TESTS_CPU_S + len(ids) * per_test_wall_s)
    partner = exchange.partner_limits(replace(own, cpu_s=tests_cpu, wall_s=sandbox.wall_for(tests_cpu)), student_limits)
    tests_limits = replace(partner, wall_s=min(partner.wall_s, left_s if left_s is not None else partner.wall_s))
    if guarded:  # the machine's counters would show the module side's memory (MASKED_PROC)
        tests_limits = replace(tests_limits, read_only=(*tests_limits.read_only, *masked()))
    box = _fresh_box(where, _other_test_files(problem, ids) if together else frozenset())
    # Each test's CPU time is the kernel's figure for the student's process, which the judge's
    # watch of its run publishes as it runs: the tests' side (or the collector) reads it there.
    try:
        with sandbox.CpuClock(late=guarded) as clock:
            tests_limits = replace(tests_limits, read_only=(*tests_limits.read_only, clock.bind))
            # The tests' side of a Python pair is told where pytest is ("": the system's).
            kit_arg = () if together or unit.framework == "junit5" else (kit_folder,)
            if guarded and unit.framework != "junit5":
                kit_arg = (*kit_arg, deadline_arg(limits))  # the tests are a student's: their own deadline
            if guarded and unit.framework == "junit5":
                kit_arg = (GUARDED,)  # JudgeTests compiles the tests against the stand-ins given
            # Each bridge is told a test's CPU time and wall limit: the rule is the sandbox's alone.
            times = (f"{limits.cpu_s:g}", f"{per_test_wall_s:g}")
            args = (exchange.FEEDBACK, *times, clock.inside, *kit_arg, *ids)
            task = programs.Task(
                built,
                args,
                None,
                tests_limits,
                keep=exchange.FEEDBACK,
                keep_bytes=RESULTS_BYTES,
                files=_tests_files(built, where, guard),
            )
            # Guarded, the tests start once the module side is ready (its imports and initializers)
            gate = GATE if guarded else None
            done = exchange.interact(argv, box, student_limits, task, clock, called="the tests", gate=gate)
    finally:
        lifecycle.remove_dir(box)
    return done.submission, _said(done, ids, together, guarded)


def _said(done: exchange.Exchange, ids: list[str], together: bool, guarded: bool) -> outcome.Collected:
    """What a pair's exchange said of its tests."""
    lines = _lines(done.kept)
    if together:
        said = outcome.collected(lines, ids)
    elif guarded and (why := forged(lines, ids, len(dict(done.kept).get(RESULTS, b"")))):
        # The tests' process is wholly a student's: what it wrote there is theirs, and fails them.
        failed = CaseVerdict(Verdict.RE, f"the tests wrote on the judge's results channel: {why}")
        return outcome.Collected((), tuple((test, failed) for test in ids), None, None)
    else:
        said = _apart(lines, done.partner)
    if said.broken is None and not said.records and not said.failed and done.partner.exit_code not in (42, 43):
        why = done.partner.message or f"exit code {done.partner.exit_code}"
        said = replace(said, broken=CaseVerdict(Verdict.IE, f"the tests' process failed: {why}"))
    return said


# A guarded pair's module side (a tests problem's reference or bug) may use the problem's memory
# and up to this much more, drawn per pair: a suite that fills the module up to its limit would
# otherwise tell a bug whose start holds a few MiB more (an unused import: 2.75 MiB, caught 4 of 4
# by a seventh review) from the reference by where it is killed. Never less than the problem's.
# A difference of d MiB then tips a run with chance d/65 at most (docs/tests.md, "Luck").
MEMORY_JITTER_MIB = 64
_JITTER = random.SystemRandom()


# What a guarded pair's tests' process finds unreadable: the machine's own counters, which
# count the module side's process with the rest (no namespace covers them). A tenth review
# read the module side's committed memory in /proc/meminfo's Committed_AS, steady on a quiet
# machine, and an unused import's libraries moved it by 7 MiB. Each is /dev/null bound over it
# (a device on a mount without devices: opening it fails, EACCES), where this kernel has it.
MASKED_PROC = (
    "meminfo vmstat zoneinfo buddyinfo pagetypeinfo slabinfo vmallocinfo stat loadavg swaps schedstat"
    " interrupts softirqs diskstats pressure/memory pressure/cpu pressure/io"
    " sys/fs/file-nr sys/fs/inode-nr sys/fs/inode-state sys/fs/dentry-state"
).split()


@lru_cache(maxsize=1)
def masked() -> tuple[str, ...]:
    """MASKED_PROC's binds, for the files this machine's /proc has (bubblewrap cannot make one)."""
    return tuple(
        sandbox.bound_at("/dev/null", f"/proc/{name}") for name in MASKED_PROC if os.path.exists(f"/proc/{name}")
    )


def memory_jitter() -> int:
    """The MiB a guarded pair's module side gets over the problem's memory, 0 to MEMORY_JITTER_MIB."""
    return _JITTER.randint(0, MEMORY_JITTER_MIB)


def deadline_arg(limits: sandbox.RunLimits) -> str:
    """A student's test's own deadline in the tests' process (kind tests): a CPU second more than
    a test's CPU time, and twice its wall limit, so a loop there ends that test (as TLE) soon."""
    return f"{DEADLINE}{limits.cpu_s + DEADLINE_CPU_S:g},{deadline_wall(limits):g}"


def deadline_wall(limits: sandbox.RunLimits) -> float:
    """A student's test's wall deadline in the tests' process (deadline_arg's second figure)."""
    return DEADLINE_WALLS * sandbox.wall_for(limits.cpu_s)


def _other_test_files(problem: Problem, ids: list[str]) -> frozenset[str]:
    """The test files (relative to the tests folder, as the box holds them together) other than
    the ones of `ids`: a pair does not see them, so no public test's message can carry a secret
    test's text, which the student's code could otherwise read in the box and raise."""
    unit = problem.spec.unit
    assert unit is not None
    folder = problem.directory / unit.tests
    own = {test.split("::", 1)[0] for test in ids}
    return frozenset(
        name
        for path in listing.files_with_tests(folder, unit.framework)
        if (name := path.relative_to(folder).as_posix()) not in own
    )


def _fresh_box(where: Path, leave_out: frozenset[str]) -> Path:
    """A copy of the built box for one pair, without the files `leave_out`: nothing a pair's
    run writes there (what a secret test handed the student's code, say) reaches the next."""
    box = lifecycle.make_temp_dir("unit-box", cap=lifecycle.BOX_CAP_BYTES)
    try:
        sandbox.prepare_box(box)
        kept = shutil.ignore_patterns("__pycache__")

        def ignore(folder: str, names: list[str]) -> set[str]:
            inside = Path(folder).relative_to(where)
            return set(kept(folder, names)) | {n for n in names if (inside / n).as_posix() in leave_out}

        shutil.copytree(where, box, symlinks=True, ignore=ignore, dirs_exist_ok=True)
        timeless(box)
    except BaseException:
        lifecycle.remove_dir(box)
        raise
    return box


def forged(lines: list[object], ids: list[str], size: int) -> str:
    """Why the results of a pair are not the runner's own (kind tests, where the tests' process
    is a student's and may write there), "" if they read as it writes them: each test of `ids`
    started once, then its one record, a collect error only before any start."""
    if size >= RESULTS_BYTES:
        return f"over {RESULTS_BYTES >> 20} MiB"
    wanted, seen, open_ = set(ids), set[object](), None
    for raw in lines:
        if not isinstance(raw, dict):
            return "a line that is not a record"
        if "collect_error" in raw and not seen and len(raw) == 3:
            continue
        if set(raw) == {"start"} and open_ is None and raw["start"] in wanted - seen:
            seen.add(open_ := raw["start"])
            continue
        if open_ is not None and raw.get("id") == open_ and outcome.record_of(raw) is not None:
            open_ = None
            continue
        return f"a line out of place ({json.dumps(raw)[:80]})"
    return ""


def _apart(lines: list[object], tests: PartnerEnd) -> outcome.Collected:
    """The records the tests' side wrote (mode apart: its own, none of the student's). A test
    it started and never recorded is the one it ended in: that test fails with how it ended,
    and the file's remaining tests run in a new pair."""
    records: list[outcome.Record] = []
    broken: CaseVerdict | None = None
    current: str | None = None
    for raw in lines:
        if not isinstance(raw, dict):
            continue
        if "collect_error" in raw:
            broken = outcome.unreported(str(raw.get("message", "")), bool(raw.get("student")))
            continue
        if isinstance(raw.get("start"), str):
            current = raw["start"]
            continue
        record = outcome.record_of(raw)
        if record is not None:
            records.append(record)
            current = None if record.id == current else current
    if current is None or tests.exit_code in (42, 43):
        return outcome.Collected(tuple(records), (), None, broken)
    how = tests.limit_hit or (f"signal {tests.signal}" if tests.signal else f"exit code {tests.exit_code}")
    failed = CaseVerdict(Verdict.RE, f"the tests' process ended during this test ({how})")
    return outcome.Collected(tuple(records), ((current, failed),), None, broken)
