"""Judge one submission: compile it once, run it on each case in the sandbox, check the
output, and derive verdicts and a score.

Secret cases keep their secrets here already: a CaseResult of a secret case carries the
verdict, the figures and the checker's message only when the case is public.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from judge.errors import JudgeError
from judge.kinds import table as kinds
from judge.kinds.base import STOPPED, CaseJob
from judge.kinds.base import run_limits as run_limits  # where a case's limits are made, for callers of the runner
from judge.problem.spec import Problem
from judge.problem.testdata import CaseFiles
from judge.run import checkers, lifecycle, sandbox
from judge.run.build import Build, box, compile_limits, compile_submission, load_submission
from judge.run.sources import Launch, Sources
from judge.run.verdicts import CaseVerdict, Verdict, headline

SHOWN_OUTPUT_CAP = 64 * 1024  # bytes of a public case's output kept for the diff
TRACE_CAP = 16 * 1024  # bytes of stdout and of stderr kept per case for the teacher (the tail)


@dataclass(frozen=True)
class CaseResult:
    name: str  # "group/NN"
    group: str
    public: bool
    verdict: Verdict
    message: str
    cpu_s: float
    wall_s: float
    memory_kib: int
    # Public cases only: the program's output (capped) and the line of the first difference.
    output: bytes | None = None
    diff_line: int = 0
    # Asked for (trace=True) by the web judge only: the tails of stdout and stderr of any case,
    # secret ones included, for the teacher's eyes. Never copied into a GradeRecord.
    trace: tuple[bytes, bytes] | None = None


class Paused(Exception):
    """Raised by judge_submission when `pause` asked it to give up its turn between cases:
    `done` holds the results so far, to be passed back as `done` when judging resumes."""

    def __init__(self, done: tuple[CaseResult, ...]) -> None:
        super().__init__(f"paused after {len(done)} cases")
        self.done = done


@dataclass(frozen=True)
class GroupRecord:
    """A group's score: the same in a fresh result and in its record on disk (grade.results)."""

    name: str
    points: float
    earned: float
    passed: int
    total: int


@dataclass(frozen=True)
class SubmissionResult:
    problem: str
    source: str
    language: str
    verdict: Verdict
    score: float
    max_score: float
    build: Build
    cases: tuple[CaseResult, ...]
    groups: tuple[GroupRecord, ...]
    sandbox_mode: str
    limits: sandbox.RunLimits


def _clean_box(where: Path, keep: AbstractSet[str]) -> None:
    # Files a run leaves in the box must not reach the next case.
    for entry in where.iterdir():
        if entry.name not in keep:
            lifecycle.remove_tree(entry)


def judge_submission(
    problem: Problem,
    submission: Sources,
    cases: list[CaseFiles],
    on_case: Callable[[int, CaseResult], None] | None = None,
    limits: sandbox.RunLimits | None = None,
    ends_group: Callable[[CaseResult], bool] | None = None,
    on_compiled: Callable[[], None] | None = None,
    full: bool = False,
    trace: bool = False,
    done: tuple[CaseResult, ...] = (),
    pause: Callable[[], bool] | None = None,
    stop: sandbox.Stop | None = None,
) -> SubmissionResult:
    """Compile once, then run every case in order, in one box.

    `limits` replaces the problem's (verify runs at a raised CPU limit). By default a group
    that breaks (on_reject) ends at its first failing case and its other cases are not
    judged (NJ); `full` judges every case. `ends_group` (verify) replaces that rule, and the
    cases it skips are left out. `trace` keeps each case's output tails (CaseResult.trace).

    Time slices (the web judge's fair turns): `done` are the results of the first cases from
    an earlier turn, kept as they are; `pause`, asked before each further case once one has
    run in this turn, may end the turn by raising Paused with the results so far. `stop`, once
    set, ends the compile or the case under way (a web run giving its worker up, worker.py).
    """
    limits = limits or run_limits(problem, submission.language)
    results: list[CaseResult] = list(done)
    with box() as where:
        build = compile_for(problem, submission, where, stop)
        if build.ok:
            if on_compiled is not None:
                on_compiled()
            sandbox.seal_build(where)
            keep = {entry.name for entry in where.iterdir()}
            launch = launch_of(problem, submission)
            ends = GroupEnds(problem, full)
            for earlier in done:
                ends.add(earlier)
            ran = False
            # One sandbox for every case where the machine allows (sandbox.session).
            kind = kinds.of(problem)
            reads = kind.case_reads(problem, submission.language.id)
            with sandbox.cases(where, wanted=not kind.own_sandboxes, read_only=reads) as runner:
                for index, case in enumerate(cases[len(done) :], start=len(done)):
                    if case.group in ends.ended:
                        if ends_group is None:
                            results.append(ends.not_judged(case))
                        continue
                    if ran and pause is not None and pause():
                        raise Paused(tuple(results))
                    _clean_box(where, keep)
                    result = run_case(problem, launch, where, case, limits, trace, runner, stop)
                    ran = True
                    results.append(result)
                    if on_case is not None:
                        on_case(index, result)
                    if ends_group is not None:
                        if ends_group(result):
                            ends.ended[case.group] = ""
                    else:
                        ends.add(result)
    return summarise(problem, submission, build, results, limits)


