"""Unpack an archive from another judge host, refusing what could reach outside its folder.

`tarfile`'s own `filter="data"` does this from Python 3.11.4 on; Debian 12's Python is 3.11.2,
and the judge claims 3.11.0. This is the same rule, written for every 3.11: regular files,
folders and links that stay inside; no absolute names, no `..` out, no devices, no writing
through a link, no set-id bits; modes cut to what the judge's own user may need.
"""

from __future__ import annotations

import io
import os
import posixpath
import tarfile
from pathlib import Path


class UnsafeArchive(tarfile.TarError):
    """An entry that would land, or point, outside the folder it is unpacked into."""


def _relative(name: str, what: str) -> str:
    """The entry's name as a clean path inside the folder, or why it is refused."""
    if not name or name.startswith("/") or "\0" in name:
        raise UnsafeArchive(f"{what} {name!r}: an absolute or empty name")
    clean = posixpath.normpath(name)
    if clean == ".." or clean.startswith("../"):
        raise UnsafeArchive(f"{what} {name!r}: leads out of the folder")
    return clean


def _no_link_on_the_way(root: Path, clean: str) -> Path:
    """The entry's path, whose folders must be real folders (not links) inside `root`."""
    here = root
    for part in Path(clean).parent.parts:
        here = here / part
        if here.is_symlink():
            raise UnsafeArchive(f"entry {clean!r}: would be written through the link {part!r}")
    return root / clean


def _new(root: Path, clean: str) -> Path:
    """Where a new entry goes: nothing but a folder may be there already."""
    target = _no_link_on_the_way(root, clean)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise UnsafeArchive(f"entry {clean!r}: named twice in the archive")
    return target


def _mode(member: tarfile.TarInfo, folder: bool) -> int:
    # No set-id or sticky bits, nobody else may write; the owner can always read (and enter).
    mode = member.mode & 0o755
    return mode | (0o700 if folder else 0o600)


def _link(root: Path, member: tarfile.TarInfo, clean: str, target: Path) -> None:
    if member.issym():
        if member.linkname.startswith("/"):
            raise UnsafeArchive(f"link {clean!r}: points to an absolute path {member.linkname!r}")
        points = posixpath.normpath(posixpath.join(posixpath.dirname(clean), member.linkname))
        _relative(points, f"link {clean!r} to")
        os.symlink(member.linkname, target)
        return
    source = _no_link_on_the_way(root, _relative(member.linkname, f"hard link {clean!r} to"))
    if not source.is_file() or source.is_symlink():
        raise UnsafeArchive(f"hard link {clean!r}: {member.linkname!r} is not a file unpacked before it")
    os.link(source, target)


def extract(archive: bytes, into: Path) -> None:
    """Unpack the tar (compressed or not) into the existing folder `into`; UnsafeArchive
    (a tarfile.TarError) on the first entry refused, with what was unpacked left to the caller."""
    root = into.resolve()
    folders: list[tuple[Path, int]] = []
    with tarfile.open(fileobj=io.BytesIO(archive)) as stream:
        for member in stream:
            clean = _relative(member.name, "entry")
            if clean == ".":
                continue
            target = _new(root, clean)
            target.parent.mkdir(parents=True, exist_ok=True)
            if member.isdir():
                target.mkdir(exist_ok=True)
                folders.append((target, _mode(member, folder=True)))
            elif member.isreg():
                source = stream.extractfile(member)
                with open(target, "xb") as out:  # never through a link, never over a file
                    while source is not None and (chunk := source.read(1 << 20)):
                        out.write(chunk)
                os.chmod(target, _mode(member, folder=False))
            elif member.issym() or member.islnk():
                _link(root, member, clean, target)
            else:
                raise UnsafeArchive(f"entry {clean!r}: a device, pipe or other special file")
    # Folders last: a folder without write permission must still have been filled first.
    for folder, mode in reversed(folders):
        os.chmod(folder, mode)
