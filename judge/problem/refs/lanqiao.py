"""Lanqiao "nine-grid rearrangement": sliding puzzle with a given start and target.

Input: two lines of nine characters, start then target, `.` the blank.
Output: the least number of moves, or -1 when the target cannot be reached.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.problem.puzzles import sliding
from judge.problem.refs.text import lines_if_clean, validator
from judge.problem.tables import TableSource

TYPE_CHECKING = False  # the typing module costs `judge solve` 20 ms to import
if TYPE_CHECKING:
    from judge.problem.refs.base import InputIssue

CELLS = tuple("12345678.")
_SORTED_CELLS = sorted(CELLS)
TABLES = sliding.TABLE_NAMES


def parse_board(line: str) -> tuple[int, ...]:
    return tuple(0 if ch == "." else int(ch) for ch in line)


def render_board(board: Sequence[int]) -> str:
    return "".join("." if v == 0 else str(v) for v in board)


def canonical(text: str) -> str:
    """The input's tokens laid out in the strict format (how a submission reading tokens sees it)."""
    return "".join(token + "\n" for token in text.split())


def accepts(text: str) -> bool:
    lines = lines_if_clean(text)
    return lines is not None and len(lines) == 2 and all(sorted(line) == _SORTED_CELLS for line in lines)


def diagnose(text: str) -> list[InputIssue]:
    """The format checked rule by rule, naming the line of each break (slow path)."""
    from judge.problem.refs.base import InputIssue, check_tokens, split_lines

    lines, issues = split_lines(text)
    if len(lines) != 2:
        issues.append(InputIssue(max(len(lines), 1), f"expected 2 lines (start, target), found {len(lines)}"))
    for no, line in enumerate(lines[:2], start=1):
        issues += check_tokens(no, list(line.rstrip("\r")), CELLS, "characters")
    return issues


validate = validator(accepts, diagnose)


def solve(text: str, tables: TableSource) -> str:
    start_line, target_line = text.split()[:2]
    start, target = parse_board(start_line), parse_board(target_line)
    return f"{sliding.distance(start, target, lambda b: tables(sliding.table_name(b)))}\n"
