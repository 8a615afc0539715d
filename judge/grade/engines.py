"""Where the cases of `judge grade` run: a pool of local processes, or judge hosts.

Both engines take the same two kinds of task, a compile and a case of a compiled
submission, and hand back finished tickets in whatever order they finish; grading puts
the results back in case order. The cluster engine is in `judge.cluster.engine`.
"""

from __future__ import annotations

import heapq
import itertools
import shutil
import tempfile
from collections.abc import Callable, Hashable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from judge.grade.runner import CaseResult
from judge.problem.spec import Problem
from judge.problem.testdata import CaseFiles
from judge.run import lifecycle, sandbox
from judge.run.build import Build


@dataclass(frozen=True)
class Compiled:
    """A finished compile as grading sees it: the build's outcome, an opaque handle on
    where the build is (for the cases), and the sandbox it was made in."""

    build: Build
    where: object
    sandbox_mode: str


class Engine(Protocol):
    def __enter__(self) -> Engine: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    def compile(self, problem: Problem, source: Path, order: int) -> Hashable:
        """Queue the compile of a submission; a ticket. Compiles go before every case."""

    def case(
        self,
        problem: Problem,
        where: object,
        argv: tuple[str, ...],
        case: CaseFiles,
        limits: sandbox.RunLimits,
        rank: tuple[int, int],
    ) -> Hashable:
        """Queue one case of a compiled submission; a ticket. Lower ranks start first."""

    def finished(self) -> list[Hashable]:
        """Tickets that finished (at least one; waits for it); [] when none is queued."""

    def compiled(self, ticket: Hashable) -> Compiled: ...

    def result(self, ticket: Hashable) -> CaseResult: ...

    def cancel(self, ticket: Hashable) -> bool:
        """Drop a queued case; False when it has started (its result will come, unused; the
        local engine ends its run early)."""

    def release(self, where: object) -> None:
        """The build is no longer needed."""


def _compile_task(problem: Problem, source: Path, builds: Path) -> tuple[Build, str]:
    """Worker: compile one submission into a folder of `builds` (its cases copy it)."""
    from judge.grade import runner

    submission = runner.load_for(problem, source)
    where = Path(tempfile.mkdtemp(prefix="build-", dir=builds))
    sandbox.prepare_box(where)
    return runner.compile_for(problem, submission, where), str(where)


def _case_task(
    problem: Problem, argv: tuple[str, ...], built: str, case: CaseFiles, limits: sandbox.RunLimits, stop: str
) -> CaseResult:
    """Worker: one case of one submission; ended early (NJ) once the file `stop` exists."""
    from judge.grade import runner

    return runner.run_case_from(problem, argv, Path(built), case, limits, runner.StopFile(Path(stop)))


class _Job:
    """A task of the local engine: waiting in its queue, then running in the pool."""

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...], stop: Path | None = None) -> None:
        self.function, self.args = function, args
        self.future: Future[Any] | None = None
        self.dropped = False
        self.stop = stop  # made to end the task once it has started (a case only)


class LocalEngine:
    """`jobs` processes of this machine; builds in a temporary folder of its own.

    The engine keeps its own queue, ordered by rank, and hands the pool no more tasks than
    it has workers: a case that a failure earlier in its group makes useless is then most
    often still in the queue, and dropped, rather than run for nothing on the other worker.
    """

    def __init__(self, jobs: int) -> None:
        self._jobs = max(1, jobs)
        self._pool: ProcessPoolExecutor | None = None
        self._builds: Path | None = None
        self._queue: list[tuple[tuple[int, ...], int, _Job]] = []
        self._running: dict[Future[Any], _Job] = {}
        self._sequence = itertools.count()

    def __enter__(self) -> LocalEngine:
        self._builds = lifecycle.make_temp_dir("builds")
        self._pool = lifecycle.worker_pool(self._jobs)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        assert self._pool is not None and self._builds is not None
        if error is not None:
            lifecycle.stop_pool(self._pool)
        else:
            self._pool.shutdown()
        lifecycle.remove_dir(self._builds)

    def _queued(
        self, rank: tuple[int, ...], function: Callable[..., Any], *args: Any, stop: Path | None = None
    ) -> _Job:
        job = _Job(function, args, stop)
        heapq.heappush(self._queue, (rank, next(self._sequence), job))
        return job

    def _start(self) -> None:
        assert self._pool is not None
        while self._queue and len(self._running) < self._jobs:
            _, _, job = heapq.heappop(self._queue)
            if not job.dropped:
                job.future = self._pool.submit(lifecycle.in_worker, job.function, *job.args)
                self._running[job.future] = job

    def compile(self, problem: Problem, source: Path, order: int) -> Hashable:
        return self._queued((-1, order), _compile_task, problem, source, self._builds)

    def case(
        self,
        problem: Problem,
        where: object,
        argv: tuple[str, ...],
        case: CaseFiles,
        limits: sandbox.RunLimits,
        rank: tuple[int, int],
    ) -> Hashable:
        assert self._builds is not None
        stop = self._builds / f"stop-{next(self._sequence)}"
        return self._queued(rank, _case_task, problem, argv, where, case, limits, str(stop), stop=stop)

    def finished(self) -> list[Hashable]:
        self._start()
        if not self._running:
            return []
        done, _ = wait(set(self._running), return_when=FIRST_COMPLETED)
        jobs: list[Hashable] = [self._running.pop(future) for future in done]
        self._start()
        return jobs

    def _future(self, ticket: Hashable) -> Future[Any]:
        assert isinstance(ticket, _Job) and ticket.future is not None
        return ticket.future

    def compiled(self, ticket: Hashable) -> Compiled:
        made, where = self._future(ticket).result()
        return Compiled(made, where, sandbox.detect().mode)

    def result(self, ticket: Hashable) -> CaseResult:
        found: CaseResult = self._future(ticket).result()
        return found

    def cancel(self, ticket: Hashable) -> bool:
        assert isinstance(ticket, _Job)
        if ticket.future is None:
            ticket.dropped = True
            return True
        if ticket.future.cancel():
            self._running.pop(ticket.future, None)
            return True
        if ticket.stop is not None and not ticket.future.done():
            ticket.stop.touch()  # the worker ends the run at its next look (NJ, unused)
        return False

    def release(self, where: object) -> None:
        assert isinstance(where, str)
        shutil.rmtree(where, ignore_errors=True)
