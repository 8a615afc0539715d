"""The tests' side of the unit bridge reads each reply with bounds before json.loads (which
recurses): its depth counts lists and objects, never brackets inside its strings."""

from __future__ import annotations

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


def test_a_set_of_keys_sharing_one_hash_is_rebuilt_only_within_the_tests_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ints are not salted: k * (2**61 - 1) all hash to 0, and set() of 50,000 of them takes
    seconds in C, where no deadline is looked at. The tests' side makes a set an item at a
    time, each checked against the test's deadline: past it, the test is stuck (TLE)."""
    colliding = [k * (2**61 - 1) for k in range(50_000)]
    assert len({hash(k) for k in colliding}) == 1

    class Past:
        started = -1e9  # the test's deadline is long gone
        per_test_s = 1.0

    monkeypatch.setattr(bridge_tests, "CHANNEL", Past())
    for tag in ("$set", "$frozenset"):
        with pytest.raises(bridge_tests.StudentStuck):
            bridge_tests.from_wire({tag: colliding})
    with pytest.raises(bridge_tests.StudentStuck):
        bridge_tests.from_wire({"$dict": [[k, 0] for k in colliding]})
    monkeypatch.setattr(bridge_tests, "CHANNEL", None)
    assert bridge_tests.from_wire({"$frozenset": [1, 2, 2]}) == frozenset({1, 2})
