"""The built-in puzzles' validators, as the exporter writes them into a package: one file each
(their shared part written in), which runs alone and keeps the ICPC exit codes."""

import subprocess
import sys
from pathlib import Path

import pytest

from judge.interop.exporter import SHARED_VALIDATION, builtin_validator

VALID = {
    "lanqiao": b"12345678.\n123.46758\n",
    "eight-digits": b"2 3 4 1 5 x 7 6 8\n",
    "sicily-rotations": b"1 2 3 4 5 6 7 8 9\n4 1 3 5 2 6 7 8 9\n",
}


def _exit_code(program: Path, data: bytes) -> int:
    return subprocess.run([sys.executable, str(program)], input=data, capture_output=True, check=False).returncode


@pytest.mark.parametrize("puzzle", sorted(VALID))
def test_an_exported_validator_is_one_file_that_accepts_and_refuses(tmp_path: Path, puzzle: str) -> None:
    program = tmp_path / "validate.py"  # alone in its folder: nothing to import beside it
    program.write_text(builtin_validator(puzzle), encoding="utf-8")
    assert f"import {SHARED_VALIDATION}" not in program.read_text(encoding="utf-8")
    assert f"from {SHARED_VALIDATION}" not in program.read_text(encoding="utf-8")
    assert _exit_code(program, VALID[puzzle]) == 42
    assert _exit_code(program, VALID[puzzle].replace(b"1", b"\xff", 1)) == 43  # not ASCII
    assert _exit_code(program, VALID[puzzle][:-1]) == 43  # no final LF
