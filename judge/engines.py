"""Where the cases of `judge grade` run: a pool of local processes, or judge hosts.

Both engines take the same two kinds of task, a compile and a case of a compiled
submission, and hand back finished tickets in whatever order they finish; grading puts
the results back in case order. The cluster engine is in `judge.cluster.engine`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Hashable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from judge import lifecycle, sandbox
from judge.build import Build
from judge.runner import CaseResult
from judge.spec import Problem
from judge.testdata import CaseFiles


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

    def compile(self, problem: Problem, source: Path) -> Hashable:
        """Queue the compile of a submission; a ticket."""

    def case(
        self, problem: Problem, where: object, argv: tuple[str, ...], case: CaseFiles, limits: sandbox.Limits
    ) -> Hashable:
        """Queue one case of a compiled submission; a ticket."""

    def finished(self) -> list[Hashable]:
        """Tickets that finished (at least one; waits for it); [] when none is queued."""

    def compiled(self, ticket: Hashable) -> Compiled: ...

    def result(self, ticket: Hashable) -> CaseResult: ...

    def cancel(self, ticket: Hashable) -> bool:
        """Drop a queued case; False when it has started (its result will come, unused)."""

    def release(self, where: object) -> None:
        """The build is no longer needed."""


def _compile_task(problem: Problem, source: Path, builds: Path) -> tuple[Build, str]:
    """Worker: compile one submission into a folder of `builds` (its cases copy it)."""
    from judge import build, runner

    submission = build.load_submission(source)
    where = Path(tempfile.mkdtemp(prefix="build-", dir=builds))
    sandbox.prepare_box(where)
    return runner.compile_for(problem, submission, where), str(where)


def _case_task(
    problem: Problem, argv: tuple[str, ...], built: str, case: CaseFiles, limits: sandbox.Limits
) -> CaseResult:
    """Worker: one case of one submission."""
    from judge import runner

    return runner.run_case_from(problem, argv, Path(built), case, limits)


class LocalEngine:
    """`jobs` processes of this machine; builds in a temporary folder of its own."""

    def __init__(self, jobs: int) -> None:
        self._jobs = jobs
        self._pool: ProcessPoolExecutor | None = None
        self._builds: Path | None = None
        self._pending: set[Future[Any]] = set()

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
        shutil.rmtree(self._builds, ignore_errors=True)

    def _submit(self, *args: Any) -> Future[Any]:
        assert self._pool is not None
        future = self._pool.submit(lifecycle.in_worker, *args)
        self._pending.add(future)
        return future

    def compile(self, problem: Problem, source: Path) -> Hashable:
        return self._submit(_compile_task, problem, source, self._builds)

    def case(
        self, problem: Problem, where: object, argv: tuple[str, ...], case: CaseFiles, limits: sandbox.Limits
    ) -> Hashable:
        return self._submit(_case_task, problem, argv, where, case, limits)

    def finished(self) -> list[Hashable]:
        if not self._pending:
            return []
        done, self._pending = wait(self._pending, return_when=FIRST_COMPLETED)
        return list(done)

    def compiled(self, ticket: Hashable) -> Compiled:
        assert isinstance(ticket, Future)
        made, where = ticket.result()
        return Compiled(made, where, sandbox.detect().mode)

    def result(self, ticket: Hashable) -> CaseResult:
        assert isinstance(ticket, Future)
        found: CaseResult = ticket.result()
        return found

    def cancel(self, ticket: Hashable) -> bool:
        assert isinstance(ticket, Future)
        if ticket.cancel():
            self._pending.discard(ticket)
            return True
        return False

    def release(self, where: object) -> None:
        assert isinstance(where, str)
        shutil.rmtree(where, ignore_errors=True)
