"""Input validator of lanqiao for exported packages (ICPC: exit 42 valid, 43 not).
Two lines, start and target: each the digits 1-8 and '.' once, nothing else."""

import sys

CELLS = sorted("12345678.")
data = sys.stdin.buffer.read()
try:
    text = data.decode("ascii")
except UnicodeDecodeError:
    print("not ASCII text", file=sys.stderr)
    sys.exit(43)
if not text.endswith("\n") or "\r" in text:
    print("lines must end in LF, including the last", file=sys.stderr)
    sys.exit(43)
lines = text[:-1].split("\n")
if len(lines) != 2:
    print(f"expected 2 lines, found {len(lines)}", file=sys.stderr)
    sys.exit(43)
for number, line in enumerate(lines, start=1):
    if sorted(line) != CELLS:
        print(f"line {number}: {line[:20]!r} is not 1-8 and '.' once each", file=sys.stderr)
        sys.exit(43)
sys.exit(42)
