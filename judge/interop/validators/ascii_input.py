"""What the validators of the built-in puzzles share (ICPC: exit 42 valid, 43 not): the input
read whole as ASCII text, and how it is refused. The exporter writes this file in place of a
validator's import of it, so that a package's validator stays one file."""

import sys
from typing import NoReturn


def reject(why: str) -> NoReturn:
    print(why, file=sys.stderr)
    sys.exit(43)


def read_text() -> str:
    try:
        return sys.stdin.buffer.read().decode("ascii")
    except UnicodeDecodeError:
        reject("not ASCII text")
