"""Making a problem's variants: a student's own tests and statement, made once (under a lock)
into a cache folder and kept there, atomically; judge.problem.variants says which variant a
student gets and what it holds. The web judge asks for a student's variant on their first
visit or submission; `judge verify` makes a sample of them."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from judge.author import making, parts, rendering
from judge.problem import variants
from judge.problem.spec import GENERATORS_DIR, TESTS_DIR, Problem, split_generate
from judge.problem.tables import TableSource, TableStore

log = logging.getLogger(__name__)

SALT_FILE = "salt"
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


def version(problem: Problem) -> str:
    """What a variant is made from, hashed: the problem's digest (spec, tests, reference,
    validators, generators, checker) with the statement and the params program, which the
    digest leaves out. A change to any makes each variant again (with the same seed)."""
    digest = hashlib.sha256(problem.digest.encode() + b"\0")
    made_from = [problem.statement_path]
    if problem.spec.variants is not None and problem.spec.variants.params is not None:
        program = problem.directory / GENERATORS_DIR / split_generate(problem.spec.variants.params)[0]
        made_from += sorted(program.rglob("*")) if program.is_dir() else [program]
    for path in made_from:
        if path.is_file():
            digest.update(str(path.relative_to(problem.directory)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def made(problem: Problem, choice: variants.Chosen, root: Path, jobs: int = 1) -> Problem:
    """The variant as a problem: the same folder and programs, its own tests and statement,
    made once into `root` (a folder per variant and version of the problem)."""
    folder = root / problem.id / f"{choice.label}-{version(problem)[:16]}"
    if not (folder / MADE_FILE).is_file():
        # A lock per variant (among processes and threads alike: each flock is its own open
        # file): it is made once, and a slow variant never holds up another student's.
        with _locked(root / problem.id / f".{choice.label}.lock"):
            if not (folder / MADE_FILE).is_file():  # made by another while this one waited
                _make(problem, choice, folder, jobs)
                _remove_old(folder)
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
            text = rendering.rendered(text.decode("utf-8", errors="replace"), params, shown).encode()
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


def _remove_old(folder: Path) -> None:
    # The variant's folders of other versions, once this one is in place: new readers take
    # this one, and a reader of an old one has its files open (or lists the folder again).
    label = folder.name.rsplit("-", 1)[0]
    for old in folder.parent.glob(f"{label}-*"):
        if old != folder and old.is_dir() and old.name.rsplit("-", 1)[0] == label:
            shutil.rmtree(old, ignore_errors=True)
            log.info("%s: removed, a version of the problem before %s", old, folder.name)
