"""The matrix: a student's tests checked first (the problem's validators, then the reference),
then every valid test run against every bug of the problem under test.

Each bug is built once (the programs' cache, shared by every submission on the machine) and
runs in a box of its own holding nothing but its build, one sandbox session for all the tests
(as a submission's cases run), the test's input on stdin; the bugs run two at a time. The
student's tests are data: nothing of a bug ever enters a box of the student's, and nothing a
bug prints reaches the student, only whether it was caught."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.kinds.base import CaseJob, Kind
from judge.kinds.tests.scoring import BugRun, Checked
from judge.kinds.tests.suite import StudentTest
from judge.problem.spec import BUG_FOLDERS, Bug, Problem, Suite
from judge.run import languages, lifecycle, programs, sandbox
from judge.run.build import box
from judge.run.programs import Built, ProgramError, Task
from judge.run.sources import Launch
from judge.run.verdicts import Verdict

VALID, INVALID = 42, 43  # the ICPC input validator's exit codes
SOLUTIONS = "solutions"


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


@dataclass(frozen=True)
class Subject:
    """The problem under test and how its programs run: its kind, its built parts."""

    problem: Problem
    kind: Kind
    reference: Built
    validators: tuple[Built, ...]


def subject(target: Problem, kind: Kind) -> Subject:
    """Build (once, cached) the reference and validators of the problem under test."""
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


def _validator_issue(result: sandbox.RunResult, built: Built) -> str:
    if result.exit_code == VALID and result.limit_hit is None:
        return ""
    name = Path(built.label).name
    if result.exit_code is not None and result.limit_hit is None:
        # Validators tell why on stderr by convention (the line), some on stdout.
        tail = programs.stderr_tail(result.stderr, built) or programs.stderr_tail(result.stdout, built)
        return f"rejected by the validator {name}{tail or ' (no message)'}"
    return f"the validator {name} {programs.failure(result, built)}"


def check(found: Subject, tests: Sequence[StudentTest], folder: Path, jobs: int = 2) -> tuple[Checked, ...]:
    """Each test's validity: readable text, every validator's 42, the reference's clean run,
    and its .ans (if any) what the problem's checker accepts of the reference's output. A
    valid test is written to `folder` as NAME.in and NAME.ans (the reference's answer)."""
    limits = found.problem.program_limits
    why = {t.name: _text_issue(t.input) for t in tests}
    readable = [t for t in tests if not why[t.name]]
    tasks = [Task(v, (), t.input, limits.sandbox_limits(v)) for t in readable for v in found.validators]
    tasks += [Task(found.reference, (), t.input, limits.sandbox_limits(found.reference)) for t in readable]
    results = programs.run_all(tasks, jobs)
    per = len(found.validators)
    for index, test in enumerate(readable):
        mine = results[index * per : (index + 1) * per]
        issues = [i for i in (_validator_issue(r, v) for r, v in zip(mine, found.validators, strict=True)) if i]
        if issues:
            why[test.name] = issues[0]
            continue
        solved = results[len(readable) * per + index]
        failed = programs.failure(solved, found.reference)
        if failed:
            why[test.name] = f"the reference {failed} on it"
            continue
        given, answer = folder / f"{test.name}.in", folder / f"{test.name}.ans"
        given.write_bytes(test.input)
        if test.answer is not None:
            answer.write_bytes(test.answer)
            verdict = found.kind.check_answer(found.problem, (given, answer), solved.stdout)
            if not verdict.accepted:
                line = f" (line {verdict.line})" if verdict.line else ""
                why[test.name] = f"its .ans is not the reference's answer{line}"
                given.unlink()
                answer.unlink()
                continue
        answer.write_bytes(solved.stdout)
    return tuple(Checked(t.name, why[t.name]) for t in tests)


def run_limits(problem: Problem, language_id: str) -> sandbox.RunLimits:
    """A bug's limits: a submission's in its language on the problem under test."""
    language = languages.load().languages[language_id]
    spec = problem.spec.limits
    cpu = spec.cpu_s_for(language.id, language.time_factor)
    return sandbox.RunLimits(
        cpu_s=cpu,
        wall_s=sandbox.wall_for(cpu),
        memory_mib=spec.memory_mib + language.jvm_allowance_mib,
        output_bytes=int(spec.output_mib * 1024 * 1024),
        address_space=language.address_space_limit,
    )


def run_bug(found: Subject, bug: Bug, folder: Path, names: tuple[str, ...]) -> BugRun:
    """The bug against the valid tests, in order, in one box and session, until one catches it
    (its verdict is not AC; the checker failing, IE, catches nothing)."""
    target = found.problem
    try:
        built = programs.build(
            found.kind.program(target, programs.load(target.directory / bug.path)), target.spec.limits.memory_mib
        )
    except ProgramError as err:
        return BugRun("", f"the bug does not build: {err}")
    limits = run_limits(target, built.language)
    with box() as where:
        for item in built.directory.iterdir():
            if item.name == ".built":
                continue
            if item.is_dir() and not item.is_symlink():
                shutil.copytree(item, where / item.name, symlinks=True)
            elif item.is_file():
                shutil.copy2(item, where / item.name)
        sandbox.seal_build(where)
        keep = {entry.name for entry in where.iterdir()}
        with sandbox.cases(where, wanted=not found.kind.own_sandboxes) as runner:
            for name in names:
                for entry in where.iterdir():  # what one test's run left must not reach the next
                    if entry.name not in keep:
                        lifecycle.remove_tree(entry)
                case = (folder / f"{name}.in", folder / f"{name}.ans")
                job = CaseJob(target, Launch(built.argv, built.language), where, case, limits, runner)
                verdict = found.kind.judge_case(job).decided.verdict
                if verdict not in (Verdict.AC, Verdict.IE):
                    return BugRun(name)
    return BugRun("")


def run_bugs(
    found: Subject, bugs: tuple[Bug, ...], folder: Path, names: tuple[str, ...], jobs: int = 2
) -> tuple[BugRun, ...]:
    """Every bug against the valid tests, `jobs` bugs at a time."""
    if not names:
        return tuple(BugRun("") for _ in bugs)
    if jobs <= 1 or len(bugs) <= 1:
        return tuple(run_bug(found, bug, folder, names) for bug in bugs)
    with lifecycle.worker_pool(min(jobs, len(bugs))) as pool:
        futures = [pool.submit(lifecycle.in_worker, run_bug, found, bug, folder, names) for bug in bugs]
        return tuple(future.result() for future in futures)


def judge_tests(
    suite: Suite, target: Problem, kind: Kind, tests: Sequence[StudentTest], jobs: int = 2
) -> tuple[tuple[Checked, ...], tuple[BugRun, ...]]:
    """The whole matrix: each test's validity, and each bug of the suite caught or not."""
    found = subject(target, kind)
    bugs = bugs_of(target.directory, suite)
    folder = lifecycle.make_temp_dir("tests")
    try:
        checked = check(found, tests, folder, jobs)
        valid = tuple(c.name for c in checked if not c.why)
        return checked, run_bugs(found, bugs, folder, valid, jobs)
    finally:
        lifecycle.remove_dir(folder)
