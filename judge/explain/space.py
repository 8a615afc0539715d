"""Where `judge explain` looks: the inputs of a built-in puzzle, smallest first (pure).

Level d holds the boards at distance d from the goal, so a student sees a 3-move board
before a 25-move one; unreachable boards come after the greatest distance. Within a level
the order is fixed by explain's own seed, unrelated to any group's seed, so the same
submission gets the same example every time and the order owes nothing to the tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from judge.problem.gens import buckets
from judge.problem.gens.lanqiao import start_for
from judge.problem.puzzles import rotations, sliding
from judge.problem.puzzles.paths import Step, rotation_path, sliding_path
from judge.problem.puzzles.perm import FACTORIALS, unrank
from judge.problem.refs import eight_digits, lanqiao, sicily_rotations
from judge.problem.tables import TableSource

SEED = "judge-explain-1"  # explain's own seed: the tests' groups have numeric seeds of their own
_HALF = FACTORIALS[9] // 2  # boards of each parity: the unreachable half of a sliding puzzle


@dataclass(frozen=True)
class Candidate:
    """One case that explain may run: its input, and how small it is."""

    text: str  # the input of this case alone, in the strict format
    level: int  # the order of smallness: the distance, or one past the greatest for unreachable
    distance: int | None  # None: unreachable, or an input with no distance (a program's problem)
    key: str  # the case's tokens, to compare with the test inputs
    unreachable: bool = False  # no sequence of moves reaches the goal


class Space(Protocol):
    """The inputs of one puzzle by level; `batch` when one input file takes many cases."""

    @property
    def batch(self) -> bool: ...

    @property
    def blank(self) -> str | None:
        """How the input writes the blank (None: the puzzle has none)."""

    @property
    def measure(self) -> str:
        """What a level stands for: "distance" (the puzzles) or "size" (bytes of input)."""

    def level_sizes(self) -> tuple[int, ...]: ...

    def position(self, level: int) -> int | None:
        """The level on its measure's scale: its distance (None: unreachable), or bytes."""

    def candidates(self, level: int) -> Iterator[Candidate]: ...

    def keys(self, text: str) -> list[str]: ...

    def solution(self, candidate: Candidate) -> tuple[Step, ...]: ...

    def start(self, candidate: Candidate) -> tuple[int, ...]: ...

    def goal(self, candidate: Candidate) -> tuple[int, ...]: ...

    def labels(self, board: Sequence[int]) -> tuple[str, ...]: ...


def _shuffled(items: Sequence[int], salt: str) -> list[int]:
    order = list(items)
    random.Random(f"{SEED} {salt}").shuffle(order)
    return order


def _unsolvable(rng: random.Random, target: Sequence[int]) -> tuple[int, ...]:
    """A random board of the other parity from `target` (swapping two tiles flips it)."""
    board = list(target)
    rng.shuffle(board)
    if sliding.solvable(board, target):
        a, b = rng.sample([i for i, v in enumerate(board) if v != sliding.BLANK], 2)
        board[a], board[b] = board[b], board[a]
    return tuple(board)


def _distinct(make: Callable[[], Candidate], limit: int) -> Iterator[Candidate]:
    """Up to `limit` candidates from a random source, none twice."""
    seen: set[str] = set()
    misses = 0
    while len(seen) < limit and misses < 1000:
        found = make()
        if found.key in seen:
            misses += 1
            continue
        seen.add(found.key)
        yield found


