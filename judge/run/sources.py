"""A program's files -> Sources: one source file, a folder, or a .zip / .tar.gz of them, read
into memory and identified (the language from the files, the entry point by the language's
convention). Submissions and a problem's own programs are both read here, with caps of
their own.

An archive or a folder is untrusted: an entry that would land outside it (`..`, an absolute
path), a link or a device, more files or bytes than the cap (counted as they are read, since
an archive may declare less than it holds) are refused before anything is written anywhere.
Nothing is unpacked to disk: the files go into the box straight from memory.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import re
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from judge.errors import JudgeError
from judge.run import languages, notebooks
from judge.run.languages import Language

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz")
HEADER_SUFFIXES = frozenset({"h", "hh", "hpp", "hxx", "inc"})  # code, though of no language by itself
BUILD_SCRIPT = "build"  # a submission's own build step, where its problem allows one
RUN_SCRIPT = "run"  # how a submission with a build script starts, when it says so itself
# Parts of a folder or archive that are never a program's: editors', VCS and OS leftovers.
_IGNORED = re.compile(r"^(\..*|__MACOSX|__pycache__|Thumbs\.db)$")


class SourceError(JudgeError):
    """The files cannot be judged: one line naming the file (and line where there is one)."""


class NoLanguage(SourceError):
    """A folder or archive holds no source file of a language the judge has."""


@dataclass(frozen=True)
class Caps:
    bytes: int  # every file together, unpacked
    files: int


SUBMISSION_CAPS = Caps(bytes=1 << 20, files=100)
MAX_ENTRY_DEPTH = 32  # folders an entry of an untrusted archive may lie under
MAX_PART_BYTES = 255  # one part of an entry's name (the file systems' NAME_MAX)
MAX_NAME_BYTES = 1024  # an entry's whole name
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # a newline in a name would break every one-line message naming it


def safe_name(name: str, where: str) -> PurePosixPath:
    """An archive entry's name as a relative path, or SourceError (one line) when it would be
    written outside the folder it is unpacked into, or is no name a file system and a report
    can hold: not UTF-8 (a lone surrogate), a control character, over MAX_ENTRY_DEPTH folders deep, a part over
    MAX_PART_BYTES or the whole over MAX_NAME_BYTES (the rule of every untrusted archive)."""
    shown = repr(name if len(name) <= 80 else name[:77] + "...")
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        raise SourceError(f"{where}: entry {shown}: its name is not UTF-8 text; refused") from None
    path = PurePosixPath(name)
    drive = bool(path.parts) and ":" in path.parts[0]
    if name.startswith("/") or "\\" in name or path.is_absolute() or ".." in path.parts or drive:
        raise SourceError(f"{where}: entry {shown} would be written outside its folder; refused")
    if _CONTROL.search(name):
        raise SourceError(f"{where}: entry {shown}: a control character in its name; refused")
    if len(path.parts) > MAX_ENTRY_DEPTH + 1:
        raise SourceError(f"{where}: entry {shown} is more than {MAX_ENTRY_DEPTH} folders deep; refused")
    if size > MAX_NAME_BYTES or any(len(part.encode("utf-8")) > MAX_PART_BYTES for part in path.parts):
        raise SourceError(f"{where}: entry {shown}: its name is too long for a file system; refused")
    return path


def is_archive(path: Path) -> bool:
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


@dataclass(frozen=True)
class Sources:
    """The files of one program, read and identified."""

    path: Path  # the file, folder or archive they came from
    language: Language
    files: tuple[tuple[str, bytes], ...]  # (name relative to the folder, content), sorted by name
    main: str  # the entry file (run, or holding the main class); "" when all are compiled together
    mainclass: str
    build_script: bool = False  # a `build` file replaces the language's compile (allowed by the problem)
    run_script: bool = False  # ... and a `run` file its run command
    single: bool = True  # one source file as given (not a folder or an archive)

    @property
    def main_box_name(self) -> str:
        """The entry file's name in the box: the language's own (main.py, Main.java), so its
        run command is the same for every submission (main.mjs for an ES module: keeps_suffix)."""
        return self.language.source_name(self.mainclass, self.main or (self.files[0][0] if self.files else ""))

    def box_files(self) -> list[tuple[str, bytes]]:
        """(name in the box, content) of every file."""
        if self.single:
            return [(self.main_box_name, self.files[0][1])]
        return [(self.main_box_name if name == self.main else name, content) for name, content in self.files]

    def source_names(self) -> list[str]:
        """The box names of the files in the program's language: what `{files}` stands for."""
        if self.single:
            return [self.main_box_name]
        names = [name for name, _ in self.box_files() if languages.suffix_of(name) in self.language.extensions]
        return sorted(names, key=lambda name: (name != self.main_box_name, name)) if self.main else names

    @property
    def content(self) -> bytes:
        """Every file in a stable order, each after a line with its name (one file: its bytes):
        what a submission's hash and its similarity are computed from."""
        if self.single:
            return self.files[0][1]
        return b"".join(f"\0{name}\0{len(data)}\0".encode() + data for name, data in self.files)

    def head(self) -> bytes:
        """The entry file (or the first source file): where a header comment is looked for."""
        by_box = dict(self.box_files())
        return by_box[self.source_names()[0]]

    def joined(self) -> str:
        """The source files' text, the entry first, then by name, then the headers they
        include: what similarity compares."""
        by_box = dict(self.box_files())
        names = self.source_names()
        names += [name for name in sorted(by_box) if languages.suffix_of(name) in HEADER_SUFFIXES]
        return "\n".join(by_box[name].decode("utf-8", errors="replace") for name in names)

    def listing(self) -> list[tuple[str, str]]:
        """(name, text) of the files a reader is shown: the sources first, then other text."""
        own = [(n, c) for n, c in self.files if languages.suffix_of(n) in self.language.extensions]
        other = [(n, c) for n, c in self.files if (n, c) not in own and b"\0" not in c]
        return [(name, data.decode("utf-8", errors="replace")) for name, data in own + other]

    def fill(self, argv: Sequence[str], memory_mib: int, compiling: bool = False) -> list[str]:
        return self.language.fill(argv, self.main_box_name, self.mainclass, memory_mib, self.source_names(), compiling)

    def compile_argv(self) -> list[str] | None:
        if self.build_script:
            return ["sh", BUILD_SCRIPT]
        return None if self.language.compile is None else self.fill(self.language.compile, 0, compiling=True)

    def run_argv(self, memory_mib: int) -> list[str]:
        if self.run_script:
            return ["sh", RUN_SCRIPT]
        return self.fill(self.language.run, memory_mib)

    def launch(self, memory_mib: int) -> Launch:
        return Launch(tuple(self.run_argv(memory_mib)), self.language.id)


