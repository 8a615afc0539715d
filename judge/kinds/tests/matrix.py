"""The matrix: a student's tests checked first (the problem's validators, then the reference),
then every valid test run against every bug of the problem under test.

Each bug is built once (the programs' cache, shared by every submission on the machine) and
runs in a box of its own holding nothing but its build, one sandbox session for all the tests
(as a submission's cases run), the test's input on stdin; the bugs run two at a time. The
student's tests are data: nothing of a bug ever enters a box of the student's, and nothing a
bug prints reaches the student, only whether it was caught."""

from __future__ import annotations

import hashlib
import multiprocessing
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from judge.errors import JudgeError
from judge.kinds.base import CaseJob, Kind, run_limits
from judge.kinds.tests.mutation import Mutant
from judge.kinds.tests.scoring import BugRun, Checked
from judge.kinds.tests.suite import StudentTest
from judge.problem.spec import BUG_FOLDERS, Bug, Problem, Suite
from judge.run import languages, lifecycle, programs, sandbox
from judge.run.build import box
from judge.run.programs import Built, ProgramError
from judge.run.sources import Launch, Sources
from judge.run.verdicts import Verdict

VALID, INVALID = 42, 43  # the ICPC input validator's exit codes
SOLUTIONS = "solutions"
Named = tuple[str, Path, Path]  # a test: its name, its input, its answer


def bugs_of(target_dir: Path, suite: Suite) -> tuple[Bug, ...]:
    """The spec's bugs, else every solution in the problem's bug folders."""
    if suite.bugs:
        return suite.bugs
    found: list[Bug] = []
    for folder in BUG_FOLDERS:
        where = target_dir / SOLUTIONS / folder
        for item in sorted(where.iterdir()) if where.is_dir() else ():
            if not item.name.startswith((".", "_")):
                found.append(Bug(path=f"{SOLUTIONS}/{folder}/{item.name}"))
    return tuple(found)


def bugs_digest(target_dir: Path, bugs: tuple[Bug, ...]) -> str:
    """A hash of every bug's files (a file, or a folder's), in order."""
    digest = hashlib.sha256()
    for bug in bugs:
        path = target_dir / bug.path
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for item in files:
            digest.update(f"{item.relative_to(target_dir)}\0".encode())
            try:
                digest.update(item.read_bytes() + b"\0")
            except OSError:
                digest.update(b"unreadable\0")
    return digest.hexdigest()


@dataclass(frozen=True)
class Subject:
    """The problem under test and how its programs run: its kind, its built parts."""

    problem: Problem
    kind: Kind
    reference: Built
    validators: tuple[Built, ...]


def refusal(kind_name: str) -> str:
    """Why a problem of this kind cannot be under test: its reference makes no answer of an input."""
    return (
        f"a {kind_name} problem cannot be under test yet: a student's test is an input whose answer its"
        " reference makes (stdio and function problems)"
    )


def subject(target: Problem, kind: Kind) -> Subject:
    """Build (once, cached) the reference and validators of the problem under test."""
    if not kind.solves:  # a unit problem's tests are pytest files, an interactive one's a dialogue
        raise JudgeError(f"{target.spec_path}: {refusal(kind.name)}")
    if target.builtin:
        raise JudgeError(
            f"{target.spec_path}: a problem with a built-in reference cannot be tested (it needs a program)"
        )
    memory = target.program_limits.memory_mib
    reference = programs.build(kind.program(target, programs.load(target.directory / target.spec.reference)), memory)
    validators = tuple(programs.load_and_build(target.directory / v, memory) for v in target.spec.validators)
    return Subject(target, kind, reference, validators)


def _text_issue(data: bytes) -> str:
    if b"\0" in data:
        return "binary data (NUL byte), not a text test"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        return f"line {line}: not UTF-8 text"
    return ""


def validator_issue(result: sandbox.RunResult, built: Built) -> str:
    """Why a validator refused a student's input ("" if it accepted): its own message when it
    said invalid (43, the reason on stderr by convention); else how it failed, without its
    stderr, which a crash fills with the teacher's source lines."""
    if result.exit_code == VALID and result.limit_hit is None:
        return ""
    name = Path(built.label).name
    if result.exit_code == INVALID and result.limit_hit is None:
        tail = programs.stderr_tail(result.stderr, built) or programs.stderr_tail(result.stdout, built)
        return f"rejected by the validator {name}{tail or ' (no message)'}"
    return f"the validator {name} {programs.failure(replace(result, stderr=b''))} on it"


