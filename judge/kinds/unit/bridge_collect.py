"""The judge's end of the channel of a unit-test problem in `mode: together`: it keeps what the
student's process sends (each line as it came, for the judge to check against the tests it
listed) and keeps the time. A test's CPU time is the kernel's figure for the student's process,
which the judge's watch of its run publishes (the target of the symbolic link CLOCK, bound
read-only here), from the previous test's result (the first test: its start line) to its own
result, so that nothing the student's code computes between tests is charged to none; its wall
time is this process's clock, likewise. Whatever figures the student's process writes in its result are replaced by these. A
test that uses more than its CPU time, or does not report within its wall limit (the judge's
sandbox.wall_for of it, passed in), is recorded as stuck, and this ends (exit 43): the judge then stops the student's process and runs
the file's remaining tests in a new pair.

Runs as `main.py FEEDBACK_DIR PER_TEST_S WALL_S CLOCK`, the channel on its stdin; copied into its box.
"""

from __future__ import annotations

import json
import os
import select
import sys
import time

RESULTS = "results.jsonl"
MAX_BYTES = 8 << 20  # a channel flooded past this is not results
CPU_LOOK_S = 0.05  # how often a test's CPU time is looked at while it runs


def cpu_s(clock: str) -> float:
    """The student's process's CPU time so far, as the judge's watch last read it."""
    return float(os.readlink(clock))


def main() -> int:
    # A test's CPU time, and its wall limit as the judge's sandbox.wall_for makes it.
    feedback, per_test_s, budget, clock = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    out = open(os.path.join(feedback, RESULTS), "w", encoding="utf-8")
    buffer, total = b"", 0
    current: str | None = None
    started = cpu_at_start = 0.0
    # Where the last result ended: the next test is charged from there, not from its own start
    # line, which the student's code (in the same process) could hold back while it computes.
    ended: tuple[float, float] | None = None
    while True:
        wait = None if current is None else max(0.0, min(started + budget - time.monotonic(), CPU_LOOK_S))
        if not select.select([0], [], [], wait)[0]:
            cpu, wall = cpu_s(clock) - cpu_at_start, time.monotonic() - started
            if cpu <= per_test_s and wall < budget:
                continue
            why = f"more than {per_test_s:g} s of CPU time" if cpu > per_test_s else f"no result within {budget:g} s"
            stuck = {"id": current, "phases": [{"when": "call", "kind": "stuck", "message": why}], "printed": ""}
            out.write(json.dumps({**stuck, "cpu": round(cpu, 4), "wall": round(wall, 4)}) + "\n")
            out.close()
            return 43
        chunk = os.read(0, 1 << 16)
        total += len(chunk)
        if not chunk or total > MAX_BYTES:
            break
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                record = json.loads(line)
            except (ValueError, RecursionError):
                record = None
            if isinstance(record, dict) and current is not None and record.get("id") == current:
                # The test's figures are the kernel's and this clock's, not what the line says.
                ended = (time.monotonic(), cpu_s(clock))
                record["cpu"] = round(ended[1] - cpu_at_start, 4)
                record["wall"] = round(ended[0] - started, 4)
                line = json.dumps(record).encode()
                current = None
            elif isinstance(record, dict) and isinstance(record.get("start"), str):
                current = record["start"]
                started, cpu_at_start = ended or (time.monotonic(), cpu_s(clock))
            out.write(line.decode("utf-8", errors="replace") + "\n")
        out.flush()
    out.close()
    return 42


if __name__ == "__main__":
    sys.exit(main())
