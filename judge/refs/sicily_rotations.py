"""Sicily "nine digits": order tiles 1..9 by turning 2x2 squares clockwise.

Input: test cases until end of file, each a line of nine integers (a permutation
of 1..9, row by row). Output: one line per case, the least number of turns.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from judge.puzzles import rotations
from judge.puzzles.perm import unrank
from judge.refs.base import (
    Generator,
    InputIssue,
    Reference,
    TableSource,
    buckets,
    check_tokens,
    max_distance,
    space_separated,
    split_lines,
)

TOKENS = tuple(str(v) for v in range(1, 10))


def validate(text: str) -> list[InputIssue]:
    lines, issues = split_lines(text)
    if not lines and not issues:
        issues.append(InputIssue(1, "no test case"))
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            issues.append(InputIssue(no, "empty line"))
            continue
        issues += check_tokens(no, space_separated(no, line, issues), TOKENS, "integers")
    return issues


def solve(text: str, tables: TableSource) -> str:
    table = tables(rotations.TABLE_NAME)
    tokens = text.split()
    answers = []
    for i in range(0, len(tokens) - 8, 9):
        answers.append(f"{rotations.distance([int(t) - 1 for t in tokens[i : i + 9]], table)}\n")
    return "".join(answers)


def render(board: Sequence[int], rng: random.Random | None = None) -> str:
    tokens = [str(v + 1) for v in board]
    if rng is None:
        return " ".join(tokens) + "\n"
    return "".join(t + rng.choice((" ", "  ", " ")) for t in tokens[:-1]) + tokens[-1] + rng.choice(("", " ")) + "\n"


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


REFERENCE = Reference(
    name="sicily-rotations",
    validate=validate,
    solve=solve,
    generators={
        "edge": Generator("edge", gen_edge.__doc__ or "", gen_edge, {"cases": 100}),
        "random": Generator("random", gen_random.__doc__ or "", gen_random, {"cases": 100}),
    },
    tables=(rotations.TABLE_NAME,),
)
