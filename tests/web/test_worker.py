"""A worker keeps each problem it loaded (and the digest taken of it) while its folder is
unchanged, and loads it again once a file of it changes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from judge.web.worker import LoadedProblems
from tests.conftest import PROBLEMS


def test_a_problem_is_loaded_again_only_when_a_file_of_it_changed(tmp_path: Path) -> None:
    folder = tmp_path / "lanqiao"
    shutil.copytree(PROBLEMS / "lanqiao", folder)
    loaded = LoadedProblems()
    first = loaded.get(folder)
    digest = first.digest
    assert loaded.get(folder) is first  # nothing changed: the same problem, its digest kept
    answer = next((folder / "tests").rglob("*.ans"))
    answer.write_text("17\n")  # the teacher fixes an answer
    info = answer.stat()
    os.utime(answer, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    again = loaded.get(folder)
    assert again is not first and again.digest != digest
