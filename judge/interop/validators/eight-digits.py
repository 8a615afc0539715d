"""Input validator of eight-digits for exported packages (ICPC: exit 42 valid, 43 not).
One line of 9 space-separated tokens: 1-8 and x once each."""

import sys

from ascii_input import read_text, reject  # type: ignore[import-not-found]  # beside it, or written in (exporter)

TOKENS = sorted("12345678x")
text = read_text()
if not text.endswith("\n") or text.count("\n") != 1:
    reject("expected exactly one line, ending in LF")
line = text[:-1]
if any(ch.isspace() and ch != " " for ch in line):
    reject("whitespace other than spaces")
if sorted(line.split()) != TOKENS:
    reject(f"{line[:40]!r} is not 1-8 and x once each")
sys.exit(42)
