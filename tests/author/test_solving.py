"""`judge solve`'s promise of a light start: once the caches are warm, none of the slow
imports happen (checked by module, not by the clock: timings belong to `make bench`)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import PROBLEMS, REPO

HEAVY = ("click", "dataclasses", "numpy", "pathlib", "pydantic", "rich", "typing", "yaml")

PROBE = f"""
import sys
from judge.__main__ import main
sys.argv = ["judge", "solve", sys.argv[1], sys.argv[2]]
try:
    main()
finally:
    print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)
"""


def probe(problem: str, case: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, problem, case], cwd=REPO, capture_output=True, text=True, timeout=120
    )


def test_warm_solve_imports_nothing_heavy() -> None:
    for problem, case in (
        ("sicily-rotations", "bulk/01"),
        ("lanqiao", "hardest/03"),
        ("eight-digits", "samples/01"),
    ):
        path = PROBLEMS / problem / "tests" / f"{case}.in"
        probe(problem, str(path))  # warms the spec memo and the table cache
        result = probe(problem, str(path))
        assert result.returncode == 0, result.stderr
        assert result.stdout == path.with_suffix(".ans").read_text()
        assert result.stderr.strip().splitlines()[-1] == "[]", result.stderr


def test_an_invalid_input_is_still_explained(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.in"
    bad.write_text("1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8\n")
    result = probe("sicily-rotations", str(bad))
    assert result.returncode == 2
    assert f"{bad}:2: expected 9 integers, found 8" in result.stderr
