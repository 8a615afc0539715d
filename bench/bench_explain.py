"""`make bench`, explain part: `judge explain` with its default budget (30 s, 2 cores) on every
failing program of the repository: the wrong solutions of the three problems and the failing
submissions of the sample class.

Target: each gets a failing example within the 30 s, timed from outside the command (start
up, compiling and the search's own end included). The table gives, per program, when its
example was found and the whole command's time; and whether the example is proved the
smallest (every smaller level run whole). Not a test; it takes about ten minutes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUDGET_S = 30.0

CLASS = {
    "student04": "lanqiao.c",
    "student05": "sicily-rotations.cpp",
    "student06": "sicily-rotations.py",
    "student07": "eight-digits.py",
    "student08": "lanqiao.py",
    "student09": "lanqiao.cpp",
    "student10": "eight-digits.java",
    "student11": "sicily-rotations.c",
}


def programs() -> list[tuple[str, Path]]:
    found = [
        (path.parts[-4], path)
        for path in sorted((REPO / "problems").glob("*/solutions/*/*"))
        if path.parent.name != "accepted"
    ]
    found += [(name.split(".")[0], REPO / "submissions" / student / name) for student, name in CLASS.items()]
    return found


def main() -> None:
    rows = []
    for problem, source in programs():
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "judge", "explain", str(source), "-p", problem, "--json", "--budget", str(BUDGET_S)],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - start
        if result.returncode != 0:
            raise SystemExit(f"{source}: exit {result.returncode}: {result.stderr.strip()}")
        data = json.loads(result.stdout)
        rows.append((source.relative_to(REPO), data, wall))
        print(
            f"{source.relative_to(REPO)!s:70} {data['verdict'] or '-':4} "
            f"found after {data['found_after_s'] or 0:5.1f} s, command {wall:5.1f} s",
            flush=True,
        )
    print()
    print("| program | example | found after | whole command | smallest proved |")
    print("| --- | --- | --- | --- | --- |")
    for source, data, wall in rows:
        what = (
            "none"
            if not data["found"]
            else f"{data['verdict']} at "
            + ("unreachable" if data["unreachable"] and data["cases"] == 1 else f"distance {data['distance']}")
            + (f", {data['cases']} cases" if data["cases"] > 1 else "")
        )
        print(
            f"| `{source}` | {what} | {data['found_after_s'] or 0:.1f} s | {wall:.1f} s | "
            f"{'yes' if data['minimal'] else 'no'} |"
        )
    found = sum(1 for _, data, wall in rows if data["found"] and wall <= BUDGET_S)
    slowest = max(data["found_after_s"] or 0 for _, data, _ in rows)
    print(
        f"\n{found}/{len(rows)} found within {BUDGET_S:g} s (target: all); "
        f"the slowest example came after {slowest:.1f} s; the longest command took "
        f"{max(wall for _, _, wall in rows):.1f} s"
    )


if __name__ == "__main__":
    main()