@dataclass(frozen=True)
class Launch:
    """How each case of a built program starts: its command, and the language it is written in
    (which a kind may decide by: a function's exceptions are named per language)."""

    argv: tuple[str, ...]
    language: str


# --- reading ---------------------------------------------------------------------------------


def _folder_files(folder: Path, caps: Caps) -> list[tuple[str, bytes]]:
    entries: list[tuple[str, Path]] = []
    for item in sorted(folder.rglob("*")):
        relative = item.relative_to(folder)
        if any(_IGNORED.match(part) for part in relative.parts):
            continue
        if item.is_symlink():
            raise SourceError(f"{item}: a symbolic link (copy the file instead)")
        if item.is_file():
            entries.append((str(safe_name(relative.as_posix(), str(folder))), item))
        elif not item.is_dir():
            raise SourceError(f"{item}: not a regular file")
    if len(entries) > caps.files:
        raise SourceError(f"{folder}: {len(entries)} files, more than {caps.files}")
    files: list[tuple[str, bytes]] = []
    total = 0
    for name, item in entries:
        try:
            with item.open("rb") as stream:
                content = stream.read(caps.bytes + 1 - total)
        except OSError as err:
            raise SourceError(f"{item}: cannot read: {err.strerror}") from None
        total += len(content)
        if total > caps.bytes:
            raise SourceError(f"{folder}: over {_size(caps.bytes)} of files together")
        files.append((name, content))
    return files


