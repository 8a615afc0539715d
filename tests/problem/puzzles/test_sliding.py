"""The sliding tables against state-space facts and an independent plain BFS."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.problem.puzzles import sliding
from judge.problem.puzzles.perm import rank


def board(text: str) -> tuple[int, ...]:
    return tuple(0 if ch in ".x" else int(ch) for ch in text)


def plain_bfs(start: Sequence[int], target: Sequence[int]) -> int:
    """Textbook BFS on the boards themselves: no ranks, no renaming, no tables."""
    start, target = tuple(start), tuple(target)
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        state, dist = queue.popleft()
        if state == target:
            return dist
        blank = state.index(0)
        row, col = divmod(blank, 3)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = row + dr, col + dc
            if 0 <= r < 3 and 0 <= c < 3:
                nxt = list(state)
                nxt[blank], nxt[r * 3 + c] = nxt[r * 3 + c], 0
                t = tuple(nxt)
                if t not in seen:
                    seen.add(t)
                    queue.append((t, dist + 1))
    return -1


def lookup(store):  # type: ignore[no-untyped-def]
    return lambda b: store(sliding.table_name(b))


@pytest.mark.parametrize("blank", range(9))
def test_state_space_facts(store, blank: int) -> None:  # type: ignore[no-untyped-def]
    table = store(sliding.table_name(blank))
    reachable = [d for d in table if d != 255]
    assert len(reachable) == 181440
    assert max(reachable) == (30 if blank == 4 else 31)
    assert table[rank(sliding.canonical_goal(blank))] == 0


def test_seed_samples(store) -> None:  # type: ignore[no-untyped-def]
    assert sliding.distance(board("12345678."), board("123.46758"), lookup(store)) == 3
    assert sliding.distance(board("13524678."), board("46758123."), lookup(store)) == 22
    assert sliding.distance(board("23415x768"), board("12345678x"), lookup(store)) == 19


def test_parity_agrees_with_the_tables(store) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    for _ in range(2000):
        start = list(range(9))
        target = list(range(9))
        rng.shuffle(start)
        rng.shuffle(target)
        renamed, blank = sliding.relabel(start, target)
        in_table = store(sliding.table_name(blank))[rank(renamed)] != 255
        assert sliding.solvable(start, target) == in_table


def random_walk(start: Sequence[int], steps: Sequence[int]) -> tuple[int, ...]:
    state = list(start)
    for step in steps:
        blank = state.index(0)
        cells = sliding.ADJACENT[blank]
        cell = cells[step % len(cells)]
        state[blank], state[cell] = state[cell], 0
    return tuple(state)


@settings(max_examples=150, deadline=None)
@given(
    target=st.permutations(list(range(9))),
    steps=st.lists(st.integers(0, 3), max_size=14),
)
def test_near_pairs_match_plain_bfs(store, target: list[int], steps: list[int]) -> None:  # type: ignore[no-untyped-def]
    start = random_walk(target, steps)
    assert sliding.distance(start, target, lookup(store)) == plain_bfs(start, target)


@settings(max_examples=6, deadline=None)
@given(start=st.permutations(list(range(9))), target=st.permutations(list(range(9))))
def test_far_pairs_match_plain_bfs(store, start: list[int], target: list[int]) -> None:  # type: ignore[no-untyped-def]
    assert sliding.distance(start, target, lookup(store)) == plain_bfs(start, target)
