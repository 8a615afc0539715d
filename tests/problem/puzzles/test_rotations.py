"""The rotations table against state-space facts and independent BFS: backward from the goal
over every board, and forward as the statement says from a few."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.problem.puzzles import rotations

GOAL = tuple(range(9))


def turn_clockwise(state: Sequence[int], top_left: int) -> tuple[int, ...]:
    """Written out by hand from the statement's example, independent of the module."""
    s = list(state)
    a, b, c, d = top_left, top_left + 1, top_left + 4, top_left + 3  # clockwise cell order
    s[a], s[b], s[c], s[d] = state[d], state[a], state[b], state[c]
    return tuple(s)


def plain_bfs(start: Sequence[int]) -> int:
    """Clockwise turns from the case forwards until the goal: the statement, literally."""
    start = tuple(start)
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        state, dist = queue.popleft()
        if state == GOAL:
            return dist
        for top_left in (0, 1, 3, 4):
            nxt = turn_clockwise(state, top_left)
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    raise AssertionError("every board can be ordered")


def test_statement_example() -> None:
    ordered = tuple(range(1, 10))
    assert turn_clockwise(ordered, 0) == (4, 1, 3, 5, 2, 6, 7, 8, 9)
    assert turn_clockwise(ordered, 4) == (1, 2, 3, 4, 8, 5, 7, 9, 6)
    assert rotations.apply(ordered, rotations.CLOCKWISE[0]) == (4, 1, 3, 5, 2, 6, 7, 8, 9)
    assert rotations.apply(ordered, rotations.CLOCKWISE[3]) == (1, 2, 3, 4, 8, 5, 7, 9, 6)


def test_state_space_facts(store) -> None:  # type: ignore[no-untyped-def]
    table = store(rotations.TABLE_NAME)
    assert len(table) == 362880
    assert 255 not in table  # every permutation can be ordered
    assert max(table) == rotations.MAX_DISTANCE == 15


def test_seed_samples(store) -> None:  # type: ignore[no-untyped-def]
    table = store(rotations.TABLE_NAME)
    assert rotations.distance([v - 1 for v in (1, 2, 3, 4, 5, 6, 7, 8, 9)], table) == 0
    assert rotations.distance([v - 1 for v in (4, 1, 3, 5, 2, 6, 7, 8, 9)], table) == 3


def test_direction_matters(store) -> None:  # type: ignore[no-untyped-def]
    # One clockwise turn of the goal needs three more clockwise turns to come back.
    table = store(rotations.TABLE_NAME)
    turned = rotations.apply(GOAL, rotations.CLOCKWISE[0])
    assert rotations.distance(turned, table) == 3
    assert rotations.distance(rotations.apply(GOAL, rotations.COUNTER_CLOCKWISE[0]), table) == 1


def test_every_board_matches_a_backward_bfs_from_the_goal(store) -> None:  # type: ignore[no-untyped-def]
    # Turning back (three clockwise turns undo one) from the goal reaches each board at its
    # distance: one BFS over all 9! boards checks the whole table.
    back = [(0, 1, 4, 3), (1, 2, 5, 4), (3, 4, 7, 6), (4, 5, 8, 7)]
    depth = {GOAL: 0}
    frontier = [GOAL]
    while frontier:
        following = []
        for state in frontier:
            for a, b, c, d in back:
                s = list(state)
                s[a], s[b], s[c], s[d] = state[b], state[c], state[d], state[a]  # counter-clockwise
                nxt = tuple(s)
                if nxt not in depth:
                    depth[nxt] = depth[state] + 1
                    following.append(nxt)
        frontier = following
    assert len(depth) == 362880
    table = store(rotations.TABLE_NAME)
    wrong = [board for board, d in depth.items() if rotations.distance(board, table) != d]
    assert wrong == []
    # The hand-written backward turn is the inverse of the statement's clockwise one.
    first = [board for board, d in depth.items() if d == 1]
    assert len(first) == 4 and all(any(turn_clockwise(b, t) == GOAL for t in (0, 1, 3, 4)) for b in first)


@settings(max_examples=3, deadline=None)
@given(st.permutations(list(range(9))))
def test_any_board_matches_plain_bfs(store, board: list[int]) -> None:  # type: ignore[no-untyped-def]
    assert rotations.distance(board, store(rotations.TABLE_NAME)) == plain_bfs(board)
