"""The verdict of an interaction (pure), from hand-made run figures of both sides (no processes)."""

from __future__ import annotations

import signal

import pytest

from judge.kinds.interactive.rules import judge_interaction
from judge.run.sandbox import Limit, RunResult
from judge.run.verdicts import PartnerEnd, Verdict
from tests.run.test_verdicts import LIMIT_KIB, run


def ended(
    code: int | None,
    at: float,
    sig: int | None = None,
    limit: str | None = None,
    message: str = "why",
    broken_pipe: bool = False,
) -> PartnerEnd:
    return PartnerEnd(code, sig, limit, at, message, broken_pipe)


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
def test_the_interaction_rules(submission: RunResult, interactor: PartnerEnd, expected: Verdict) -> None:
    assert judge_interaction(submission, interactor, LIMIT_KIB).verdict is expected


def test_an_interactor_that_failed_is_named_in_the_message() -> None:
    found = judge_interaction(run(ended=2.0), ended(None, 1.0, sig=signal.SIGSEGV), LIMIT_KIB)
    assert found.message == "the interactor ended with SIGSEGV; expected exit 42 or 43"
    said = judge_interaction(run(ended=2.0), ended(43, 1.0, message="guess 3: 0 is not between 1 and 10"), LIMIT_KIB)
    assert said.message == "guess 3: 0 is not between 1 and 10"
    left = judge_interaction(run(ended=1.0), ended(None, 2.0, sig=signal.SIGPIPE), LIMIT_KIB)
    assert left.message == "the program ended while the interactor was still writing to it"