def _size(count: int) -> str:
    if count >= 1 << 20:
        return f"{count >> 20} MiB"
    return f"{count >> 10} KiB" if count >= 1 << 10 else f"{count} bytes"


def _archive_files(archive: Path, caps: Caps) -> list[tuple[str, bytes]]:
    try:
        # Packed, the files are no bigger than unpacked (stored, plus headers).
        if archive.stat().st_size > 2 * caps.bytes + (64 << 10):
            raise SourceError(f"{archive}: {archive.stat().st_size} bytes, over {_size(caps.bytes)} of files")
        packed = archive.read_bytes()
    except OSError as err:
        raise SourceError(f"{archive}: cannot read: {err.strerror}") from None
    return archive_files(archive, packed, caps)


def archive_files(archive: Path, packed: bytes, caps: Caps = SUBMISSION_CAPS) -> list[tuple[str, bytes]]:
    """The files of an archive (its bytes `packed`, its name `archive`), under `caps`."""
    if archive.name.lower().endswith(".zip"):
        found = _zip_files(archive, packed, caps)
    else:
        found = _tar_files(archive, packed, caps)
    found = [(name, data) for name, data in found if not any(_IGNORED.match(p) for p in name.split("/"))]
    # A zip of a folder: its one top folder is the submission.
    tops = {name.split("/", 1)[0] for name, _ in found}
    if len(tops) == 1 and all("/" in name for name, _ in found):
        found = [(name.split("/", 1)[1], data) for name, data in found]
    names = [name for name, _ in found]
    if len(set(names)) != len(names):
        raise SourceError(f"{archive}: a file is in the archive twice")
    _no_file_under_a_file(archive, names)
    return sorted(found)


def _no_file_under_a_file(archive: Path, names: list[str]) -> None:
    """Refuse a file that another entry needs as its folder (`a` beside `a/b.txt`): no box
    could hold both, and it is the submitter's to fix, told before anything runs."""
    files = set(names)
    for name in sorted(names):
        parents = PurePosixPath(name).parents
        clash = next((str(parent) for parent in parents if str(parent) in files), None)
        if clash is not None:
            raise SourceError(
                f"{archive}: entries {clash!r} and {name!r} collide ({clash!r} is a file and a folder); refused"
            )


def _zip_files(archive: Path, packed: bytes, caps: Caps) -> list[tuple[str, bytes]]:
    try:
        zf = zipfile.ZipFile(io.BytesIO(packed))
    except (zipfile.BadZipFile, ValueError) as err:
        raise SourceError(f"{archive}: not a readable zip file ({err})") from None
    with zf:
        entries = [info for info in zf.infolist() if not info.is_dir()]
        if len(entries) > caps.files:
            raise SourceError(f"{archive}: {len(entries)} files, more than {caps.files}")
        for info in entries:
            safe_name(info.filename, str(archive))
            if stat.S_ISLNK(info.external_attr >> 16):
                raise SourceError(f"{archive}: entry {info.filename!r} is a symbolic link; refused")
        if sum(info.file_size for info in entries) > caps.bytes:
            raise SourceError(f"{archive}: unpacks to over {_size(caps.bytes)}; refused")
        files = []
        total = 0
        for info in entries:
            try:
                with zf.open(info) as stream:
                    data = stream.read(caps.bytes + 1 - total)
            except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as err:
                raise SourceError(f"{archive}: entry {info.filename!r} cannot be read ({err}); refused") from None
            total += len(data)
            if total > caps.bytes:
                raise SourceError(f"{archive}: unpacks to over {_size(caps.bytes)}; refused")
            files.append((str(safe_name(info.filename, str(archive))), data))
    return files


