"""`make bench`: the reference solver beside a plain C++ BFS of our own.

Prints, per problem, the cold table build (in process, numpy already imported, and as a
whole cold `judge solve` process with an empty cache), and the time of `judge solve` on
a 2000-case Sicily file, each beside a run of the C++ baseline doing the same searches
(start-up included). Timings are the best of several runs. Not a test: nothing here fails a build.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
JUDGE = [sys.executable, "-m", "judge"]


def best_of(runs: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def run_process(argv: Sequence[str], stdin: Path, env: dict[str, str] | None = None) -> None:
    with stdin.open("rb") as data:
        subprocess.run(argv, stdin=data, stdout=subprocess.DEVNULL, check=True, cwd=REPO, env=env)


def compile_baseline(source: Path, out_dir: Path) -> Path:
    binary = out_dir / source.stem
    subprocess.run(["g++", "-O2", "-std=gnu++17", "-o", str(binary), str(source)], check=True)
    return binary


def sicily_file(path: Path, cases: int) -> None:
    rng = random.Random(2000)
    lines = []
    for _ in range(cases):
        tiles = list(range(1, 10))
        rng.shuffle(tiles)
        lines.append(" ".join(map(str, tiles)))
    path.write_text("\n".join(lines) + "\n")


def main() -> int:
    if shutil.which("g++") is None:
        print("bench: g++ not found; install it (Debian: apt-get install g++) for the C++ baseline")
        return 1
    sys.path.insert(0, str(REPO))
    from judge.problem import refs, tables

    work = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    try:
        binary = compile_baseline(HERE / "plain_bfs.cpp", work)
        rot_bin, slide_bin = [str(binary), "rotations"], [str(binary), "sliding"]
        slide9_bin = [str(binary), "sliding9"]
        cases_2000 = work / "sicily-2000.in"
        sicily_file(cases_2000, 2000)
        one_slide = work / "eight.in"
        one_slide.write_text("8 6 7 2 5 4 3 x 1\n")
        lanqiao_case = work / "lanqiao.in"
        lanqiao_case.write_text("13524678.\n46758123.\n")

        # Same answers first: a fast wrong baseline would prove nothing.
        cpp_out = subprocess.run(rot_bin, stdin=cases_2000.open("rb"), capture_output=True, check=True).stdout
        judge_out = subprocess.run(
            [*JUDGE, "solve", "sicily-rotations", str(cases_2000)], capture_output=True, check=True, cwd=REPO
        ).stdout
        if cpp_out != judge_out:
            print("bench: the C++ baseline and judge solve disagree on the 2000-case file")
            return 1

        cpp_rot = best_of(7, lambda: run_process(rot_bin, cases_2000))
        cpp_slide = best_of(7, lambda: run_process(slide_bin, one_slide))
        cpp_slide9 = best_of(3, lambda: run_process(slide9_bin, one_slide))
        import numpy  # noqa: F401  - imported before timing, so builds are timed alone

        rows = []
        for problem, case, baseline in (
            ("lanqiao", lanqiao_case, cpp_slide),
            ("eight-digits", one_slide, cpp_slide),
            ("sicily-rotations", cases_2000, cpp_rot),
        ):
            names = refs.get(problem).tables
            build = best_of(3, lambda: tables.build(names))

            def cold_process() -> None:
                cache = Path(tempfile.mkdtemp(dir=work))
                env = {**os.environ, "JUDGE_CACHE_DIR": str(cache)}
                # The spec memo is warmed first, so only the table build is cold.
                run_process([*JUDGE, "solve", problem, str(case)], case, env=env)
                for table in cache.glob("*.bin"):
                    table.unlink()
                start = time.perf_counter()
                run_process([*JUDGE, "solve", problem, str(case)], case, env=env)
                timings.append(time.perf_counter() - start)

            timings: list[float] = []
            for _ in range(3):
                cold_process()
            if len(names) > 1:
                # Like with like: nine searches beside the C++ program's nine searches...
                rows.append((f"cold build {problem} (9 tables) vs 9 C++ searches", build, cpp_slide9, 1.5))
                # ...and the one table a cold `judge solve` builds beside one search.
                one = best_of(3, lambda: tables.build(names[8:]))
                rows.append(("  the one table a lanqiao solve builds", one, baseline, 1.5))
            else:
                rows.append((f"cold build {problem} (1 table)", build, baseline, 1.5))
            rows.append((f"  cold `judge solve {problem}` process", min(timings), baseline, None))

        subprocess.run([*JUDGE, "tables"], check=True, cwd=REPO, stdout=subprocess.DEVNULL)
        warm = best_of(10, lambda: run_process([*JUDGE, "solve", "sicily-rotations", str(cases_2000)], cases_2000))
        console_script = Path(sys.executable).with_name("judge")
        rows.append(("`python -m judge solve` 2000 sicily cases", warm, cpp_rot, 1.0))
        if console_script.exists():
            script = best_of(
                10, lambda: run_process([str(console_script), "solve", "sicily-rotations", str(cases_2000)], cases_2000)
            )
            rows.append(("`judge solve` 2000 sicily cases", script, cpp_rot, 1.0))

        print(f"{'measure':52} {'judge':>9} {'C++ BFS':>9} {'ratio':>7}  target")
        for label, ours, theirs, target in rows:
            ratio = ours / theirs
            verdict = "" if target is None else (f"<= {target}x " + ("met" if ratio <= target else "MISSED"))
            print(f"{label:52} {ours * 1000:7.1f}ms {theirs * 1000:7.1f}ms {ratio:6.2f}x  {verdict}")
        print(
            "C++ baseline: bench/plain_bfs.cpp (`rotations`: the sicily search; `sliding`: one"
            " eight-digits search; `sliding9`: the nine lanqiao searches), start-up included"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
