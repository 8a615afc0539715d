"""The tests of a unit-test problem, read from its folder of test files (found.py decides, from
their text, which tests there are and what each is worth)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from judge.kinds.unit import found
from judge.kinds.unit.found import UnitTest, group_name

__all__ = ["ListingError", "UnitTest", "files_with_tests", "group_name", "unit_tests"]

MAX_FILE_BYTES = 1 << 20


class ListingError(ValueError):
    """A test file that cannot be read as one: where, and why."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(message)
        self.path, self.line = path, line


def files_with_tests(folder: Path, framework: str = "pytest") -> list[Path]:
    """The test files of the folder and below, by name (pytest's rule: test_*.py, *_test.py;
    JUnit's: Test*.java, *Test.java, *Tests.java)."""
    wanted, _ = found.FRAMEWORKS[framework]
    return sorted(p for p in folder.rglob("*") if p.is_file() and wanted(p.name))


def unit_tests(
    folder: Path, default_points: float, table: Mapping[str, found.PerTest], framework: str = "pytest"
) -> list[UnitTest]:
    """Every test in the tests' `folder`, file after file, each in the order of its source;
    `table`: the spec's per-test lines."""
    _, read = found.FRAMEWORKS[framework]
    tests: list[UnitTest] = []
    for path in files_with_tests(folder, framework):
        relative = path.relative_to(folder).as_posix()
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ListingError(path, 0, f"over {MAX_FILE_BYTES >> 20} MiB: not a test file")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ListingError(path, 0, "not UTF-8 text") from None
        try:
            tests += read(relative, text, default_points, table)
        except found.FoundError as err:
            raise ListingError(path, err.line, str(err)) from None
    return tests
