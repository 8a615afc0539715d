from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from judge.problem.puzzles.perm import N_PERMUTATIONS, inversions, rank, unrank


def test_rank_is_lexicographic_index() -> None:
    for index, perm in enumerate(permutations(range(9))):
        if index % 997 == 0 or index < 50:
            assert rank(perm) == index
    assert rank(tuple(range(9))) == 0
    assert rank(tuple(reversed(range(9)))) == N_PERMUTATIONS - 1


@given(st.permutations(list(range(9))))
def test_unrank_inverts_rank(perm: list[int]) -> None:
    assert unrank(rank(perm)) == tuple(perm)


def test_unrank_rejects_out_of_range() -> None:
    import pytest

    with pytest.raises(ValueError):
        unrank(N_PERMUTATIONS)


def test_inversions() -> None:
    assert inversions([1, 2, 3]) == 0
    assert inversions([3, 2, 1]) == 3
    assert inversions([2, 1, 3]) == 1
