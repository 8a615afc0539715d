"""Generators of the sicily tests: files of many cases, spread over every distance."""

from __future__ import annotations

import random
from collections.abc import Mapping

from judge.problem.gens import buckets, max_distance
from judge.problem.puzzles import rotations
from judge.problem.puzzles.perm import unrank
from judge.problem.refs.base import Generator
from judge.problem.refs.sicily_rotations import render
from judge.problem.tables import TableSource


def _random_cases(rng: random.Random, table: bytes, cases: int, spaced: bool = False) -> str:
    per_distance = buckets(table)
    boards = (unrank(rng.choice(per_distance[rng.randint(0, len(per_distance) - 1)])) for _ in range(cases))
    return "".join(render(b, rng if spaced else None) for b in boards)


def gen_edge(rng: random.Random, count: int, tables: TableSource, args: Mapping[str, int]) -> list[str]:
    """Files in turn: the goal alone; the boards one turn away; the boards at the two
    greatest distances; random boards in varied spacing."""
    table = tables(rotations.TABLE_NAME)
    per_distance = buckets(table)
    files = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            files.append(render(rotations.GOAL))
        elif kind == 1:
            files.append("".join(render(unrank(r)) for r in per_distance[1]))
        elif kind == 2:
            top = max_distance(table)
            hardest = [r for d in (top, top - 1) for r in per_distance[d]]
            rng.shuffle(hardest)
            files.append("".join(render(unrank(r)) for r in hardest[: args["cases"]]))
        else:
            files.append(_random_cases(rng, table, args["cases"], spaced=True))
    return files


def gen_random(rng: random.Random, count: int, tables: TableSource, args: Mapping[str, int]) -> list[str]:
    """Files of `cases` boards each, distances spread evenly over 0..max."""
    table = tables(rotations.TABLE_NAME)
    return [_random_cases(rng, table, args["cases"]) for _ in range(count)]


GENERATORS = {
    "edge": Generator("edge", gen_edge.__doc__ or "", gen_edge, {"cases": 100}),
    "random": Generator("random", gen_random.__doc__ or "", gen_random, {"cases": 100}),
}
