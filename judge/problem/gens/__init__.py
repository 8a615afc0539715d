"""Seeded test generators, one module per reference problem (pure: rng and tables in, texts out)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=16)
def buckets(table: bytes) -> tuple[tuple[int, ...], ...]:
    """Ranks grouped by distance: buckets(table)[d] lists the boards at distance d."""
    grouped: list[list[int]] = [[] for _ in range(256)]
    for index, dist in enumerate(table):
        grouped[dist].append(index)
    del grouped[255:]  # unreachable boards have no distance
    while grouped and not grouped[-1]:
        grouped.pop()
    return tuple(tuple(g) for g in grouped)


def max_distance(table: bytes) -> int:
    return len(buckets(table)) - 1