def reference_issue(result: sandbox.RunResult) -> str:
    """Why the reference's run on a student's input makes it invalid ("" if it ran cleanly):
    how it failed, never its stderr (a traceback quotes the reference's code)."""
    failed = programs.failure(replace(result, stderr=b""))
    return f"the reference {failed} on it" if failed else ""


def _fill(where: Path, built: Built) -> None:
    """A box holding only the build, sealed (a run may add files, not change the build's)."""
    for item in built.directory.iterdir():
        if item.name == ".built":
            continue
        if item.is_dir() and not item.is_symlink():
            shutil.copytree(item, where / item.name, symlinks=True)
        elif item.is_file():
            shutil.copy2(item, where / item.name)
    sandbox.seal_build(where)


def _empty(where: Path, keep: set[str]) -> None:
    # What one run left in the box must not reach the next.
    for entry in where.iterdir():
        if entry.name not in keep:
            lifecycle.remove_tree(entry)


def forked(runner: sandbox.CaseRunner, built: Built) -> sandbox.CaseRunner:
    """The runner of a Python program's runs: each a fork of a zygote that has its script
    compiled (never run) where the session can start one, not an interpreter's start per test."""
    return runner.forking() if languages.load().languages[built.language].family == "python" else runner


def run_batch(built: Built, inputs: tuple[Path, ...], limits: sandbox.RunLimits) -> tuple[sandbox.RunResult, ...]:
    """A problem's program (validator, reference) on each input, in one box and one session."""
    found: list[sandbox.RunResult] = []
    with box() as where:
        _fill(where, built)
        keep = {entry.name for entry in where.iterdir()}
        with sandbox.cases(where) as session:
            runner = forked(session, built)
            for given in inputs:
                _empty(where, keep)
                found.append(runner.run(list(built.argv), limits=limits, stdin=given))
    return tuple(found)


def check(found: Subject, tests: Sequence[StudentTest], folder: Path, pool: Pool) -> tuple[Checked, ...]:
    """Each test's validity: readable text, every validator's 42, the reference's clean run,
    and its .ans (if any) what the problem's checker accepts of the reference's output. A
    valid test is left in `folder` as NAME.in and NAME.ans (the reference's answer)."""
    limits = found.problem.program_limits
    why = {t.name: _text_issue(t.input) for t in tests}
    for test in tests:  # the kind's own rules first (a function's call against its signature)
        issues = [] if why[test.name] else found.kind.input_issues(found.problem, test.input.decode("utf-8"))
        why[test.name] = why[test.name] or (issues[0] if issues else "")
    readable = [t for t in tests if not why[t.name]]
    inputs = tuple(folder / f"{t.name}.in" for t in readable)
    for test, given in zip(readable, inputs, strict=True):
        given.write_bytes(test.input)
    own = (*found.validators, found.reference)
    batches = pool([(run_batch, (built, inputs, limits.sandbox_limits(built))) for built in own])
    for index, test in enumerate(readable):
        mine = [batch[index] for batch in batches]
        issues = [i for i in (validator_issue(r, v) for r, v in zip(mine, found.validators, strict=False)) if i]
        solved = mine[-1]
        failed = reference_issue(solved)
        given, answer = inputs[index], folder / f"{test.name}.ans"
        if issues or failed:
            why[test.name] = issues[0] if issues else failed
            given.unlink()
            continue
        try:  # the answer as the kind writes it (a function's returned value, as JSON)
            made = found.kind.answer_text(solved.stdout.decode("utf-8", errors="replace"), test.name)
        except JudgeError as err:
            why[test.name] = f"the reference gives no answer on it ({err})"
            given.unlink()
            continue
        if test.answer is not None:
            answer.write_bytes(test.answer)
            verdict = found.kind.check_answer(found.problem, (given, answer), solved.stdout)
            if not verdict.accepted:
                line = f" (line {verdict.line})" if verdict.line else ""
                why[test.name] = f"its expected answer is not the reference's{line}"
                given.unlink()
                answer.unlink()
                continue
        answer.write_text(made, encoding="utf-8")
    return tuple(Checked(t.name, why[t.name]) for t in tests)


def mutant_program(target: Problem, mutant: Mutant) -> Sources:
    """The reference of the problem under test with the mutant's text in place of its file's."""
    reference = programs.load(target.directory / target.spec.reference)
    assert reference.single or mutant.file, "a mutant of a reference of several files names its file"
    shown = Path(f"{reference.path} ({mutant.name})")
    files = tuple(
        (name, mutant.text.encode() if reference.single or name == mutant.file else data)
        for name, data in reference.files
    )
    return replace(reference, path=shown, files=files)


