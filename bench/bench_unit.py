"""`make bench`, unit-test problems: one pytest file of 20 trivial tests, judged (the tests in a
sandbox of their own, the student's module in another, every call crossing the pipes), beside
pytest alone running the same file on the same module in one process.

The judge's figure is one submission judged in a process that has judged one before (the
problem loaded, the tests' side built: as `judge grade` and `judge serve` judge a class);
pytest's is `python3 -m pytest` started afresh, its usual use. Medians of 10 runs each.
Target (issue 45): at most 1.5x pytest alone.

Then a JUnit 5 class (the public class of `judge new --unit --lang java`, three tests, on its
accepted Stack.java): judged in mode apart (the tests' JVM, which compiles the tests against
stand-ins, and the student's, which compiles the class, side by side) and in mode together (one
JVM that compiles the student's class and the tests, then runs them), beside JUnit's console launcher on the same classes compiled beforehand, and beside javac
and the launcher together. Target (issue 45): at most 1.5x the launcher's own time. Then the
starter's two classes (public and secret), which the judge runs in a JVM each (one process per
test file) and the launcher in one. Not a test: nothing here fails a build.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.grade import judging  # noqa: E402
from judge.kinds.table import load_problem  # noqa: E402

RUNS = 10
TESTS = 20
SPEC = """\
id: twenty
title: Twenty trivial tests
source: make bench
kind: unit
unit:
  student_files: [mod.py]
reference: solutions/accepted/mod.py
limits: {time_s: 2, memory_mib: 256}
"""
MODULE = "def add(a, b):\n    return a + b\n"


def make(root: Path) -> Path:
    problem = root / "problems" / "twenty"
    (problem / "unit" / "public").mkdir(parents=True)
    (problem / "solutions" / "accepted").mkdir(parents=True)
    (problem / "problem.yaml").write_text(SPEC)
    (problem / "statement.md").write_text("# Twenty\n")
    (problem / "solutions" / "accepted" / "mod.py").write_text(MODULE)
    tests = "import mod\n" + "".join(
        f"\n\ndef test_{i}():\n    assert mod.add({i}, 1) == {i + 1}\n" for i in range(TESTS)
    )
    (problem / "unit" / "public" / "test_twenty.py").write_text(tests)
    subprocess.run(
        [sys.executable, "-m", "judge", "--problems", str(root / "problems"), "gen", "twenty"],
        check=True,
        capture_output=True,
    )
    return problem


def judged(problem_dir: Path, name: str = "mod.py", tests: int = TESTS) -> float:
    problem = load_problem(problem_dir)
    source = problem_dir / "solutions" / "accepted" / name
    record = judging.judge(judging.identify(problem, source, "warm-up"))
    assert record.verdict == "AC" and len(record.cases) == tests, record
    times = []
    for i in range(RUNS):
        start = time.perf_counter()
        record = judging.judge(judging.identify(problem, source, f"s{i}"))
        times.append(time.perf_counter() - start)
        assert record.verdict == "AC"
    return statistics.median(times)


def pytest_alone(problem_dir: Path, root: Path) -> float:
    alone = root / "alone"
    alone.mkdir()
    (alone / "mod.py").write_text(MODULE)
    (alone / "test_twenty.py").write_text((problem_dir / "unit" / "public" / "test_twenty.py").read_text())
    argv = ["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_twenty.py"]
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=alone, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        assert done.returncode == 0, done.stdout
    return statistics.median(times)


def junit(root: Path, both: bool, mode: str) -> tuple[float, float, float]:
    """(judged, console launcher alone, javac and the launcher), medians. `both`: the starter's
    two test classes (public and secret: a pair of processes each, one per test file), else the
    public one alone; `mode`: apart (the tests' JVM and the student's) or together (one JVM)."""
    from judge.author import scaffold

    problems = root / f"java-{both}-{mode}"
    problems.mkdir()
    made = scaffold.create(problems, "jstack", "java", kind="unit")
    spec = made.directory / "problem.yaml"
    spec.write_text(spec.read_text().replace("  per_test_time_s: 2\n", f"  per_test_time_s: 2\n  mode: {mode}\n"))
    if not both:
        for extra in (made.directory / "unit" / "secret").glob("*.java"):
            extra.unlink()
    subprocess.run([sys.executable, "-m", "judge", "--problems", str(problems), "gen", "jstack"], check=True)
    mine = judged(made.directory, "Stack.java", 5 if both else 3)
    jar = "/usr/share/java/junit-platform-console-standalone.jar"
    classes = root / f"classes-{both}-{mode}"
    sources = [made.directory / "solutions" / "accepted" / "Stack.java", *(made.directory / "unit").rglob("*.java")]
    javac = ["javac", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-cp", jar, "-d", str(classes)]
    launcher = ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar, "-cp", str(classes)]
    launcher += ["--scan-classpath", "--disable-banner", "--details=none"]
    compiled, alone = [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([*javac, *map(str, sources)], check=True)
        middle = time.perf_counter()
        subprocess.run(launcher, check=True, capture_output=True)
        alone.append(time.perf_counter() - middle)
        compiled.append(time.perf_counter() - start)
    return mine, statistics.median(alone), statistics.median(compiled)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-unit-") as temp:
        root = Path(temp)
        problem = make(root)
        mine = judged(problem)
        theirs = pytest_alone(problem, root)
        java = {
            (both, mode): junit(root, both, mode)
            for both, mode in ((False, "apart"), (False, "together"), (True, "apart"))
        }
    print(f"unit-test problem, {TESTS} trivial tests in one file (median of {RUNS}):")
    print(f"  judged (two sandboxes, every call across): {mine:.3f} s")
    print(f"  pytest alone, one process:                 {theirs:.3f} s")
    print(f"  ratio {mine / theirs:.2f}x (target: at most 1.5x)")
    for (both, mode), (judged_s, launcher, with_javac) in java.items():
        what = "two JUnit 5 classes, 5 tests (a pair each)" if both else "a JUnit 5 class of 3 tests"
        print(f"{what}, mode {mode} (median of {RUNS}):")
        how = "the tests' JVM and the student's, side by side" if mode == "apart" else "compiled and run in one JVM"
        print(f"  judged ({how}): {judged_s:.3f} s")
        ratio = judged_s / launcher
        target = "" if both else " (target: at most 1.5x)"
        print(f"  console launcher alone, compiled classes:     {launcher:.3f} s  ratio {ratio:.2f}x{target}")
        print(f"  javac and the console launcher:               {with_javac:.3f} s  ratio {judged_s / with_javac:.2f}x")


if __name__ == "__main__":
    main()
