"""The verdict rules, from hand-made run figures (no processes)."""

from __future__ import annotations

import signal

import pytest

from judge.run.checkers import CheckResult
from judge.run.sandbox import Limit, RunResult
from judge.run.verdicts import InteractorEnd, Verdict, headline, judge_interaction, judge_run

LIMIT_KIB = 64 * 1024


def run(**changes: object) -> RunResult:
    fields: dict[str, object] = dict(
        exit_code=0,
        signal=None,
        cpu_s=0.1,
        wall_s=0.1,
        memory_kib=1000,
        output_bytes=2,
        limit_hit=None,
        memory_refused=False,
        stdout=b"3\n",
        stderr=b"",
    )
    fields.update(changes)
    return RunResult(**fields)  # type: ignore[arg-type]


OK = CheckResult(True, "")
BAD = CheckResult(False, "token 1 (line 1): expected '3', got '4'", 1)


@pytest.mark.parametrize(
    ("figures", "check", "verdict", "message"),
    [
        ({}, OK, Verdict.AC, ""),
        ({}, BAD, Verdict.WA, "token 1 (line 1): expected '3', got '4'"),
        ({"limit_hit": "cpu", "cpu_s": 1.01, "signal": 9, "exit_code": None}, None, Verdict.TLE, "CPU time"),
        ({"limit_hit": "wall", "wall_s": 3.0, "signal": 9, "exit_code": None}, None, Verdict.TLE, "wall-clock"),
        ({"limit_hit": "output", "signal": 9, "exit_code": None}, None, Verdict.OLE, "output limit"),
        ({"limit_hit": "file_size", "signal": 25, "exit_code": None}, None, Verdict.OLE, "output limit"),
        ({"exit_code": 1, "stderr": b"OSError: [Errno 27] File too large"}, None, Verdict.OLE, "output limit"),
        (
            {"limit_hit": "memory", "memory_kib": LIMIT_KIB + 10, "signal": 9, "exit_code": None},
            None,
            Verdict.MLE,
            "peak",
        ),
        ({"memory_kib": LIMIT_KIB}, OK, Verdict.MLE, "peak"),  # reaching the limit is enough
        # Over the memory limit, then out of time (thrashing at the limit): the memory limit.
        (
            {"limit_hit": "cpu", "cpu_s": 1.01, "memory_kib": LIMIT_KIB + 4096, "signal": 9, "exit_code": None},
            None,
            Verdict.MLE,
            "peak",
        ),
        ({"limit_hit": "cpu", "cpu_s": 1.01, "memory_kib": LIMIT_KIB - 1}, None, Verdict.TLE, "CPU time"),
        ({"memory_refused": True, "signal": 9, "exit_code": None}, None, Verdict.MLE, "peak"),  # OOM kill
        (
            {"exit_code": 1, "stderr": b'Exception in thread "main" java.lang.OutOfMemoryError'},
            None,
            Verdict.MLE,
            "peak",
        ),
        ({"exit_code": 1, "stderr": b"MemoryError"}, None, Verdict.MLE, "peak"),
        ({"exit_code": 3, "memory_kib": int(LIMIT_KIB * 0.95)}, None, Verdict.MLE, "peak"),  # failed near the limit
        ({"exit_code": 3, "memory_kib": int(LIMIT_KIB * 0.85)}, None, Verdict.MLE, "peak"),
        ({"exit_code": 3, "memory_kib": int(LIMIT_KIB * 0.5)}, None, Verdict.RE, "exit code 3"),
        ({"signal": int(signal.SIGSEGV), "exit_code": None}, None, Verdict.RE, "killed by SIGSEGV"),
        ({"signal": int(signal.SIGABRT), "exit_code": None}, None, Verdict.RE, "killed by SIGABRT"),
        ({"exit_code": 3}, None, Verdict.RE, "exit code 3"),
        ({"signal": 9, "exit_code": None}, None, Verdict.RE, "killed by SIGKILL"),  # not at a limit: RE
        ({}, None, Verdict.IE, "no checker result"),
    ],
)
def test_rules(figures: dict[str, object], check: CheckResult | None, verdict: Verdict, message: str) -> None:
    decided = judge_run(run(**figures), LIMIT_KIB, check)
    assert decided.verdict is verdict
    assert message in decided.message


def test_a_limit_outranks_the_exit_status() -> None:
    # Killed by the CPU limit while a checker would have accepted the partial output: TLE.
    assert judge_run(run(limit_hit="cpu", signal=9, exit_code=None), LIMIT_KIB, OK).verdict is Verdict.TLE


def test_headline_is_the_first_failure_in_case_order() -> None:
    assert headline([Verdict.AC, Verdict.AC]) is Verdict.AC
    assert headline([Verdict.AC, Verdict.TLE, Verdict.WA]) is Verdict.TLE
    assert headline([]) is Verdict.AC


