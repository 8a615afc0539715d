"""A function's sample as the student writes it (issue 59): a call and its value, in Python's
spelling for Python and JSON's for the rest."""

from __future__ import annotations

from judge.kinds.functions.calls import call, cut, returned


def test_a_call_in_python_and_in_the_others_spelling() -> None:
    assert call("count_vowels", ["hello"], "python") == 'count_vowels("hello")'
    assert call("f", [[1, 2], True, None, {"a": False}], "python") == 'f([1, 2], True, None, {"a": False})'
    assert call("f", [[1, 2], True, None], "java") == "f([1, 2], true, null)"
    assert returned({"$raised": "ValueError"}, "python") == "raises ValueError"
    assert returned(False, "python") == "False" and returned(2.5, "") == "2.5"
    assert len(cut("x" * 500)) == 200 and cut("short") == "short"
