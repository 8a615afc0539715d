"""Permutations of 0..8 and their lexicographic rank (the Cantor expansion).

A board is a tuple of nine cells read row by row. The rank of a permutation is its
index in lexicographic order, so 9! boards map onto 0..362879 with no gaps: a
distance table is then a plain byte string indexed by rank.
"""

from __future__ import annotations

from collections.abc import Sequence

N_CELLS = 9
FACTORIALS: tuple[int, ...] = (1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880)
N_PERMUTATIONS = FACTORIALS[N_CELLS]


_WEIGHTS: tuple[int, ...] = tuple(reversed(FACTORIALS[:N_CELLS]))  # 8!, 7!, ..., 0!


def rank(perm: Sequence[int]) -> int:
    """Lexicographic rank of a permutation of 0..8."""
    total = 0
    seen = 0  # bitmask of values already placed to the left
    for value, weight in zip(perm, _WEIGHTS, strict=False):
        # Lehmer digit: values below `value` not yet placed, i.e. still to the right.
        total += (value - (seen & ((1 << value) - 1)).bit_count()) * weight
        seen |= 1 << value
    return total


def unrank(index: int) -> tuple[int, ...]:
    """The permutation of 0..8 with the given lexicographic rank."""
    if not 0 <= index < N_PERMUTATIONS:
        raise ValueError(f"rank {index} out of range 0..{N_PERMUTATIONS - 1}")
    remaining = list(range(N_CELLS))
    out: list[int] = []
    for i in range(N_CELLS - 1, -1, -1):
        digit, index = divmod(index, FACTORIALS[i])
        out.append(remaining.pop(digit))
    return tuple(out)


def inversions(values: Sequence[int]) -> int:
    """Number of pairs i < j with values[i] > values[j]."""
    return sum(1 for i, a in enumerate(values) for b in values[i + 1 :] if a > b)
