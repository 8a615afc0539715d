"""Building the sliding puzzle's distance tables with numpy (see judge.problem.puzzles.sliding).

Kept apart from the lookups so that answering a case never imports numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from judge.problem.puzzles import bfs
from judge.problem.puzzles.bfs import Ranks
from judge.problem.puzzles.perm import FACTORIALS
from judge.problem.puzzles.sliding import ADJACENT, table_name

# The search runs over "slide indices", not ranks: blank cell * 8! + rank of the tiles'
# reading order (the blank skipped). A sideways move keeps that order, so its neighbour
# is found by arithmetic alone, and only up and down moves need ranking, on 8! boards at
# a time. The finished tables are put back in rank order for the lookups.
_ORDERS = 40320  # 8!: reading orders of the tiles for one blank cell


def _reading_order_after(blank: int, cell: int) -> list[int]:
    """Where each tile of the reading order comes from when the tile on `cell` slides to `blank`."""

    def old_index(x: int) -> int:  # position of the tile on cell x in the order before
        return x if x < blank else x - 1

    new_cells = [x for x in range(9) if x != cell]
    return [old_index(cell if x == blank else x) for x in new_cells]


def build_tables(blanks: Sequence[int] = tuple(range(9))) -> dict[str, bytes]:
    """Distances to the canonical goals of the given blank cells."""
    orders = bfs.all_boards(8)  # column r: the tiles' reading order of rank r
    own = np.arange(_ORDERS, dtype=np.int64)
    neighbours = np.empty((9 * _ORDERS, 4), dtype=np.int64)
    for blank in range(9):
        block = slice(blank * _ORDERS, (blank + 1) * _ORDERS)
        # Spare slots point back to the board itself; the search skips seen boards anyway.
        neighbours[block] = (own + blank * _ORDERS)[:, None]
        for k, cell in enumerate(ADJACENT[blank]):
            if abs(cell - blank) == 1:
                neighbours[block, k] = own + cell * _ORDERS
            else:
                neighbours[block, k] = bfs.rank_boards(orders, _reading_order_after(blank, cell)) + cell * _ORDERS
    to_rank = _ranks_of_slide_indices()
    tables = {}
    for goal in blanks:
        # The canonical goal's tiles are in reading order: rank 0 within its blank's block.
        by_slide_index = np.frombuffer(bfs.distances(neighbours, goal * _ORDERS), dtype=np.uint8)
        by_rank = np.empty_like(by_slide_index)
        by_rank[to_rank] = by_slide_index
        tables[table_name(goal)] = by_rank.tobytes()
    return tables


def _ranks_of_slide_indices() -> Ranks:
    """Rank (over 9 cells) of the board behind every slide index."""
    ranks = np.empty((9, _ORDERS), dtype=np.int64)
    # Blank on cell 0: the blank is the smallest value, so the rank is the order's own.
    ranks[0] = np.arange(_ORDERS, dtype=np.int64)
    for blank in range(1, 9):
        # Moving the blank one cell on changes one digit: the tile now before it gains
        # one (the blank is to its right), and that digit's weight goes from (7-j)! to (8-j)!.
        j = blank - 1
        digit = (ranks[0] // FACTORIALS[7 - j]) % (8 - j)  # Lehmer digit j of the order
        ranks[blank] = ranks[j] + digit * (FACTORIALS[8 - j] - FACTORIALS[7 - j]) + FACTORIALS[8 - j]
    return ranks.ravel()
