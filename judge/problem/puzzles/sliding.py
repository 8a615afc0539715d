"""The 3x3 sliding puzzle with any target, via nine canonical goals.

Value 0 is the blank. The canonical goal for blank cell b holds 1..8 in reading
order on the other cells. Any target T with its blank on cell b becomes that goal by
renaming tiles (tile T[i] -> goal[i]); renaming the start the same way keeps every
distance, so nine tables (one search from each canonical goal) answer every pair.

Reachability is a parity fact: on a board of odd width a move keeps the parity of the
tiles' inversion count, and the two halves of the 9! boards never meet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from judge.problem.puzzles.perm import inversions, rank

BLANK = 0
UNREACHABLE = -1


def _adjacent(cell: int) -> tuple[int, ...]:
    row, col = divmod(cell, 3)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < 3 and 0 <= c < 3:
            out.append(r * 3 + c)
    return tuple(out)


ADJACENT: tuple[tuple[int, ...], ...] = tuple(_adjacent(c) for c in range(9))


def canonical_goal(blank: int) -> tuple[int, ...]:
    tiles = iter(range(1, 9))
    return tuple(BLANK if cell == blank else next(tiles) for cell in range(9))


def table_name(blank: int) -> str:
    return f"sliding-goal{blank}"


TABLE_NAMES: tuple[str, ...] = tuple(table_name(b) for b in range(9))


def relabel(start: Sequence[int], target: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Rename tiles so that `target` becomes a canonical goal; return (start, blank cell)."""
    blank = target.index(BLANK)
    goal = canonical_goal(blank)
    rename = [0] * 9
    for cell, tile in enumerate(target):
        rename[tile] = goal[cell]
    return tuple(rename[tile] for tile in start), blank


def solvable(start: Sequence[int], target: Sequence[int]) -> bool:
    tiles_start = [t for t in start if t != BLANK]
    tiles_target = [t for t in target if t != BLANK]
    return inversions(tiles_start) % 2 == inversions(tiles_target) % 2


def distance(start: Sequence[int], target: Sequence[int], table_for_blank: Callable[[int], bytes]) -> int:
    """Least number of moves from start to target, or -1.

    `table_for_blank(b)` returns the distance table of canonical goal b; it is only
    asked for when the pair is solvable.
    """
    if not solvable(start, target):
        return UNREACHABLE
    renamed, blank = relabel(start, target)
    return table_for_blank(blank)[rank(renamed)]
