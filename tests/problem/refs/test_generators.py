"""Generators: deterministic, valid, and covering the edge cases they promise."""

from __future__ import annotations

import random

import pytest

from judge.problem import refs


def run(problem: str, generator: str, count: int, seed: int, store, **args: int) -> list[str]:  # type: ignore[no-untyped-def]
    gen = refs.get(problem).generators[generator]
    return gen.make(random.Random(seed), count, store, {**gen.args, **args})


@pytest.mark.parametrize(
    ("problem", "generator"),
    [(p, g) for p in refs.NAMES for g in refs.get(p).generators],
)
def test_deterministic_and_valid(store, problem: str, generator: str) -> None:  # type: ignore[no-untyped-def]
    first = run(problem, generator, 12, 5, store)
    assert first == run(problem, generator, 12, 5, store)
    assert first != run(problem, generator, 12, 6, store) or generator == "hardest"
    reference = refs.get(problem)
    for text in first:
        assert reference.validate(text) == []


def answers(problem: str, texts: list[str], store) -> list[str]:  # type: ignore[no-untyped-def]
    reference = refs.get(problem)
    return [reference.solve(t, store) for t in texts]


def test_lanqiao_edge_covers_blanks_and_kinds(store) -> None:  # type: ignore[no-untyped-def]
    texts = run("lanqiao", "edge", 27, 1, store)
    targets = [t.split("\n")[1] for t in texts]
    assert {t.index(".") for t in targets} == set(range(9))
    got = [int(a) for a in answers("lanqiao", texts, store)]
    assert got[:9] == [0] * 9 and got[9:18] == [-1] * 9 and got[18:] == [1] * 9


def test_lanqiao_hardest_reaches_the_maximum(store) -> None:  # type: ignore[no-untyped-def]
    got = [int(a) for a in answers("lanqiao", run("lanqiao", "hardest", 9, 2, store), store)]
    assert got == [31, 31, 31, 31, 30, 31, 31, 31, 31]


def test_lanqiao_random_spreads_over_distances(store) -> None:  # type: ignore[no-untyped-def]
    got = {int(a) for a in answers("lanqiao", run("lanqiao", "random", 300, 3, store), store)}
    assert -1 in got and 0 in got and len(got) >= 25


def test_eight_digits_edge(store) -> None:  # type: ignore[no-untyped-def]
    texts = run("eight-digits", "edge", 19, 11, store)
    got = [int(a) for a in answers("eight-digits", texts, store)]
    assert got[0] == 0 and -1 in got
    blanks = {t.split().index("x") for t in texts}
    assert blanks == set(range(9))
    assert any("  " in t or t.startswith(" ") or t.endswith(" \n") for t in texts)  # spacing variants


def test_eight_digits_hardest(store) -> None:  # type: ignore[no-untyped-def]
    got = answers("eight-digits", run("eight-digits", "hardest", 2, 12, store), store)
    assert got == ["31\n", "31\n"]


def test_sicily_files(store) -> None:  # type: ignore[no-untyped-def]
    edge = run("sicily-rotations", "edge", 4, 21, store, cases=50)
    assert answers("sicily-rotations", edge[:1], store) == ["0\n"]
    assert answers("sicily-rotations", edge[1:2], store) == ["1\n1\n1\n1\n"]
    assert set(answers("sicily-rotations", edge[2:3], store)[0].split()) == {"14", "15"}
    bulk = run("sicily-rotations", "random", 1, 23, store, cases=3000)[0]
    assert bulk.count("\n") == 3000
    assert len(set(answers("sicily-rotations", [bulk], store)[0].split())) == 16  # 0..15 all present


def test_random_targets_use_every_blank(store) -> None:  # type: ignore[no-untyped-def]
    texts = run("lanqiao", "random", 100, 9, store)
    assert len({t.split("\n")[1].index(".") for t in texts}) == 9
