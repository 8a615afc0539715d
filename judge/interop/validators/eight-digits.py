"""Input validator of eight-digits for exported packages (ICPC: exit 42 valid, 43 not).
One line of 9 space-separated tokens: 1-8 and x once each."""

import sys

TOKENS = sorted("12345678x")
data = sys.stdin.buffer.read()
try:
    text = data.decode("ascii")
except UnicodeDecodeError:
    print("not ASCII text", file=sys.stderr)
    sys.exit(43)
if not text.endswith("\n") or text.count("\n") != 1:
    print("expected exactly one line, ending in LF", file=sys.stderr)
    sys.exit(43)
line = text[:-1]
if any(ch.isspace() and ch != " " for ch in line):
    print("whitespace other than spaces", file=sys.stderr)
    sys.exit(43)
if sorted(line.split()) != TOKENS:
    print(f"{line[:40]!r} is not 1-8 and x once each", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
