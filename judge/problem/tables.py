"""Distance tables on disk: built once, kept in the user's cache, checked on every load.

A table file is one header line (`judge-table <version> <name> <length> <sha256>`)
followed by the raw bytes. A missing, truncated or altered file is rebuilt; the cache
is never in git. Reading uses nothing heavier than hashlib and plain string paths (not
pathlib), so `judge solve` starts fast; building imports numpy.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable

from judge.paths import cache_dir

# Bump when a builder changes what it produces: old files are then ignored.
FORMAT_VERSION = 1

Notify = Callable[[str], None]
# Table name -> table bytes (a TableStore is one); injected, so that references never touch the disk.
TableSource = Callable[[str], bytes]


def build(names: Iterable[str]) -> dict[str, bytes]:
    """Compute the named tables, sharing work between tables of one puzzle."""
    from judge.problem.puzzles import rotations, sliding, sliding_build

    wanted = list(dict.fromkeys(names))
    unknown = [n for n in wanted if n not in sliding.TABLE_NAMES and n != rotations.TABLE_NAME]
    if unknown:
        raise KeyError(f"unknown table {unknown[0]!r}")
    built: dict[str, bytes] = {}
    blanks = [sliding.TABLE_NAMES.index(n) for n in wanted if n in sliding.TABLE_NAMES]
    if blanks:
        built.update(sliding_build.build_tables(blanks))
    if rotations.TABLE_NAME in wanted:
        built[rotations.TABLE_NAME] = rotations.build_table()
    return built


def _encode(name: str, data: bytes) -> bytes:
    digest = hashlib.sha256(data).hexdigest()
    return f"judge-table {FORMAT_VERSION} {name} {len(data)} {digest}\n".encode() + data


def _decode(name: str, blob: bytes) -> bytes | None:
    """The table in `blob`, or None when the file is not a sound copy of `name`."""
    header, sep, data = blob.partition(b"\n")
    if not sep:
        return None
    fields = header.split(b" ")
    if len(fields) != 5 or fields[0] != b"judge-table":
        return None
    version, stored_name, length, digest = fields[1:]
    if version != str(FORMAT_VERSION).encode() or stored_name != name.encode():
        return None
    if length != str(len(data)).encode() or hashlib.sha256(data).hexdigest().encode() != digest:
        return None
    return data


class TableStore:
    """Callable table source for the reference solvers: store(name) -> bytes."""

    def __init__(self, directory: str | os.PathLike[str] | None = None, notify: Notify | None = None) -> None:
        self.directory = os.fspath(directory) if directory is not None else cache_dir()
        self._notify = notify
        self._loaded: dict[str, bytes] = {}

    def path(self, name: str) -> str:
        return os.path.join(self.directory, f"{name}.v{FORMAT_VERSION}.bin")

    def __call__(self, name: str) -> bytes:
        if name not in self._loaded:
            self.ensure([name])
        return self._loaded[name]

    def ensure(self, names: Iterable[str]) -> None:
        """Load the named tables, building every missing or damaged one in a single pass."""
        missing: list[str] = []
        for name in names:
            if name in self._loaded:
                continue
            data = self._read(name)
            if data is None:
                missing.append(name)
            else:
                self._loaded[name] = data
        if not missing:
            return
        self._say(f"building distance tables: {', '.join(missing)} (once; cached in {self.directory})")
        for name, data in build(missing).items():
            self._loaded[name] = data
            self._write(name, data)

    def _read(self, name: str) -> bytes | None:
        path = self.path(name)
        try:
            with open(path, "rb") as stream:
                blob = stream.read()
        except FileNotFoundError:
            return None
        except OSError as err:
            self._say(f"cannot read {path}: {err.strerror}; rebuilding")
            return None
        data = _decode(name, blob)
        if data is None:
            self._say(f"{path}: damaged (checksum or header mismatch); rebuilding")
        return data

    def _write(self, name: str, data: bytes) -> None:
        # Atomic: a reader sees the old file or the whole new one, never half of it.
        try:
            import tempfile  # here, not at the top: it costs `judge solve` 5 ms to import

            os.makedirs(self.directory, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=self.directory)
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(_encode(name, data))
                os.replace(tmp, self.path(name))
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as err:
            self._say(f"cannot cache table {name} in {self.directory}: {err.strerror}; kept in memory only")

    def _say(self, message: str) -> None:
        if self._notify is not None:
            self._notify(message)
