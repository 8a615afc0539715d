"""A kit's jar (the JUnit runner's, a function harness's) put in its folder in the judge's
cache: the folder appears whole or not at all, and a judge that made it first wins; and the
class-data archive a JVM dumped in a box, copied out of it to be renamed into the kit."""

from __future__ import annotations

import os
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path


def place(made: Path, folder: Path, jar: str, classes: Iterable[tuple[Path, str]], mode: int) -> None:
    """`classes` (each a class file and its name in the jar) written into `made`/`jar`, then
    `made` renamed to `folder` (both on the cache's disk)."""
    made.mkdir()
    with zipfile.ZipFile(made / jar, "w") as written:
        for path, name in classes:
            written.write(path, name)
    os.chmod(made / jar, mode)
    os.chmod(made, 0o755)
    try:
        os.rename(made, folder)
    except OSError:
        if not (folder / jar).is_file():
            raise


def copied_out(dumped: Path, work: Path, mode: int) -> Path | None:
    """The file a JVM dumped in its box, copied into `work` (on the cache's disk, to be renamed
    into place) with `mode`; None where it dumped nothing."""
    if not dumped.is_file() or dumped.stat().st_size == 0:
        return None
    kept = work / dumped.name
    shutil.copyfile(dumped, kept)
    os.chmod(kept, mode)
    return kept
