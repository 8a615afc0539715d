"""A package is untrusted: unsafe entries, links out, zip bombs and huge files are refused
before anything is written."""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

import pytest

from judge.interop import importer, unpack
from judge.interop.unpack import PackageError
from tests.interop.packages import legacy, zip_folder


def written(target: Path) -> list[Path]:
    return sorted(target.rglob("*"))


@pytest.mark.parametrize("name", ["../evil.txt", "/etc/evil", "data/../../evil", "C:/evil", "a\\..\\evil"])
def test_entries_that_leave_the_package_are_refused(tmp_path: Path, name: str) -> None:
    archive = tmp_path / "p.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("problem.yaml", "name: X\n")
        zf.writestr(name, "gotcha")
    target = tmp_path / "out"
    target.mkdir()
    with pytest.raises(PackageError, match="outside its folder; refused"):
        unpack.extract_zip(archive, target)
    assert written(target) == []
    assert not (tmp_path / "evil.txt").exists()


def test_a_link_entry_in_a_zip_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "p.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        info = zipfile.ZipInfo("data/secret/1.in")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/shadow")
    target = tmp_path / "out"
    target.mkdir()
    with pytest.raises(PackageError, match="symbolic link; refused"):
        unpack.extract_zip(archive, target)
    assert written(target) == []


def test_a_zip_bomb_is_refused_before_writing(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("problem.yaml", "name: X\n")
        zf.writestr("data/secret/1.in", b"\0" * (100 << 20))
    assert archive.stat().st_size < 1 << 20
    target = tmp_path / "out"
    target.mkdir()
    with pytest.raises(PackageError, match="a zip bomb"):
        unpack.extract_zip(archive, target)
    assert written(target) == []


def test_an_entry_that_holds_more_than_it_declares_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "liar.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("data/1.in", b"1" * (2 << 20))
    monkeypatch.setattr(unpack, "MAX_FILE_BYTES", 1 << 20)
    # The declared size is checked first: declare less than the entry holds.
    original = zipfile.ZipFile.infolist

    def lying(self: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
        entries = original(self)
        for info in entries:
            info.file_size = 10
        return entries

    monkeypatch.setattr(zipfile.ZipFile, "infolist", lying)
    target = tmp_path / "out"
    target.mkdir()
    with pytest.raises(PackageError, match=r"'data/1\.in' is corrupt"):
        unpack.extract_zip(archive, target)


def test_a_folder_with_a_link_out_is_refused(tmp_path: Path) -> None:
    package = legacy(tmp_path / "linked")
    os.symlink("/etc/passwd", package / "data" / "secret" / "4.in")
    problems = tmp_path / "problems"
    problems.mkdir()
    with pytest.raises(PackageError, match="outside the package; refused"):
        importer.import_package(package, problems)
    assert written(problems) == []


def test_a_link_inside_the_package_is_followed(tmp_path: Path) -> None:
    package = legacy(tmp_path / "inside", **{".timelimit": "1\n"})
    os.symlink("1.in", package / "data" / "secret" / "4.in")
    os.symlink("1.ans", package / "data" / "secret" / "4.ans")
    problems = tmp_path / "problems"
    problems.mkdir()
    imported = importer.import_package(package, problems)
    copied = imported.directory / "data" / "secret" / "4.in"
    assert not copied.is_symlink() and copied.read_text() == "1 2\n"


def test_a_huge_file_is_refused(tmp_path: Path) -> None:
    package = legacy(tmp_path / "huge")
    with open(package / "data" / "secret" / "big.in", "wb") as stream:
        stream.truncate(unpack.MAX_FILE_BYTES + 1)  # sparse: costs no disk
    problems = tmp_path / "problems"
    problems.mkdir()
    with pytest.raises(PackageError, match="over 256 MiB; refused"):
        importer.import_package(package, problems)
    assert written(problems) == []


def test_a_zip_of_a_folder_or_of_its_contents(tmp_path: Path) -> None:
    folder = legacy(tmp_path / "pkg", **{".timelimit": "1\n"})
    for top in ("pkg", None):
        archive = zip_folder(folder, tmp_path / f"add-{top}.zip", top=top)
        target = tmp_path / f"out-{top}"
        target.mkdir()
        unpack.extract_zip(archive, target)
        assert (unpack.package_root(target) / "problem.yaml").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(PackageError, match=r"no problem\.yaml"):
        unpack.package_root(empty)


def test_not_a_zip(tmp_path: Path) -> None:
    fake = tmp_path / "fake.zip"
    fake.write_text("hello")
    with pytest.raises(PackageError, match="not a readable zip file"):
        unpack.extract_zip(fake, tmp_path)


def zip_named(path: Path, name: bytes, utf8_flag: bool = True) -> Path:
    """A zip whose one entry's name is these bytes, flagged as UTF-8 (as zipfile never writes them)."""
    stand_in = "n" * len(name)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("problem.yaml", "name: X\n")
        zf.writestr(stand_in, "1\n")
    raw = bytearray(path.read_bytes().replace(stand_in.encode(), name))
    if utf8_flag:
        for signature, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # each header's flags
            start = raw.find(signature)
            while start >= 0:
                raw[start + at + 1] |= 0x08  # bit 11 (little-endian): the name is UTF-8
                start = raw.find(signature, start + 4)
    path.write_bytes(bytes(raw))
    return path


@pytest.mark.parametrize(
    ("name", "said"),
    [
        (b"data/bad\xff\xfe.in", "not a readable zip file"),  # flagged UTF-8, and it is not
        (b"data/\xed\xa0\x80.in", "not a readable zip file"),  # a surrogate's bytes
        (b"a/" * 2000 + b"1.in", "is more than 32 folders deep; refused"),
        (b"data/" + b"x" * 300 + b".in", "its name is too long for a file system; refused"),
        (b"data/a\nb.in", "a control character in its name; refused"),
    ],
)
def test_an_entry_whose_name_no_file_system_or_report_holds_is_refused_in_one_line(
    tmp_path: Path, name: bytes, said: str
) -> None:
    archive = zip_named(tmp_path / "p.zip", name)
    target = tmp_path / "out"
    target.mkdir()
    with pytest.raises(PackageError) as raised:
        unpack.extract_zip(archive, target)
    assert said in str(raised.value) and "\n" not in str(raised.value) and len(str(raised.value)) < 300
    assert written(target) == []