_IN_A_ROW = {Verdict.TLE: "time limits exceeded", Verdict.MLE: "memory limits exceeded"}


class GroupEnds:
    """Which groups stop being judged, told the results of a submission in case order: a secret
    group that breaks (on_reject) at its first failing case (a public one scored `all` is
    judged whole), a group with give_up_after_tle: K (or
    give_up_after_mle) after K time (memory) limits exceeded in a row. Its later cases are not
    judged (NJ) and earn nothing. `full` judges every case. Mutable: one per judging of a submission."""

    def __init__(self, problem: Problem, full: bool = False) -> None:
        groups = () if full else problem.spec.groups
        # A public group scored all-or-nothing is judged whole (issue 59): its first failure
        # already sets its score and the headline (the first failing case), and a student
        # sees every sample's verdict instead of "samples/03 NJ".
        self.breaks = {g.name for g in groups if g.breaks and not (g.visibility == "public" and g.scoring == "all")}
        # group -> (verdict, how many in a row end it)
        self.give_up = {g.name: tuple((Verdict(v), k) for v, k in g.gives_up) for g in groups if g.gives_up}
        self.streak: dict[tuple[str, Verdict], int] = {}
        self.ended: dict[str, str] = {}  # group -> why its later cases are not judged

    def add(self, result: CaseResult) -> bool:
        """Count one more result of its group; whether the group ends with it."""
        group = result.group
        if group in self.ended:
            return True
        if group in self.breaks and result.verdict is not Verdict.AC:
            self.ended[group] = "not judged: the group failed earlier"
        for verdict, limit in self.give_up.get(group, ()):
            key = (group, verdict)
            self.streak[key] = self.streak.get(key, 0) + 1 if result.verdict is verdict else 0
            if self.streak[key] >= limit and group not in self.ended:
                self.ended[group] = f"not judged: {limit} {_IN_A_ROW[verdict]} in a row before it"
        return group in self.ended

    def not_judged(self, case: CaseFiles) -> CaseResult:
        """The record of a case left out because its group had ended."""
        why = self.ended.get(case.group) or "not judged: the group failed earlier"
        return CaseResult(case.id, case.group, case.public, Verdict.NJ, why, 0.0, 0.0, 0)


def load_for(problem: Problem, path: Path, language_id: str | None = None, own: bool = False) -> Sources:
    """A submission (file, folder or archive) read as `problem` allows: a build script only
    where its spec says so. `own`: one of the problem's solutions (its entry may be guessed)."""
    return load_submission(path, language_id, allow_build=problem.spec.build_script, guess_entry=own)


def launch_of(problem: Problem, submission: Sources) -> Launch:
    """How a case of the submission starts: the command of the program its kind builds (a
    function's harness, whose main class is its own), and its language."""
    return kinds.of(problem).program(problem, submission).launch(problem.spec.limits.memory_mib)


def compile_for(problem: Problem, submission: Sources, where: Path, stop: sandbox.Stop | None = None) -> Build:
    """Compile the submission in `where` under the problem's compile limits, as its problem's
    kind builds it (a function inside its harness); the kind's own refusal is a CE. `stop`,
    once set, ends the compile."""
    kind = kinds.of(problem)
    refused = kind.compile_check(problem, submission)
    if refused:
        return Build(False, refused, 0.0, 0.0)
    spec = problem.spec.limits
    limits = compile_limits(submission.language, spec.compile_time_s, spec.compile_memory_mib)
    return compile_submission(kind.program(problem, submission), where, limits, student=submission, stop=stop)


