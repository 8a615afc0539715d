"""The search of `judge explain`: compile once, run the program on fresh inputs smallest
first, and keep the smallest one it fails on.

The levels are probed in rounds: one input of every level, then four, then sixteen, and so
on, each round in ascending level. The first rounds reach a failure deep down quickly (a
program too slow from distance 20 on); the later ones fill in the small levels, where a
smaller failure may hide, and every level at or above the best failure found is dropped.
The search ends when every level below that failure has been run whole (the example is then
the smallest there is) or when the time is up.

Inputs never come from the tests: any candidate equal to a case of any test file is
skipped, so nothing shown gives hidden data away.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.errors import JudgeError
from judge.explain.space import Candidate, Space, space_for
from judge.grade import runner
from judge.kinds import table as kinds
from judge.problem import refs, testdata
from judge.problem.spec import Problem
from judge.problem.tables import TableSource
from judge.run import lifecycle, sandbox
from judge.run.sources import Launch, Sources
from judge.run.verdicts import Verdict

DEFAULT_BUDGET_S = 30.0
BATCH_CASES = 256  # cases per run where a file takes many: far below the tests' 3000
OUTPUT_SHOWN = 4096  # characters of the program's output kept for the example
_MARGIN_S = 2.0  # kept back from the budget: the report, stopping the pool, a loaded machine


@dataclass(frozen=True)
class Run:
    """What one run of the program gave."""

    verdict: str
    message: str
    cpu_s: float
    wall_s: float
    memory_kib: int
    output: str
    expected: str = ""  # the answer it was checked against
    returned: bool = False  # a function's call: what came of it is in the message, not an output


@dataclass(frozen=True)
class Level:
    """How much of one level the search ran."""

    level: int
    at: int | None  # on the measure's scale: the distance (None: the unreachable boards), or bytes
    tried: int
    total: int
    skipped: int  # equal to a test input, so never run

    @property
    def whole(self) -> bool:
        return self.tried + self.skipped >= self.total


@dataclass(frozen=True)
class Growth:
    """The most CPU time a one-case run took at a distance, or size (for a TLE's plot)."""

    at: int | None
    cpu_s: float
    over: bool  # over the limit


@dataclass(frozen=True)
class Move:
    move: str
    cells: tuple[str, ...]  # the board after it, in the input's notation


@dataclass(frozen=True)
class Explanation:
    problem: str
    source: str
    language: str
    found: bool
    verdict: str | None  # the verdict on the example, or CE
    message: str  # the verdict's detail: the first difference, the signal, the CPU time
    input: str | None
    expected: str | None
    output: str | None  # None when the program printed nothing
    distance: int | None  # the greatest distance among the example's cases (None: unreachable, or none)
    measure: str  # what smallest means here: "distance" (the puzzles) or "size" (bytes of input)
    size_bytes: int | None  # of the example's input
    unreachable: bool
    cases: int  # cases in the example's input (more than one when only a batch fails)
    claimed: str | None  # what the program answered on a one-case example
    start: tuple[str, ...]  # the example's board, and the goal, in the input's notation
    goal: tuple[str, ...]
    blank: str | None
    moves: tuple[Move, ...]  # an optimal solution of the example
    minimal: bool  # every smaller level was run whole
    tle_from: int | None  # the smallest distance (or size) at which a run went over the time limit
    growth: tuple[Growth, ...]
    tried: int  # inputs (cases) run
    runs: int  # program runs
    skipped: int  # candidates equal to a test input, never run
    levels: tuple[Level, ...]
    cpu_limit_s: float
    budget_s: float
    elapsed_s: float
    found_after_s: float | None  # when the example shown was found (the rest looked for a smaller one)
    sandbox: str
    hash: str = ""  # of the source, language and problem, for reuse by `judge grade --explain`
    returned: bool = False  # the example is a function's call: `expected` is a value, and no output is shown
    for_students: bool = False  # cut down by for_student: no counts, no minimality

    def for_student(self) -> Explanation:
        """The copy a student may see (docs/feedback.md): without what would tell which
        candidates were test inputs: how many were skipped, how many were run (by level or in
        all), how long the search took, and whether the example is the smallest (it is the
        smallest of the inputs that are no test)."""
        return dataclasses.replace(
            self,
            skipped=0,
            tried=0,
            runs=0,
            levels=(),
            minimal=False,
            elapsed_s=0.0,
            found_after_s=None,
            for_students=True,
        )


# The fields of an explanation with no example to show (nothing failed, or nothing ran).
_NO_EXAMPLE: dict[str, Any] = {
    "found": False,
    "input": None,
    "expected": None,
    "output": None,
    "distance": None,
    "size_bytes": None,
    "unreachable": False,
    "cases": 0,
    "claimed": None,
    "start": (),
    "goal": (),
    "moves": (),
    "minimal": False,
}


def _trial_task(
    problem: Problem, launch: Launch, built: str, text: str, answer: str | None, limits: sandbox.RunLimits
) -> Run:
    """Worker: one run of the program on `text` (one case or a batch), checked against `answer`;
    None: the problem's reference program makes it first, here (a run in the sandbox may not
    happen in the process that owns the pool: its clean-up would take the workers for strays)."""
    if answer is None:
        from judge.author import parts

        label = f"{problem.id}: explain's input of {len(text.encode())} bytes"
        output = parts.solve(parts.load(problem, None, 1), [text], [label])[0]
        answer = kinds.of(problem).answer_text(output, label)  # as `judge gen` writes it
    with tempfile.TemporaryDirectory(prefix="judge-explain-") as folder:
        given, expected = Path(folder) / "case.in", Path(folder) / "case.ans"
        given.write_text(text)
        expected.write_text(answer)
        case = testdata.CaseFiles("explain", "case", given, expected, public=True)
        result = runner.run_case_from(problem, launch, Path(built), case, limits)
    output = (result.output or b"")[: OUTPUT_SHOWN * 4].decode("utf-8", errors="replace")
    returned = result.output is None and result.verdict is not Verdict.NJ  # a kind whose output is not the answer
    return Run(
        result.verdict.value, result.message, result.cpu_s, result.wall_s, result.memory_kib, output, answer, returned
    )


class _Inline(Executor):
    """Runs each task at once in this process: for a caller that may not have children
    (the web judge's workers are daemon processes)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to the caller through the future, as a pool does
            future.set_exception(error)
        return future


@dataclass
class _Failure:
    cases: list[Candidate]
    run: Run

    @property
    def level(self) -> int:
        return max(c.level for c in self.cases)


class _Search:
    def __init__(
        self,
        space: Space,
        secret: set[str],
        solve: Callable[[str], str] | None,
        execute: Callable[[str, str | None], Future[Run]],
        limits: sandbox.RunLimits,
        deadline: float,
        progress: Callable[[int, str], None],
    ) -> None:
        self.space, self.secret, self.solve, self.execute = space, secret, solve, execute
        self.limits, self.deadline, self.progress = limits, deadline, progress
        self.sizes = space.level_sizes()
        self.taken = [0] * len(self.sizes)
        self.skipped = [0] * len(self.sizes)
        self.exhausted = [False] * len(self.sizes)
        self.sources: list[Iterator[Candidate]] = [space.candidates(level) for level in range(len(self.sizes))]
        self.best: _Failure | None = None
        self.found_at = 0.0
        self.tried = 0
        self.runs = 0
        self.growth: dict[int, tuple[float, bool]] = {}
        self.answers: dict[str, str] = {}

    # --- what to run -----------------------------------------------------------------------

    def _below_best(self) -> int:
        return self.best.level if self.best is not None else len(self.sizes)

    def schedule(self) -> Iterator[Candidate]:
        """Candidates in rounds of 1, 4, 16, ... per level, each round in ascending level."""
        quota = 1
        while True:
            for level in range(len(self.sizes)):
                if level >= self._below_best():
                    break
                while not self.exhausted[level] and self.taken[level] < quota:
                    found = next(self.sources[level], None)
                    if found is None:
                        self.exhausted[level] = True
                    elif found.key in self.secret:
                        self.skipped[level] += 1
                    else:
                        self.taken[level] += 1
                        yield found
            if all(self.exhausted[: self._below_best()]):
                return
            quota *= 4

    def trials(self) -> Iterator[list[Candidate]]:
        """The schedule cut into runs: one case each, or batches where the format allows."""
        size = BATCH_CASES if self.space.batch else 1
        batch: list[Candidate] = []
        for candidate in self.schedule():
            batch.append(candidate)
            if len(batch) >= size:
                yield batch
                batch = []
        if batch:
            yield batch

    # --- running -----------------------------------------------------------------------------

    def time_left(self) -> bool:
        return time.monotonic() + _MARGIN_S < self.deadline

    def remaining(self) -> float:
        return max(0.0, self.deadline - _MARGIN_S - time.monotonic())

    def answer(self, candidate: Candidate) -> str:
        if candidate.key not in self.answers:
            assert self.solve is not None, "the worker solves, and its answer is kept"
            self.answers[candidate.key] = self.solve(candidate.text)
        return self.answers[candidate.key]

    def start(self, cases: Sequence[Candidate]) -> Future[Run]:
        self.runs += 1
        self.tried += len(cases)
        text = "".join(c.text for c in cases)
        if self.solve is None:  # one case per run: the worker's answer is kept for the report
            assert len(cases) == 1
            future = self.execute(text, None)
            key = cases[0].key
            future.add_done_callback(
                lambda done: self.answers.setdefault(key, done.result().expected) if not done.exception() else None
            )
            return future
        return self.execute(text, "".join(self.answer(c) for c in cases))

    def run_now(self, cases: Sequence[Candidate]) -> Run | None:
        """Run and wait; None when the time is up first (the run is then abandoned, and
        killed with the pool)."""
        try:
            return self.start(cases).result(timeout=self.remaining())
        except TimeoutError:
            return None

    def note(self, cases: Sequence[Candidate], run: Run) -> None:
        if len(cases) == 1:
            level = cases[0].level
            over = run.verdict == Verdict.TLE.value
            old = self.growth.get(level, (0.0, False))
            self.growth[level] = (max(old[0], run.cpu_s), old[1] or over)

    def failed(self, run: Run | None) -> bool:
        return run is not None and run.verdict != Verdict.AC.value

    def consider(self, cases: list[Candidate], run: Run) -> None:
        """A failing run: narrow it to the fewest cases that still fail, then keep it if smaller."""
        if len(cases) > 1:
            found = self.narrow(cases, run)
        else:
            found = _Failure(cases, run)
        if found is not None and (self.best is None or found.level < self.best.level):
            self.best = found
            self.found_at = time.monotonic()
            self.progress(self.tried, self.summary())

    def narrow(self, cases: list[Candidate], run: Run) -> _Failure | None:
        """The smallest failing part of a failing batch: first each case the output points at,
        alone; then halves; then the shortest failing prefix (a program slow only over many)."""
        for suspect in self.suspects(cases, run)[:3]:
            if not self.time_left():
                break
            alone = self.run_now([suspect])
            if alone is not None:
                self.note([suspect], alone)
                if self.failed(alone):
                    return _Failure([suspect], alone)
        current, current_run = cases, run
        while len(current) > 1 and self.time_left():
            half = len(current) // 2
            first = self.run_now(current[:half])
            if first is not None and self.failed(first):
                current, current_run = current[:half], first
                continue
            second = self.run_now(current[half:]) if first is not None else None
            if second is None:
                break
            if self.failed(second):
                current, current_run = current[half:], second
                continue
            low, high = half, len(current)  # the prefix of `high` cases fails, of `low` passes
            while high - low > 1 and self.time_left():
                middle = (low + high) // 2
                tried = self.run_now(current[:middle])
                if tried is None:
                    break
                if self.failed(tried):
                    high, current_run = middle, tried
                else:
                    low = middle
            current = current[:high]
            break
        return _Failure(current, current_run)

    def suspects(self, cases: list[Candidate], run: Run) -> list[Candidate]:
        """The cases the output shows wrong (each case's answer is its own tokens), smallest
        level first, and the case the output stops at."""
        tokens = run.output.split()
        wrong: list[Candidate] = []
        at = 0
        for candidate in cases:
            want = self.answer(candidate).split()
            got = tokens[at : at + len(want)]
            at += len(want)
            if len(got) < len(want):
                wrong.append(candidate)  # where the output stops: the crash or the time-out
                break
            if got != want:
                wrong.append(candidate)
        return sorted(wrong, key=lambda c: c.level)

    def summary(self) -> str:
        if self.best is None:
            return "no failure yet"
        last = self.best.cases[-1]
        if self.space.measure == "size":
            return f"{self.best.run.verdict} on {len(last.text.encode())} bytes"
        where = "unreachable" if last.unreachable else f"distance {self.best.level}"
        return f"{self.best.run.verdict} at {where}"

    def go(self, width: int) -> None:
        source = self.trials()
        running: dict[Future[Run], list[Candidate]] = {}
        while True:
            while len(running) < width and self.time_left():
                cases = next(source, None)
                if cases is None:
                    break
                if min(c.level for c in cases) >= self._below_best():
                    continue
                running[self.start(cases)] = cases
            if not running:
                return
            done, _ = wait(set(running), timeout=self.remaining(), return_when=FIRST_COMPLETED)
            if not done:
                return  # the time is up: what still runs is killed with the pool
            for future in done:
                cases = running.pop(future)
                run = future.result()
                self.note(cases, run)
                if self.failed(run) and min(c.level for c in cases) < self._below_best():
                    self.consider(cases, run)
                self.progress(self.tried, self.summary())

    def probe_growth(self) -> None:
        """For a TLE found only in a batch: one board per level alone, to show the growth."""
        for level in range(len(self.sizes)):
            if level in self.growth or not self.time_left():
                continue
            candidate = next((c for c in self.space.candidates(level) if c.key not in self.secret), None)
            if candidate is None:
                continue
            run = self.run_now([candidate])
            if run is None:
                break
            self.note([candidate], run)
            if run.verdict == Verdict.TLE.value:
                break


def explain(
    problem: Problem,
    submission: Sources,
    tables: TableSource,
    budget_s: float = DEFAULT_BUDGET_S,
    jobs: int = 1,
    progress: Callable[[int, float, str], None] | None = None,
    content_hash: str = "",
    began: float | None = None,
) -> Explanation:
    """Search for the smallest input the submission fails on, within `budget_s` seconds
    (compiling included) from `began` (a time.monotonic(); default now). `jobs` > 1 runs
    that many at once in a pool of processes."""
    kind = kinds.of(problem)
    if not kind.explains:  # no answer of the reference's to show beside an input, or not yet
        raise JudgeError(f"{problem.spec_path}: judge explain does not search {kind.name} problems")
    began = time.monotonic() if began is None else began
    deadline = began + budget_s
    space: Space
    solve: Callable[[str], str] | None = None  # None: the reference program, in the workers
    if problem.builtin:
        known = space_for(problem.spec.reference, tables)
        if known is None:
            raise JudgeError(f"{problem.spec_path}: judge explain has no search for reference {problem.spec.reference}")
        space, own = known, refs.module(problem.spec.reference).solve

        def solve(text: str) -> str:
            return str(own(text, tables))
    else:
        from judge.explain.generated import program_space

        space = program_space(problem, jobs)
    secret: set[str] = set()
    for case in testdata.load_cases(problem):
        secret.update(space.keys(case.input.read_text(errors="replace")))
    limits = runner.run_limits(problem, submission.language)
    mode = sandbox.detect().mode
    where = lifecycle.make_temp_dir("explain", cap=lifecycle.BOX_CAP_BYTES)
    pool: Executor | None = None
    try:
        sandbox.prepare_box(where)
        build = runner.compile_for(problem, submission, where)
        if not build.ok:
            return _unexplained(problem, submission, limits, budget_s, began, mode, content_hash, build.message)
        launch = runner.launch_of(problem, submission)
        pool = lifecycle.worker_pool(jobs) if jobs > 1 else _Inline()
        executor = pool

        def execute(text: str, answer: str | None) -> Future[Run]:
            if jobs > 1:  # a pool's worker must end on SIGTERM once its run has unwound
                return executor.submit(
                    lifecycle.in_worker, _trial_task, problem, launch, str(where), text, answer, limits
                )
            return executor.submit(_trial_task, problem, launch, str(where), text, answer, limits)

        def told(tried: int, summary: str) -> None:
            if progress is not None:
                progress(tried, time.monotonic() - began, summary)

        search = _Search(space, secret, solve, execute, limits, deadline, told)
        search.go(max(1, jobs))
        if search.best is not None and search.best.run.verdict == Verdict.TLE.value and space.batch:
            search.probe_growth()
    finally:
        if pool is not None:
            if isinstance(pool, ProcessPoolExecutor):
                lifecycle.stop_pool(pool)
        lifecycle.remove_dir(where)
    return _explanation(problem, submission, space, search, limits, budget_s, began, mode, content_hash)


def _levels(search: _Search) -> tuple[Level, ...]:
    return tuple(
        Level(
            level,
            search.space.position(level),
            search.taken[level],
            search.taken[level] + search.skipped[level] if search.exhausted[level] else search.sizes[level],
            search.skipped[level],
        )
        for level in range(len(search.sizes))
    )


def _explanation(
    problem: Problem,
    submission: Sources,
    space: Space,
    search: _Search,
    limits: sandbox.RunLimits,
    budget_s: float,
    began: float,
    mode: str,
    content_hash: str,
) -> Explanation:
    levels = _levels(search)
    growth = tuple(
        Growth(levels[level].at, round(cpu, 3), over) for level, (cpu, over) in sorted(search.growth.items())
    )
    over = [g.at for g in growth if g.over and g.at is not None]
    common: dict[str, Any] = {
        "problem": problem.id,
        "source": str(submission.path),
        "language": submission.language.id,
        "tle_from": min(over) if over else None,
        "growth": growth,
        "tried": search.tried,
        "runs": search.runs,
        "skipped": sum(search.skipped),
        "levels": levels,
        "cpu_limit_s": limits.cpu_s,
        "budget_s": budget_s,
        "elapsed_s": round(time.monotonic() - began, 2),
        "found_after_s": round(search.found_at - began, 2) if search.best is not None else None,
        "sandbox": mode,
        "hash": content_hash,
        "blank": space.blank,
        "measure": space.measure,
    }
    best = search.best
    if best is None:
        return Explanation(verdict=None, message="no failing input found", **_NO_EXAMPLE, **common)
    cases = best.cases
    first = cases[0]
    moves: tuple[Move, ...] = ()
    if len(cases) == 1 and first.distance is not None and space.measure == "distance":
        moves = tuple(Move(step.move, space.labels(step.board)) for step in space.solution(first))
    distances = [c.distance for c in cases if c.distance is not None]
    output = best.run.output[:OUTPUT_SHOWN]
    shown = "".join(c.text for c in cases)
    board = len(cases) == 1 and space.measure == "distance"
    return Explanation(
        found=True,
        verdict=best.run.verdict,
        message=best.run.message,
        input=shown,
        expected="".join(search.answer(c) for c in cases),
        output=None if best.run.returned else output if output or best.run.verdict == Verdict.WA.value else None,
        returned=best.run.returned,
        distance=max(distances) if distances else None,
        size_bytes=len(shown.encode()),
        unreachable=any(c.unreachable for c in cases),
        cases=len(cases),
        claimed=next(iter(output.split()), None) if len(cases) == 1 else None,
        start=space.labels(space.start(first)) if board else (),
        goal=space.labels(space.goal(first)) if board else (),
        moves=moves,
        minimal=all(level.whole for level in levels[: best.level]),
        **common,
    )


def _unexplained(
    problem: Problem,
    submission: Sources,
    limits: sandbox.RunLimits,
    budget_s: float,
    began: float,
    mode: str,
    content_hash: str,
    compiler: str,
) -> Explanation:
    return Explanation(
        problem=problem.id,
        source=str(submission.path),
        language=submission.language.id,
        verdict=Verdict.CE.value,
        message=compiler,
        measure="distance" if problem.builtin else "size",
        blank=None,
        **_NO_EXAMPLE,
        tle_from=None,
        growth=(),
        tried=0,
        runs=0,
        skipped=0,
        levels=(),
        cpu_limit_s=limits.cpu_s,
        budget_s=budget_s,
        elapsed_s=round(time.monotonic() - began, 2),
        found_after_s=None,
        sandbox=mode,
        hash=content_hash,
    )
