"""`make bench`, grading part: throughput of `judge grade` on the bundled class with one
worker and with two, from scratch each time (--regrade into a fresh folder).
Target: -j2 at least 1.8x the throughput of -j1 on a 2-core machine. The verdicts of
the two runs are compared too: they must be the same. Not a test; it takes minutes.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge import results  # noqa: E402


def grade(jobs: int, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "judge", "grade", "submissions", "-j", str(jobs), "-o", str(out), "--regrade"],
        cwd=REPO,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="judge-bench-grading-") as work:
        one = grade(1, Path(work) / "j1")
        two = grade(2, Path(work) / "j2")
        verdicts = [
            {
                (r.student, r.problem): tuple(c.verdict for c in r.cases)
                for r in results.read_all(Path(work) / d / "results")
            }
            for d in ("j1", "j2")
        ]
        count = len(verdicts[0])
    speedup = one / two
    print(f"grading the sample class ({count} submissions), from scratch:")
    print(f"  -j1  {one:7.1f} s   {count / one:.2f} submissions/s")
    print(f"  -j2  {two:7.1f} s   {count / two:.2f} submissions/s")
    print(f"  speed-up {speedup:.2f}x, target >= 1.8x: {'met' if speedup >= 1.8 else 'MISSED'}")
    print(f"  verdicts identical with -j1 and -j2: {'yes' if verdicts[0] == verdicts[1] else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
