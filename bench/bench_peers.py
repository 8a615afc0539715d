"""`make bench`, the judge beside its peers: what one more case costs, side by side in one run.

The same C A+B program on 100 cases and on 1 case, three interleaved rounds; each tool's
start-up and compile cancel out of (time on 100 cases - time on 1 case) / 99. Medians, in
milliseconds per case:

- the judge: `judge run` of the submission on a problem of 100 cases, then of 1;
- Kattis problemtools (its `verifyproblem`, which isolates nothing), when installed (it is
  among the test extras): the same program as the package's accepted submission;
- DMOJ's judge, when its `dmoj-cli` is on PATH (it is not a dependency: its install wants a
  configured runtime of its own); said so when absent;
- a bare `bwrap --unshare-all` start around the binary (the floor of a sandbox built per
  case), and the bare binary.

Issue 26's targets: the judge at most 0.5x problemtools' and DMOJ's figures and below the bare
bwrap start; within 2 ms of the bare binary is the aim. Not a test: nothing here fails a build.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_runner import bare_bwrap  # noqa: E402
from judge.run import sandbox  # noqa: E402

AB = '#include <stdio.h>\nint main(void){long a,b; if(scanf("%ld %ld",&a,&b)!=2) return 1; printf("%ld\\n",a+b); return 0;}\n'
CASES = 100
ROUNDS = 3
# problemtools reads its languages from $XDG_CONFIG_HOME: C is all this needs.
PT_LANGUAGES = "c:\n    name: 'C'\n    priority: 950\n    files: '*.c'\n    compile: 'gcc -O2 -o {binary} {files} -lm'\n    run: '{binary}'\n"


def inputs(count: int) -> list[tuple[str, str]]:
    return [(f"{i} {7 * i}\n", f"{8 * i}\n") for i in range(1, count + 1)]


def judge_problem(root: Path, count: int) -> Path:
    problems = root / f"judge-{count}"
    folder = problems / "ab"
    (folder / "data").mkdir(parents=True)
    (folder / "solutions" / "accepted").mkdir(parents=True)
    (folder / "solutions" / "accepted" / "ab.c").write_text(AB)
    for i, (given, answer) in enumerate(inputs(count), start=1):
        (folder / "data" / f"{i:03}.in").write_text(given)
        (folder / "data" / f"{i:03}.ans").write_text(answer)
    (folder / "statement.md").write_text("Add two integers.\n")
    (folder / "problem.yaml").write_text(
        "id: ab\ntitle: A plus B\nsource: bench\nstatement: statement.md\nlimits: {time_s: 1.0, memory_mib: 256}\n"
        "reference: solutions/accepted/ab.c\n"
        "groups:\n  - name: all\n    files: data\n    points: 100\n    scoring: per_case\n"
    )
    return problems


def package(root: Path, count: int) -> Path:
    folder = root / f"package-{count}" / "ab"
    (folder / "data" / "secret").mkdir(parents=True)
    (folder / "data" / "sample").mkdir(parents=True)
    (folder / "submissions" / "accepted").mkdir(parents=True)
    (folder / "submissions" / "accepted" / "ab.c").write_text(AB)
    for i, (given, answer) in enumerate(inputs(count), start=1):
        (folder / "data" / "secret" / f"{i:03}.in").write_text(given)
        (folder / "data" / "secret" / f"{i:03}.ans").write_text(answer)
    (folder / "problem.yaml").write_text("name: A plus B\nlimits:\n  time_multiplier: 5\n")
    return folder


def timed(command: list[str], **kwargs: object) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, **kwargs)  # type: ignore[call-overload]
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{command[:3]} failed: {done.stdout.decode()[-300:]} {done.stderr.decode()[-300:]}")
    return float(took)


def per_case(many: list[float], one: list[float], count: int) -> float:
    return (statistics.median(many) - statistics.median(one)) / (count - 1) * 1000


def main() -> int:
    layers = sandbox.detect()
    print(f"sandbox mode: {layers.mode}; {sandbox.session_support(layers).detail}")
    work = Path(tempfile.mkdtemp(prefix="judge-bench-peers-"))
    try:
        source = work / "ab.c"
        source.write_text(AB)
        binary = work / "ab"
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(source)], check=True)
        cases = inputs(CASES)
        for i, (given, _) in enumerate(cases):
            (work / f"{i}.in").write_text(given)
        judge_many, judge_one = judge_problem(work, CASES), judge_problem(work, 1)
        for problems in (judge_many, judge_one):
            timed([sys.executable, "-m", "judge", "--problems", str(problems), "gen"], cwd=work)
        verify = Path(sys.executable).with_name("verifyproblem")
        pt_env = {"PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": str(work / "config"), "HOME": str(work)}
        (work / "config" / "problemtools").mkdir(parents=True)
        (work / "config" / "problemtools" / "languages.yaml").write_text(PT_LANGUAGES)
        pt_many, pt_one = package(work, CASES), package(work, 1)
        dmoj = shutil.which("dmoj-cli")

        def judge_run(problems: Path) -> float:
            return timed(
                [sys.executable, "-m", "judge", "--problems", str(problems), "run", str(source), "-p", "ab"], cwd=work
            )

        def problemtools(folder: Path) -> float:
            return timed([str(verify), str(folder), "-p", "submissions"], env=pt_env, cwd=work)

        def loop(prefix: list[str]) -> Callable[[], float]:
            def run_all() -> float:
                start = time.perf_counter()
                for i in range(CASES):
                    with (work / f"{i}.in").open("rb") as stdin:
                        subprocess.run([*prefix, "./ab"], stdin=stdin, capture_output=True, check=True, cwd=work)
                return (time.perf_counter() - start) / CASES * 1000

            return run_all

        unshared = bare_bwrap(layers, work)
        figures: dict[str, list[float]] = {}
        many_one: dict[str, tuple[list[float], list[float]]] = {"judge": ([], [])}
        if verify.exists():
            many_one["problemtools"] = ([], [])
        for _ in range(ROUNDS):  # interleaved: a drift in the machine's speed hits every tool alike
            many_one["judge"][0].append(judge_run(judge_many))
            many_one["judge"][1].append(judge_run(judge_one))
            if "problemtools" in many_one:
                many_one["problemtools"][0].append(problemtools(pt_many))
                many_one["problemtools"][1].append(problemtools(pt_one))
            if unshared:
                figures.setdefault("bare bwrap --unshare-all", []).append(loop(unshared)())
            figures.setdefault("bare binary", []).append(loop([])())
        rows = {name: per_case(many, one, CASES) for name, (many, one) in many_one.items()}
        rows |= {name: statistics.median(values) for name, values in figures.items()}
        print(f"\nper case, C A+B, {CASES} cases against 1, {ROUNDS} interleaved rounds (median ms):")
        for name, value in rows.items():
            print(f"  {name:28} {value:7.2f} ms")
        if not verify.exists():
            print(
                "  problemtools                 not installed (it is among the test extras: make bench installs them)"
            )
        if dmoj is None:
            print("  DMOJ                         dmoj-cli not on PATH: not measured here")
        judge = rows["judge"]
        checks = []
        if "problemtools" in rows:
            checks.append(("at most 0.5x problemtools", judge <= 0.5 * rows["problemtools"]))
        if "bare bwrap --unshare-all" in rows:
            checks.append(("below a bare bwrap --unshare-all start", judge < rows["bare bwrap --unshare-all"]))
        checks.append(("within 2 ms of the bare binary (the aim)", judge - rows["bare binary"] <= 2.0))
        for what, met in checks:
            print(f"  judge {what}: {'met' if met else 'MISSED'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("JUDGE_CACHE_DIR", tempfile.mkdtemp(prefix="judge-bench-cache-"))
    sys.exit(main())
