"""Finding problem folders (kept free of pydantic so `judge solve` starts fast)."""

from __future__ import annotations

from pathlib import Path

from judge.errors import JudgeError

SPEC_FILE = "problem.yaml"


def problem_dirs(problems_dir: Path) -> list[Path]:
    """Every folder of `problems_dir` that holds a problem.yaml, sorted by name."""
    if not problems_dir.is_dir():
        raise JudgeError(f"{problems_dir}: no such problems folder (set --problems or JUDGE_PROBLEMS)")
    return sorted(p for p in problems_dir.iterdir() if (p / SPEC_FILE).is_file())


def find_problem(name: str, problems_dir: Path) -> Path:
    """A problem folder from an id (looked up in `problems_dir`) or from a path to the folder."""
    candidate = problems_dir / name
    if (candidate / SPEC_FILE).is_file():
        return candidate
    as_path = Path(name)
    if (as_path / SPEC_FILE).is_file():
        return as_path
    try:
        known = ", ".join(p.name for p in problem_dirs(problems_dir)) or "none"
    except JudgeError:
        known = f"none, {problems_dir} does not exist"
    raise JudgeError(f"unknown problem {name!r} (known in {problems_dir}: {known})")