@dataclass(frozen=True)
class EightDigits:
    """AcWing "eight digits": one board per input, towards the fixed goal."""

    tables: TableSource
    batch: bool = False
    blank: str | None = "x"
    measure: str = "distance"

    def _per_distance(self) -> tuple[tuple[int, ...], ...]:
        return buckets(self.tables(eight_digits.GOAL_TABLE))

    def position(self, level: int) -> int | None:
        return level if level < len(self._per_distance()) else None

    def level_sizes(self) -> tuple[int, ...]:
        return (*(len(b) for b in self._per_distance()), _HALF)

    def _candidate(self, board: Sequence[int], level: int, distance: int | None) -> Candidate:
        text = eight_digits.render(board)
        return Candidate(text, level, distance, text.strip(), unreachable=distance is None)

    def candidates(self, level: int) -> Iterator[Candidate]:
        per = self._per_distance()
        if level < len(per):
            for rank in _shuffled(per[level], f"eight-digits {level}"):
                yield self._candidate(unrank(rank), level, level)
            return
        rng = random.Random(f"{SEED} eight-digits unreachable")
        yield from _distinct(lambda: self._candidate(_unsolvable(rng, eight_digits.GOAL), level, None), _HALF)

    def keys(self, text: str) -> list[str]:
        return [" ".join(text.split())]

    def start(self, candidate: Candidate) -> tuple[int, ...]:
        return eight_digits.parse_board(candidate.text.split())

    def goal(self, candidate: Candidate) -> tuple[int, ...]:
        return eight_digits.GOAL

    def solution(self, candidate: Candidate) -> tuple[Step, ...]:
        table = self.tables(eight_digits.GOAL_TABLE)
        return sliding_path(
            self.start(candidate), lambda board: sliding.distance(board, eight_digits.GOAL, lambda _: table)
        )

    def labels(self, board: Sequence[int]) -> tuple[str, ...]:
        return tuple("x" if v == sliding.BLANK else str(v) for v in board)


def _lanqiao_targets() -> tuple[tuple[int, ...], ...]:
    """One target per cell of its blank, the tiles in an order of explain's own."""
    rng = random.Random(f"{SEED} lanqiao targets")
    targets = []
    for blank in range(9):
        tiles = list(range(1, 9))
        rng.shuffle(tiles)
        tiles.insert(blank, sliding.BLANK)
        targets.append(tuple(tiles))
    return tuple(targets)


@dataclass(frozen=True)
class Lanqiao:
    """Lanqiao "nine-grid rearrangement": a start and a target per input; level d holds the
    starts at distance d from a target with its blank on each of the nine cells in turn."""

    tables: TableSource
    batch: bool = False
    blank: str | None = "."
    measure: str = "distance"

    def _per_distance(self, blank: int) -> tuple[tuple[int, ...], ...]:
        return buckets(self.tables(sliding.table_name(blank)))

    def _top(self) -> int:
        return max(len(self._per_distance(b)) for b in range(9))

    def position(self, level: int) -> int | None:
        return level if level < self._top() else None

    def level_sizes(self) -> tuple[int, ...]:
        sizes = [0] * self._top()
        for blank in range(9):
            for distance, ranks in enumerate(self._per_distance(blank)):
                sizes[distance] += len(ranks)
        return (*sizes, 9 * _HALF)

    def _candidate(self, start: Sequence[int], target: Sequence[int], level: int, distance: int | None) -> Candidate:
        first, second = lanqiao.render_board(start), lanqiao.render_board(target)
        return Candidate(f"{first}\n{second}\n", level, distance, f"{first} {second}", unreachable=distance is None)

    def candidates(self, level: int) -> Iterator[Candidate]:
        targets = _lanqiao_targets()
        if level < self._top():
            # The nine targets in turn, so a few candidates of a level cover every blank cell.
            orders = [
                _shuffled(per[level], f"lanqiao {blank} {level}") if level < len(per) else []
                for blank in range(9)
                for per in (self._per_distance(blank),)
            ]
            for i in range(max(len(order) for order in orders)):
                for blank, order in enumerate(orders):
                    if i < len(order):
                        start = start_for(unrank(order[i]), targets[blank])
                        yield self._candidate(start, targets[blank], level, level)
            return
        rng = random.Random(f"{SEED} lanqiao unreachable")
        turn = iter(range(1 << 62))

        def make() -> Candidate:
            target = targets[next(turn) % 9]
            return self._candidate(_unsolvable(rng, target), target, level, None)

        yield from _distinct(make, 9 * _HALF)

    def keys(self, text: str) -> list[str]:
        return [" ".join(text.split())]

    def _pair(self, candidate: Candidate) -> tuple[tuple[int, ...], tuple[int, ...]]:
        first, second = candidate.text.split()[:2]
        return lanqiao.parse_board(first), lanqiao.parse_board(second)

    def start(self, candidate: Candidate) -> tuple[int, ...]:
        return self._pair(candidate)[0]

    def goal(self, candidate: Candidate) -> tuple[int, ...]:
        return self._pair(candidate)[1]

    def solution(self, candidate: Candidate) -> tuple[Step, ...]:
        start, target = self._pair(candidate)
        tables = self.tables
        return sliding_path(
            start, lambda board: sliding.distance(board, target, lambda b: tables(sliding.table_name(b)))
        )

    def labels(self, board: Sequence[int]) -> tuple[str, ...]:
        return tuple("." if v == sliding.BLANK else str(v) for v in board)