def test_wall_limit_while_running_says_the_machine_was_busy() -> None:
    idle = judge_run(run(limit_hit="wall", cpu_s=0.01, wall_s=3.0), 256 * 1024, None)
    busy = judge_run(run(limit_hit="wall", cpu_s=0.9, wall_s=9.0, busy=True), 256 * 1024, None)
    assert idle.verdict is busy.verdict is Verdict.TLE
    assert "idle or blocked" in idle.message and "busy" not in idle.message
    assert "machine was too busy" in busy.message and "idle" not in busy.message


def ended(
    code: int | None,
    at: float,
    sig: int | None = None,
    limit: str | None = None,
    message: str = "why",
    broken_pipe: bool = False,
) -> InteractorEnd:
    return InteractorEnd(code, sig, limit, at, message, broken_pipe)


@pytest.mark.parametrize(
    ("submission", "interactor", "expected"),
    [
        # The interactor decides a clean run.
        (run(ended=2.0), ended(42, 2.1), Verdict.AC),
        (run(ended=2.0), ended(43, 2.1), Verdict.WA),
        # Its WA, first, wins over what the submission did after (a crash, a stop, a spin).
        (run(ended=2.0, exit_code=1), ended(43, 1.0), Verdict.WA),
        (run(ended=2.0, exit_code=None, signal=9, limit_hit=Limit.STOPPED), ended(43, 1.0), Verdict.WA),
        (run(ended=2.0, limit_hit=Limit.CPU, cpu_s=1.5), ended(43, 1.0), Verdict.WA),
        # Died writing to the interactor that had gone: the interactor came first, whatever
        # the two clocks say (they are two processes' reaping, a few milliseconds apart).
        (run(ended=1.0, exit_code=None, signal=signal.SIGPIPE), ended(43, 1.001), Verdict.WA),
        (run(ended=1.0, exit_code=1, stderr=b"BrokenPipeError: [Errno 32] Broken pipe"), ended(43, 1.01), Verdict.WA),
        # The submission failed first: its own verdict, whatever the interactor then said.
        (run(ended=1.0, exit_code=3), ended(43, 2.0), Verdict.RE),
        (run(ended=1.0, limit_hit=Limit.WALL), ended(43, 2.0), Verdict.TLE),
        (run(ended=1.0, limit_hit=Limit.MEMORY, memory_kib=LIMIT_KIB), ended(43, 2.0), Verdict.MLE),
        # Accepted first, then a crash: the crash counts (problemtools' rule).
        (run(ended=2.0, exit_code=3), ended(42, 1.0), Verdict.RE),
        # The interactor's own failure is the judge's: IE, never against the student...
        (run(ended=2.0), ended(1, 1.0), Verdict.IE),
        (run(ended=2.0), ended(None, 1.0, limit="stopped"), Verdict.IE),
        (run(ended=2.0), ended(None, 0.0, message="the interactor could not be run: no python"), Verdict.IE),
        # ...but one killed writing to a submission that had closed its input only lost its
        # reader: the submission's failure, else WA, whatever the two clocks say.
        (run(ended=1.0, exit_code=3), ended(None, 2.0, sig=signal.SIGPIPE), Verdict.RE),
        (run(ended=2.0, exit_code=3), ended(None, 1.0, sig=signal.SIGPIPE), Verdict.RE),
        (run(ended=1.0), ended(None, 2.0, sig=signal.SIGPIPE), Verdict.WA),
        (run(ended=2.0), ended(None, 1.0, sig=signal.SIGPIPE), Verdict.WA),
        # A Python interactor ignores SIGPIPE: the write fails (BrokenPipeError), it exits 1.
        (run(ended=1.0), ended(1, 2.0, broken_pipe=True), Verdict.WA),
        (run(ended=1.0, exit_code=3), ended(1, 2.0, broken_pipe=True), Verdict.RE),
        # ...but not when a limit ended it: that is the interactor's own failure.
        (run(ended=1.0), ended(1, 2.0, limit="cpu", broken_pipe=True), Verdict.IE),
    ],
)
def test_the_interaction_rules(submission: RunResult, interactor: InteractorEnd, expected: Verdict) -> None:
    assert judge_interaction(submission, interactor, LIMIT_KIB).verdict is expected


def test_an_interactor_that_failed_is_named_in_the_message() -> None:
    found = judge_interaction(run(ended=2.0), ended(None, 1.0, sig=signal.SIGSEGV), LIMIT_KIB)
    assert found.message == "the interactor ended with SIGSEGV; expected exit 42 or 43"
    said = judge_interaction(run(ended=2.0), ended(43, 1.0, message="guess 3: 0 is not between 1 and 10"), LIMIT_KIB)
    assert said.message == "guess 3: 0 is not between 1 and 10"
    left = judge_interaction(run(ended=1.0), ended(None, 2.0, sig=signal.SIGPIPE), LIMIT_KIB)
    assert left.message == "the program ended while the interactor was still writing to it"
