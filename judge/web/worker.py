"""The web judge's workers: processes that take queued submissions from the store and judge
them with the engine of `judge grade` (compile once, run every case in the sandbox).

Each worker is its own process, as the sandbox wants (one run at a time per process, one
cgroup each). A worker writes its progress (compiling, running case k of n) and the result
to the store; the attempt number of its claim keeps a stale worker from overwriting a
newer judging.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sqlite3
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.context import SpawnProcess
from multiprocessing.synchronize import Event
from pathlib import Path

from judge.cluster.address import Endpoint
from judge.cluster.engine import ClusterDown
from judge.errors import JudgeError
from judge.grade import grading, judging, results, runner
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.problem.spec import Problem
from judge.run import lifecycle, sandbox
from judge.web import trying, variants
from judge.web.state import live
from judge.web.state.database import close_idle
from judge.web.state.queueing import Claim
from judge.web.state.runs import RunClaim, Runs, TriedResult
from judge.web.state.store import Store

IDLE_POLL_S = 0.2
FLUSH_S = 0.25  # a judging's cases reach the store (and its live page) at most this often
CLUSTER_RETRY_S = 5.0  # between tries when the judge hosts cannot be reached
# A worker judging one submission longer than this gives its turn up between two cases when a
# classmate's submission waits for a worker (and that classmate used less judging time).
TURN_S = 10.0
log = logging.getLogger("judge.web")


def submitted_of(claim: Claim, problem: Problem) -> judging.Submitted:
    """The claimed program as the door identified it; a row kept before the door kept its
    identification is identified as uploaded (by the student's file name, from its bytes)."""
    upload = (claim.filename, claim.source)
    if claim.program is not None:
        return judging.identified(problem, claim.program, upload, claim.student, claim.language)
    return judging.identify(problem, upload, claim.student, claim.language)


def judge_claim(
    claim: Claim, problem: Problem, store: Store, cluster: Endpoint | None = None, turn_s: float = TURN_S
) -> results.GradeRecord | None:
    """Judge one claimed submission exactly as `judge grade` would, reporting progress;
    on the judge hosts of `cluster` when given (its cases then run in parallel). None: the
    turn was given up after `turn_s` seconds for a waiting classmate (Store.pause), and the
    judging resumes from the next case when a worker claims the submission again."""
    submitted = submitted_of(claim, problem)
    record = judging.unrunnable(submitted, here=cluster is None)
    if record is not None:
        return record
    cases = testdata.load_cases(problem)
    store.progress(claim, "compiling", 0, len(cases))
    # A student's variant goes to the hosts as its own tests and spec (never the salt).
    if cluster is not None:
        return _on_cluster(claim, submitted, store, cluster)

    # Each case's verdict as it is known, for the live page (cases of earlier turns first), and
    # what each printed: written to the store at most every FLUSH_S, in one write (a write per
    # case made the web judge 40% slower than `judge grade` at a deadline).
    judged = [live.JudgedCase(c.name, c.verdict, c.public, 0.0) for c in claim.done]
    printed: list[tuple[str, bytes, bytes]] = []
    flushed = [time.monotonic()]

    def flush() -> None:
        store.record_cases(claim, printed, ("running", len(judged), len(cases), live.dumps(judged)))
        printed.clear()
        flushed[0] = time.monotonic()

    def on_case(index: int, case: runner.CaseResult) -> None:
        if case.trace is not None:
            printed.append((case.name, *case.trace))
        judged.append(live.JudgedCase(case.name, case.verdict.value, case.public, time.time()))
        if time.monotonic() - flushed[0] >= FLUSH_S:
            flush()

    turn_start = time.monotonic()

    def pause() -> bool:
        return time.monotonic() - turn_start >= turn_s and store.others_waiting(claim)

    done = tuple(results.case_result(c) for c in claim.done)
    try:
        # The first progress of running comes before the next case, so the page says
        # "running case k of n" from the start.
        return judging.judge(
            submitted,
            on_case=on_case,
            on_compiled=lambda: store.progress(claim, "running", len(done), len(cases)),
            trace=True,
            done=done,
            pause=pause,
        )
    except runner.Paused as paused:
        flush()
        store.pause(claim, tuple(results.case_record(c) for c in paused.done))
        return None
    finally:
        if printed:
            flush()  # the last cases' output, before the result is stored


def _on_cluster(claim: Claim, submitted: judging.Submitted, store: Store, cluster: Endpoint) -> results.GradeRecord:
    from judge.cluster.engine import ClusterEngine

    def on_case(_: judging.Submitted, judged: int, total: int) -> None:
        store.progress(claim, "running", judged, total)

    engine = ClusterEngine(cluster, {submitted.language}, lambda line: log.warning("%s", line))
    with tempfile.TemporaryDirectory(prefix="judge-web-results-") as out:
        [record] = grading.run([submitted], Path(out), 1, engine=engine, on_case=on_case)
    return record


def explain_claim(claim: Claim, problem: Problem, budget_s: float) -> tuple[str | None, str | None]:
    """`judge explain` on a claimed submission, in this process (a worker has no children):
    (the explanation's JSON, None), or (None, why there is none)."""
    from judge.explain import search, stored
    from judge.problem.tables import TableStore

    submitted = submitted_of(claim, problem)
    if submitted.sources is None:
        return None, submitted.error
    why = submitted.sources.language.missing()
    if why:
        return None, why
    try:
        found = search.explain(problem, submitted.sources, TableStore(), budget_s, jobs=1)
    except JudgeError as err:
        return None, str(err)
    return stored.to_json(found), None


class LoadedProblems:
    """The problems a worker has loaded, each kept (with its digest, taken once) while no file
    of its folder changed: a claim costs a look at the files' sizes and times, not a read of
    every test file."""

    def __init__(self) -> None:
        self._held: dict[Path, tuple[tuple[tuple[str, int, int, int], ...], Problem]] = {}

    def get(self, directory: Path) -> Problem:
        stamp = _stamp(directory)
        held = self._held.get(directory)
        if held is not None and held[0] == stamp:
            return held[1]
        problem = load_problem(directory)
        self._held[directory] = (stamp, problem)
        return problem


def _stamp(directory: Path) -> tuple[tuple[str, int, int, int], ...]:
    """Every file of a problem folder by name, size, and modification and change times (ns).
    Walked by os.scandir: Path.rglob's objects cost 15 ms a claim on eight-digits' 130 files."""
    found = []
    folders = [str(directory)]
    start = len(str(directory)) + 1
    while folders:
        try:
            entries = list(os.scandir(folders.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
                    continue
                info = entry.stat()
            except OSError:
                continue
            found.append((entry.path[start:], info.st_size, info.st_mtime_ns, info.st_ctime_ns))
    return tuple(sorted(found))


@dataclass(frozen=True)
class WorkerSettings:
    """What every worker process is started with."""

    data_dir: Path
    problems_dir: Path
    cluster: Endpoint | None = None
    explain_budget_s: float = 30.0
    turn_s: float = TURN_S
    run_workers: int = 1  # the most workers judging runs at once (the others are kept for submissions)
    workers: int = 1  # how many there are: a run gives its worker up when all are busy and a submission waits


def failed_record(claim: Claim, why: str) -> results.GradeRecord:
    """The judge's failure (IE) on a claimed submission."""
    return results.failed(
        claim.student, claim.problem, claim.filename, claim.language, "", 0.0, why, sandbox.detect().mode
    )


def claimed_problem(claim: Claim, loaded: LoadedProblems, problems_dir: Path, data_dir: Path) -> Problem:
    """The problem a claimed submission is judged on: its student's own variant where the
    problem has variants (the same at every rejudge: a variant is a function of the student)."""
    return variants.of_student(loaded.get(problems_dir / claim.problem), claim.student, data_dir)


class ForSubmissions:
    """The stop of a run (sandbox.Stop): set once a submission waits and every worker is busy,
    so the run gives its worker up at once, mid-compile or mid-case, and the submission starts.
    Asked of the store at most every `every_s` (the sandbox asks far more often); once set,
    it stays set."""

    def __init__(self, runs: Runs, workers: int, every_s: float = IDLE_POLL_S) -> None:
        self.runs, self.workers, self.every_s = runs, workers, every_s
        self.fired = False
        self._asked = -float("inf")

    def is_set(self) -> bool:
        if not self.fired and time.monotonic() - self._asked >= self.every_s:
            self._asked = time.monotonic()
            try:
                self.fired = self.runs.must_yield(self.workers)
            except sqlite3.Error:  # a busy database: asked again next time
                pass
        return self.fired


JudgeTaken = Callable[[RunClaim, sandbox.Stop], TriedResult]


def run_judge(loaded: LoadedProblems, problems_dir: Path, data_dir: Path) -> JudgeTaken:
    """How a worker judges a run it took: on its student's variant's public cases."""

    def judge(taken: RunClaim, stop: sandbox.Stop) -> TriedResult:
        problem = loaded.get(problems_dir / taken.claim.problem)
        problem = variants.of_student(problem, taken.claim.student, data_dir)  # its public cases
        return trying.judge_run(taken, submitted_of(taken.claim, problem), stop)

    return judge


def serve_run(runs: Runs, judge: JudgeTaken, most: int = 1, workers: int = 1, every_s: float = IDLE_POLL_S) -> bool:
    """Judge the oldest queued run, if any (whether there was one). Runs come after every
    queued submission, and on at most `most` workers at once; a run under way gives its
    worker up when a submission would otherwise wait for one (ForSubmissions), and waits in
    the queue again, first among runs. `every_s`: how often the store is asked meanwhile."""
    taken = runs.claim(os.getpid(), most=most)
    if taken is None:
        return False
    stop = ForSubmissions(runs, workers, every_s)
    try:
        result = judge(taken, stop)
    except runner.Paused:  # the cases after the stop's are not run
        result = None
    except JudgeError as err:
        result = TriedResult("", str(err), ())
    except Exception as err:  # a bug of the judge: said on the run's page, and the worker goes on
        traceback.print_exc()
        result = TriedResult("", f"internal error of the judge: {err}", ())
    if stop.fired or result is None:
        runs.requeue(taken.claim.id, os.getpid())  # what it did meanwhile is thrown away
    else:
        runs.finish(taken.claim.id, os.getpid(), result)
    return True


def serve_queue(settings: WorkerSettings, stop: Event) -> None:
    """A worker process: judge queued submissions until `stop` is set or the server is gone;
    when none is queued, make the explanations students asked for."""
    data_dir, problems_dir, cluster = settings.data_dir, settings.problems_dir, settings.cluster
    # A server killed outright (SIGKILL, a crash) must not leave workers judging behind it:
    # the kernel sends SIGTERM when the parent dies, and the worker unwinds (its run killed,
    # its box removed) and ends.
    parent = os.getppid()
    lifecycle.handle_sigterm()
    lifecycle.die_with_parent(parent)
    store = Store(data_dir)
    runs = Runs(store)
    loaded = LoadedProblems()
    judge_run = run_judge(loaded, problems_dir, data_dir)
    while not stop.is_set() and os.getppid() == parent:
        claim = store.claim(os.getpid())
        if claim is None:
            if serve_run(runs, judge_run, settings.run_workers, settings.workers):
                continue
            asked = store.claim_explanation(os.getpid())
            if asked is None:
                stop.wait(IDLE_POLL_S)
                continue
            try:
                result, why = explain_claim(asked, loaded.get(problems_dir / asked.problem), settings.explain_budget_s)
            except JudgeError as err:
                result, why = None, str(err)
            except Exception as err:  # a bug of the judge: said on the page, and the worker goes on
                traceback.print_exc()
                result, why = None, f"internal error of the judge: {err}"
            store.finish_explanation(asked.id, os.getpid(), result, why)
            continue
        try:
            # Looked at for each submission: a teacher who fixes a problem and rejudges gets the fix.
            problem = claimed_problem(claim, loaded, problems_dir, data_dir)
            record = judge_claim(claim, problem, store, cluster, settings.turn_s)
            if record is None:  # its turn given up: back in the queue, behind the classmate
                continue
        except ClusterDown as err:
            # Not the student's fault: the submission waits in the queue for the hosts.
            log.error("judge hosts unavailable, submission %s requeued: %s", claim.id, err)
            store.requeue_worker(os.getpid())
            stop.wait(CLUSTER_RETRY_S)
            continue
        except JudgeError as err:
            record = failed_record(claim, str(err))
        except Exception as err:  # a bug of the judge: an IE for this one, and the worker goes on
            traceback.print_exc()
            record = failed_record(claim, f"internal error of the judge: {err}")
        store.finish(claim, record)
    close_idle()  # the last connection's close checkpoints the WAL into the file


class Workers:
    """N worker processes (spawned: the server has threads, and fork would copy their locks)."""

    def __init__(self, settings: WorkerSettings, count: int) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._stop = self._context.Event()
        self._args = (settings, self._stop)
        self._store = Store(settings.data_dir)
        self._processes = [self._new(i) for i in range(count)]

    def _new(self, index: int) -> SpawnProcess:
        return self._context.Process(target=serve_queue, args=self._args, name=f"judge-worker-{index}", daemon=True)

    def start(self) -> None:
        for process in self._processes:
            process.start()

    def revive(self) -> list[int]:
        """Replace workers that died (killed by the OOM killer, say); their submission is queued
        again. Returns the process ids that were replaced."""
        dead = []
        for index, process in enumerate(self._processes):
            if self._stop.is_set() or process.is_alive() or process.pid is None:
                continue
            process.join(0)
            self._store.requeue_worker(process.pid)
            dead.append(process.pid)
            self._processes[index] = self._new(index)
            self._processes[index].start()
        return dead

    def stop(self, grace_s: float = 5.0) -> None:
        """Let each worker finish its current case run and stop; stop the ones that do not."""
        self._stop.set()
        deadline = time.monotonic() + grace_s
        for process in self._processes:
            process.join(max(0.0, deadline - time.monotonic()))
        late = [process for process in self._processes if process.is_alive()]
        for process in late:
            process.terminate()  # SIGTERM: the worker kills its run and removes its box
        for process in late:
            process.join(2.0)
            if process.is_alive():
                process.kill()
                process.join(1.0)
