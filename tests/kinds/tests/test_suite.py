"""A student's tests as submitted: names, caps, answers without inputs; each refusal one line naming the file."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.kinds.tests import suite as reading
from judge.problem.spec import Suite

SUITE = Suite.model_validate({"for": "sums", "max_tests": 3, "max_test_bytes": 100})


def test_a_folder_of_tests_with_and_without_answers(tmp_path: Path) -> None:
    (tmp_path / "01.in").write_text("1\n5\n")
    (tmp_path / "01.ans").write_text("5\n")
    (tmp_path / "edge-2.in").write_text("1\n-5\n")
    tests = reading.read(tmp_path, SUITE)
    assert [(t.name, t.answer) for t in tests] == [("01", b"5\n"), ("edge-2", None)]


@pytest.mark.parametrize(
    ("files", "said"),
    [
        ({"01.in": "x" * 101}, "01.in: 101 bytes, over the cap of 100 per test"),
        ({f"0{i}.in": "1\n" for i in range(4)}, "4 tests, over the cap of 3"),
        ({"01.ans": "1\n"}, "01.ans: no 01.in beside it"),
        ({"notes.txt": "hi"}, "notes.txt: not a test file"),
        ({}, "no tests"),
    ],
)
def test_refused_in_one_line_naming_the_file(tmp_path: Path, files: dict[str, str], said: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(JudgeError) as caught:
        reading.read(tmp_path, SUITE)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_tests_named_like_paths_are_refused(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "01.in").write_text("1\n5\n")
    with pytest.raises(JudgeError, match=r"sub/01\.in: not a test file"):
        reading.read(tmp_path, SUITE)
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as tar:
        data = b"1\n5\n"
        info = tarfile.TarInfo("../../etc/01.in")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(JudgeError):
        reading.read(("tests.tar", packed.getvalue()), SUITE)


def test_an_upload_of_one_file_is_one_test() -> None:
    assert [t.name for t in reading.read(("07.in", b"1\n5\n"), SUITE)] == ["07"]


def test_calls_a_line_each_become_tests_with_or_without_expected_values() -> None:
    text = b'# my calls\n[[1, 2, 3]] -> 6\n\n[[-5, "a->b"]]\n'
    tests = reading.read(("mine.jsonl", text), SUITE)
    assert [(t.name, t.input, t.answer) for t in tests] == [
        ("line-02", b"[[1,2,3]]\n", b"6\n"),
        ("line-04", b'[[-5,"a->b"]]\n', None),
    ]
    with pytest.raises(JudgeError, match=r"mine\.jsonl:1: the arguments are a JSON list"):
        reading.read(("mine.jsonl", b"5 -> 5\n"), SUITE)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (b"[" * 5000 + b"]" * 5000, "nested deeper than"),
        (b"[[NaN]]", "mine.jsonl:2: not JSON (NaN is not JSON)"),
        (b"[[1]] -> Infinity", "Infinity is not JSON"),
        (b"[[1e999]]", "beyond a float"),
        (b'[["\\ud800"]]', "lone surrogate"),
    ],
)
def test_calls_that_json_reads_but_no_test_file_can_hold_are_refused_in_one_line(line: bytes, said: str) -> None:
    # Each of these was a 500 at the web judge's door (a RecursionError, or NaN refused only
    # when the test file was written) and a traceback from `judge run`.
    with pytest.raises(JudgeError) as caught:
        reading.read(("mine.jsonl", b"[[1]]\n" + line + b"\n"), SUITE)
    assert str(caught.value).startswith("mine.jsonl:2: ") and said in str(caught.value)
    assert "\n" not in str(caught.value)


def test_an_uploaded_file_is_named_once() -> None:
    with pytest.raises(JudgeError) as caught:
        reading.read(("07.ans", b"5\n"), SUITE)
    assert str(caught.value) == "07.ans: no 07.in beside it"
