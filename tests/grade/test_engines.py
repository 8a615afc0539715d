"""The local engine: a case cancelled after it has started ends early instead of running on;
fast cases of one build go to a worker together."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Hashable
from pathlib import Path

from judge.grade import batching, runner
from judge.grade.engines import LocalEngine, QueuedCase
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.problem.spec import Problem
from judge.problem.testdata import CaseFiles
from judge.run import sandbox
from judge.run.sources import Launch
from judge.run.verdicts import Verdict
from tests.conftest import PROBLEMS, REPO


def test_a_started_case_that_is_cancelled_stops_at_once_and_is_not_judged() -> None:
    problem = load_problem(PROBLEMS / "lanqiao")  # a time limit of 1 s
    case = testdata.load_cases(problem)[0]
    source = REPO / "tests" / "programs" / "spin.c"
    submission = runner.load_for(problem, source)
    limits = runner.run_limits(problem, submission.language)
    with LocalEngine(1) as engine:
        compiled = engine.compile(problem, submission, 0)
        assert engine.finished() == [compiled]
        where = engine.compiled(compiled).where
        launch = submission.launch(problem.spec.limits.memory_mib)
        ticket = engine.case(QueuedCase.of(problem, where, launch, case, limits, (0, 0)))
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
        compiled = engine.compile(problem, submission, 0)
        engine.finished()
        where = engine.compiled(compiled).where
        launch = submission.launch(problem.spec.limits.memory_mib)
        ticket = engine.case(
            QueuedCase.of(problem, where, launch, case, runner.run_limits(problem, submission.language), (0, 0))
        )
        assert engine.cancel(ticket) is True
        assert engine.finished() == []


class _Steady(batching.Pace):
    """A pace that the machine's speed does not change: the batches are the same on any machine."""

    def __init__(self, build: str, seconds: float) -> None:
        super().__init__()
        super().observe(build, seconds, 1)

    def observe(self, build: Hashable, seconds: float, cases: int) -> None:
        pass


def _run_of(problem: Problem, source: Path) -> tuple[sandbox.RunLimits, Launch]:
    """A submission's run limits and command on `problem`."""
    submission = runner.load_for(problem, source)
    return runner.run_limits(problem, submission.language), submission.launch(problem.spec.limits.memory_mib)


def _compiled(engine: LocalEngine, problem: Problem, source: Path) -> str:
    compiled = engine.compile(problem, runner.load_for(problem, source), 0)
    assert engine.finished() == [compiled]
    where = engine.compiled(compiled).where
    assert isinstance(where, str)
    return where


def test_fast_cases_of_a_build_go_to_a_worker_together_and_each_gets_its_own_result(tmp_path: Path) -> None:
    problem = load_problem(PROBLEMS / "lanqiao")
    cases = testdata.load_cases(problem)[:12]
    source = tmp_path / "zero.c"
    source.write_text('#include <stdio.h>\nint main(void) { puts("0"); return 0; }\n')
    limits, launch = _run_of(problem, source)
    with LocalEngine(2) as engine:
        where = _compiled(engine, problem, source)
        engine._pace = _Steady(where, 0.002)  # as if its cases came back in 2 ms each
        # full: no group ends early, so every case runs and gets its own verdict
        tickets = [
            engine.case(QueuedCase.of(problem, where, launch, case, limits, (0, i), full=True))
            for i, case in enumerate(cases)
        ]
        done: list[Hashable] = []
        while finished := engine.finished():
            done += finished
        results = [engine.result(ticket) for ticket in tickets]
    assert sorted(map(id, done)) == sorted(map(id, tickets))
    # Each task held a fair share of what was waiting for two workers: 12/2, then 6/2, 3/2, 1.
    sizes = Counter(id(ticket.future) for ticket in tickets)  # type: ignore[attr-defined]
    assert sorted(sizes.values()) == [1, 2, 3, 6]
    assert [r.name for r in results] == [case.id for case in cases]
    expected = [case.answer.read_text().split() == ["0"] for case in cases]
    assert [r.verdict is Verdict.AC for r in results] == expected
    assert all(r.verdict in (Verdict.AC, Verdict.WA) for r in results)


def test_cases_cancelled_inside_a_started_batch_stop_and_the_rest_never_start() -> None:
    problem = load_problem(PROBLEMS / "lanqiao")  # a time limit of 1 s
    cases = testdata.load_cases(problem)[:3]
    source = REPO / "tests" / "programs" / "spin.c"
    limits, launch = _run_of(problem, source)
    with LocalEngine(1) as engine:
        where = _compiled(engine, problem, source)
        engine._pace = _Steady(where, 0.001)
        # full: only the stops end these cases, not their group's end
        tickets = [
            engine.case(QueuedCase.of(problem, where, launch, case, limits, (0, i), full=True))
            for i, case in enumerate(cases)
        ]
        engine._start()
        future = tickets[0].future  # type: ignore[attr-defined]
        assert all(ticket.future is future for ticket in tickets)  # type: ignore[attr-defined]  # one task
        deadline = time.monotonic() + 60
        while not future.running():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        # A batch that has started cannot be taken back: each case is stopped instead.
        assert [engine.cancel(ticket) for ticket in tickets] == [False, False, False]
        assert sorted(map(id, engine.finished())) == sorted(map(id, tickets))
        results = [engine.result(ticket) for ticket in tickets]
    assert all(r.verdict is Verdict.NJ and r.message == runner.STOPPED for r in results)
    assert results[0].cpu_s < limits.cpu_s  # stopped, not at its CPU limit
    # The cases after it saw their stop before they began: nothing of them ran.
    assert all(r.cpu_s == 0 and r.wall_s == 0 for r in results[1:])


def test_a_batch_does_not_run_the_cases_its_own_results_have_ended(tmp_path: Path) -> None:
    # "edge" is all-or-nothing: it breaks at its first failure. A batch of its cases that
    # fails the first one leaves the rest unrun, unless every case is to be judged (--full).
    problem = load_problem(PROBLEMS / "lanqiao")
    cases = [c for c in testdata.load_cases(problem) if c.group == "edge"][:5]
    assert len(cases) == 5
    source = tmp_path / "wrong.c"
    source.write_text('#include <stdio.h>\nint main(void) { puts("-7"); return 0; }\n')
    limits, launch = _run_of(problem, source)
    with LocalEngine(1) as engine:
        where = _compiled(engine, problem, source)
        batch: list[tuple[CaseFiles, sandbox.Stop | None]] = [(case, None) for case in cases]
        lazy = runner.run_cases_from(problem, launch, Path(where), batch, limits)
        full = runner.run_cases_from(problem, launch, Path(where), batch, limits, full=True)
    assert [r.verdict for r in lazy] == [Verdict.WA] + [Verdict.NJ] * 4
    assert all(r.cpu_s == 0 and r.wall_s == 0 for r in lazy[1:])  # never started
    assert [r.verdict for r in full] == [Verdict.WA] * 5
    assert [r.name for r in lazy] == [r.name for r in full] == [c.id for c in cases]