def run_case(
    problem: Problem,
    launch: Launch,
    where: Path,
    case: CaseFiles,
    limits: sandbox.RunLimits,
    trace: bool = False,
    runner: sandbox.CaseRunner | None = None,
    stop: sandbox.Stop | None = None,
) -> CaseResult:
    """Run the built program in the box `where` on one case and decide, as its problem's kind
    does. `runner`: the submission's sandbox session (else the case gets a sandbox of its own).
    `stop`, once set, ends the run: its group has ended meanwhile (NJ). A secret case's run
    has what it brought into the page cache evicted as it ends (RunLimits.forget_reads): a
    later run cannot time it (docs/sandbox.md, "The page cache")."""
    limits = replace(limits, forget_reads=not case.public)
    job = CaseJob(problem, launch, where, (case.input, case.answer), limits, runner, stop)
    done = kinds.of(problem).judge_case(job)
    run = done.run
    if run is None:
        return CaseResult(case.id, case.group, case.public, done.decided.verdict, done.decided.message, 0.0, 0.0, 0)
    if done.decided.verdict is Verdict.NJ:
        return CaseResult(
            case.id, case.group, case.public, Verdict.NJ, done.decided.message, run.cpu_s, run.wall_s, run.memory_kib
        )
    result = _case_result(case, run, done.decided, done.check)
    if not done.own_output:  # not an output to show against the answer (a function's result line)
        result = replace(result, output=None)
    if not trace:
        return result
    # Only the program's own output is its to show (CaseRun.own_output).
    return replace(result, trace=(run.stdout[-TRACE_CAP:] if done.own_output else b"", run.stderr[-TRACE_CAP:]))


@dataclass(frozen=True)
class StopFile:
    """A stop flag another process sets by making a file (a pool worker's case, cancelled by
    the parent once it has started)."""

    path: Path

    def is_set(self) -> bool:
        return self.path.exists()


def run_case_from(
    problem: Problem,
    launch: Launch,
    built: Path,
    case: CaseFiles,
    limits: sandbox.RunLimits,
    stop: sandbox.Stop | None = None,
) -> CaseResult:
    """One case in a box holding a copy of the build in `built`: cases of one submission may
    then run at the same time, in any worker, and none sees another's files. A worker keeps
    its box (and sandbox session) for the next case of the same build, cleaned in between."""
    if stop is not None and stop.is_set():  # stopped while it waited in its task (a batch)
        return CaseResult(case.id, case.group, case.public, Verdict.NJ, STOPPED, 0.0, 0.0, 0)
    held = _held_box(built)
    _clean_box(held.box, held.keep)
    return run_case(problem, launch, held.box, case, limits, runner=held.runner, stop=stop)


def run_cases_from(
    problem: Problem,
    launch: Launch,
    built: Path,
    cases: list[tuple[CaseFiles, sandbox.Stop | None]],
    limits: sandbox.RunLimits,
    full: bool = False,
) -> list[CaseResult]:
    """Consecutive cases of one submission (a batch of grading's), one after another, each
    with its stop. A case whose group these results alone already end is not run (NJ): the
    batch's cases of a group are consecutive in the group, so what ends it here ends it in
    the whole run too (GroupEnds), and a batch of fast cases that turn slow does not run
    out its time limits after its group has given up."""
    ends = GroupEnds(problem, full)
    found: list[CaseResult] = []
    for case, stop in cases:
        if case.group in ends.ended:
            found.append(ends.not_judged(case))
            continue
        result = run_case_from(problem, launch, built, case, limits, stop)
        ends.add(result)
        found.append(result)
    return found


@dataclass(frozen=True)
class _HeldBox:
    """A worker's box for the cases of one build: a copy of it, sealed, and its session."""

    pid: int
    built: str
    box: Path
    keep: frozenset[str]
    runner: sandbox.CaseRunner
    stack: ExitStack


_held: _HeldBox | None = None
_drop_at_exit = 0  # the process that has _drop_held registered to run at its exit


def _fill_box(where: Path, built: Path) -> frozenset[str]:
    """Copy a build into an empty box and seal it; the names a case must not remove."""
    for item in built.iterdir():
        if item.is_dir() and not item.is_symlink():
            shutil.copytree(item, where / item.name, symlinks=True)
        elif item.is_file():
            shutil.copy2(item, where / item.name)
    sandbox.seal_build(where)
    return frozenset(entry.name for entry in where.iterdir())