def _tar_files(archive: Path, packed: bytes, caps: Caps) -> list[tuple[str, bytes]]:
    # The whole stream is unpacked under a cap first: a gzip bomb stops at the cap, and
    # tarfile then reads from memory. A tar holds 512-byte headers and padding per file.
    limit = caps.bytes + 1024 * (caps.files + 2)
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(packed)) as stream:
            raw = stream.read(limit + 1)
    except (OSError, EOFError, zlib.error) as err:
        raise SourceError(f"{archive}: not a readable .tar.gz file ({err})") from None
    if len(raw) > limit:
        raise SourceError(f"{archive}: unpacks to over {_size(caps.bytes)}; refused")
    files = []
    try:
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tar:
            members = tar.getmembers()
            if len(members) > caps.files * 2:
                raise SourceError(f"{archive}: {len(members)} entries, more than {caps.files}")
            for member in members:
                name = str(safe_name(member.name, str(archive)))
                if member.isdir():
                    continue
                if not member.isreg():
                    raise SourceError(f"{archive}: entry {member.name!r} is a link or a device; refused")
                extracted = tar.extractfile(member)
                files.append((name, extracted.read() if extracted is not None else b""))
    except tarfile.TarError as err:
        raise SourceError(f"{archive}: not a readable .tar.gz file ({err})") from None
    if len(files) > caps.files:
        raise SourceError(f"{archive}: {len(files)} files, more than {caps.files}")
    return files


def read_files(path: Path, caps: Caps) -> list[tuple[str, bytes]]:
    """The files of a file, folder or archive: (relative name, content), sorted."""
    if path.is_dir():
        return _folder_files(path, caps)
    if not path.exists():
        raise SourceError(f"{path}: no such file or folder")
    if is_archive(path):
        return _archive_files(path, caps)
    try:
        with path.open("rb") as stream:
            content = stream.read(caps.bytes + 1)
    except OSError as err:
        raise SourceError(f"{path}: cannot read: {err.strerror}") from None
    if len(content) > caps.bytes:
        size = path.stat().st_size
        raise SourceError(f"{path}: {size} bytes, over the {caps.bytes}-byte source limit")
    return [(path.name, content)]


# --- identifying -----------------------------------------------------------------------------


def _language_of(
    path: Path, files: Sequence[tuple[str, bytes]], table: languages.LanguageTable, single: bool
) -> Language:
    if single:
        try:
            return table.detect(path.with_name(files[0][0]), files[0][1])
        except JudgeError as err:
            raise NoLanguage(str(err)) from None
    found: dict[str, Language] = {}
    for name, content in files:
        try:
            # The language an extension names first (a variant, cpp20 say, is asked for by id).
            language = table.detect(Path(name), content)
        except JudgeError:
            continue  # a file of no language: a header, data, notes
        found[language.id] = language
    if set(found) == {"c", "cpp"}:  # a C++ program may carry C files
        return found["cpp"]
    if len(found) != 1:
        what = ", ".join(sorted(found)) or "none"
        raise (SourceError if found else NoLanguage)(
            f"{path}: needs source files of one language (found: {what}; known: {table.extensions()})"
        )
    return next(iter(found.values()))


def _entry(path: Path, language: Language, files: Sequence[tuple[str, bytes]], guess: bool) -> str:
    """The entry file of a folder by the language's convention: among the top-level sources,
    the one with a main (Java, Kotlin, Scala), else the one named main (main.py, Main.hs) or
    after the folder (lanqiao.py in lanqiao/), else the only one; else, when `guess`, the first
    by name, as problemtools runs a package's programs (a student is asked instead)."""
    top = [(n, c) for n, c in files if "/" not in n and languages.suffix_of(n) in language.extensions]
    anywhere = [n for n, _ in files if languages.suffix_of(n) in language.extensions]
    if not top:
        nested = f" ({anywhere[0]} is in a subfolder)" if anywhere else ""
        raise SourceError(f"{path}: no {language.name} source at the top of the folder{nested}")
    name = path.name or path.resolve().name  # `judge run .` names its folder
    stem = name.split(".")[0] if is_archive(path) else name
    own = PurePosixPath(language.source_name("Main")).stem.lower()
    if language.entry:
        marked = [n for n, c in top if re.search(language.entry.encode(), c)]
        if len(marked) == 1:
            return marked[0]
        if len(marked) > 1:
            named = [n for n in marked if PurePosixPath(n).stem.lower() == own]
            if len(named) == 1:
                return named[0]
            raise SourceError(f"{path}: {len(marked)} files with a main ({', '.join(marked)}): which one runs?")
    if len(top) == 1:
        return top[0][0]
    for wanted in (own, stem.lower()):
        named = [n for n, _ in top if PurePosixPath(n).stem.lower() == wanted]
        if len(named) == 1:
            return named[0]
    if guess:
        return sorted(top)[0][0]
    suffix = PurePosixPath(top[0][0]).suffix
    raise SourceError(
        f"{path}: {len(top)} {language.name} files and none named {own}{suffix} or {stem}{suffix}: which one runs?"
    )


