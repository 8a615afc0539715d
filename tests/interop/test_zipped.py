"""A folder as a zip: names from the folder asked for, scripts executable, nothing left beside it."""

import zipfile
from pathlib import Path

from judge.interop.zipped import write_zip


def test_a_folder_is_zipped_under_its_names_with_its_scripts_executable(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    (root / "data").mkdir(parents=True)
    (root / "data" / "1.in").write_text("1\n")
    (root / "run").write_text("#!/bin/sh\n")
    output = tmp_path / "out.zip"
    output.write_text("an older zip")
    write_zip(output, root, tmp_path, executable=frozenset({"run"}))
    with zipfile.ZipFile(output) as archive:
        assert archive.namelist() == ["pkg/data/1.in", "pkg/run"]
        assert archive.read("pkg/data/1.in") == b"1\n"
        assert archive.getinfo("pkg/run").external_attr == 0o755 << 16
        assert archive.getinfo("pkg/data/1.in").external_attr >> 16 != 0o755
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.zip", "pkg"]  # no temporary left