def _held_box(built: Path) -> _HeldBox:
    """The worker's box holding `built`. Another build of the same worker gets the same box,
    emptied and filled anew, and the same session: starting bubblewrap and the supervisor's
    interpreter costs about 45 ms of CPU, paid once per worker instead of once per build.
    Nothing of a case outlives it (its processes, /tmp and files are gone before the next
    case), so a box emptied between builds is all a session between two builds needs."""
    global _held, _drop_at_exit
    held = _held
    if held is not None and held.pid == os.getpid() and held.box.is_dir():
        if held.built == str(built):
            return held
        session = held.runner.session
        if session is not None and not session.broken:
            _clean_box(held.box, frozenset())
            if not any(held.box.iterdir()):  # else a new box: no file of one build may reach another
                try:
                    _held = replace(held, built=str(built), keep=_fill_box(held.box, built))
                except BaseException:
                    _drop_held()  # half filled: never handed out
                    raise
                return _held
    _drop_held()
    with ExitStack() as stack:
        where = stack.enter_context(box())
        keep = _fill_box(where, built)
        runner = stack.enter_context(sandbox.cases(where))
        if _drop_at_exit != os.getpid():
            lifecycle.at_exit(_drop_held)
            _drop_at_exit = os.getpid()
        _held = _HeldBox(os.getpid(), str(built), where, keep, runner, stack.pop_all())
    return _held


def _drop_held() -> None:
    """End the held box's session and remove it (before another build's, and at exit)."""
    global _held
    if _held is not None and _held.pid == os.getpid():
        _held.stack.close()
    _held = None


def _case_result(
    case: CaseFiles, run: sandbox.RunResult, decided: CaseVerdict, check: checkers.CheckResult | None
) -> CaseResult:
    # A checker's message quotes the expected answer: only public cases may show it.
    message = decided.message if case.public or decided.verdict is not Verdict.WA else "wrong answer"
    return CaseResult(
        name=case.id,
        group=case.group,
        public=case.public,
        verdict=decided.verdict,
        message=message,
        cpu_s=run.cpu_s,
        wall_s=run.wall_s,
        memory_kib=run.memory_kib,
        # Only a public case keeps what the program printed; a secret one never does.
        output=run.stdout[:SHOWN_OUTPUT_CAP] if case.public else None,
        diff_line=check.line if (case.public and check is not None) else 0,
    )


def judge_data(problem: Problem, shown: str, given: Path | tuple[str, bytes]) -> SubmissionResult:
    """A submission that is data (a student's tests), judged whole by its kind against the
    problem under test; JudgeError when that problem or its programs are broken."""
    kind = kinds.of(problem)
    under = kind.under_test(problem)
    if under is None:
        raise JudgeError(f"{problem.spec_path}: names no problem under test")
    target = kinds.load_problem(under)
    cases = kind.judge_data(problem, target, kinds.of(target), given)
    found = [CaseResult(c.case, c.group, c.public, c.verdict, c.message, 0.0, 0.0, 0) for c in cases]
    spec = target.spec.limits
    limits = sandbox.RunLimits(
        spec.time_s, sandbox.wall_for(spec.time_s), spec.memory_mib, int(spec.output_mib * 1024 * 1024)
    )
    return _summary(problem, shown, kind.name, Build(True, "", 0.0, 0.0), found, limits)


def summarise(
    problem: Problem,
    submission: Sources,
    build: Build,
    results: list[CaseResult],
    limits: sandbox.RunLimits,
    sandbox_mode: str | None = None,
) -> SubmissionResult:
    """The verdict and score from the cases' results; `sandbox_mode` names the sandbox they
    ran in when that was another machine's."""
    return _summary(problem, str(submission.path), submission.language.id, build, results, limits, sandbox_mode)


def _summary(
    problem: Problem,
    source: str,
    language: str,
    build: Build,
    results: list[CaseResult],
    limits: sandbox.RunLimits,
    sandbox_mode: str | None = None,
) -> SubmissionResult:
    groups: list[GroupRecord] = []
    for group in problem.spec.groups:
        mine = [r for r in results if r.group == group.name]
        total = len(mine) if build.ok else 0
        passed = sum(r.verdict is Verdict.AC for r in mine)
        # on_reject: break counts only the cases before the group's first failure.
        counted = next((i for i, r in enumerate(mine) if r.verdict is not Verdict.AC), len(mine))
        if not build.ok or not mine:
            earned = 0.0
        elif group.scoring == "per_case":
            earned = group.points * (counted if group.breaks else passed) / len(mine)
        else:
            earned = group.points if passed == len(mine) else 0.0
        groups.append(GroupRecord(group.name, group.points, round(earned, 4), passed, total))
    verdict = headline([r.verdict for r in results]) if build.ok else (Verdict.IE if build.internal else Verdict.CE)
    return SubmissionResult(
        problem=problem.id,
        source=source,
        language=language,
        verdict=verdict,
        score=round(sum(g.earned for g in groups), 4),
        max_score=problem.max_score,
        build=build,
        cases=tuple(results),
        groups=tuple(groups),
        sandbox_mode=sandbox_mode or sandbox.detect().mode,
        limits=limits,
    )
