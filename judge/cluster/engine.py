"""The client side of judge hosts: grading's engine on a dask.distributed cluster.

Each problem travels once as a scattered archive; a submission's source is sent with its
compile task, and its build stays on the cluster (cases depend on it, and dask moves it
between workers). Every task asks for the resources of `needs`, so only workers that
judge as this machine would take it. A worker killed in the middle of a case is dask's to
handle: the case runs again elsewhere and its future gets one result. A scheduler that
goes away cancels the futures; the run then ends with ClusterLost, and the results
written so far stay (a rerun resumes)."""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from judge.author.verify import Solution, SolutionRun
from judge.cluster import address, needs, remote
from judge.errors import EXIT_FAILED, JudgeError
from judge.grade import batching
from judge.grade.engines import Compiled, Job, QueuedCase, Tickets, start_next
from judge.problem.spec import Problem
from judge.problem.testdata import CaseFiles
from judge.run import sandbox, sources
from judge.run.sources import Sources

if TYPE_CHECKING:
    from distributed import Client, Future

CONNECT_TIMEOUT_S = 20
RANK_SPAN = 1_000_000  # submissions in one run, at most, for the priority of a case
COMPILE_PRIORITY = 1_000_000
WORKERS_TIMEOUT_S = 30  # for a first worker able to take the work
CAPACITY_REFRESH_S = 2.0
IN_FLIGHT_PER_SLOT = 2


class ClusterDown(JudgeError):
    """The cluster cannot take the work: the scheduler cannot be reached (wrong address or
    certificates, not started), or no worker able to judge it has joined."""


class ClusterLost(ClusterDown):
    """The scheduler went away in the middle of a run: not bad input, a run that failed."""

    exit_code = EXIT_FAILED


def quiet_logs() -> None:
    # dask logs each reconnect attempt and closed comm with a traceback; the judge says one
    # line. Its configuration gives some loggers (distributed.client) levels of their own.
    import distributed  # noqa: F401  (sets up its loggers, which are then quietened)

    for name in ["distributed", "tornado", "asyncio", *logging.root.manager.loggerDict]:
        if name.split(".")[0] in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)


# dask's own instruments, which a judge host does not need: each takes CPU (and the GIL)
# from the process that measures a case, and the cases share the machine with them.
LIGHT = {
    "distributed.worker.profile.enabled": False,  # samples the running task's stack every 10 ms
    "distributed.admin.system-monitor.interval": "2s",  # psutil polls of the process (500 ms)
    "distributed.admin.tick.interval": "500ms",  # event-loop stall watch (20 ms)
    "distributed.worker.memory.monitor-interval": "1s",  # the sandbox limits memory, not dask (100 ms)
}


def lighten() -> None:
    """Apply LIGHT in this process; spawned workers and nannies inherit it."""
    import dask

    dask.config.set(LIGHT)


def connect(point: address.Endpoint) -> Client:
    from distributed import Client

    quiet_logs()
    lighten()
    try:
        return Client(
            point.address,
            security=address.security(point, "client"),
            timeout=CONNECT_TIMEOUT_S,
            set_as_default=False,
        )
    except (OSError, TimeoutError) as err:
        raise ClusterDown(f"{point.address}: cannot reach the scheduler: {err}") from None


def _ref(case: CaseFiles) -> remote.CaseRef:
    """How a worker finds the case in the problem's archive."""
    return remote.CaseRef(case.group, case.name, case.public)


