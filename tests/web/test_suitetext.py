"""The tests page's one text of files (judge/web/suitetext.py): read line by line, each fault
named by its line, and packed into the same .zip bytes for the same tests."""

from __future__ import annotations

import io
import zipfile

import pytest

from judge.errors import JudgeError
from judge.web import suitetext


def test_each_file_follows_its_header_and_keeps_its_lines() -> None:
    text = "\n== 01.in\n3\n\n-5 -1 -8\n\n\n== 01.ans\n-1\n== 02.in\n"
    assert suitetext.parse(text) == [("01.in", "3\n\n-5 -1 -8\n"), ("01.ans", "-1\n"), ("02.in", "")]
    assert suitetext.parse("==  a_b-1.in \r\n7\r\n") == [("a_b-1.in", "7\n")]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("7\n== 01.in\n", "line 1: a test starts with a line `== NAME.in`"),
        ("== 01.in\n1\n== ../x.in\n", "line 3: '../x.in' is not a test's file name"),
        ("== .hidden.in\n", "line 1: '.hidden.in' is not"),
        ("== 01.out\n", "line 1: '01.out' is not"),
        ("== \n", "line 1: '' is not"),
        ("== 01.in\n1\n== 01.in\n2\n", "line 3: 01.in is there twice"),
    ],
)
def test_a_fault_is_named_by_its_line(text: str, said: str) -> None:
    with pytest.raises(JudgeError, match="your tests: " + said.replace("(", r"\(").replace("`", ".")):
        suitetext.parse(text)


def test_the_same_tests_pack_into_the_same_bytes() -> None:
    files = [("01.in", "1\n7\n"), ("01.ans", "7\n")]
    packed = suitetext.pack(files)
    assert packed == suitetext.pack(list(files))
    with zipfile.ZipFile(io.BytesIO(packed)) as archive:
        assert [(i.filename, archive.read(i).decode()) for i in archive.infolist()] == files
