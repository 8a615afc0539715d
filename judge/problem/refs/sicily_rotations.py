"""Sicily "nine digits": order tiles 1..9 by turning 2x2 squares clockwise.

Input: test cases until end of file, each a line of nine integers (a permutation
of 1..9, row by row). Output: one line per case, the least number of turns.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.problem.puzzles import rotations
from judge.problem.puzzles.perm import rank
from judge.problem.refs.text import lines_if_clean, validator
from judge.problem.tables import TableSource

TYPE_CHECKING = False  # the typing module costs `judge solve` 20 ms to import
if TYPE_CHECKING:
    import random

    from judge.problem.refs.base import InputIssue

TOKENS = tuple(str(v) for v in range(1, 10))
_SORTED_TOKENS = sorted(TOKENS)
TABLES = (rotations.TABLE_NAME,)


def canonical(text: str) -> str:
    """The input's tokens laid out in the strict format, nine to a line (how a submission
    reading integers until end of file sees it)."""
    tokens = text.split()
    return "".join(" ".join(tokens[i : i + 9]) + "\n" for i in range(0, len(tokens), 9))


def accepts(text: str) -> bool:
    lines = lines_if_clean(text)
    return bool(lines) and all(sorted(line.split()) == _SORTED_TOKENS for line in lines or ())


def diagnose(text: str) -> list[InputIssue]:
    """The format checked rule by rule, naming the line of each break (slow path)."""
    from judge.problem.refs.base import InputIssue, check_tokens, space_separated, split_lines

    lines, issues = split_lines(text)
    if not lines and not issues:
        issues.append(InputIssue(1, "no test case"))
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            issues.append(InputIssue(no, "empty line"))
            continue
        issues += check_tokens(no, space_separated(no, line, issues), TOKENS, "integers")
    return issues


validate = validator(accepts, diagnose)


def solve(text: str, tables: TableSource) -> str:
    table = tables(rotations.TABLE_NAME)
    # Valid input has one case per line, each tile a single digit: ord() beats int() here,
    # and files run to thousands of cases.
    return "".join(f"{table[rank([ord(t) - 49 for t in line.split()])]}\n" for line in text.splitlines())


def render(board: Sequence[int], rng: random.Random | None = None) -> str:
    """A board (values 0..8) as an input line; with an rng, in varied spacing."""
    tokens = [str(v + 1) for v in board]
    if rng is None:
        return " ".join(tokens) + "\n"
    return "".join(t + rng.choice((" ", "  ", " ")) for t in tokens[:-1]) + tokens[-1] + rng.choice(("", " ")) + "\n"
