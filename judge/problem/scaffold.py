"""`judge new ID`: a complete small problem that passes `judge verify` as made, so a teacher
edits a working problem instead of starting from a blank page.

The files come from `templates/new/`; the problem is written into a temporary folder
beside its place and renamed into it, so a failure leaves nothing half made.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import jinja2

from judge import paths
from judge.errors import JudgeError

TEMPLATES = Path(paths.TEMPLATES) / "new"
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
EXTENSIONS = {"cpp": "cpp", "python3": "py"}
DEFAULT_TITLE = "Largest Sum of a Part"
INTERACTIVE_TITLE = "Guess the Number"


@dataclass(frozen=True)
class Scaffold:
    directory: Path
    files: tuple[Path, ...]


def _plan(reference_language: str, interactive: bool = False) -> list[tuple[str, str]]:
    """(template, path in the problem folder) of every file; the reference is the fifth."""
    own = EXTENSIONS[reference_language]
    other = "py" if own == "cpp" else "cpp"
    if interactive:
        return [
            ("interactive/problem.yaml.j2", "problem.yaml"),
            ("interactive/statement.md.j2", "statement.md"),
            ("interactive/gen.py.j2", "generators/gen.py"),
            ("interactive/validate.py.j2", "validators/validate.py"),
            (f"interactive/ref.{own}.j2", f"solutions/accepted/bisect.{own}"),
            (f"interactive/ref.{other}.j2", f"solutions/accepted/halves.{other}"),
            (f"interactive/wrong.{own}.j2", f"solutions/wrong_answer/count_up.{own}"),
            ("interactive/slow.py.j2", "solutions/time_limit_exceeded/slow_thinker.py"),
            ("interactive/interactor.py.j2", "interactor.py"),
        ]
    return [
        ("problem.yaml.j2", "problem.yaml"),
        ("statement.md.j2", "statement.md"),
        ("gen.py.j2", "generators/gen.py"),
        ("validate.py.j2", "validators/validate.py"),
        (f"ref.{own}.j2", f"solutions/accepted/ref.{own}"),
        (f"ref.{other}.j2", f"solutions/accepted/kadane.{other}"),
        (f"wrong.{own}.j2", f"solutions/wrong_answer/empty_part.{own}"),
    ]


def _yaml_text(value: str) -> str:
    # A double-quoted YAML scalar: safe for any title.
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def create(
    problems_dir: Path, problem_id: str, reference_language: str = "cpp", title: str = "", interactive: bool = False
) -> Scaffold:
    if not ID_PATTERN.match(problem_id):
        raise JudgeError(
            f"{problem_id!r}: not a problem id (lower-case letters, digits, '-' and '_', starting with a letter or digit)"
        )
    if reference_language not in EXTENSIONS:
        raise JudgeError(f"{reference_language!r}: the reference of a new problem is in cpp or python3")
    target = problems_dir / problem_id
    if target.exists():
        raise JudgeError(f"{target}: already exists; choose another id or remove it")
    if not problems_dir.is_dir():
        raise JudgeError(f"{problems_dir}: no such problems folder")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,  # source code and YAML, not HTML
    )
    plan = _plan(reference_language, interactive)
    default_title = INTERACTIVE_TITLE if interactive else DEFAULT_TITLE
    values = {
        "id": problem_id,
        "title": _yaml_text(title or default_title),
        "heading": title or default_title,
        "source": _yaml_text("made by `judge new`: replace with the problem's origin"),
        "reference": Path(plan[4][1]).name,
    }
    staging = Path(tempfile.mkdtemp(prefix=f".{problem_id}.", dir=problems_dir))
    try:
        written: list[Path] = []
        for template, relative in plan:
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(env.get_template(template).render(values), encoding="utf-8")
            written.append(target / relative)
        os.chmod(staging, 0o755)
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Scaffold(target, tuple(written))
