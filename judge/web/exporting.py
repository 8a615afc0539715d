"""The web judge's submissions as a folder that `judge grade` and `judge similar` read:
SUBMISSIONS/<student>/<problem>/<the uploaded file> (a folder of one file keeps its name, which
a Java class needs), or SUBMISSIONS/<student>/<problem>.zip for an archive. The newest
submission per student and problem, or every one (each in SUBMISSIONS/<student>+<id>/, '+'
being in no roster id).

Written whole or not at all: made in a fresh folder beside the target and renamed into place.
A target that already holds something else is replaced only when asked (--force)."""

from __future__ import annotations

import filecmp
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from judge.errors import JudgeError
from judge.run.sources import ARCHIVE_SUFFIXES
from judge.web.state.accounts import valid_user_id
from judge.web.state.store import Store, SubmissionRow


@dataclass(frozen=True)
class ExportedFolder:
    folder: Path
    submissions: int
    unchanged: bool  # the folder already held exactly this


def chosen(rows: Iterable[SubmissionRow], every: bool, problems: Sequence[str] = ()) -> list[SubmissionRow]:
    """The submissions to export: each student's newest per problem (or `every` one), of
    `problems` only when given."""
    kept = [r for r in rows if not problems or r.problem in problems]
    if every:
        return sorted(kept, key=lambda r: r.id)
    newest: dict[tuple[str, str], SubmissionRow] = {}
    for row in kept:
        key = (row.student, row.problem)
        if key not in newest or row.id > newest[key].id:
            newest[key] = row
    return sorted(newest.values(), key=lambda r: r.id)


def place(row: SubmissionRow, every: bool) -> PurePosixPath:
    """Where a submission goes in the folder, relative to it. A student or problem that is no
    plain folder name (an id from before ids had to start with a letter or digit: '..') is
    refused, never followed out of the folder."""
    for part, what in ((row.student, "student"), (row.problem, "problem")):
        if not valid_user_id(part):
            raise JudgeError(f"submission {row.id}: the {what} {part!r} is no folder name; rename it to export")
    owner = f"{row.student}+{row.id}" if every else row.student
    name = PurePosixPath(row.filename.replace("\\", "/")).name
    lower = name.lower()
    archive = next((s for s in ARCHIVE_SUFFIXES if lower.endswith(s)), "")
    if archive:
        return PurePosixPath(owner, row.problem + archive)
    if name in ("", ".", "..") or name.startswith("."):
        name = "main" + PurePosixPath(row.filename).suffix
    return PurePosixPath(owner, row.problem, name)


def _write(store: Store, rows: Sequence[SubmissionRow], every: bool, folder: Path) -> None:
    for row in rows:
        path = folder / place(row, every)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(store.source(row.id))


def _same(a: Path, b: Path) -> bool:
    """Whether two folders hold the same files with the same bytes."""
    found = filecmp.dircmp(a, b)
    if found.left_only or found.right_only or found.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, found.common_files, shallow=False)
    return not mismatch and not errors and all(_same(a / d, b / d) for d in found.common_dirs)


def export(store: Store, rows: Sequence[SubmissionRow], every: bool, target: Path, force: bool) -> ExportedFolder:
    """Write `rows` to `target` atomically; a target holding anything else is a JudgeError
    unless `force`, and one holding exactly this is left as it is."""
    if target.exists() and not target.is_dir():
        raise JudgeError(f"{target}: exists and is not a folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        _write(store, rows, every, fresh)
        if target.is_dir() and any(target.iterdir()):
            if _same(fresh, target):
                shutil.rmtree(fresh)
                return ExportedFolder(target, len(rows), True)
            if not force:
                raise JudgeError(f"{target}: already holds other files; --force replaces the folder")
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            target.rename(old / "was")
            fresh.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            if target.is_dir():
                target.rmdir()
            fresh.rename(target)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return ExportedFolder(target, len(rows), False)
