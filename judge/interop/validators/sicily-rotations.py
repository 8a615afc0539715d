"""Input validator of sicily-rotations for exported packages (ICPC: exit 42 valid, 43 not).
One case or more, a line each: 9 space-separated integers, a permutation of 1..9."""

import sys

from ascii_input import read_text, reject  # type: ignore[import-not-found]  # beside it, or written in (exporter)

TOKENS = sorted("123456789")
text = read_text()
if not text.endswith("\n"):
    reject("the last line must end in LF")
for number, line in enumerate(text[:-1].split("\n"), start=1):
    if any(ch.isspace() and ch != " " for ch in line):
        reject(f"line {number}: whitespace other than spaces")
    if sorted(line.split()) != TOKENS:
        reject(f"line {number}: {line[:40]!r} is not a permutation of 1..9")
sys.exit(42)
