from itertools import permutations

import numpy as np
import pytest

from judge.problem.puzzles import bfs
from judge.problem.puzzles.perm import rank


def test_all_boards_in_lexicographic_order() -> None:
    boards = bfs.all_boards()
    assert boards.shape == (9, 362880)
    expected = list(permutations(range(9)))
    for r in (0, 1, 2, 5039, 40320, 123456, 362879):
        assert tuple(int(v) for v in boards[:, r]) == expected[r]


def test_rank_boards_matches_scalar_rank() -> None:
    boards = bfs.all_boards()
    assert np.array_equal(bfs.rank_boards(boards), np.arange(362880))
    order = (2, 0, 1, 5, 3, 4, 8, 6, 7)
    ranks = bfs.rank_boards(boards, order)
    for r in (0, 17, 99999, 362879):
        board = tuple(int(v) for v in boards[:, r])
        assert ranks[r] == rank(tuple(board[k] for k in order))


def test_distances_stop_at_the_component() -> None:
    # Boards paired up (r <-> r xor 1): from board 6 only board 7 is reachable.
    n = 362880
    neighbours = (np.arange(n) ^ 1)[:, None]
    dist = bfs.distances(neighbours, 6)
    assert dist[6] == 0 and dist[7] == 1
    assert dist.count(255) == n - 2


def test_distances_refuse_what_a_byte_cannot_hold() -> None:
    n = 362880
    cycle = ((np.arange(n) + 1) % n)[:, None]
    with pytest.raises(ValueError, match="byte"):
        bfs.distances(cycle, 0)
