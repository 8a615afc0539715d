"""A problem package is untrusted input: copy it (a folder) or extract it (a .zip) into a
private staging folder, refusing before anything is written when an entry would land
outside it (`..`, an absolute path, a symbolic link that points out), when the unpacked
size is far beyond the packed one (a zip bomb), or when one file is huge.

The sizes a zip declares are checked first, and the bytes really written are counted
too, since a crafted archive may declare less than it holds.
"""

from __future__ import annotations

import os
import shutil
import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from judge.errors import JudgeError
from judge.run import sources

MAX_FILE_BYTES = 256 << 20  # one file of a package (a big test input is tens of MiB)
MAX_TOTAL_BYTES = 2 << 30  # everything unpacked
MAX_RATIO = 200  # unpacked / packed bytes, over the whole archive (text compresses ~10x)
MAX_ENTRIES = 100_000
RATIO_FLOOR = 64 << 20  # below this many unpacked bytes, any ratio is fine


class PackageError(JudgeError):
    """The package is unusable or unsafe; nothing was written."""


def _safe_name(name: str, where: str) -> PurePosixPath:
    # The rule of every untrusted archive, a submission's too (judge.run.sources).
    try:
        return sources.safe_name(name, where)
    except sources.SourceError as err:
        raise PackageError(str(err)) from None


def extract_zip(archive: Path, target: Path) -> None:
    """Extract into `target` (an empty folder), refusing unsafe entries before writing."""
    try:
        zf = zipfile.ZipFile(archive)
    except (OSError, zipfile.BadZipFile, ValueError) as err:  # ValueError: a name flagged UTF-8 that is not
        raise PackageError(f"{archive}: not a readable zip file ({err})") from None
    with zf:
        entries = zf.infolist()
        if len(entries) > MAX_ENTRIES:
            raise PackageError(f"{archive}: {len(entries)} entries, more than {MAX_ENTRIES}; refused")
        declared = 0
        for info in entries:
            _safe_name(info.filename, str(archive))
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise PackageError(f"{archive}: entry {info.filename!r} is a symbolic link; refused")
            if info.file_size > MAX_FILE_BYTES:
                raise PackageError(
                    f"{archive}: entry {info.filename!r} unpacks to {info.file_size} bytes, over {MAX_FILE_BYTES >> 20} MiB"
                )
            declared += info.file_size
        packed = max(1, archive.stat().st_size)
        _check_total(archive, declared, packed)
        written = 0
        for info in entries:
            path = target / _safe_name(info.filename, str(archive))
            if info.is_dir():
                path.mkdir(parents=True, exist_ok=True)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                with zf.open(info) as source, open(path, "wb") as sink:
                    own = 0
                    while chunk := source.read(1 << 20):
                        own += len(chunk)
                        written += len(chunk)
                        if own > MAX_FILE_BYTES:
                            raise PackageError(
                                f"{archive}: entry {info.filename!r} holds more than it declares; refused"
                            )
                        _check_total(archive, written, packed)
                        sink.write(chunk)
            except (zipfile.BadZipFile, zlib.error, EOFError) as err:
                # zipfile reads no more than the declared size: a lie shows as a bad CRC.
                raise PackageError(f"{archive}: entry {info.filename!r} is corrupt ({err}); refused") from None


def _check_total(archive: Path, unpacked: int, packed: int) -> None:
    if unpacked > MAX_TOTAL_BYTES:
        raise PackageError(f"{archive}: unpacks to more than {MAX_TOTAL_BYTES >> 30} GiB; refused")
    if unpacked > RATIO_FLOOR and unpacked > MAX_RATIO * packed:
        raise PackageError(f"{archive}: unpacks to {unpacked >> 20} MiB from {packed >> 10} KiB (a zip bomb?); refused")


def copy_folder(source: Path, target: Path) -> None:
    """Copy a package folder into `target`: links inside it are followed, links out refused."""
    root = source.resolve()
    total = 0
    plan: list[tuple[Path, Path]] = []
    for current, dirs, files in os.walk(source, followlinks=False):
        here = Path(current)
        for name in sorted(dirs + files):
            item = here / name
            relative = item.relative_to(source)
            if item.is_symlink():
                resolved = item.resolve()
                if not resolved.is_relative_to(root):
                    raise PackageError(f"{item}: a symbolic link to {resolved}, outside the package; refused")
            if item.is_file():
                size = item.stat().st_size
                if size > MAX_FILE_BYTES:
                    raise PackageError(f"{item}: {size} bytes, over {MAX_FILE_BYTES >> 20} MiB; refused")
                total += size
                if total > MAX_TOTAL_BYTES:
                    raise PackageError(f"{source}: more than {MAX_TOTAL_BYTES >> 30} GiB; refused")
                plan.append((item, target / relative))
        # Links to folders inside the package are not walked twice: their files are
        # reached through the real folder.
        dirs[:] = [d for d in dirs if not (here / d).is_symlink()]
    for item, destination in plan:
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(item, destination)


def package_root(unpacked: Path) -> Path:
    """The folder holding problem.yaml: the top, or its only subfolder (a zip of a folder)."""
    if (unpacked / "problem.yaml").is_file():
        return unpacked
    entries = [e for e in unpacked.iterdir() if not e.name.startswith(".") and e.name != "__MACOSX"]
    if len(entries) == 1 and entries[0].is_dir() and (entries[0] / "problem.yaml").is_file():
        return entries[0]
    raise PackageError("no problem.yaml at the top of the package")
