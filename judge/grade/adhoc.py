"""`judge run --input`: one program on one input, outside any problem. It is compiled once,
run under the limits given, and its output checked against an answer when there is one, by
the built-in checkers problems use (judge.problem.checkers) and the verdict rules of a case."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.problem import checkers
from judge.run import build, languages, sandbox
from judge.run.sandbox import RunResult
from judge.run.sources import Sources
from judge.run.verdicts import CaseVerdict, Verdict, judge_run


@dataclass(frozen=True)
class AdHocLimits:
    cpu_s: float
    memory_mib: int
    output_mib: float


@dataclass(frozen=True)
class AdHocRun:
    compile_message: str  # the compiler's output when it failed, else ""
    compiled: bool
    run: RunResult | None  # None when it did not compile
    decided: CaseVerdict | None
    passed: bool  # AC against the answer; without one, a run that ended well
    sandbox_mode: str


@dataclass(frozen=True)
class AdHocTask:
    """One program on one input, as `judge run --input` was given them."""

    submission: Sources
    input_file: Path
    answer_file: Path | None  # without one, nothing is compared
    limits: AdHocLimits
    checker: str
    compile_limits: sandbox.RunLimits


def run_once(task: AdHocTask) -> AdHocRun:
    submission, input_file, answer_file, limits = task.submission, task.input_file, task.answer_file, task.limits
    for path in (input_file, answer_file):
        if path is not None and not path.is_file():
            raise JudgeError(f"{path}: no such file")
    language = submission.language
    run_limits = sandbox.RunLimits(
        cpu_s=limits.cpu_s,
        wall_s=sandbox.wall_for(limits.cpu_s),
        memory_mib=limits.memory_mib + language.jvm_allowance_mib,
        output_bytes=int(limits.output_mib * 1024 * 1024),
        address_space=language.address_space_limit,
    )
    mode = sandbox.detect().mode
    with build.box() as where:
        compiled = build.compile_submission(submission, where, task.compile_limits)
        if not compiled.ok:
            return AdHocRun(compiled.message, False, None, None, False, mode)
        argv = submission.run_argv(limits.memory_mib)
        run = sandbox.run(argv, box=where, limits=run_limits, stdin=input_file)
    check = None
    if answer_file is not None and run.exit_code == 0 and run.limit_hit is None:
        check = checkers.named(task.checker).compare(run.stdout, answer_file.read_bytes())
    decided = judge_run(run, run_limits.memory_mib * 1024, check, languages.memory_marks())
    # Without an answer nothing is compared: a run that ended well is all there is to say.
    passed = decided.verdict is Verdict.AC or (answer_file is None and decided.verdict is Verdict.IE)
    return AdHocRun("", True, run, decided, passed, mode)
