"""A folder written out as a zip, atomically: a package (export) or an autograder (Gradescope)."""

from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path


def write_zip(output: Path, root: Path, names_from: Path, executable: frozenset[str] = frozenset()) -> None:
    """Every file below `root` into `output`, named by its path from `names_from`, with the
    files named in `executable` given mode 755. An interrupted write leaves the old file or
    the new one, never half: the zip is made beside it and renamed."""
    fd, temporary = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(root.rglob("*")):
                if path.is_file():
                    info = zipfile.ZipInfo.from_file(path, path.relative_to(names_from).as_posix())
                    if path.name in executable:
                        info.external_attr = 0o755 << 16
                    with path.open("rb") as stream:
                        archive.writestr(info, stream.read(), zipfile.ZIP_DEFLATED)
        os.replace(temporary, output)
    except BaseException:
        os.unlink(temporary)
        raise
