"""The local engine: a case cancelled after it has started ends early instead of running on."""

from __future__ import annotations

import time

from judge.grade import runner
from judge.grade.engines import LocalEngine
from judge.problem import testdata
from judge.problem.spec import load_problem
from judge.run.verdicts import Verdict
from tests.conftest import PROBLEMS, REPO


def test_a_started_case_that_is_cancelled_stops_at_once_and_is_not_judged() -> None:
    problem = load_problem(PROBLEMS / "lanqiao")  # a time limit of 1 s
    case = testdata.load_cases(problem)[0]
    source = REPO / "tests" / "programs" / "spin.c"
    submission = runner.load_for(problem, source)
    limits = runner.run_limits(problem, submission.language)
    with LocalEngine(1) as engine:
        compiled = engine.compile(problem, source, 0)
        assert engine.finished() == [compiled]
        where = engine.compiled(compiled).where
        argv = tuple(submission.run_argv(problem.spec.limits.memory_mib))
        ticket = engine.case(problem, where, argv, case, limits, (0, 0))
        engine._start()
        deadline = time.monotonic() + 60
        while not ticket.future.running():  # type: ignore[attr-defined]  # handed to the worker: cannot be dropped
            assert time.monotonic() < deadline
            time.sleep(0.01)
        began = time.monotonic()
        assert engine.cancel(ticket) is False
        assert engine.finished() == [ticket]
        stopped = time.monotonic() - began
        result = engine.result(ticket)
    assert result.verdict is Verdict.NJ and result.message == runner.STOPPED
    # It ended on the stop, not at its CPU limit (1 s) nor its wall limit (3 s).
    assert result.cpu_s < limits.cpu_s, (result, stopped)


def test_a_queued_case_that_is_cancelled_never_runs() -> None:
    problem = load_problem(PROBLEMS / "lanqiao")
    case = testdata.load_cases(problem)[0]
    source = REPO / "tests" / "programs" / "spin.c"
    submission = runner.load_for(problem, source)
    with LocalEngine(1) as engine:
        compiled = engine.compile(problem, source, 0)
        engine.finished()
        where = engine.compiled(compiled).where
        argv = tuple(submission.run_argv(problem.spec.limits.memory_mib))
        ticket = engine.case(problem, where, argv, case, runner.run_limits(problem, submission.language), (0, 0))
        assert engine.cancel(ticket) is True
        assert engine.finished() == []
