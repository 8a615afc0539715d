"""Breadth-first search over all 9! boards at once, vectorised with numpy.

The graph is given as a neighbour table: row r lists the indices of the boards one move
away from board r. The search then costs a handful of array
operations per level instead of a Python step per board, which is what makes a cold
table build about as fast as a plain C++ search.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from judge.problem.puzzles.perm import FACTORIALS, N_CELLS

UNREACHABLE = 255

Boards = npt.NDArray[np.uint8]  # shape (9, count): one board per column
Ranks = npt.NDArray[np.int64]


def all_boards(cells: int = N_CELLS) -> Boards:
    """Every permutation of 0..cells-1, column r being the one of rank r."""
    boards = np.zeros((1, 1), dtype=np.uint8)
    for n in range(2, cells + 1):
        # Lexicographic order: first cell f, then every arrangement of the rest.
        blocks = []
        for first in range(n):
            rest = boards + (boards >= first).astype(np.uint8)
            head = np.full((1, boards.shape[1]), first, dtype=np.uint8)
            blocks.append(np.vstack([head, rest]))
        boards = np.hstack(blocks)
    return np.ascontiguousarray(boards)


def rank_boards(boards: Boards, order: Sequence[int] | None = None) -> Ranks:
    """Lexicographic ranks of the boards `boards[order]` (rows taken in that order).

    Works for any number of rows (a permutation of 0..n-1 per column).

    Taking rows by view instead of copying the permuted array, and counting in
    uint8, makes this about twice as fast as the obvious version.
    """
    count = boards.shape[1]
    rows = [boards[k] for k in (range(boards.shape[0]) if order is None else order)]
    n = len(rows)
    ranks = np.zeros(count, dtype=np.int64)
    digit = np.empty(count, dtype=np.uint8)
    less = np.empty(count, dtype=np.bool_)
    less_u8 = less.view(np.uint8)
    weighted = np.empty(count, dtype=np.int64)
    for i in range(n - 1):
        # Lehmer digit: how many cells to the right hold a smaller value.
        np.less(rows[i + 1], rows[i], out=less)
        digit[:] = less_u8
        for j in range(i + 2, n):
            np.less(rows[j], rows[i], out=less)
            np.add(digit, less_u8, out=digit)
        np.multiply(digit, FACTORIALS[n - 1 - i], out=weighted, dtype=np.int64, casting="unsafe")
        ranks += weighted
    return ranks


def neighbours_by_cell_moves(boards: Boards, moves: Sequence[Sequence[int]]) -> Ranks:
    """Neighbour table for moves that permute cells the same way on every board.

    A move m sends board b to the board whose cell k holds b[m[k]]. Row r of the
    table lists the ranks of the neighbours of the board of rank r.
    """
    table = np.empty((boards.shape[1], len(moves)), dtype=np.int64)
    for k, move in enumerate(moves):
        table[:, k] = rank_boards(boards, move)
    return table


def distances(neighbours: Ranks, source: int) -> bytes:
    """Distance from `source` to every board along the table's moves (255 = unreachable)."""
    dist = np.full(neighbours.shape[0], UNREACHABLE, dtype=np.uint8)
    dist[source] = 0
    frontier = np.array([source], dtype=np.int64)
    level = 0
    while frontier.size:
        if level + 1 >= UNREACHABLE:
            raise ValueError("distance does not fit in a byte")
        reached = neighbours.take(frontier, axis=0).ravel()
        reached = reached[dist.take(reached) == UNREACHABLE]
        level += 1
        dist[reached] = level
        # `reached` repeats boards met twice; reading the level back is cheaper than np.unique.
        frontier = np.flatnonzero(dist == level)
    return dist.tobytes()
