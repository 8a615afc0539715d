"""The search, first against simulated programs (fast, and the truth is known: which boards
each one fails), then against the real failing programs of the problems and the class."""

from __future__ import annotations

import atexit
import hashlib
import shutil
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.explain.search import Run, _Search
from judge.explain.space import Space, space_for
from judge.kinds.table import load_problem
from judge.problem import refs, testdata
from judge.problem.tables import TableSource
from judge.run import sandbox
from tests.conftest import PROBLEMS
from tests.problem.puzzles.test_paths import slides

LIMITS = sandbox.RunLimits(cpu_s=1.0, wall_s=3.0, memory_mib=256, output_bytes=1 << 20)
# A simulated program: (input, expected answer) -> (verdict, output).
Program = Callable[[str, str], tuple[str, str]]


def secret_keys(name: str, found: Space) -> set[str]:
    keys: set[str] = set()
    for case in testdata.load_cases(load_problem(PROBLEMS / name)):
        keys.update(found.keys(case.input.read_text()))
    return keys


# A search that has its smallest failure ends by itself (every smaller level run whole): the
# deadline is only a backstop, so a busy machine cannot cut it short.
BACKSTOP_S = 120.0


def searched(
    name: str, program: Program, store: TableSource, seconds: float = BACKSTOP_S, first: bool = False
) -> tuple[_Search, list[str]]:
    """The search over `program`; with `first`, it stops at the first failing run of one case
    (for tests that ask what a failing batch narrows to, not that it is the smallest)."""
    found = space_for(name, store)
    assert found is not None
    ran: list[str] = []
    solve = refs.module(name).solve
    searches: list[_Search] = []

    def execute(text: str, answer: str) -> Future[Run]:
        ran.append(text)
        verdict, output = program(text, answer)
        if first and verdict != "AC" and text.count("\n") == 1:
            searches[0].deadline = time.monotonic()  # no time left: this run is the last one
        future: Future[Run] = Future()
        future.set_result(Run(verdict, "", 0.01, 0.01, 1024, output))
        return future

    search = _Search(
        found,
        secret_keys(name, found),
        lambda text: solve(text, store),
        execute,
        LIMITS,
        time.monotonic() + seconds,
        lambda tried, summary: None,
    )
    searches.append(search)
    search.go(2)
    return search, ran


def unlucky(key: str, salt: int, one_in: int) -> bool:
    return int(hashlib.sha256(f"{salt} {key}".encode()).hexdigest(), 16) % one_in == 0


def wrong_on(bad: Callable[[str], bool], found: Space) -> Program:
    """Right on every case but those `bad` picks (by key), where it answers 99."""

    def program(text: str, answer: str) -> tuple[str, str]:
        cases = [" ".join(line.split()) for line in text.splitlines()] if found.batch else found.keys(text)
        answers = answer.split()
        out = ["99" if bad(key) else want for key, want in zip(cases, answers, strict=True)]
        return ("AC" if out == answers else "WA"), "\n".join(out) + "\n"

    return program


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(("eight-digits", "lanqiao", "sicily-rotations")),
    salt=st.integers(0, 10**6),
    one_in=st.sampled_from((1, 2, 5, 20)),
    from_level=st.integers(0, 8),
)
def test_many_wrong_programs_never_see_a_test_input_and_get_the_smallest_failure(
    store: TableSource, name: str, salt: int, one_in: int, from_level: int
) -> None:
    found = space_for(name, store)
    assert found is not None
    secret = secret_keys(name, found)
    levels = {c.key: c.level for level in range(from_level + 1) for c in found.candidates(level)}

    def bad(key: str) -> bool:
        # Fails on a share of the boards from `from_level` on (every board of deeper levels).
        return levels.get(key, from_level + 1) >= from_level and unlucky(key, salt, one_in)

    search, ran = searched(name, wrong_on(bad, found), store)
    assert ran
    for text in ran:
        assert not secret.intersection(found.keys(text)), "a test input was run"
    best = search.best
    assert best is not None and best.run.verdict == "WA"
    assert len(best.cases) == 1 and bad(best.cases[0].key)
    # Minimal: no smaller level holds a board the program fails, checked whole where small.
    for level in range(best.level):
        if found.level_sizes()[level] <= 300:
            assert not any(bad(c.key) for c in found.candidates(level) if c.key not in secret), level


def test_a_program_right_everywhere_gets_no_example_and_says_what_was_tried(store: TableSource) -> None:
    search, ran = searched("eight-digits", lambda text, answer: ("AC", answer), store, seconds=2.5)
    assert search.best is None and search.tried == len(ran) > 30
    assert search.taken[0] == 0 and search.skipped[0] == 1  # the goal is a test input: skipped
    assert search.exhausted[1] and search.taken[1] + search.skipped[1] == 2


def test_a_failing_batch_narrows_to_the_case_the_output_shows_wrong(store: TableSource) -> None:
    found = space_for("sicily-rotations", store)
    assert found is not None
    target = next(c for c in found.candidates(6) if c.key not in secret_keys("sicily-rotations", found))
    search, _ = searched("sicily-rotations", wrong_on(lambda key: key == target.key, found), store)
    assert search.best is not None and [c.key for c in search.best.cases] == [target.key]


