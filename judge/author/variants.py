"""Making a problem's variants: a student's own tests and statement, made once (under a lock)
into a cache folder and kept there, atomically; judge.problem.variants says which variant a
student gets and what it holds. The web judge asks for a student's variant on their first
visit or submission; `judge verify` makes a sample of them."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from judge.author import making, parts
from judge.problem import variants
from judge.problem.spec import TESTS_DIR, Problem
from judge.problem.tables import TableSource, TableStore

SALT_FILE = "salt"
_MAKING = threading.Lock()
MADE_FILE = "variant.json"  # written last: a folder holding it is whole


def salt(root: Path) -> str:
    """The secret the students' variants are drawn with (made once, kept in `root`): without
    it, no student can work out which variant a classmate has."""
    path = root / SALT_FILE
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    root.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".salt.", dir=root)  # mode 0600
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secrets.token_hex(16) + "\n")
    try:
        os.link(tmp, path)  # never over a salt another process made first
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)
    return path.read_text(encoding="ascii").strip()


def chosen_for(problem: Problem, student: str, root: Path) -> variants.Chosen | None:
    """Which variant `student` has of `problem` (None: the problem has no variants)."""
    if problem.spec.variants is None:
        return None
    return variants.chosen(problem.spec.variants, salt(root), problem.id, student)


def for_student(problem: Problem, student: str, root: Path) -> Problem:
    """`student`'s variant of `problem`, made on the first call (the problem itself when it
    has no variants). JudgeError naming the part that fails."""
    choice = chosen_for(problem, student, root)
    return problem if choice is None else made(problem, choice, root)


def made(problem: Problem, choice: variants.Chosen, root: Path, jobs: int = 1) -> Problem:
    """The variant as a problem: the same folder and programs, its own tests and statement,
    made once into `root` (a folder per variant and version of the problem)."""
    folder = root / problem.id / f"{choice.label}-{problem.digest[:16]}"
    if not (folder / MADE_FILE).is_file():
        # The flock makes a variant once among processes; the thread lock keeps this process
        # to one making at a time (the web server's request threads), as its sandbox wants.
        with _MAKING, _locked(root / problem.id / ".lock"):
            if not (folder / MADE_FILE).is_file():  # made by another while this one waited
                _make(problem, choice, folder, jobs)
    params = json.loads((folder / MADE_FILE).read_text(encoding="utf-8"))["params"]
    return _as_problem(problem, choice, folder, params)


def _as_problem(problem: Problem, choice: variants.Chosen, folder: Path, params: dict[str, variants.Value]) -> Problem:
    spec = variants.variant_spec(problem.spec, choice.seed, params, str(problem.spec_path))
    statement = folder / f"statement{problem.statement_path.suffix}"
    return Problem(problem.directory, spec, choice.label, folder / TESTS_DIR, statement)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # and the lock with it


def _make(problem: Problem, choice: variants.Chosen, folder: Path, jobs: int) -> None:
    work = Path(tempfile.mkdtemp(prefix=f".{choice.label}.", dir=folder.parent))
    try:
        params = parts.variant_params(problem, choice.seed, choice.label)
        text = problem.statement_path.read_bytes()
        if problem.statement_path.suffix.lower() == ".md":
            shown = str(problem.statement_path)
            text = variants.render_statement(text.decode("utf-8", errors="replace"), params, shown).encode()
        variant = _as_problem(problem, choice, work, params)
        variant.statement_path.write_bytes(text)
        tables: TableSource | None = TableStore() if problem.builtin else None
        making.write(variant, making.generate(variant, tables, jobs))
        made = {"label": choice.label, "seed": choice.seed, "params": params}
        (work / MADE_FILE).write_text(json.dumps(made, sort_keys=True) + "\n", encoding="utf-8")
        os.rename(work, folder)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
