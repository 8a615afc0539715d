"""AcWing "eight digits": sliding puzzle towards the fixed goal `1 2 3 4 5 6 7 8 x`.

Input: one line, nine whitespace-separated tokens (1-8 and `x`); the statement's own
sample has doubled spaces and a trailing space, so runs of spaces are legal.
Output: the least number of swaps, or -1.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.problem.puzzles import sliding
from judge.problem.refs.text import lines_if_clean, validator
from judge.problem.tables import TableSource

TYPE_CHECKING = False  # the typing module costs `judge solve` 20 ms to import
if TYPE_CHECKING:
    import random

    from judge.problem.refs.base import InputIssue

TOKENS = ("1", "2", "3", "4", "5", "6", "7", "8", "x")
_SORTED_TOKENS = sorted(TOKENS)
GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
GOAL_TABLE = sliding.table_name(8)  # the goal is the canonical goal of blank cell 8
TABLES = (GOAL_TABLE,)


def parse_board(tokens: Sequence[str]) -> tuple[int, ...]:
    return tuple(0 if t == "x" else int(t) for t in tokens)


def canonical(text: str) -> str:
    """The input's tokens laid out in the strict format (how a submission reading tokens sees it)."""
    return " ".join(text.split()) + "\n"


def accepts(text: str) -> bool:
    lines = lines_if_clean(text)
    return lines is not None and len(lines) == 1 and sorted(lines[0].split()) == _SORTED_TOKENS


def diagnose(text: str) -> list[InputIssue]:
    """The format checked rule by rule, naming the line of each break (slow path)."""
    from judge.problem.refs.base import InputIssue, check_tokens, space_separated, split_lines

    lines, issues = split_lines(text)
    if len(lines) != 1:
        issues.append(InputIssue(max(len(lines), 1), f"expected 1 line, found {len(lines)}"))
    if lines:
        issues += check_tokens(1, space_separated(1, lines[0], issues), TOKENS, "tokens")
    return issues


validate = validator(accepts, diagnose)


def solve(text: str, tables: TableSource) -> str:
    board = parse_board(text.split()[:9])
    return f"{sliding.distance(board, GOAL, lambda b: tables(sliding.table_name(b)))}\n"


# Spacing the statement allows (its own sample uses doubled spaces and a trailing one).
_SEPARATORS = (" ", "  ", " ", "   ")


def render(board: Sequence[int], rng: random.Random | None = None) -> str:
    """A board as an input line; with an rng, in one of the spacings the statement allows."""
    tokens = ["x" if v == 0 else str(v) for v in board]
    if rng is None:
        return " ".join(tokens) + "\n"
    text = "".join(tok + rng.choice(_SEPARATORS) for tok in tokens[:-1]) + tokens[-1]
    style = rng.randrange(3)
    if style == 1:
        text += " "
    elif style == 2:
        text = " " + text + "  "
    return text + "\n"