def test_a_program_that_reads_one_case_fails_on_two(store: TableSource) -> None:
    def first_only(text: str, answer: str) -> tuple[str, str]:
        first = answer.split()[0]
        return ("AC" if answer.split() == [first] else "WA"), first + "\n"

    search, _ = searched("sicily-rotations", first_only, store)
    assert search.best is not None and len(search.best.cases) == 2


def test_a_program_slow_only_over_many_cases_gets_the_shortest_slow_file(store: TableSource) -> None:
    def slow_after_40(text: str, answer: str) -> tuple[str, str]:
        cases = answer.split()
        return ("TLE", "\n".join(cases[:40]) + "\n") if len(cases) > 40 else ("AC", answer)

    search, _ = searched("sicily-rotations", slow_after_40, store)
    assert search.best is not None and search.best.run.verdict == "TLE" and len(search.best.cases) == 41


def test_a_crash_at_one_case_of_a_batch_is_found_alone(store: TableSource) -> None:
    found = space_for("sicily-rotations", store)
    assert found is not None
    deep = {c.key for c in found.candidates(12)}

    def crashes_deep(text: str, answer: str) -> tuple[str, str]:
        out = []
        for line, want in zip(text.splitlines(), answer.split(), strict=True):
            if " ".join(line.split()) in deep:
                return "RE", "\n".join(out) + "\n"
            out.append(want)
        return "AC", answer

    search, _ = searched("sicily-rotations", crashes_deep, store, first=True)
    assert search.best is not None and search.best.run.verdict == "RE"
    assert len(search.best.cases) == 1 and search.best.cases[0].level == 12


# --- the real failing programs --------------------------------------------------------------

SOLUTIONS = sorted(
    (folder.parent.parent.name, path)
    for folder in PROBLEMS.glob("*/solutions/*")
    if folder.name != "accepted"
    for path in [*folder.iterdir()]
)
CLASS = [
    (problem, PROBLEMS.parent / "submissions" / student / f"{problem}{suffix}")
    for student, problem, suffix in (
        ("student04", "lanqiao", ".c"),
        ("student05", "sicily-rotations", ".cpp"),
        ("student06", "sicily-rotations", ".py"),
        ("student07", "eight-digits", ".py"),
        ("student08", "lanqiao", ".py"),
        ("student09", "lanqiao", ".cpp"),
        ("student10", "eight-digits", ".java"),
        ("student11", "sicily-rotations", ".c"),
    )
]
BUDGET_S = 5.0  # on an idle machine; scaled by how much of the CPU the tests get now (below)
MAX_SCALE = 6.0
# A program too slow needs a run at its limit (3 s of CPU for Python) before it is caught, and
# a JVM starts slowly (a failure at distance 22 costs 23 runs of ~0.15 s): these get twice as long.
SLOW = {"time_limit_exceeded", "student08"}
SMALL_LEVEL = 40  # levels of at most this many boards are checked whole for a smaller failure


def _moves_from(board: tuple[int, ...], rotating: bool) -> list[tuple[int, ...]]:
    if rotating:  # counter-clockwise: the search goes from the goal backwards
        out = []
        for a in (0, 1, 3, 4):
            cells = list(board)
            tl, tr, br, bl = a, a + 1, a + 4, a + 3
            cells[tl], cells[tr], cells[br], cells[bl] = board[tr], board[br], board[bl], board[tl]
            out.append(tuple(cells))
        return out
    return slides(board)


_BFS: dict[tuple[tuple[int, ...], bool], dict[tuple[int, ...], int]] = {}


def independent_distance(start: tuple[int, ...], goal: tuple[int, ...], rotating: bool) -> int:
    """A plain breadth-first search over every board from the goal, written here from the
    statements' rules (not the judge's tables); -1 when the start is never met."""
    key = (goal, rotating)
    if key not in _BFS:
        seen = {goal: 0}
        frontier = [goal]
        while frontier:
            nxt = []
            for board in frontier:
                for after in _moves_from(board, rotating):
                    if after not in seen:
                        seen[after] = seen[board] + 1
                        nxt.append(after)
            frontier = nxt
        _BFS.clear()  # one goal at a time: each table is 180k-360k boards
        _BFS[key] = seen
    return _BFS[key].get(start, -1)


def independent_answer(name: str, text: str) -> str:
    if name == "eight-digits":
        board = tuple(0 if t == "x" else int(t) for t in text.split())
        return f"{independent_distance(board, (1, 2, 3, 4, 5, 6, 7, 8, 0), False)}\n"
    if name == "lanqiao":
        start, target = (tuple(0 if c == "." else int(c) for c in line) for line in text.split())
        return f"{independent_distance(start, target, False)}\n"
    return "".join(
        f"{independent_distance(tuple(int(t) for t in line.split()), tuple(range(1, 10)), True)}\n"
        for line in text.splitlines()
    )


_SPIN_C = "int main(void){ volatile unsigned long x = 0; for (unsigned long i = 0; i < 450000000UL; i++) x += i; return 0; }\n"
_spin: list[Path] = []


