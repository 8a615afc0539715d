"""A run's stdin: a private, sealed copy of the input in memory, never the judge's own file.

Rootless, a program runs as the judge's own uid (mapped): handed the judge's descriptor of a
test's input, it could reopen /proc/self/fd/0 read-write, truncate or chmod it, and so change
the teacher's file for every later run. A memfd sealed against writing, shrinking and growing
is a file of its own that nobody can change, and still a regular file: seek, fstat and mmap
work on it as on the input (a pipe would break programs that mmap their stdin).
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

# Its bytes and size fixed for good; F_SEAL_SEAL: no process may lift or add a seal later.
SEALS = fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL

_CHUNK = 1 << 30  # sendfile's most per call; it loops until the input's end


def sealed_copy(path: Path | str | None) -> int:
    """A read-only descriptor (close-on-exec, at offset 0) of a sealed in-memory copy of the
    file at `path`; of /dev/null for None. The caller closes it."""
    if path is None:
        return os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    memfd = os.memfd_create("judge-input", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        source = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            _copy(source, memfd)
        finally:
            os.close(source)
        fcntl.fcntl(memfd, fcntl.F_ADD_SEALS, SEALS)
        # A read-only description of its own, at offset 0: mmap(MAP_SHARED) of a write-sealed
        # memfd is refused through a writable one before Linux 6.7.
        return os.open(f"/proc/self/fd/{memfd}", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        os.close(memfd)


def _copy(source: int, target: int) -> None:
    try:
        while os.sendfile(target, source, None, _CHUNK):
            pass
    except OSError as err:
        # A file sendfile cannot read from (a pipe on an older kernel): read and write.
        if err.errno not in (errno.EINVAL, errno.ENOSYS) or os.lseek(target, 0, os.SEEK_CUR):
            raise
        while chunk := os.read(source, 1 << 20):
            view = memoryview(chunk)
            while view:
                view = view[os.write(target, view) :]
