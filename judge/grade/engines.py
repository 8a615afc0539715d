"""Where the cases of `judge grade` run: a pool of local processes, or judge hosts.

Both engines take the same two kinds of task, a compile and a case of a compiled
submission, and hand back finished tickets in whatever order they finish; grading puts
the results back in case order. The cluster engine is in `judge.cluster.engine`; it queues
the same records (QueuedCase, Job) as the local one.
"""

from __future__ import annotations

import itertools
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, Protocol, TypeVar

from judge.grade import batching
from judge.grade.runner import CaseResult
from judge.problem.spec import Problem
from judge.problem.testdata import CaseFiles
from judge.run import lifecycle, sandbox
from judge.run.build import Build
from judge.run.sources import Launch, Sources


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

    def compile(self, problem: Problem, submission: Sources, order: int) -> Hashable:
        """Queue the compile of a submission (identified once: judging.identify); a ticket.
        Compiles go before every case."""

    def case(self, queued: QueuedCase) -> Hashable:
        """Queue one case of a compiled submission (QueuedCase.of); a ticket. Lower ranks
        start first."""

    def finished(self) -> list[Hashable]:
        """Tickets that finished (at least one; waits for it); [] when none is queued."""

    def compiled(self, ticket: Hashable) -> Compiled: ...

    def result(self, ticket: Hashable) -> CaseResult: ...

    def cancel(self, ticket: Hashable) -> bool:
        """Drop a queued case; False when it has started (its result will come, unused; the
        local engine ends its run early)."""

    def release(self, where: object) -> None:
        """The build is no longer needed."""


def _compile_task(problem: Problem, submission: Sources, builds: Path) -> tuple[Build, str]:
    """Worker: compile one submission into a folder of `builds` (its cases copy it)."""
    from judge.grade import runner

    where = Path(tempfile.mkdtemp(prefix="build-", dir=builds))
    lifecycle.cap_folder(where, lifecycle.BOX_CAP_BYTES)  # what the compile writes is capped
    sandbox.prepare_box(where)
    return runner.compile_for(problem, submission, where), str(where)


def _cases_task(
    problem: Problem,
    launch: Launch,
    built: str,
    cases: tuple[tuple[CaseFiles, str], ...],
    limits: sandbox.RunLimits,
    full: bool,
) -> list[CaseResult]:
    """Worker: cases of one submission (runner.run_cases_from), each paired with its stop
    file: a case whose file exists is ended early, or not started (NJ)."""
    from judge.grade import runner

    stops: list[tuple[CaseFiles, sandbox.Stop | None]] = [(case, runner.StopFile(Path(stop))) for case, stop in cases]
    return runner.run_cases_from(problem, launch, Path(built), stops, limits, full)


@dataclass(frozen=True)
class QueuedCase:
    """A case of a compiled submission, as either engine queues it."""

    problem: Problem
    where: object  # the build: its folder (local engine), its future (cluster engine)
    launch: Launch
    case: CaseFiles
    limits: sandbox.RunLimits
    rank: tuple[int, int]  # lower ranks start first
    full: bool
    ending: str | None  # its group, if it may end early (batching.ending)
    stop: Path | None = None  # the local engine's: made to end the case once its task has started

    @classmethod
    def of(
        cls,
        problem: Problem,
        where: object,
        launch: Launch,
        case: CaseFiles,
        limits: sandbox.RunLimits,
        rank: tuple[int, int],
        full: bool = False,
    ) -> QueuedCase:
        """The case to queue; `full`: every case is judged (no group ends early), as grading
        was asked."""
        return cls(problem, where, launch, case, limits, rank, full, batching.ending(problem, case.group, full))


Task = TypeVar("Task")


class Job(Generic[Task]):
    """A ticket of either engine: waiting in its queue, then part of a task on the workers
    (one that `start` submits, a compile say; or one or more cases of a build: batching)."""

    def __init__(self, start: Callable[[], Task] | None = None, case: QueuedCase | None = None) -> None:
        self.start, self.case = start, case
        self.future: Task | None = None
        self.index = 0  # its place in the task's list of results (a case)
        self.dropped = False


def ending(job: Job[Any]) -> str | None:
    """The group a queued case may end early (batching.beside), None for any other job."""
    return job.case.ending if job.case is not None else None


def start_next(
    queue: batching.Queue[Job[Task]],
    pace: batching.Pace,
    slots: int,
    running: dict[Task, batching.Sent[Job[Task]]],
    send_cases: Callable[[QueuedCase, list[Job[Task]]], Task],
) -> Task | None:
    """Either engine's next task from its `queue`, entered in its `running` book: a compile
    (its job's own start) or cases of one build (`send_cases`, given the first case and the
    jobs); None when only dropped jobs were left."""
    build, jobs = queue.pop(
        lambda build, waiting: pace.size(build, waiting, slots),
        batching.beside(running.values(), ending),
    )
    if not jobs:
        return None
    first = jobs[0]
    if first.case is None:
        assert first.start is not None
        task = first.start()
    else:
        task = send_cases(first.case, jobs)
    running[task] = batching.handed(jobs, build, task)
    return task


