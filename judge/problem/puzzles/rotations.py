"""The rotations puzzle (Sicily "nine digits"): turn a 2x2 square clockwise.

Tiles 1..9 are stored as values 0..8. A case is solved by clockwise turns *towards*
the goal, so one search *from* the goal must follow the inverse, counter-clockwise
turns; then one table answers every case.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.problem.puzzles.perm import rank

GOAL: tuple[int, ...] = tuple(range(9))
TABLE_NAME = "rotations"
MAX_DISTANCE = 15  # a fact of the state space, checked by the tests

# Top-left cell of each of the four 2x2 squares.
SQUARES: tuple[int, ...] = (0, 1, 3, 4)


def _clockwise(top_left: int) -> tuple[int, ...]:
    tl, tr, bl, br = top_left, top_left + 1, top_left + 3, top_left + 4
    move = list(range(9))
    # New cell <- old cell: the tile at bottom-left goes up to top-left, and so on round.
    move[tl], move[tr], move[br], move[bl] = bl, tl, tr, br
    return tuple(move)


def _inverse(move: Sequence[int]) -> tuple[int, ...]:
    inv = [0] * len(move)
    for new_cell, old_cell in enumerate(move):
        inv[old_cell] = new_cell
    return tuple(inv)


CLOCKWISE: tuple[tuple[int, ...], ...] = tuple(_clockwise(s) for s in SQUARES)
COUNTER_CLOCKWISE: tuple[tuple[int, ...], ...] = tuple(_inverse(m) for m in CLOCKWISE)


def apply(board: Sequence[int], move: Sequence[int]) -> tuple[int, ...]:
    return tuple(board[old] for old in move)


def build_table() -> bytes:
    """Distances to the goal for all 9! boards (imports numpy; about 0.1 s)."""
    from judge.problem.puzzles import bfs

    boards = bfs.all_boards()
    neighbours = bfs.neighbours_by_cell_moves(boards, COUNTER_CLOCKWISE)
    return bfs.distances(neighbours, rank(GOAL))


def distance(board: Sequence[int], table: bytes) -> int:
    """Least number of clockwise turns from `board` (values 0..8) to the goal."""
    return table[rank(board)]
