"""`make bench`, test-data part: `judge gen` of a program-reference problem (the one
`judge new` makes, with 100 small and 20 large cases: a Python generator, a Python
validator, a C++ reference) with -j1 and -j2, beside the same work as a shell loop
(compile the reference once, then per case: generate, validate, solve; no sandbox).
Every run starts with an empty program cache, so compiling is included. Not a test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SMALL, LARGE = 100, 20


def judge(problems: Path, cache: Path, *args: str) -> None:
    env = {**os.environ, "JUDGE_CACHE_DIR": str(cache)}
    subprocess.run(
        [sys.executable, "-m", "judge", "--problems", str(problems), *args],
        cwd=REPO,
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def make_problem(work: Path) -> Path:
    problems = work / "problems"
    problems.mkdir()
    judge(problems, work / "cache-new", "new", "maxsum")
    spec = problems / "maxsum" / "problem.yaml"
    text = spec.read_text()
    text = text.replace("    count: 10\n    seed: 2", f"    count: {SMALL}\n    seed: 2")
    text = text.replace("    count: 5\n    seed: 3", f"    count: {LARGE}\n    seed: 3")
    spec.write_text(text)
    return problems


def timed_gen(problems: Path, work: Path, jobs: int) -> float:
    shutil.rmtree(problems / "maxsum" / "tests", ignore_errors=True)
    cache = Path(tempfile.mkdtemp(dir=work, prefix="cache-"))
    start = time.perf_counter()
    judge(problems, cache, "gen", "-j", str(jobs))
    return time.perf_counter() - start


def shell_loop(problem: Path, work: Path) -> float:
    from judge.author import parts

    out = work / "loop"
    out.mkdir()
    script = ["set -e", f"g++ -O2 -o {out}/ref {problem}/solutions/accepted/ref.cpp"]
    for group, count, seed, extra in (
        ("small", SMALL, 2, "--max-n 100"),
        ("large", LARGE, 3, "--min-n 150000 --max-n 200000"),
    ):
        for case in range(1, count + 1):
            name = f"{out}/{group}-{case}"
            seeded = parts.case_seed(seed, case)
            script += [
                f"/usr/bin/python3 {problem}/generators/gen.py {extra} --seed {seeded} > {name}.in",
                f"/usr/bin/python3 {problem}/validators/validate.py < {name}.in || [ $? -eq 42 ]",
                f"{out}/ref < {name}.in > {name}.ans",
            ]
    start = time.perf_counter()
    subprocess.run(["bash", "-c", "\n".join(script)], check=True)
    return time.perf_counter() - start


def main() -> int:
    sys.path.insert(0, str(REPO))
    with tempfile.TemporaryDirectory(prefix="judge-bench-gen-") as name:
        work = Path(name)
        problems = make_problem(work)
        one = timed_gen(problems, work, 1)
        two = timed_gen(problems, work, 2)
        loop = shell_loop(problems / "maxsum", work)
    cases = SMALL + LARGE
    print(f"judge gen of a program problem ({cases} generated cases + 7, compile included)")
    print(f"  judge gen -j1            {one:7.2f} s")
    print(f"  judge gen -j2            {two:7.2f} s   ({one / two:.2f}x -j1)")
    print(f"  shell loop, no sandbox   {loop:7.2f} s   (judge -j2 / loop = {two / loop:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
