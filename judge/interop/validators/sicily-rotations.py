"""Input validator of sicily-rotations for exported packages (ICPC: exit 42 valid, 43 not).
One case or more, a line each: 9 space-separated integers, a permutation of 1..9."""

import sys

TOKENS = sorted("123456789")
data = sys.stdin.buffer.read()
try:
    text = data.decode("ascii")
except UnicodeDecodeError:
    print("not ASCII text", file=sys.stderr)
    sys.exit(43)
if not text.endswith("\n"):
    print("the last line must end in LF", file=sys.stderr)
    sys.exit(43)
for number, line in enumerate(text[:-1].split("\n"), start=1):
    if any(ch.isspace() and ch != " " for ch in line):
        print(f"line {number}: whitespace other than spaces", file=sys.stderr)
        sys.exit(43)
    if sorted(line.split()) != TOKENS:
        print(f"line {number}: {line[:40]!r} is not a permutation of 1..9", file=sys.stderr)
        sys.exit(43)
sys.exit(42)
