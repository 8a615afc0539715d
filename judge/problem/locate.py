"""Finding problem folders.

Plain `os.path` and strings, not pathlib: `judge solve` imports this, and pathlib alone
costs it 20 ms of start-up here. Callers that want Path objects wrap the results.
"""

from __future__ import annotations

import os

from judge.errors import JudgeError

SPEC_FILE = "problem.yaml"


def problem_dirs(problems_dir: str | os.PathLike[str]) -> list[str]:
    """Every folder of `problems_dir` that holds a problem.yaml, sorted by name."""
    if not os.path.isdir(problems_dir):
        raise JudgeError(f"{os.fspath(problems_dir)}: no such problems folder (set --problems or JUDGE_PROBLEMS)")
    with os.scandir(problems_dir) as entries:
        return sorted(e.path for e in entries if os.path.isfile(os.path.join(e.path, SPEC_FILE)))


def find_problem(name: str, problems_dir: str | os.PathLike[str]) -> str:
    """A problem folder from an id (looked up in `problems_dir`) or from a path to the folder."""
    for candidate in (os.path.join(problems_dir, name), name):
        if os.path.isfile(os.path.join(candidate, SPEC_FILE)):
            return candidate
    try:
        known = ", ".join(os.path.basename(p) for p in problem_dirs(problems_dir)) or "none"
    except JudgeError:
        known = f"none, {os.fspath(problems_dir)} does not exist"
    raise JudgeError(f"unknown problem {name!r} (known in {os.fspath(problems_dir)}: {known})")
