"""The verdict rules, from hand-made run figures (no processes)."""

from __future__ import annotations

import signal

import pytest

from judge.run.checkers import CheckResult
from judge.run.sandbox import RunResult
from judge.run.verdicts import Verdict, headline, judge_run

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
