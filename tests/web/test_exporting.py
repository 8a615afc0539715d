"""The web judge's submissions as a folder `judge grade` and `judge similar` read."""

from __future__ import annotations

import dataclasses
import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.grade import grading
from judge.grade.results import GradeRecord
from judge.similar.score import compare
from judge.web import exporting
from judge.web.state.store import Store
from tests.conftest import REPO

ADD = b"a, b = map(int, input().split())\nprint(a + b)\n"
COPY = b"x, y = map(int, input().split())\nprint(x + y)\n"


def _put(store: Store, student: str, problem: str, language: str, name: str, source: bytes) -> None:
    """A submission, judged (a student has one waiting at a time)."""
    store.submit(student, problem, language, name, source)
    claim = store.claim(worker=1)
    assert claim is not None
    record = GradeRecord(student, problem, name, language, "h", "WA", 0, 100, "", "bwrap", "", (), ())
    assert store.finish(claim, record)


def _store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    for student in ("ada", "bo", "cy"):
        store.add_user(student)
    _put(store, "ada", "sums", "python3", "old.py", b"print(0)\n")
    _put(store, "ada", "sums", "python3", "sums.py", ADD)
    _put(store, "bo", "sums", "python3", "copy.py", COPY)
    _put(store, "bo", "other", "java", "Main.java", b"public class Main { public static void main(String[] a) {} }\n")
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("main.py", "print(3)\n")
    _put(store, "cy", "sums", "python3", "work.zip", packed.getvalue())
    return store


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_newest_per_student_and_problem_in_the_layout_grade_reads(tmp_path: Path) -> None:
    store = _store(tmp_path)
    out = tmp_path / "submissions"
    done = exporting.export(store, exporting.chosen(store.all(), False), False, out, False)
    assert done.submissions == 4 and not done.unchanged
    files = _files(out)
    assert sorted(files) == ["ada/sums/sums.py", "bo/other/Main.java", "bo/sums/copy.py", "cy/sums.zip"]
    assert files["ada/sums/sums.py"] == ADD
    entries = grading.discover(out, ["sums", "other"])
    assert sorted((e.student, e.problem, e.problem_error) for e in entries) == [
        ("ada", "sums", ""),
        ("bo", "other", ""),
        ("bo", "sums", ""),
        ("cy", "sums", ""),
    ]
    # judge similar's comparison reads it: ada's and bo's sums are the same program renamed.
    pairs = {(p.a.student, p.b.student): p.score for p in compare(out, ["sums"]).pairs}
    assert pairs[("ada", "bo")] > 0.9


def test_every_submission_with_all_and_one_problem(tmp_path: Path) -> None:
    store = _store(tmp_path)
    rows = exporting.chosen(store.all(), True, ["sums"])
    exporting.export(store, rows, True, tmp_path / "all", False)
    assert sorted(_files(tmp_path / "all")) == [
        "ada+1/sums/old.py",
        "ada+2/sums/sums.py",
        "bo+3/sums/copy.py",
        "cy+5/sums.zip",
    ]


def test_a_folder_holding_something_else_is_kept_unless_forced(tmp_path: Path) -> None:
    store = _store(tmp_path)
    rows = exporting.chosen(store.all(), False)
    out = tmp_path / "submissions"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    with pytest.raises(JudgeError, match=r"submissions: already holds other files; --force replaces the folder"):
        exporting.export(store, rows, False, out, False)
    assert _files(out) == {"notes.txt": b"mine\n"}
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # nothing left beside
    exporting.export(store, rows, False, out, True)
    assert "notes.txt" not in _files(out) and "ada/sums/sums.py" in _files(out)
    again = exporting.export(store, rows, False, out, False)  # the same again: no --force needed
    assert again.unchanged and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_the_command_writes_the_folder_and_refuses_in_one_line(tmp_path: Path) -> None:
    _store(tmp_path)

    def judge(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "judge", "submissions", "--data", str(tmp_path / "data"), *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )

    made = judge(str(tmp_path / "out"))
    assert made.returncode == 0 and "4 submission(s) written" in made.stderr, made.stderr
    (tmp_path / "out" / "extra.py").write_text("x\n")
    refused = judge(str(tmp_path / "out"))
    assert refused.returncode != 0 and "already holds other files" in refused.stderr
    assert "Traceback" not in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    missing = subprocess.run(
        [sys.executable, "-m", "judge", "submissions", "--data", str(tmp_path / "nothing"), str(tmp_path / "o")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode != 0 and "nothing: no web judge data here" in missing.stderr


def test_an_id_that_is_no_folder_name_is_never_followed_out_of_the_folder(tmp_path: Path) -> None:
    store = _store(tmp_path)
    for bad in ("..", ".", ".hidden", "-rf"):
        with pytest.raises(JudgeError, match="starting with a letter or digit"):
            store.add_user(bad)
    # A row from a database made before the rule: refused in one line, nothing written.
    row = exporting.chosen(store.of_student("ada"), every=False)[0]
    with pytest.raises(JudgeError, match=re.escape("the student '..' is no folder name")):
        exporting.place(dataclasses.replace(row, student=".."), every=False)