@dataclass(frozen=True)
class Rotations:
    """Sicily "nine digits": many boards per input file, so explain runs them in batches."""

    tables: TableSource
    batch: bool = True
    blank: str | None = None
    measure: str = "distance"

    def _per_distance(self) -> tuple[tuple[int, ...], ...]:
        return buckets(self.tables(rotations.TABLE_NAME))

    def position(self, level: int) -> int | None:
        return level

    def level_sizes(self) -> tuple[int, ...]:
        return tuple(len(b) for b in self._per_distance())  # every board is reachable

    def candidates(self, level: int) -> Iterator[Candidate]:
        per = self._per_distance()
        if level >= len(per):
            return
        for rank in _shuffled(per[level], f"sicily-rotations {level}"):
            text = sicily_rotations.render(unrank(rank))
            yield Candidate(text, level, level, text.strip())

    def keys(self, text: str) -> list[str]:
        return [" ".join(line.split()) for line in text.splitlines() if line.strip()]

    def start(self, candidate: Candidate) -> tuple[int, ...]:
        return tuple(int(t) - 1 for t in candidate.text.split())

    def goal(self, candidate: Candidate) -> tuple[int, ...]:
        return rotations.GOAL

    def solution(self, candidate: Candidate) -> tuple[Step, ...]:
        return rotation_path(self.start(candidate), self.tables(rotations.TABLE_NAME))

    def labels(self, board: Sequence[int]) -> tuple[str, ...]:
        return tuple(str(v + 1) for v in board)


@dataclass(frozen=True)
class Listed:
    """Inputs made beforehand (by a problem's own generators), smallest first: a level each."""

    inputs: tuple[str, ...]
    batch: bool = False
    blank: str | None = None
    measure: str = "size"

    def level_sizes(self) -> tuple[int, ...]:
        return (1,) * len(self.inputs)

    def position(self, level: int) -> int | None:
        return len(self.inputs[level].encode())

    def candidates(self, level: int) -> Iterator[Candidate]:
        text = self.inputs[level]
        yield Candidate(text, level, None, " ".join(text.split()))

    def keys(self, text: str) -> list[str]:
        return [" ".join(text.split())]

    def start(self, candidate: Candidate) -> tuple[int, ...]:
        return ()

    def goal(self, candidate: Candidate) -> tuple[int, ...]:
        return ()

    def solution(self, candidate: Candidate) -> tuple[Step, ...]:
        return ()

    def labels(self, board: Sequence[int]) -> tuple[str, ...]:
        return ()


def space_for(reference: str, tables: TableSource) -> Space | None:
    """The search space of a built-in reference (None for one explain does not know)."""
    kinds: dict[str, Callable[[TableSource], Space]] = {
        "eight-digits": EightDigits,
        "lanqiao": Lanqiao,
        "sicily-rotations": Rotations,
    }
    make = kinds.get(reference)
    return make(tables) if make is not None else None
