"""`make bench`, tests problems (issue 60): a student's 20 tests against 10 bugs of a stdio
problem (`judge new`'s, Python), every bug wrong only on the 20th test, so the whole matrix runs
(200 bug runs, and the 20 tests' validator and reference runs first). The judge's figure is one
submission judged in a process that has judged one before (the bugs built in the programs'
cache, as `judge grade` judges a class); beside it, the same 200 bug runs one by one, each in a
sandbox of its own (programs.run), and the 20 tests checked the same way; and the matrix as it
ran before (each Python run an interpreter's own start, a sandbox session per bug: both set
aside in this process and its workers only). Medians of 3 runs, each figure with the load
average beside it. Target (issue 60): the matrix under 5 s on 2 cores. Then with 10 mutants of
the reference (`mutants: {max: 10}`): their making (built and run on the problem's own tests/
until 10 are caught), first with nothing cached, then read from the cache; and the matrix with
the 20 bugs.
Not a test: nothing here fails a build.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.author import making, scaffold  # noqa: E402
from judge.grade import judging  # noqa: E402
from judge.kinds.table import load_problem  # noqa: E402
from judge.kinds.tests import matrix  # noqa: E402
from judge.kinds.tests.scoring import AnyBug, BugRun  # noqa: E402
from judge.problem.spec import Problem  # noqa: E402
from judge.run import languages, programs  # noqa: E402

RUNS = 3
TESTS = 20
BUGS = 10
BUG = """import sys
data = sys.stdin.buffer.read().split()
n = int(data[0])
values = list(map(int, data[1 : n + 1]))
best = ending_here = values[0]
for value in values[1:]:
    ending_here = max(value, ending_here + value)
    best = max(best, ending_here)
print(best + {k} if n == {n} else best)
"""
SPEC = """id: sums-tests
title: Tests of sums
source: make bench
kind: tests
reference: suite
limits: {time_s: 1.0, memory_mib: 256}
tests: {for: sums, max_tests: 20}
"""


def make(root: Path) -> tuple[Path, Path]:
    """The problem, its tests problem and a student's 20 tests (the last one catches every bug)."""
    target = scaffold.create(root, "sums", "python3").directory
    for k in range(1, BUGS + 1):
        (target / "solutions" / "wrong_answer" / f"bug{k:02d}.py").write_text(BUG.format(k=k, n=TESTS))
    (target / "solutions" / "wrong_answer" / "empty_part.py").unlink()
    here = root / "sums-tests"
    (here / "suite").mkdir(parents=True)
    (here / "problem.yaml").write_text(SPEC)
    (here / "statement.md").write_text("# Tests of sums\n")
    rng = random.Random(60)
    student = root / "student"
    student.mkdir()
    for n in range(1, TESTS + 1):
        text = f"{n}\n{' '.join(str(rng.randint(-100, 100)) for _ in range(n))}\n"
        (student / f"{n:02d}.in").write_text(text)
        (here / "suite" / f"{n:02d}.in").write_text(text)
    return here, student


def one_by_one(here: Path, student: Path) -> float:
    """The same runs, each in a sandbox of its own, one after another."""
    problem = load_problem(here)
    target = load_problem(here.parent / "sums")
    kind = judging.kinds.of(target)
    found = matrix.subject(target, kind)
    limits = target.program_limits
    inputs = [path.read_bytes() for path in sorted(student.glob("*.in"))]
    assert problem.spec.tests is not None
    bugs = [
        programs.build(programs.load(target.directory / bug.path), 256)
        for bug in matrix.bugs_of(target.directory, problem.spec.tests)
    ]
    start = time.perf_counter()
    for data in inputs:
        for built in (*found.validators, found.reference):
            programs.run(programs.Task(built, (), data, limits.sandbox_limits(built)))
    table = languages.load().languages
    for built in bugs:
        for data in inputs:
            programs.run(programs.Task(built, (), data, matrix.run_limits(target, table[built.language])))
    return time.perf_counter() - start


def judged_matrix(problem: Problem, student: Path) -> tuple[float, float]:
    """The median time of the submission judged, and the load average (1 min) after it."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        judging.judge(judging.identify(problem, student, "bench"))
        times.append(time.perf_counter() - start)
    return statistics.median(times), os.getloadavg()[0]


def session_each(found: matrix.Subject, bugs: Sequence[AnyBug], cases: Sequence[matrix.Named]) -> tuple[BugRun, ...]:
    """A session per bug, as before they shared one per worker."""
    return tuple(run for bug in bugs for run in SHARED(found, (bug,), cases))


SHARED = matrix.run_bugs


def as_before(problem: Problem, student: Path) -> tuple[float, float]:
    """The matrix as it ran before: each Python run an interpreter's own start (no zygote), and
    a session per bug (set aside in this process and its workers, which are forked from it)."""
    forked = matrix.forked
    matrix.forked = lambda runner, built: runner
    matrix.run_bugs = session_each
    try:
        return judged_matrix(problem, student)
    finally:
        matrix.forked, matrix.run_bugs = forked, SHARED


def with_mutants(here: Path, student: Path) -> tuple[float, float, float, str]:
    """(making them with nothing cached, reading them from the cache, the matrix with them), what was made."""
    spec = here.parent / "sums" / "problem.yaml"
    # A comment of this run's own: the mutants' record (keyed by this file too) is made anew,
    # never read from an earlier bench's on this machine.
    spec.write_text(spec.read_text() + f"# make bench, {time.time_ns()}\n")
    target = load_problem(here.parent / "sums")
    making.write(target, making.generate(target, jobs=2))
    (here / "problem.yaml").write_text(SPEC.replace("max_tests: 20}", "max_tests: 20, mutants: {max: 10}}"))
    start = time.perf_counter()
    problem, said = making.prepare_data(load_problem(here), jobs=2)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    making.prepare_data(load_problem(here), jobs=2)
    cached = time.perf_counter() - start
    judging.judge(judging.identify(problem, student, "bench"))  # the mutants built: warm
    return cold, cached, judged_matrix(problem, student)[0], said


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        here, student = make(Path(folder))
        problem = load_problem(here)
        record = judging.judge(judging.identify(problem, student, "bench"))  # builds the bugs: warm
        assert record.score == record.max_score == BUGS * 10, record
        caught = {c.group: c.message for c in record.cases if c.group != "validity"}
        assert set(caught.values()) == {f"caught by {TESTS}.in"}, caught  # every bug ran every test
        judged, load = judged_matrix(problem, student)
        before, load_before = as_before(problem, student)
        alone = statistics.median(one_by_one(here, student) for _ in range(RUNS))
        load_alone = os.getloadavg()[0]
        cold, cached, mutated, said = with_mutants(here, student)
    print(f"tests problem: {TESTS} tests x {BUGS} bugs (Python), the whole matrix")
    print(
        f"  judged (validity, then the bugs, 2 at a time):               {judged:.2f} s  (target < 5 s; load {load:.1f})"
    )
    print(f"  as before: each Python run its own start, a session per bug:  {before:.2f} s  (load {load_before:.1f})")
    print(
        f"  the same runs one by one, a sandbox each:                     {alone:.2f} s  ({alone / judged:.1f}x; load {load_alone:.1f})"
    )
    print(f"mutants of the reference (Python): {said}")
    print(f"  made with nothing cached: {cold:.2f} s; read from the cache: {cached:.3f} s")
    print(f"  the matrix with them ({BUGS} bugs + the mutants): {mutated:.2f} s")


if __name__ == "__main__":
    main()
