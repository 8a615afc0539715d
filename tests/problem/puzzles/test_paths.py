"""Optimal solutions read off the tables: legal moves, ending at the goal, as short as a plain
breadth-first search says (an independent solver, written here from the rules)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.problem.puzzles import rotations, sliding
from judge.problem.puzzles.paths import rotation_path, sliding_path
from judge.problem.tables import TableSource

Board = tuple[int, ...]


def plain_bfs(start: Board, goal: Board, moves: Callable[[Board], list[Board]], cap: int = 12) -> int | None:
    """Moves from start to goal by breadth-first search, or None past `cap` moves."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        board = todo.popleft()
        if board == goal:
            return seen[board]
        if seen[board] >= cap:
            continue
        for after in moves(board):
            if after not in seen:
                seen[after] = seen[board] + 1
                todo.append(after)
    return None


def slides(board: Board) -> list[Board]:
    blank = board.index(0)
    out = []
    for cell in range(9):
        if abs(cell // 3 - blank // 3) + abs(cell % 3 - blank % 3) == 1:
            cells = list(board)
            cells[blank], cells[cell] = cells[cell], cells[blank]
            out.append(tuple(cells))
    return out


def turns(board: Board) -> list[Board]:
    out = []
    for top_left in (0, 1, 3, 4):
        cells = list(board)
        a, b, c, d = top_left, top_left + 1, top_left + 4, top_left + 3  # clockwise round the square
        cells[b], cells[c], cells[d], cells[a] = board[a], board[b], board[c], board[d]
        out.append(tuple(cells))
    return out


def scramble(goal: Board, moves: Callable[[Board], list[Board]], picks: Sequence[int]) -> Board:
    board = goal
    for pick in picks:
        options = moves(board)
        board = options[pick % len(options)]
    return board


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=10), st.permutations(range(9)))
def test_sliding_paths_are_legal_and_shortest(store: TableSource, picks: list[int], target: list[int]) -> None:
    goal = tuple(target)
    start = scramble(goal, slides, picks)
    steps = sliding_path(start, lambda b: sliding.distance(b, goal, lambda n: store(sliding.table_name(n))))
    board = start
    for step in steps:
        assert step.board in slides(board)
        board = step.board
    assert board == goal
    assert len(steps) == plain_bfs(start, goal, slides)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=7))
def test_rotation_paths_turn_clockwise_to_the_goal_in_the_fewest_turns(store: TableSource, picks: list[int]) -> None:
    # Scrambled with counter-clockwise turns (three clockwise ones), so that clockwise ones undo it.
    start = scramble(rotations.GOAL, lambda b: [rotations.apply(b, m) for m in rotations.COUNTER_CLOCKWISE], picks)
    steps = rotation_path(start, store(rotations.TABLE_NAME))
    board = start
    for step in steps:
        assert step.board in turns(board) and "clockwise" in step.move
        board = step.board
    assert board == rotations.GOAL
    assert len(steps) == plain_bfs(start, rotations.GOAL, turns)


def test_the_moves_are_worded_from_the_tile_s_side(store: TableSource) -> None:
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    start = (1, 2, 3, 4, 5, 6, 7, 0, 8)  # the 8 is right of the blank: it slides left
    steps = sliding_path(start, lambda b: sliding.distance(b, goal, lambda n: store(sliding.table_name(n))))
    assert [s.move for s in steps] == ["slide 8 left"]
    above = (1, 2, 3, 4, 5, 0, 7, 8, 6)  # the 6 is below the blank: it slides up
    assert [
        s.move for s in sliding_path(above, lambda b: sliding.distance(b, goal, lambda n: store(sliding.table_name(n))))
    ] == ["slide 6 up"]


def test_an_unreachable_board_has_no_path(store: TableSource) -> None:
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    swapped = (2, 1, 3, 4, 5, 6, 7, 8, 0)
    assert sliding_path(swapped, lambda b: sliding.distance(b, goal, lambda n: store(sliding.table_name(n)))) == ()


def test_a_table_that_is_not_a_distance_table_is_refused() -> None:
    with pytest.raises(ValueError):
        sliding_path((1, 2, 3, 4, 5, 6, 7, 0, 8), lambda b: 2)
