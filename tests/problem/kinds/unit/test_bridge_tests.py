"""The tests' side of the unit bridge reads each reply with bounds before json.loads (which
recurses): its depth counts lists and objects, never brackets inside its strings."""

from __future__ import annotations

from judge.problem.kinds.unit import bridge_tests


def test_a_reply_nested_past_the_bound_is_refused_and_brackets_in_a_string_are_not_nesting() -> None:
    deep = b'{"ok": ' + b"[" * 300 + b"]" * 300 + b"}"
    assert not bridge_tests.depth_within(deep, bridge_tests.MAX_DEPTH)
    assert not bridge_tests.depth_within(b'{"ok": ' + b"[" * 200_000 + b"}", bridge_tests.MAX_DEPTH)
    in_a_string = b'{"ok": "' + b"[" * 500 + b'"}'
    assert bridge_tests.depth_within(in_a_string, bridge_tests.MAX_DEPTH)
    escaped = b'{"ok": "a \\" [[[ \\\\", "b": [[1]]}'
    assert bridge_tests.depth_within(escaped, 3) and not bridge_tests.depth_within(escaped, 2)