def run_bug(found: Subject, bug: Bug | Mutant, cases: Sequence[Named]) -> BugRun:
    """The bug (a solution, or a mutant of the reference) against the tests (name, input,
    answer), in order, in one box and session, until one catches it (its verdict is not AC;
    the checker failing, IE, catches nothing)."""
    return run_bugs(found, (bug,), cases)[0]


def run_bugs(found: Subject, bugs: Sequence[Bug | Mutant], cases: Sequence[Named]) -> tuple[BugRun, ...]:
    """Bugs one after another in one box and one sandbox session, whose start is paid once
    (a worker's share of the bugs), not once per bug: the box is emptied and the next bug's
    build laid in between, so each bug still runs with nothing but its own build, and each
    case with a fresh /tmp, IPC namespace and cgroup as ever."""
    runs: list[BugRun] = []
    with box() as where, sandbox.cases(where, wanted=not found.kind.own_sandboxes) as session:
        laid = 0.0
        for bug in bugs:
            # A zygote is the session's for as long as its script's (inode, ctime) stays the same;
            # the file times' clock is coarse (a tick of a few ms): the next build is laid in a
            # later tick, so its script is never taken for the last bug's.
            time.sleep(max(0.0, laid + LAY_S - time.monotonic()))
            _empty(where, set())
            runs.append(_bug_in(found, bug, cases, where, session))
            laid = time.monotonic()
    return tuple(runs)


LAY_S = 0.02  # longer than the file times' tick


def _bug_in(
    found: Subject, bug: Bug | Mutant, cases: Sequence[Named], where: Path, session: sandbox.CaseRunner
) -> BugRun:
    """One bug built (once per machine) and laid in the empty box, run on the cases until one catches it."""
    target = found.problem
    try:
        loaded = mutant_program(target, bug) if isinstance(bug, Mutant) else programs.load(target.directory / bug.path)
        built = programs.build(found.kind.program(target, loaded), target.spec.limits.memory_mib)
    except ProgramError as err:
        # A mutant's compiler message would quote the reference: said without it.
        return BugRun("", "the mutant does not build" if isinstance(bug, Mutant) else f"the bug does not build: {err}")
    limits = run_limits(target, languages.load().languages[built.language])
    launch = Launch(built.argv, built.language)
    _fill(where, built)
    keep = {entry.name for entry in where.iterdir()}
    runner = forked(session, built)
    for name, given, answer in cases:
        _empty(where, keep)
        verdict = found.kind.judge_case(CaseJob(target, launch, where, (given, answer), limits, runner)).decided.verdict
        if verdict not in (Verdict.AC, Verdict.IE):
            return BugRun(name)
    return BugRun("")


Job = tuple[Callable[..., Any], tuple[Any, ...]]
Pool = Callable[[Sequence[Job]], list[Any]]


@contextmanager
def worker_pool(jobs: int) -> Iterator[Pool]:
    """Run batches of jobs (a function and its arguments), `jobs` at a time in worker processes,
    each batch's results in order; one pool for the checks and the bugs. In a daemonic process
    (a web judge's worker), which may have no children, they run here one after another."""
    if jobs <= 1 or multiprocessing.current_process().daemon:
        yield lambda batch: [function(*args) for function, args in batch]
        return
    with lifecycle.worker_pool(jobs) as pool:
        try:
            yield lambda batch: [
                future.result()
                for future in [pool.submit(lifecycle.in_worker, function, *args) for function, args in batch]
            ]
        except BaseException:
            lifecycle.stop_pool(pool)
            raise


def judge_tests(
    bugs: Sequence[Bug | Mutant], target: Problem, kind: Kind, tests: Sequence[StudentTest], jobs: int = 2
) -> tuple[tuple[Checked, ...], tuple[BugRun, ...]]:
    """The whole matrix: each test's validity, and each bug caught or not."""
    found = subject(target, kind)
    folder = lifecycle.make_temp_dir("tests")
    try:
        with worker_pool(jobs) as pool:
            checked = check(found, tests, folder, pool)
            valid = tuple(c.name for c in checked if not c.why)
            if not valid:
                return checked, tuple(BugRun("") for _ in bugs)
            named = tuple((name, folder / f"{name}.in", folder / f"{name}.ans") for name in valid)
            # A share of the bugs to each worker, each share in one session (run_bugs).
            count = max(1, min(jobs, len(bugs)))
            done = pool([(run_bugs, (found, tuple(bugs[first::count]), named)) for first in range(count)])
            return checked, tuple(done[index % count][index // count] for index in range(len(bugs)))
    finally:
        lifecycle.remove_dir(folder)