def contention() -> float:
    """How much longer than its CPU time CPU-bound work takes on this machine now, in the
    sandbox and in this process (1 when idle, 2 to 3 with two busy loops per core), measured
    on the spot: the search's budget is seconds, and a busy machine gives fewer runs a second."""
    from judge.run import build

    if not _spin:
        folder = Path(tempfile.mkdtemp(prefix="judge-test-spin-"))
        atexit.register(shutil.rmtree, folder, True)  # kept for the session's later calls, then gone
        (folder / "spin.c").write_text(_SPIN_C)
        with build.box() as where:
            assert build.compile_submission(build.load_submission(folder / "spin.c"), where).ok
            shutil.copy(where / "main", folder / "main")
        _spin.append(folder)
    with build.box() as where:
        shutil.copy(_spin[0] / "main", where / "main")
        ran = sandbox.run(
            ["./main"], box=where, limits=sandbox.RunLimits(cpu_s=20, wall_s=60, memory_mib=64, output_bytes=1024)
        )
    assert ran.ok and ran.cpu_s > 0, ran
    # The search's own processes (its pool, the reference) are not in a cgroup of their own.
    wall, cpu = time.perf_counter(), time.process_time()
    x = 0
    while time.process_time() - cpu < 0.3:
        x += 1
    here = (time.perf_counter() - wall) / (time.process_time() - cpu)
    return min(MAX_SCALE, max(1.0, ran.wall_s / ran.cpu_s, here))


def _slow(source: Path) -> bool:
    return bool(SLOW.intersection(source.parts)) or source.suffix == ".java"


# The programs given the longer budget are the slow tier (make test-slow).
@pytest.mark.parametrize(
    ("name", "source"),
    [
        pytest.param(name, source, marks=[pytest.mark.slow] if _slow(source) else [])
        for name, source in SOLUTIONS + CLASS
    ],
    ids=lambda v: str(v).split("/")[-1],
)
def test_a_failing_program_gets_a_small_true_example_that_is_no_test(
    name: str, source: Path, store: TableSource
) -> None:
    from judge.explain.search import _trial_task, explain
    from judge.grade import runner
    from judge.run import build, lifecycle

    problem = load_problem(PROBLEMS / name)
    submission = build.load_submission(source)
    budget = (2 * BUDGET_S if _slow(source) else BUDGET_S) * contention()
    found = explain(problem, submission, store, budget, jobs=2)
    if not found.found:  # the load may have risen after it was measured: once more, three times as long
        budget = 3 * budget * contention()  # the search kept to the budget it was given, this one
        found = explain(problem, submission, store, budget, jobs=2)
    assert found.found and found.verdict not in (None, "AC", "CE"), found
    assert found.input is not None and found.expected is not None
    assert found.elapsed_s <= budget
    # The expected output is the reference's, and an independent solver's.
    assert found.expected == refs.module(name).solve(found.input, store)
    assert found.expected == independent_answer(name, found.input)
    space = space_for(name, store)
    assert space is not None
    secret = secret_keys(name, space)
    assert not secret.intersection(space.keys(found.input)), "a test input was shown"
    # The program really fails on it, run again; and on no board of a smaller small level.
    limits = runner.run_limits(problem, submission.language)
    where = lifecycle.make_temp_dir("explain-test")
    pool = lifecycle.worker_pool(2)
    try:
        sandbox.prepare_box(where)
        assert runner.compile_for(problem, submission, where).ok
        launch = submission.launch(problem.spec.limits.memory_mib)

        def rerun(text: str) -> Future[Run]:
            answer = refs.module(name).solve(text, store)
            return pool.submit(_trial_task, problem, launch, str(where), text, answer, limits)

        again = rerun(found.input).result()
        if again.verdict == "AC" and found.verdict == "TLE":
            # A TLE near the limit is noisy on a busy machine (a JVM most): the slowest of
            # three runs must still be near the limit.
            runs = [again, rerun(found.input).result(), rerun(found.input).result()]
            again = max(runs, key=lambda r: r.cpu_s if r.verdict == "AC" else float("inf"))
            assert again.verdict != "AC" or again.cpu_s >= 0.6 * limits.cpu_s, runs
        else:
            assert again.verdict != "AC" or again.cpu_s >= 0.8 * limits.cpu_s, again
        answers = [int(a) for a in found.expected.split()]
        level = len(space.level_sizes()) - 1 if -1 in answers else max(answers)
        assert found.distance == (max(answers) if found.cases > 1 or answers != [-1] else None)
        smaller = [
            (candidate, rerun(candidate.text))
            for below in range(level)
            if space.level_sizes()[below] <= SMALL_LEVEL
            for candidate in space.candidates(below)
            if candidate.key not in secret
        ]
        for candidate, run in smaller:
            assert run.result().verdict == "AC", (candidate, run.result())
    finally:
        pool.shutdown()
        shutil.rmtree(where, ignore_errors=True)
    if found.cases == 1 and found.distance is not None:
        assert len(found.moves) == found.distance
        assert found.moves[-1].cells == found.goal if found.moves else found.start == found.goal
