"""Generators of the eight-digits tests: the goal, every blank cell, the hardest boards."""

from __future__ import annotations

import random
from collections.abc import Mapping

from judge.problem.gens import buckets, max_distance
from judge.problem.puzzles import sliding
from judge.problem.puzzles.perm import unrank
from judge.problem.refs.base import Generator
from judge.problem.refs.eight_digits import GOAL, GOAL_TABLE, render
from judge.problem.tables import TableSource


def _blank_at(rng: random.Random, table: bytes, blank: int, dist: int) -> tuple[int, ...]:
    """A board at exactly `dist` (or the nearest larger distance) with the blank on `blank`."""
    per_distance = buckets(table)
    for d in range(dist, len(per_distance)):
        choices = [r for r in per_distance[d] if unrank(r)[blank] == 0]
        if choices:
            return unrank(rng.choice(choices))
    raise ValueError(f"no board with the blank on cell {blank} at distance >= {dist}")


def _unsolvable(rng: random.Random, blank: int) -> tuple[int, ...]:
    tiles = list(range(1, 9))
    rng.shuffle(tiles)
    tiles.insert(blank, 0)
    if sliding.solvable(tiles, GOAL):
        a, b = rng.sample([i for i in range(9) if i != blank], 2)
        tiles[a], tiles[b] = tiles[b], tiles[a]
    return tuple(tiles)


def gen_edge(rng: random.Random, count: int, tables: TableSource, args: Mapping[str, int]) -> list[str]:
    """The goal itself, then the blank on every cell, solvable and unsolvable, in varied spacing."""
    table = tables(GOAL_TABLE)
    cases = [render(GOAL, rng)] if count else []
    for i in range(1, count):
        blank = (i - 1) % 9
        if (i - 1) // 9 % 2 == 0:
            board = _blank_at(rng, table, blank, rng.randint(1, 8))
        else:
            board = _unsolvable(rng, blank)
        cases.append(render(board, rng))
    return cases


def gen_hardest(rng: random.Random, count: int, tables: TableSource, args: Mapping[str, int]) -> list[str]:
    """Boards at the greatest distance from the goal, in turn."""
    table = tables(GOAL_TABLE)
    hardest = list(buckets(table)[max_distance(table)])
    rng.shuffle(hardest)
    return [render(unrank(hardest[i % len(hardest)])) for i in range(count)]


def gen_random(rng: random.Random, count: int, tables: TableSource, args: Mapping[str, int]) -> list[str]:
    """Distances spread evenly over 0..max-1 (the greatest is the `hardest` group's, and holds
    two boards only), and `unsolvable_percent` of unsolvable boards; no board twice."""
    table = tables(GOAL_TABLE)
    per_distance = buckets(table)[: max_distance(table)]
    cases: list[str] = []
    seen: set[tuple[int, ...]] = set()
    while len(cases) < count:
        if rng.randrange(100) < args["unsolvable_percent"]:
            board = _unsolvable(rng, rng.randrange(9))
        else:
            board = unrank(rng.choice(per_distance[rng.randint(0, len(per_distance) - 1)]))
        if tuple(board) in seen:
            continue  # a small distance has few boards: draw again
        seen.add(tuple(board))
        cases.append(render(board))
    return cases


GENERATORS = {
    "edge": Generator("edge", gen_edge.__doc__ or "", gen_edge),
    "hardest": Generator("hardest", gen_hardest.__doc__ or "", gen_hardest),
    "random": Generator("random", gen_random.__doc__ or "", gen_random, {"unsolvable_percent": 10}),
}
