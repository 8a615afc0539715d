"""The tests' side of the unit bridge reads each reply with bounds before json.loads (which
recurses): its depth counts lists and objects, never brackets inside its strings."""

from __future__ import annotations

import time

import pytest

from judge.kinds.unit import bridge_tests


def test_a_reply_nested_past_the_bound_is_refused_and_brackets_in_a_string_are_not_nesting() -> None:
    deep = b'{"ok": ' + b"[" * 300 + b"]" * 300 + b"}"
    assert not bridge_tests.depth_within(deep, bridge_tests.MAX_DEPTH)
    assert not bridge_tests.depth_within(b'{"ok": ' + b"[" * 200_000 + b"}", bridge_tests.MAX_DEPTH)
    in_a_string = b'{"ok": "' + b"[" * 500 + b'"}'
    assert bridge_tests.depth_within(in_a_string, bridge_tests.MAX_DEPTH)
    escaped = b'{"ok": "a \\" [[[ \\\\", "b": [[1]]}'
    assert bridge_tests.depth_within(escaped, 3) and not bridge_tests.depth_within(escaped, 2)


class FakeChannel:
    """A test's clock and its record of running out of time, without the pipes."""

    def __init__(self, started: float, wall_s: float) -> None:
        self.started, self.per_test_s, self.wall_s = started, 1.0, wall_s
        self.overran: str | None = None

    def stuck(self, message: str) -> bridge_tests.StudentStuck:
        self.overran = message  # the runner reads it: TLE even if the test swallows the exception
        return bridge_tests.StudentStuck(message)


def test_a_tests_deadline_is_the_wall_limit_the_judge_passes_not_one_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bridge is told a test's wall limit (sandbox.wall_for of its CPU time) and keeps to it:
    5 s into a test of 1 s of CPU time (past the 3 s of 2 x CPU + 1), a wall of 1000 s has not
    run out and one of 4 s has."""

    begun = FakeChannel(started=time.monotonic() - 5.0, wall_s=1000.0)
    monkeypatch.setattr(bridge_tests, "CHANNEL", begun)
    assert bridge_tests.from_wire({"$set": [1, 2]}) == {1, 2} and begun.overran is None
    begun.wall_s = 4.0
    with pytest.raises(bridge_tests.StudentStuck, match="within 4 s"):
        bridge_tests.from_wire({"$set": [1, 2]})


def test_a_set_of_keys_sharing_one_hash_is_rebuilt_only_within_the_tests_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ints are not salted: k * (2**61 - 1) all hash to 0, and set() of 50,000 of them takes
    seconds in C, where no deadline is looked at. The tests' side makes a set an item at a
    time, each checked against the test's deadline: past it, the test is stuck (TLE)."""
    colliding = [k * (2**61 - 1) for k in range(50_000)]
    assert len({hash(k) for k in colliding}) == 1

    past = FakeChannel(started=-1e9, wall_s=3.0)  # the test's deadline is long gone
    monkeypatch.setattr(bridge_tests, "CHANNEL", past)
    for tag in ("$set", "$frozenset"):
        with pytest.raises(bridge_tests.StudentStuck):
            bridge_tests.from_wire({tag: colliding})
    with pytest.raises(bridge_tests.StudentStuck):
        bridge_tests.from_wire({"$dict": [[k, 0] for k in colliding]})
    assert past.overran is not None  # remembered for the runner, should the test catch it
    monkeypatch.setattr(bridge_tests, "CHANNEL", None)
    assert bridge_tests.from_wire({"$frozenset": [1, 2, 2]}) == frozenset({1, 2})


class Evil:
    def __reduce__(self) -> tuple[object, ...]:
        return (eval, ("1",))


@pytest.mark.parametrize("value", [1 + 2j, iter([1]), ValueError("x"), Evil()])
def test_a_value_a_students_test_cannot_hand_over_fails_that_test_not_the_judge(
    monkeypatch: pytest.MonkeyPatch, value: object
) -> None:
    """Under a student's tests (kind tests) a value the stand-in cannot hand to the module is the
    test's own error (so it fails on the reference too: invalid), never an IE with a teacher's
    hint naming the stand-in; under a teacher's tests it stays the hint to use `mode: together`."""
    monkeypatch.setattr(bridge_tests, "STUDENTS_TESTS", True)
    with pytest.raises(TypeError, match=f"of type {type(value).__name__} cannot be handed to the module") as raised:
        bridge_tests.to_wire([value])
    assert "_judge_unit" not in str(raised.value) and "mode: together" not in str(raised.value)
    monkeypatch.setattr(bridge_tests, "STUDENTS_TESTS", False)
    with pytest.raises(bridge_tests.Unsupported, match="mode: together"):
        bridge_tests.to_wire([value])
