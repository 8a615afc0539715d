"""Input validator of lanqiao for exported packages (ICPC: exit 42 valid, 43 not).
Two lines, start and target: each the digits 1-8 and '.' once, nothing else."""

import sys

from ascii_input import read_text, reject  # type: ignore[import-not-found]  # beside it, or written in (exporter)

CELLS = sorted("12345678.")
text = read_text()
if not text.endswith("\n") or "\r" in text:
    reject("lines must end in LF, including the last")
lines = text[:-1].split("\n")
if len(lines) != 2:
    reject(f"expected 2 lines, found {len(lines)}")
for number, line in enumerate(lines, start=1):
    if sorted(line) != CELLS:
        reject(f"line {number}: {line[:20]!r} is not 1-8 and '.' once each")
sys.exit(42)
