"""Where explain looks: every candidate is a valid input at the distance its level says,
smallest level first, each case once, and its optimal moves really solve it."""

from __future__ import annotations

from itertools import islice

import pytest

from judge.explain.space import Candidate, Space, space_for
from judge.problem import refs
from judge.problem.puzzles import rotations, sliding
from judge.problem.puzzles.paths import Step
from judge.problem.tables import TableSource

PUZZLES = ("eight-digits", "lanqiao", "sicily-rotations")


def space(name: str, store: TableSource) -> Space:
    found = space_for(name, store)
    assert found is not None
    return found


def test_only_the_puzzles_have_a_space(store: TableSource) -> None:
    assert space_for("no-such-reference", store) is None


@pytest.mark.parametrize("name", PUZZLES)
def test_each_level_holds_valid_inputs_at_its_distance(name: str, store: TableSource) -> None:
    own = refs.module(name)
    found = space(name, store)
    sizes = found.level_sizes()
    for level in range(len(sizes)):
        for candidate in islice(found.candidates(level), 12):
            assert own.validate(candidate.text) == [], candidate.text
            answer = int(own.solve(candidate.text, store))
            assert candidate.level == level
            if candidate.distance is None:
                assert answer == -1 and level == len(sizes) - 1
            else:
                assert answer == candidate.distance == level
            assert candidate.key in found.keys(candidate.text)


@pytest.mark.parametrize("name", PUZZLES)
def test_small_levels_are_whole_and_without_repeats(name: str, store: TableSource) -> None:
    found = space(name, store)
    sizes = found.level_sizes()
    for level in range(4):
        keys = [c.key for c in found.candidates(level)]
        assert len(keys) == sizes[level] == len(set(keys))
    # A fixed order: the same submission meets the same inputs every time.
    assert [c.key for c in islice(found.candidates(9), 50)] == [c.key for c in islice(found.candidates(9), 50)]


def test_the_levels_are_the_distances_then_the_unreachable_boards(store: TableSource) -> None:
    eight = space("eight-digits", store).level_sizes()
    assert eight[:6] == (1, 2, 4, 8, 16, 20) and len(eight) == 33 and eight[-1] == 181440
    lanqiao = space("lanqiao", store).level_sizes()
    assert lanqiao[0] == 9 and lanqiao[1] == 24 and lanqiao[-1] == 9 * 181440
    assert space("sicily-rotations", store).level_sizes() == (
        1, 4, 16, 64, 250, 960, 3553, 12324, 37308, 84234, 116769, 82197, 23529, 1656, 14, 1,
    )  # fmt: skip


def test_a_sicily_file_gives_one_key_per_case(store: TableSource) -> None:
    found = space("sicily-rotations", store)
    assert found.batch
    assert found.keys("1 2 3 4 5 6 7 8 9\n4  1 3 5 2 6 7 8 9 \n") == ["1 2 3 4 5 6 7 8 9", "4 1 3 5 2 6 7 8 9"]


def replay(found: Space, candidate: Candidate, steps: tuple[Step, ...]) -> tuple[int, ...]:
    board = found.start(candidate)
    for step in steps:
        if found.blank is None:
            assert any(rotations.apply(board, move) == step.board for move in rotations.CLOCKWISE)
        else:
            blank = board.index(sliding.BLANK)
            assert step.board.index(sliding.BLANK) in sliding.ADJACENT[blank]
        board = step.board
    return board


@pytest.mark.parametrize("name", PUZZLES)
def test_the_solution_of_a_candidate_takes_its_distance_in_moves_to_its_goal(name: str, store: TableSource) -> None:
    found = space(name, store)
    for level in (0, 1, 7, 13):
        for candidate in islice(found.candidates(level), 5):
            steps = found.solution(candidate)
            assert len(steps) == candidate.distance
            assert replay(found, candidate, steps) == found.goal(candidate)
            assert len(found.labels(found.start(candidate))) == 9
