"""A stdio problem with known bugs (made by `judge new`, bugs added), and a tests problem for it."""

from __future__ import annotations

from pathlib import Path

from judge.author import scaffold
from judge.author.making import generate, write
from judge.kinds.table import load_problem
from judge.problem.tables import TableStore

BUGS = {
    # An all-negative input catches it (it allows the empty part: 0).
    "wrong_answer/empty_part.py": None,
    "wrong_answer/first_only.py": "import sys\nprint(sys.stdin.read().split()[1])\n",
    "time_limit_exceeded/forever_on_five.py": (
        "import sys\nd = sys.stdin.read().split()\n"
        "while int(d[0]) >= 5:\n    pass\nv = list(map(int, d[1:]))\n"
        "best = cur = v[0]\nfor x in v[1:]:\n    cur = max(x, cur + x)\n    best = max(best, cur)\nprint(best)\n"
    ),
    "run_time_error/crash_on_one.py": (
        "import sys\nd = sys.stdin.read().split()\nassert d[0] != '1'\nv = list(map(int, d[1:]))\n"
        "best = cur = v[0]\nfor x in v[1:]:\n    cur = max(x, cur + x)\n    best = max(best, cur)\nprint(best)\n"
    ),
}

TESTS_SPEC = """id: {id}
title: Tests of sums
source: the judge's tests
limits: {{time_s: 1.0, memory_mib: 256}}
kind: tests
reference: suite
tests:
  for: sums
{extra}"""


def make(root: Path, tests_id: str = "sums-tests", extra: str = "") -> Path:
    """root/sums (its bugs) and root/<tests_id>, a tests problem for it; the latter's folder."""
    if not (root / "sums").is_dir():
        target = scaffold.create(root, "sums", "python3").directory
        for relative, text in BUGS.items():
            if text is not None:
                (target / "solutions" / relative).parent.mkdir(parents=True, exist_ok=True)
                (target / "solutions" / relative).write_text(text)
    return tests_of(root, tests_id, "sums", "3\n-5 -1 -8\n", extra)


def tests_of(root: Path, tests_id: str, subject: str, first: str, extra: str = "") -> Path:
    """root/<tests_id>, a tests problem for root/<subject>, its suite one test (`first`)."""
    here = root / tests_id
    (here / "suite").mkdir(parents=True)
    (here / "suite" / "01.in").write_text(first)
    (here / "statement.md").write_text(f"# Tests of {subject}\n\nWrite tests that catch the bugs.\n")
    spec = TESTS_SPEC.format(id=tests_id, extra=extra)
    (here / "problem.yaml").write_text(
        spec.replace("for: sums", f"for: {subject}").replace(" of sums", f" of {subject}")
    )
    return here


def write_tests(folder: Path, tests: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    for name, text in tests.items():
        (folder / name).write_text(text)
    return folder


def unit_of(root: Path, spec: str, first: str) -> None:
    """root/stack (a unit problem, two bugs) and root/stack-tests, a tests problem of it (`spec`,
    its problem.yaml), its suite one pytest file (`first`), both made."""
    scaffold.create(root, "stack", "python3", kind="unit")
    here = root / "stack-tests"
    (here / "suite").mkdir(parents=True)
    (here / "suite" / "test_mine.py").write_text(first)
    (here / "statement.md").write_text("# Tests of stack\n")
    (here / "problem.yaml").write_text(spec)
    for pid in ("stack", "stack-tests"):
        made = load_problem(root / pid)
        write(made, generate(made, TableStore()))