class ClusterEngine(Tickets):
    """Grading's engine on the cluster at `point`, for submissions of `language_ids`."""

    def __init__(
        self,
        point: address.Endpoint,
        language_ids: set[str],
        notify: Callable[[str], None] = lambda _: None,
    ) -> None:
        self._point = point
        self._needs = needs.client_needs(language_ids, isolated=os.environ.get(sandbox.UNSAFE_ENV) != "1")
        self._notify = notify
        self._client: Client | None = None
        self._data: dict[tuple[Path, Path], Future[Any]] = {}
        self._compiled: dict[Future[Any], Future[Any]] = {}  # what the client is told -> the build
        self._queue: Any = None  # distributed.as_completed
        self._waiting: batching.Queue[Job[Future[Any]]] = batching.Queue(lambda job: job.dropped)
        self._pace = batching.Pace()
        self._running: dict[Future[Any], batching.Sent[Job[Future[Any]]]] = {}
        self._slots = 1
        self._capacity_at = -math.inf

    def __enter__(self) -> ClusterEngine:
        from distributed import as_completed

        self._client = connect(self._point)
        try:
            self._check_workers()
        except BaseException:
            self._client.close()
            raise
        self._queue = as_completed(loop=self._client.loop)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        assert self._client is not None
        try:
            if error is not None and self._client.status == "running":
                # Ctrl-C or a failure: what is queued must not run on for nobody.
                self._client.cancel(list(self._running), force=True)
        finally:
            self._client.close(timeout=5)

    def _check_workers(self) -> None:
        """Wait for a worker able to take the work; name, once each, those that cannot."""
        assert self._client is not None
        deadline = time.monotonic() + WORKERS_TIMEOUT_S
        told: set[str] = set()
        while True:
            offers: dict[str, needs.Offer] = self._client.run(remote.offer, on_error="return")
            fit = 0
            for worker, offer in sorted(offers.items()):
                if not isinstance(offer, needs.Offer):
                    why = f"cannot say what it has ({offer})"
                else:
                    why = needs.refusal(self._needs, offer)
                if not why:
                    fit += 1
                elif worker not in told:
                    told.add(worker)
                    self._notify(f"worker {worker} left out: {why}")
            if fit:
                return
            if time.monotonic() > deadline:
                seen = f"{len(offers)} worker(s), none able" if offers else "no worker"
                raise ClusterDown(
                    f"{self._point.address}: {seen} to judge these submissions after {WORKERS_TIMEOUT_S} s "
                    "(start `judge worker` on a judge machine)"
                )
            time.sleep(1.0)

    @property
    def client(self) -> Client:
        assert self._client is not None
        return self._client

    def _problem(self, problem: Problem) -> Future[Any]:
        """The problem's data on the cluster, sent once a run (a run's problems do not change).
        Students' variants share the problem's folder, each with tests of its own: a key each."""
        key = (problem.directory, problem.tests_dir)
        found = self._data.get(key)
        if found is None:
            digest = problem.digest
            found = self._data[key] = self.client.scatter(remote.pack_problem(problem, digest), hash=False)
        return found

    def _capacity(self) -> int:
        """Cases the able workers can run at once (refreshed every few seconds: workers come and go)."""
        now = time.monotonic()
        if now - self._capacity_at > CAPACITY_REFRESH_S and self.client.status == "running":
            self._capacity_at = now
            wanted = needs.required(self._needs)
            try:
                workers = self.client.scheduler_info(n_workers=-1).get("workers", {}).values()
            except (OSError, TimeoutError):
                workers = []  # the scheduler is going: the futures will say so
            able = [w for w in workers if all(w.get("resources", {}).get(k, 0) >= v for k, v in wanted.items())]
            self._slots = max(1, sum(int(w.get("nthreads", 1)) for w in able)) if able else self._slots
        # One more per slot, so that a worker finds its next case at hand.
        return IN_FLIGHT_PER_SLOT * self._slots

    def _start(self) -> None:
        """Hand the scheduler no more than the able workers can run: dask does not move a
        task with resource restrictions from a busy worker to an idle one, so a worker's
        queue that ran long would leave the others idle at the end."""
        capacity = self._capacity()
        while self._waiting and len(self._running) < capacity:
            future = start_next(self._waiting, self._pace, self._slots, self._running, self._send_cases)
            if future is None:
                return
            self._queue.add(future)

    def _send_cases(self, one: QueuedCase, jobs: list[Job[Future[Any]]]) -> Future[Any]:
        refs = tuple(_ref(job.case.case) for job in jobs if job.case is not None)
        # dask runs higher priorities first: lower ranks get higher ones.
        priority = -(one.rank[0] * RANK_SPAN + one.rank[1])
        data = self._problem(one.problem)
        return self._submit(
            remote.cases_remote, data, one.where, one.launch, refs, one.limits, one.full, priority=priority
        )

    def _submit(self, function: Callable[..., Any], *args: Any, priority: int = 0) -> Future[Any]:
        return self.client.submit(function, *args, pure=False, resources=needs.required(self._needs), priority=priority)

    def compile(self, problem: Problem, submission: Sources, order: int) -> Hashable:
        data = self._problem(problem)

        def start() -> Future[Any]:
            built = self._submit(remote.compile_remote, data, submission, priority=COMPILE_PRIORITY - order)
            told = self._submit(remote.told, built, priority=COMPILE_PRIORITY - order)
            self._compiled[told] = built
            return told

        job = Job(start)
        self._waiting.push((-1, order), job)
        return job

    def case(self, queued: QueuedCase) -> Hashable:
        job: Job[Future[Any]] = Job(case=queued)
        self._waiting.push(queued.rank, job, build=id(queued.where))
        return job

    def finished(self) -> list[Hashable]:
        self._start()
        if not self._running:
            return []
        jobs: list[Hashable] = []
        while not jobs and self._running:  # a batch of only cancelled tasks is no answer
            batch = self._queue.next_batch(block=True)
            now = time.monotonic()
            for future in batch:
                task = self._running.pop(future, None)
                if task is None:
                    continue  # cancelled: grading no longer waits for it
                if task.build is not None and future.status == "finished":
                    self._pace.observe(task.build, now - task.started, len(task.jobs))
                jobs += task.jobs
            self._start()
        return jobs

    def _outcome(self, ticket: Hashable) -> Any:
        from distributed.scheduler import KilledWorker

        assert isinstance(ticket, Job) and ticket.future is not None
        future = ticket.future
        if future.status == "cancelled":  # not by grading: it does not ask for those
            raise ClusterLost(
                f"{self._point.address}: lost the scheduler; the results finished so far are saved (run again to resume)"
            )
        try:
            return future.result()
        except KilledWorker as err:
            raise JudgeError(f"a task was lost with the workers that ran it ({err})") from None

    def compiled(self, ticket: Hashable) -> Compiled:
        told: remote.RemoteBuild = self._outcome(ticket)
        assert isinstance(ticket, Job) and ticket.future is not None
        return Compiled(told.build, self._compiled.pop(ticket.future), told.sandbox_mode)

    def task_results(self, ticket: Job[Any]) -> Any:
        return self._outcome(ticket)

    def cancel_handed(self, ticket: Job[Any]) -> bool:
        assert ticket.future is not None
        # A started case runs to its end on its worker, and its result is dropped; so do the
        # cases that share its task with others.
        task = self._running.get(ticket.future)
        if ticket.future.done() or task is None or len(task.jobs) > 1:
            return False
        ticket.future.cancel()
        self._running.pop(ticket.future, None)
        return True

    def run_solutions(
        self, work: Sequence[tuple[Path, Solution]], on_done: Callable[[SolutionRun], None] | None = None
    ) -> dict[Path, SolutionRun]:
        """`judge verify`'s solution runs, one task each (keyed by solution path)."""
        from judge.kinds.table import load_problem

        problems: dict[Path, Problem] = {}
        tickets: dict[Hashable, Solution] = {}
        for order, (directory, solution) in enumerate(work):
            problem = problems.get(directory) or problems.setdefault(directory, load_problem(directory))
            data = self._problem(problem)
            # A decoy of the judge's has no file: its text travels inside the Solution.
            decoy = solution.decoy
            name, source = sources.pack(solution.path) if decoy is None else (decoy.name, decoy.text.encode())

            def start(
                data: Future[Any] = data, solution: Solution = solution, name: str = name, source: bytes = source
            ) -> Future[Any]:
                return self._submit(remote.verify_solution, data, solution, name, source)

            job = Job(start)
            self._waiting.push((order,), job)
            tickets[job] = solution
        done: dict[Path, SolutionRun] = {}
        while batch := self.finished():
            for ticket in batch:
                run: SolutionRun = self._outcome(ticket)
                done[tickets[ticket].path] = run
                if on_done is not None:
                    on_done(run)
        return done

    def release(self, where: object) -> None:
        self._pace.forget(id(where))
        if hasattr(where, "release"):
            where.release()