BuildScripts = Literal["refuse", "use", "ignore"]


def identify(
    path: Path,
    files: Sequence[tuple[str, bytes]],
    language_id: str | None = None,
    build_scripts: BuildScripts = "refuse",
    guess_entry: bool = False,
    single: bool | None = None,
) -> Sources:
    """The files of `path` as a program: its language (`language_id`, else from the files),
    its entry, the main class; SourceError (one line, naming the file) when unusable.
    `build_scripts`: what a `build` file at the top is (refused; the compile; just a file).
    `guess_entry`: a package's program (a problem's own, or its solutions) whose entry its
    names do not tell runs its first file by name, as problemtools does. `single`: whether the
    files are one source file as given (None: look at `path` on disk)."""
    table = languages.load()
    packed = (path.is_dir() or is_archive(path)) if single is None else not single
    files = _notebooks_as_modules(path, files, packed)
    if not files:
        raise SourceError(f"{path}: empty folder" if packed else f"{path}: empty submission")
    single = len(files) == 1 and not packed
    language = table.by_id(language_id) if language_id else _language_of(path, files, table, single)
    names = {name for name, _ in files}
    build_script = not single and BUILD_SCRIPT in names and build_scripts != "ignore"
    if build_script and build_scripts == "refuse":
        raise SourceError(f"{path}: has a `build` script, which this problem does not allow (remove it)")
    for name, content in files:
        if (
            single
            or languages.suffix_of(name) in language.extensions
            or (build_script and name in (BUILD_SCRIPT, RUN_SCRIPT))
        ):
            shown = path if single else path / name
            _check_text(shown, content)
    if not any(
        content.strip() for name, content in files if single or languages.suffix_of(name) in language.extensions
    ):
        raise SourceError(f"{path}: empty submission" if single else f"{path}: no {language.name} source in it")
    if single:
        main = files[0][0]
    elif language.needs_entry:
        main = _entry(path, language, files, guess_entry)
    else:
        main = ""
    content = dict(files).get(main, b"")
    mainclass = language.main_class(content) if language.uses_mainclass else "Main"
    found = Sources(
        path,
        language,
        tuple(sorted(files)),
        main,
        mainclass,
        build_script,
        build_script and RUN_SCRIPT in names,
        single,
    )
    if not single and main:
        clash = [n for n in names if n == found.main_box_name and n != main]
        if clash:
            raise SourceError(f"{path}: {main} runs as {found.main_box_name}, which is another file's name")
    return found


def _notebooks_as_modules(path: Path, files: Sequence[tuple[str, bytes]], packed: bool) -> list[tuple[str, bytes]]:
    """Each Jupyter notebook as the Python module its code cells make (notebooks.py)."""
    found = []
    for name, content in files:
        if not name.endswith(notebooks.SUFFIX):
            found.append((name, content))
            continue
        try:
            found.append((notebooks.module_name(name), notebooks.module_of(content)))
        except notebooks.NotebookError as err:
            raise SourceError(f"{path / name if packed else path}: {err}") from None
    return found


