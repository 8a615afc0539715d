"""The judge's end of the channel of a unit-test problem in `mode: together`: it keeps what the
student's process sends (each line as it came, for the judge to check against the tests it
listed) and watches the time. A test started and not reported within twice its CPU time and
a second is recorded as stuck, and this ends (exit 43): the judge then stops the student's
process and runs the file's remaining tests in a new pair.

Runs as `main.py FEEDBACK_DIR PER_TEST_S`, the channel on its stdin; copied into its box.
"""

from __future__ import annotations

import json
import os
import select
import sys
import time

RESULTS = "results.jsonl"
MAX_BYTES = 8 << 20  # a channel flooded past this is not results


def main() -> int:
    feedback, per_test_s = sys.argv[1], float(sys.argv[2])
    budget = 2 * per_test_s + 1
    out = open(os.path.join(feedback, RESULTS), "w", encoding="utf-8")
    buffer, total = b"", 0
    current: str | None = None
    deadline: float | None = None
    while True:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        if not select.select([0], [], [], wait)[0]:
            stuck = {"when": "call", "kind": "stuck", "message": f"no result within {budget:g} s"}
            out.write(json.dumps({"id": current, "phases": [stuck], "cpu": 0, "wall": budget, "printed": ""}) + "\n")
            out.close()
            return 43
        chunk = os.read(0, 1 << 16)
        total += len(chunk)
        if not chunk or total > MAX_BYTES:
            break
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            out.write(line.decode("utf-8", errors="replace") + "\n")
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("start"), str):
                current, deadline = record["start"], time.monotonic() + budget
            elif isinstance(record, dict) and record.get("id") == current:
                current, deadline = None, None
        out.flush()
    out.close()
    return 42


if __name__ == "__main__":
    sys.exit(main())
