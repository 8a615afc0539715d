"""A kit's jar is put in its folder whole, and a second judge that made one too leaves the first."""

from __future__ import annotations

import zipfile
from pathlib import Path

from judge.kinds import jars


def test_a_kits_jar_is_placed_whole_and_the_first_one_made_stays(tmp_path: Path) -> None:
    made = tmp_path / "Main.class"
    made.write_bytes(b"first")
    folder = tmp_path / "kit"
    jars.place(tmp_path / "one", folder, "harness.jar", [(made, "Main.class")], 0o444)
    with zipfile.ZipFile(folder / "harness.jar") as jar:
        assert jar.read("Main.class") == b"first"
    assert (folder / "harness.jar").stat().st_mode & 0o777 == 0o444
    assert not (tmp_path / "one").exists()  # renamed into place, not copied
    made.write_bytes(b"second")
    jars.place(tmp_path / "two", folder, "harness.jar", [(made, "Main.class")], 0o444)  # another judge, later
    with zipfile.ZipFile(folder / "harness.jar") as jar:
        assert jar.read("Main.class") == b"first"


def test_an_archive_is_copied_out_of_the_box_only_where_one_was_dumped(tmp_path: Path) -> None:
    box, work = tmp_path / "box", tmp_path / "work"
    box.mkdir()
    work.mkdir()
    assert jars.copied_out(box / "call.jsa", work, 0o444) is None
    (box / "call.jsa").write_bytes(b"")
    assert jars.copied_out(box / "call.jsa", work, 0o444) is None  # an empty dump is none
    (box / "call.jsa").write_bytes(b"archive")
    kept = jars.copied_out(box / "call.jsa", work, 0o444)
    assert kept == work / "call.jsa" and kept.read_bytes() == b"archive" and kept.stat().st_mode & 0o777 == 0o444
