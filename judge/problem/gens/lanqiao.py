"""Generators of the lanqiao tests: targets anywhere, starts at chosen distances."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from judge.problem.gens import buckets, max_distance
from judge.problem.puzzles import sliding
from judge.problem.puzzles.perm import unrank
from judge.problem.refs.base import Generator
from judge.problem.refs.lanqiao import render_board
from judge.problem.tables import TableSource


def _case(start: Sequence[int], target: Sequence[int]) -> str:
    return f"{render_board(start)}\n{render_board(target)}\n"


def _random_target(rng: random.Random, blank: int) -> tuple[int, ...]:
    tiles = list(range(1, 9))
    rng.shuffle(tiles)
    tiles.insert(blank, 0)
    return tuple(tiles)


def start_for(canonical_start: Sequence[int], target: Sequence[int]) -> tuple[int, ...]:
    """Undo the renaming: a board relative to the canonical goal -> one relative to `target`."""
    goal = sliding.canonical_goal(target.index(0))
    back = [0] * 9
    for cell, tile in enumerate(target):
        back[goal[cell]] = tile
    return tuple(back[v] for v in canonical_start)


def _at_distance(rng: random.Random, tables: TableSource, target: Sequence[int], dist: int) -> tuple[int, ...]:
    table = tables(sliding.table_name(target.index(0)))
    return start_for(unrank(rng.choice(buckets(table)[dist])), target)


def _unreachable(rng: random.Random, target: Sequence[int]) -> tuple[int, ...]:
    # Swapping two tiles flips the parity, so no sequence of moves gets there.
    start = list(target)
    rng.shuffle(start)
    a, b = rng.sample([i for i, v in enumerate(start) if v != 0], 2)
    if sliding.solvable(start, target):
        start[a], start[b] = start[b], start[a]
    return tuple(start)


def gen_edge(rng: random.Random, count: int, tables: TableSource, args: Mapping[str, int]) -> list[str]:
    """Round robin over the blank cell, then over: start = target, unreachable, one move."""
    cases = []
    for i in range(count):
        target = _random_target(rng, i % 9)
        kind = (i // 9) % 3
        if kind == 0:
            start = target
        elif kind == 1:
            start = _unreachable(rng, target)
        else:
            start = _at_distance(rng, tables, target, 1)
        cases.append(_case(start, target))
    return cases


def gen_hardest(rng: random.Random, count: int, tables: TableSource, args: Mapping[str, int]) -> list[str]:
    """Starts at the greatest distance from the target, the target's blank on every cell in turn."""
    cases = []
    for i in range(count):
        target = _random_target(rng, i % 9)
        table = tables(sliding.table_name(i % 9))
        cases.append(_case(_at_distance(rng, tables, target, max_distance(table)), target))
    return cases


def gen_random(rng: random.Random, count: int, tables: TableSource, args: Mapping[str, int]) -> list[str]:
    """Random targets; distances spread evenly over 0..max, and `unreachable_percent` with -1."""
    cases = []
    for _ in range(count):
        target = _random_target(rng, rng.randrange(9))
        if rng.randrange(100) < args["unreachable_percent"]:
            start = _unreachable(rng, target)
        else:
            top = max_distance(tables(sliding.table_name(target.index(0))))
            start = _at_distance(rng, tables, target, rng.randint(0, top))
        cases.append(_case(start, target))
    return cases


GENERATORS = {
    "edge": Generator("edge", gen_edge.__doc__ or "", gen_edge),
    "hardest": Generator("hardest", gen_hardest.__doc__ or "", gen_hardest),
    "random": Generator("random", gen_random.__doc__ or "", gen_random, {"unreachable_percent": 10}),
}