def _check_text(path: Path, content: bytes) -> None:
    if b"\0" in content:
        raise SourceError(f"{path}: binary file, not source code")
    try:
        content.decode("utf-8")
    except UnicodeDecodeError as err:
        line = content[: err.start].count(b"\n") + 1
        raise SourceError(f"{path}:{line}: not UTF-8 text") from None


def read(
    path: Path,
    caps: Caps = SUBMISSION_CAPS,
    language_id: str | None = None,
    build_scripts: BuildScripts = "refuse",
    guess_entry: bool = False,
) -> Sources:
    """Read and identify a program (a source file, a folder or an archive)."""
    return identify(path, read_files(path, caps), language_id, build_scripts, guess_entry)


def from_upload(
    name: str,
    data: bytes,
    caps: Caps = SUBMISSION_CAPS,
    language_id: str | None = None,
    build_scripts: BuildScripts = "refuse",
) -> Sources:
    """A program given as bytes under the name its author gave it (an upload, a stored
    submission): nothing is written to disk or looked up there, and every message names
    `name` (its last part only: a name is never a path of the judge's)."""
    shown = Path(PurePosixPath(name.replace("\\", "/")).name or "submission")
    if is_archive(shown):
        return identify(shown, archive_files(shown, data, caps), language_id, build_scripts, single=False)
    if len(data) > caps.bytes:
        raise SourceError(f"{shown}: {len(data)} bytes, over the {caps.bytes}-byte source limit")
    return identify(shown, [(shown.name, data)], language_id, build_scripts, single=True)


def as_record(program: Sources) -> bytes:
    """The program as identified, for a queue to keep: `from_record` gives it back exactly
    (its language, entry and files as decided now), with no rule of identification applied again."""
    kept = {
        "path": str(program.path),
        "language": program.language.id,
        "files": [[name, base64.b64encode(data).decode("ascii")] for name, data in program.files],
        "main": program.main,
        "mainclass": program.mainclass,
        "build_script": program.build_script,
        "run_script": program.run_script,
        "single": program.single,
    }
    return json.dumps(kept, sort_keys=True).encode()


def from_record(record: bytes) -> Sources:
    """A program kept by `as_record`. SourceError when its language is no longer one of
    languages.yaml's (the table changed since it was identified)."""
    kept = json.loads(record)
    table = languages.load()
    if kept["language"] not in table.languages:
        raise SourceError(f"{Path(kept['path']).name}: language {kept['language']!r} is no longer known to this judge")
    return Sources(
        Path(kept["path"]),
        table.by_id(kept["language"]),
        tuple((name, base64.b64decode(data)) for name, data in kept["files"]),
        kept["main"],
        kept["mainclass"],
        build_script=kept["build_script"],
        run_script=kept["run_script"],
        single=kept["single"],
    )


def shown_lines(files: Sequence[tuple[str, bytes]]) -> list[str]:
    """A program of several files as the lines a reader is shown: each text file after a
    `==> name <==` line, as head(1) shows several files."""
    lines: list[str] = []
    for name, data in files:
        if b"\0" not in data:
            lines += [f"==> {name} <==", *data.decode("utf-8", errors="replace").splitlines(), ""]
    return lines


def fingerprint(path: Path) -> bytes:
    """What a submission's hash is taken of, even when it cannot be read as a program: a
    file's bytes; a folder's names and contents."""
    if not path.is_dir():
        try:
            return path.read_bytes()
        except OSError:
            return b""
    digest = hashlib.sha256()
    for item in sorted(path.rglob("*")):
        if item.is_file() and not item.is_symlink():
            digest.update(item.relative_to(path).as_posix().encode() + b"\0")
            try:
                digest.update(item.read_bytes())
            except OSError:
                pass
    return digest.digest()


def pack(path: Path) -> tuple[str, bytes]:
    """A submission as one file to send (to a judge host) or store: a file or an archive as it
    is; a folder as a zip of its files, in a stable order."""
    if not path.is_dir():
        return path.name, path.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in _folder_files(path, Caps(bytes=64 << 20, files=10_000)):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return f"{path.name}.zip", buffer.getvalue()
