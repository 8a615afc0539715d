"""The slide-index bookkeeping of the sliding table builder, checked against plain ranking."""

from __future__ import annotations

import numpy as np

from judge.problem.puzzles import bfs, sliding, sliding_build
from judge.problem.puzzles.perm import rank


def test_slide_indices_map_to_the_right_ranks() -> None:
    orders = bfs.all_boards(8)
    to_rank = sliding_build._ranks_of_slide_indices()
    assert sorted(to_rank.tolist()) == list(range(362880))  # a bijection
    for blank in range(9):
        boards = np.insert(orders + 1, blank, 0, axis=0)
        block = to_rank[blank * 40320 : (blank + 1) * 40320]
        assert np.array_equal(block, bfs.rank_boards(boards))


def test_reading_order_after_a_vertical_move() -> None:
    # Blank on cell 1, the tile below (cell 4) slides up: tiles on cells 2 and 3 are passed.
    board = (5, 0, 1, 2, 8, 3, 4, 6, 7)
    moved = (5, 8, 1, 2, 0, 3, 4, 6, 7)
    before = [t for t in board if t]
    after = [t for t in moved if t]
    order = sliding_build._reading_order_after(1, 4)
    assert [before[i] for i in order] == after


def test_goal_tables_start_at_their_goal_and_hold_one_parity_class() -> None:
    tables = sliding_build.build_tables([0, 4])
    for blank in (0, 4):
        table = tables[sliding.table_name(blank)]
        assert table[rank(sliding.canonical_goal(blank))] == 0
        assert table.count(255) == 181440
