"""Optimal solutions, move by move, read off the distance tables (pure).

A distance table gives the length of a shortest solution from any board; walking from the
start to any neighbour one step nearer, again and again, spells one such solution out. No
search is needed, and the walk never fails on a reachable board: every board at distance
d > 0 has a neighbour at d - 1, by the definition of a distance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from judge.problem.puzzles import rotations, sliding

_DIRECTIONS = {3: "down", -3: "up", 1: "right", -1: "left"}  # blank cell - tile cell -> the tile's way
_SQUARE_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")


@dataclass(frozen=True)
class Step:
    """One move and the board it leaves (values as the puzzle module keeps them)."""

    move: str
    board: tuple[int, ...]


def slide(board: Sequence[int], tile_cell: int) -> tuple[int, ...]:
    """The board after the tile on `tile_cell` slides into the (adjacent) blank."""
    blank = board.index(sliding.BLANK)
    cells = list(board)
    cells[blank], cells[tile_cell] = cells[tile_cell], cells[blank]
    return tuple(cells)


def sliding_path(
    start: Sequence[int], distance: Callable[[Sequence[int]], int], label: Callable[[int], str] = str
) -> tuple[Step, ...]:
    """A shortest sequence of slides from `start` to the board at distance 0 of `distance`
    (a board -> moves function; -1 when unreachable: then there is no path, and () comes back).

    `label` names a tile in the move's wording ("slide 5 left")."""
    left = distance(start)
    if left < 0:
        return ()
    board = tuple(start)
    steps: list[Step] = []
    while left > 0:
        blank = board.index(sliding.BLANK)
        for cell in sliding.ADJACENT[blank]:
            after = slide(board, cell)
            if distance(after) == left - 1:
                steps.append(Step(f"slide {label(board[cell])} {_DIRECTIONS[blank - cell]}", after))
                board, left = after, left - 1
                break
        else:  # only a table that is not a distance table gets here
            raise ValueError(f"no neighbour one move nearer at distance {left}")
    return tuple(steps)


def rotation_path(start: Sequence[int], table: bytes) -> tuple[Step, ...]:
    """A shortest sequence of clockwise turns from `start` (values 0..8) to the goal."""
    board = tuple(start)
    left = rotations.distance(board, table)
    steps: list[Step] = []
    while left > 0:
        for name, move in zip(_SQUARE_NAMES, rotations.CLOCKWISE, strict=True):
            after = rotations.apply(board, move)
            if rotations.distance(after, table) == left - 1:
                steps.append(Step(f"turn the {name} square clockwise", after))
                board, left = after, left - 1
                break
        else:
            raise ValueError(f"no turn one step nearer at distance {left}")
    return tuple(steps)
