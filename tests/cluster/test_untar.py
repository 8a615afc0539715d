"""Unpacking what another judge host sent, on every Python 3.11 (no `tarfile` filter needed):
what stays inside is unpacked as it was, anything that reaches out is refused."""

from __future__ import annotations

import io
import os
import stat
import tarfile
from pathlib import Path

import pytest

from judge.cluster import untar


def _tar(*members: tuple[tarfile.TarInfo, bytes | None]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def _entry(name: str, kind: bytes = tarfile.REGTYPE, link: str = "", mode: int = 0o644) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.mode = kind, link, mode
    return info


def test_files_folders_and_inside_links_come_out_as_they_were(tmp_path: Path) -> None:
    archive = _tar(
        (_entry("box", tarfile.DIRTYPE, mode=0o755), None),
        (_entry("box/main", mode=0o755), b"#!/bin/sh\n"),
        (_entry("box/data.txt"), b"42\n"),
        (_entry("box/latest", tarfile.SYMTYPE, link="data.txt"), None),
        (_entry("box/again", tarfile.LNKTYPE, link="box/data.txt"), None),
    )
    untar.extract(archive, tmp_path)
    assert (tmp_path / "box" / "data.txt").read_bytes() == b"42\n"
    assert os.readlink(tmp_path / "box" / "latest") == "data.txt"
    assert (tmp_path / "box" / "again").stat().st_ino == (tmp_path / "box" / "data.txt").stat().st_ino
    assert os.access(tmp_path / "box" / "main", os.X_OK)


@pytest.mark.parametrize(
    "entry",
    [
        _entry("/etc/evil"),
        _entry("../evil"),
        _entry("box/../../evil"),
        _entry("escape", tarfile.SYMTYPE, link="/etc/shadow"),
        _entry("escape", tarfile.SYMTYPE, link="../../etc/shadow"),
        _entry("escape", tarfile.LNKTYPE, link="/etc/shadow"),
        _entry("escape", tarfile.LNKTYPE, link="../outside"),
        _entry("null", tarfile.CHRTYPE),
        _entry("pipe", tarfile.FIFOTYPE),
    ],
    ids=[
        "absolute",
        "dotdot",
        "dotdot-deep",
        "link-absolute",
        "link-out",
        "hard-absolute",
        "hard-out",
        "device",
        "fifo",
    ],
)
def test_an_entry_that_reaches_out_is_refused(tmp_path: Path, entry: tarfile.TarInfo) -> None:
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(tarfile.TarError):
        untar.extract(_tar((entry, b"x" if entry.isreg() else None)), into)
    assert not (tmp_path / "evil").exists() and not (tmp_path / "outside").exists()


def test_no_file_is_written_through_a_link_even_one_that_points_inside(tmp_path: Path) -> None:
    """An inside link to `.` then `link/../..`-style tricks: a folder on the way is never a link."""
    into = tmp_path / "into"
    into.mkdir()
    archive = _tar((_entry("here", tarfile.SYMTYPE, link="."), None), (_entry("here/file"), b"x"))
    with pytest.raises(untar.UnsafeArchive, match="through the link"):
        untar.extract(archive, into)


def test_a_name_given_twice_is_refused_rather_than_written_over(tmp_path: Path) -> None:
    archive = _tar((_entry("a", tarfile.SYMTYPE, link="b"), None), (_entry("a"), b"x"))
    with pytest.raises(untar.UnsafeArchive, match="twice"):
        untar.extract(archive, tmp_path)


def test_set_id_bits_and_others_write_are_dropped(tmp_path: Path) -> None:
    archive = _tar((_entry("d", tarfile.DIRTYPE, mode=0o1777), None), (_entry("d/run", mode=0o6777), b"x"))
    untar.extract(archive, tmp_path)
    assert stat.S_IMODE((tmp_path / "d" / "run").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "d").stat().st_mode) == 0o755
