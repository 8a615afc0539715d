"""How many cases of one build go to a worker as one task (the same rule for the local pool
and the judge hosts).

Each task is a round trip between grading and a worker: the pool's pipes and a wake-up of
the parent, about 1.5 ms here, or the network and dask's scheduler for a judge host. For
cases of a few milliseconds that is a large part of their cost, so consecutive cases of one
build go as one task, as many as fill about BATCH_S at the pace its cases have gone so far.
Nothing is batched before a build's first results come back, and cases slower than BATCH_S
never are: the results of a batch come back together, and a slow submission is still spread
over every worker case by case. Within a batch the worker itself leaves out the cases of a
group that the batch's own results have ended (runner.run_cases_from), so fast cases that
turn slow do not run out their time limits after their group has given up. And a case of
a group that may end early does not start beside a running case of its build and group while
anything else is waiting (beside).
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from judge.problem.spec import Problem

BATCH_S = 0.05  # the work one task is meant to hold, in seconds of wall time
BATCH_MAX = 64  # cases in one task, at most
_WEIGHT = 0.3  # of the newest measure in the pace (older batches fade)
# Jobs that may wait looked past for one that need not, at most: without a bound, a single
# submission of n cases in one group would cost n pops of n steps (0.4 s of the parent's
# CPU for 1000 cases, 10 s for 5000); with it, 0.1 s for 1000.
DEFER_SCAN = 128

Job = TypeVar("Job")


class Pace:
    """Seconds per case of each build, as measured by the tasks that came back. Mutable: the
    engine's own book."""

    def __init__(self) -> None:
        self._per_case: dict[Hashable, float] = {}

    def observe(self, build: Hashable, seconds: float, cases: int) -> None:
        """A task of `cases` cases of `build` took `seconds` from its start to its result."""
        measured = seconds / max(cases, 1)
        before = self._per_case.get(build)
        self._per_case[build] = measured if before is None else before + _WEIGHT * (measured - before)

    def size(self, build: Hashable, waiting: int, workers: int) -> int:
        """Cases of `build` for the next task: 1 until its pace is known; never more than a
        fair share of the `waiting` ones, so that every worker gets some of a build's last cases."""
        per_case = self._per_case.get(build)
        if per_case is None:
            return 1
        fits = int(BATCH_S / max(per_case, 1e-4))
        share = -(-waiting // max(workers, 1))
        return max(1, min(fits, BATCH_MAX, share))

    def forget(self, build: Hashable) -> None:
        self._per_case.pop(build, None)


@dataclass(frozen=True)
class Sent(Generic[Job]):
    """A task handed to the workers: its jobs (their results in this order), the build of its
    cases (None: not cases), and when it left, for the pace."""

    jobs: list[Job]
    build: Hashable | None
    started: float


class Answered(Protocol):
    """A job of either engine once handed over: the future of its task and its place in the answer."""

    future: Any
    index: int


Handed = TypeVar("Handed", bound=Answered)


def handed(jobs: list[Handed], build: Hashable | None, future: object) -> Sent[Handed]:
    """The jobs handed to the workers as one task: each learns its task's future and its place
    in the task's list of results; the Sent, for the engine's book and the pace."""
    for index, job in enumerate(jobs):
        job.future, job.index = future, index
    return Sent(jobs, build, time.monotonic())


def ending(problem: Problem, group: str, full: bool) -> str | None:
    """`group` if its cases may end early (on_reject: break, give_up_after_tle or _mle), unless every
    case is judged (`full`); else None."""
    if full or not any(g.name == group and (g.breaks or g.gives_up) for g in problem.spec.groups):
        return None
    return group


def beside(
    running: Iterable[Sent[Job]], ending_of: Callable[[Job], str | None]
) -> Callable[[Hashable | None, Job], bool]:
    """Queue.pop's `defer` while `running` run: whether a case would run beside another of its
    build and group, in a group that may end early (its `ending_of`). Its result is then
    often of no use: the other case fails, the group ends, and what it ran meanwhile was
    CPU time for nothing (6 s of the sample class's 135, mostly Python cases near their time
    limit). Such a case waits while a worker has anything else to do, and runs when it has
    not: a class spreads over its submissions, a single submission still over every worker."""
    busy = {(task.build, group) for task in running for job in task.jobs if (group := ending_of(job)) is not None}

    def waits(build: Hashable | None, job: Job) -> bool:
        group = ending_of(job)
        return group is not None and (build, group) in busy

    return waits


class Queue(Generic[Job]):
    """Tasks waiting to start, lowest rank first; a case is tagged with its build, so that the
    next cases of that build can go with it. Mutable."""

    def __init__(self, dropped: Callable[[Job], bool]) -> None:
        self._heap: list[tuple[tuple[int, ...], int, Hashable | None, Job]] = []
        self._sequence = 0
        self._dropped = dropped
        self.waiting: Counter[Hashable] = Counter()  # cases queued per build

    def __bool__(self) -> bool:
        return bool(self._heap)

    def push(self, rank: tuple[int, ...], job: Job, build: Hashable | None = None) -> None:
        self._sequence += 1
        heapq.heappush(self._heap, (rank, self._sequence, build, job))
        if build is not None:
            self.waiting[build] += 1

    def pop(
        self,
        size: Callable[[Hashable, int], int],
        defer: Callable[[Hashable | None, Job], bool] | None = None,
    ) -> tuple[Hashable | None, list[Job]]:
        """The next task: one job, or for a case, it and the cases of the same build that come
        right after it, `size(build, waiting)` in all at most. Dropped jobs are skipped; (None, [])
        when only those were left. A job `defer` says may wait goes after every other one,
        ahead of them again in the queue; when every job may wait (or the first DEFER_SCAN
        do), the first goes all the same."""
        deferred: list[tuple[tuple[int, ...], int, Hashable | None, Job]] = []
        try:
            while self._heap or deferred:
                if self._heap and len(deferred) < DEFER_SCAN:
                    entry = heapq.heappop(self._heap)
                    if self._dropped(entry[3]):
                        self._took(entry[2])
                        continue
                    if defer is not None and defer(entry[2], entry[3]):
                        deferred.append(entry)
                        continue
                else:
                    entry = deferred.pop(0)  # nothing else in reach: the first of those that could wait
                _, _, build, job = entry
                self._took(build)
                if build is None:
                    return None, [job]
                jobs = [job]
                limit = size(build, self.waiting[build] + 1)
                while len(jobs) < limit and self._heap and self._heap[0][2] == build:
                    _, _, _, follower = heapq.heappop(self._heap)
                    self._took(build)
                    if not self._dropped(follower):
                        jobs.append(follower)
                return build, jobs
            return None, []
        finally:
            for entry in deferred:
                heapq.heappush(self._heap, entry)

    def _took(self, build: Hashable | None) -> None:
        if build is not None:
            self.waiting[build] -= 1
            if self.waiting[build] <= 0:
                del self.waiting[build]