class Tickets(ABC):
    """What either engine does with a ticket, whatever runs its task."""

    def result(self, ticket: Hashable) -> CaseResult:
        assert isinstance(ticket, Job)
        found: CaseResult = self.task_results(ticket)[ticket.index]
        return found

    def cancel(self, ticket: Hashable) -> bool:
        assert isinstance(ticket, Job)
        if ticket.future is None:  # still in the engine's queue: it is never handed out
            ticket.dropped = True
            return True
        return self.cancel_handed(ticket)

    @abstractmethod
    def task_results(self, ticket: Job[Any]) -> Any:
        """What the finished task of `ticket` returned (its failure raised)."""

    @abstractmethod
    def cancel_handed(self, ticket: Job[Any]) -> bool:
        """Drop a case handed to the workers if its task can still be called back; whether it was."""


class LocalEngine(Tickets):
    """`jobs` processes of this machine; builds in a temporary folder of its own.

    The engine keeps its own queue, ordered by rank, and hands the pool no more tasks than
    it has workers: a case that a failure earlier in its group makes useless is then most
    often still in the queue, and dropped, rather than run for nothing on the other worker.
    Fast cases of one build go to a worker several at a time (judge.grade.batching).
    """

    def __init__(self, jobs: int) -> None:
        self._jobs = max(1, jobs)
        self._pool: ProcessPoolExecutor | None = None
        self._builds: Path | None = None
        self._queue: batching.Queue[Job[Future[Any]]] = batching.Queue(lambda job: job.dropped)
        self._pace = batching.Pace()
        self._running: dict[Future[Any], batching.Sent[Job[Future[Any]]]] = {}
        self._stops = itertools.count()

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

    def _start(self) -> None:
        assert self._pool is not None
        while self._queue and len(self._running) < self._jobs:
            if start_next(self._queue, self._pace, self._jobs, self._running, self._send_cases) is None:
                return

    def _send_cases(self, one: QueuedCase, jobs: list[Job[Future[Any]]]) -> Future[Any]:
        assert self._pool is not None
        cases = tuple((job.case.case, str(job.case.stop)) for job in jobs if job.case is not None)
        return self._pool.submit(
            lifecycle.in_worker, _cases_task, one.problem, one.launch, str(one.where), cases, one.limits, one.full
        )

    def compile(self, problem: Problem, submission: Sources, order: int) -> Hashable:
        pool, builds = self._pool, self._builds
        assert pool is not None

        def start() -> Future[Any]:
            return pool.submit(lifecycle.in_worker, _compile_task, problem, submission, builds)

        job = Job(start)
        self._queue.push((-1, order), job)
        return job

    def case(self, queued: QueuedCase) -> Hashable:
        assert self._builds is not None and isinstance(queued.where, str)
        stop = self._builds / f"stop-{next(self._stops)}"
        job: Job[Future[Any]] = Job(case=replace(queued, stop=stop))
        self._queue.push(queued.rank, job, build=queued.where)
        return job

    def finished(self) -> list[Hashable]:
        self._start()
        if not self._running:
            return []
        done, _ = wait(set(self._running), return_when=FIRST_COMPLETED)
        now = time.monotonic()
        jobs: list[Hashable] = []
        for future in done:
            task = self._running.pop(future)
            if task.build is not None and not future.cancelled():
                self._pace.observe(task.build, now - task.started, len(task.jobs))
            jobs += task.jobs
        self._start()
        return jobs

    def _future(self, ticket: Hashable) -> Future[Any]:
        assert isinstance(ticket, Job) and ticket.future is not None
        found: Future[Any] = ticket.future
        return found

    def compiled(self, ticket: Hashable) -> Compiled:
        made, where = self._future(ticket).result()
        return Compiled(made, where, sandbox.detect().mode)

    def task_results(self, ticket: Job[Any]) -> Any:
        return self._future(ticket).result()

    def cancel_handed(self, ticket: Job[Any]) -> bool:
        assert ticket.future is not None
        task = self._running.get(ticket.future)
        if task is not None and len(task.jobs) == 1 and ticket.future.cancel():
            self._running.pop(ticket.future, None)
            return True
        if ticket.case is not None and not ticket.future.done():
            # The worker ends the case at its next look, or skips it if it has not begun (NJ, unused).
            if ticket.case.stop is not None:
                ticket.case.stop.touch()
        return False

    def release(self, where: object) -> None:
        assert isinstance(where, str)
        self._pace.forget(where)
        lifecycle.remove_tree(Path(where))
