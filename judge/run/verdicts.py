"""Verdict rules (pure): raw run figures + checker result -> a verdict per case, and the
headline verdict of a submission.

The order of the checks is the point of this module: a run stopped by a limit is judged
by that limit before its exit status, and the checker is only asked about a clean run.
"""

from __future__ import annotations

import signal as signals
from dataclasses import dataclass
from enum import Enum

from judge.run.checkers import CheckResult
from judge.run.sandbox import Limit, RunResult


class Verdict(str, Enum):
    AC = "AC"  # accepted
    WA = "WA"  # wrong answer
    TLE = "TLE"  # time limit exceeded (CPU time)
    MLE = "MLE"  # memory limit exceeded
    RE = "RE"  # run-time error: non-zero exit or a signal
    OLE = "OLE"  # output limit exceeded
    CE = "CE"  # compilation error
    IE = "IE"  # internal error: the judge or the checker failed, not the program
    NJ = "NJ"  # not judged: an earlier case of its group failed and the group breaks there
    NG = "NG"  # not graded: the file cannot be judged (empty, binary, unknown language), the student's to fix

    @property
    def long_name(self) -> str:
        return _LONG[self]


_LONG = {
    Verdict.AC: "accepted",
    Verdict.WA: "wrong answer",
    Verdict.TLE: "time limit exceeded",
    Verdict.MLE: "memory limit exceeded",
    Verdict.RE: "run-time error",
    Verdict.OLE: "output limit exceeded",
    Verdict.CE: "compilation error",
    Verdict.IE: "internal error",
    Verdict.NJ: "not judged",
    Verdict.NG: "not graded",
}

# What a JVM or Python prints when an allocation fails: a failure at the limit is MLE.
_OUT_OF_MEMORY_MARKS = (b"java.lang.OutOfMemoryError", b"MemoryError", b"std::bad_alloc", b"Cannot allocate memory")


NEAR_LIMIT = 0.8  # RLIMIT_AS refuses a malloc at 85-95% of the limit in resident memory


@dataclass(frozen=True)
class CaseVerdict:
    verdict: Verdict
    message: str  # for the report: the checker's first difference, the signal, the limit


def signal_name(number: int) -> str:
    try:
        return signals.Signals(number).name
    except ValueError:
        return f"signal {number}"


def judge_run(
    run: RunResult, memory_limit_kib: int, check: CheckResult | None, memory_marks: tuple[bytes, ...] = ()
) -> CaseVerdict:
    """The verdict of one case. `check` is None when the checker was not (or could not be) run.
    `memory_marks`: what runtimes print when their heap is full (languages.yaml), beside the
    marks every run is read for."""
    if run.limit_hit in (Limit.CPU, Limit.WALL) and run.memory_kib >= memory_limit_kib:
        # Over its memory limit first: what follows at the limit is the kernel reclaiming the
        # program's own pages while it faults them back, until its time runs out (how long
        # depends on the machine's load). The memory limit is what it broke.
        return CaseVerdict(Verdict.MLE, f"peak memory {run.memory_kib // 1024} MiB")
    if run.limit_hit == Limit.CPU:
        return CaseVerdict(Verdict.TLE, f"CPU time over the limit ({run.cpu_s:.2f} s)")
    if run.limit_hit == Limit.WALL:
        if run.busy:
            return CaseVerdict(
                Verdict.TLE,
                f"wall-clock limit ({run.wall_s:.2f} s, CPU {run.cpu_s:.2f} s): "
                "it was running, but the machine was too busy to give it the CPU",
            )
        return CaseVerdict(
            Verdict.TLE, f"wall-clock limit ({run.wall_s:.2f} s, CPU {run.cpu_s:.2f} s): idle or blocked"
        )
    # A runtime that ignores SIGXFSZ (Python does) reports the file size limit as EFBIG.
    if run.limit_hit in (Limit.OUTPUT, Limit.FILE_SIZE) or (run.exit_code != 0 and b"File too large" in run.stderr):
        return CaseVerdict(Verdict.OLE, "output limit exceeded")
    out_of_memory = run.limit_hit == Limit.MEMORY or run.memory_kib >= memory_limit_kib
    failed = run.exit_code != 0
    # A program that fails while holding nearly all of its memory most likely failed to
    # get more (a refused malloc under RLIMIT_AS, say): that is MLE, not RE.
    out_of_memory |= failed and run.memory_kib >= NEAR_LIMIT * memory_limit_kib
    if out_of_memory or (failed and _died_of_memory(run, memory_marks)):
        return CaseVerdict(Verdict.MLE, f"peak memory {run.memory_kib // 1024} MiB")
    if run.signal is not None:
        return CaseVerdict(Verdict.RE, f"killed by {signal_name(run.signal)}")
    if failed:
        return CaseVerdict(Verdict.RE, f"exit code {run.exit_code}")
    if check is None:
        return CaseVerdict(Verdict.IE, "no checker result")
    if check.accepted:
        return CaseVerdict(Verdict.AC, "")
    return CaseVerdict(Verdict.WA, check.message)


def _died_of_memory(run: RunResult, memory_marks: tuple[bytes, ...]) -> bool:
    # Killed by the OOM killer at the cgroup limit, or an allocation refused with the
    # runtime saying so (JVM OutOfMemoryError, Python MemoryError, C++ bad_alloc).
    if run.memory_refused and run.signal == signals.SIGKILL:
        return True
    return any(mark in run.stderr for mark in (*_OUT_OF_MEMORY_MARKS, *memory_marks))


def headline(verdicts: list[Verdict]) -> Verdict:
    """The submission's verdict: the first case that is not AC, in case order (AC if none)."""
    for verdict in verdicts:
        if verdict is not Verdict.AC and verdict is not Verdict.NJ:
            return verdict
    return Verdict.AC


_BROKEN_PIPE_MARKS = (b"Broken pipe", b"BrokenPipeError", b"EPIPE")


@dataclass(frozen=True)
class PartnerEnd:
    """How the partner's run ended, as a verdict of an exchange (run.exchange) needs it."""

    exit_code: int | None
    signal: int | None
    limit_hit: str | None  # the sandbox limit that ended it, if one did
    ended: float  # when (the machine's monotonic clock), beside the submission's RunResult.ended
    message: str  # the first line of its judgemessage.txt, or why it could not be run
    # It failed writing to the submission, whose input was closed (see wrote_to_a_closed_pipe).
    broken_pipe: bool = False


def wrote_to_a_closed_pipe(signal_number: int | None, stderr: bytes) -> bool:
    """Whether a run ended writing to a pipe nobody reads: killed by SIGPIPE, or its runtime
    said so (Python ignores SIGPIPE: a write fails with BrokenPipeError and the program exits 1)."""
    return signal_number == signals.SIGPIPE or any(mark in stderr for mark in _BROKEN_PIPE_MARKS)
