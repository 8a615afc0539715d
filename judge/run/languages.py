"""Languages as data: `languages.yaml` beside this file, checked when loaded.

A language only turns a submission into argv lists (compile and run); the sandbox runs
them and knows nothing of languages.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from judge.errors import JudgeError
from judge.run import toolfolders

LANGUAGES_FILE = Path(__file__).with_name("languages.yaml")
PLACEHOLDERS = frozenset({"source", "files", "binary", "mainclass", "memory_mib"})


def _tuple_from_list(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


Argv = Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list), Field(min_length=1)]


def suffix_of(name: str) -> str:
    """A file name's extension as languages.yaml writes it: lower case, no dot."""
    return Path(name).suffix.lower().lstrip(".")


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


class Language(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    id: str
    name: str
    extensions: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list), Field(min_length=1)]
    source: str  # file name of the submission inside the box
    binary: str | None = None
    compile: Argv | None = None
    run: Argv
    version: Argv
    package: str  # the Debian package of the toolchain, for judge doctor and the errors
    time_factor: float = Field(default=1.0, gt=0, le=20)  # where the problem sets no multiplier
    compile_time_factor: float = Field(default=1.0, gt=0, le=20)
    env: dict[str, str] = Field(default_factory=dict)  # added to the sandbox's environment
    # Added to the compile's only: a run never reads them, and each run would pay env(1)'s exec
    # for them (Go's toolchain variables cost each case of a Go program about a millisecond).
    compile_env: dict[str, str] = Field(default_factory=dict)
    # Memory a runtime needs beyond the program's heap (-Xmx): added to the cgroup limit.
    jvm_allowance_mib: int = Field(default=0, ge=0)
    # RLIMIT_AS is wrong for a JVM, which reserves far more address space than it uses.
    address_space_limit: bool = True
    # What the runtime prints when its heap is full: the case is then MLE, not RE.
    memory_marks: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = ()
    # Patterns whose first group is the main class (the source file is named after it).
    mainclass: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = ()
    # The package a main class is in (Java's `package foo.bar;`): it runs as foo.bar.Main.
    namespace: str | None = None
    # In a folder of several files: what marks the entry file (Java's `static void main`).
    entry: str | None = None
    # Where an extension is shared (.pl: Prolog, Perl), a first line matching this wins.
    shebang: str | None = None
    # Host folders beyond /usr and /etc the compiler reads, bound read-only for compiling only.
    compile_reads: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = ()
    # Entry suffixes kept in the box (main.mjs, not main.js): a runtime that reads the file's
    # kind from its suffix (Node: an ES module) then reads it as the student wrote it.
    keeps_suffix: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = ()
    # Languages that take the same source (python3, pypy3: python): the function kind's records are per family.
    family: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]*$")

    @model_validator(mode="after")
    def _placeholders_known(self) -> Language:
        for pattern in (*self.mainclass, *(p for p in (self.shebang, self.entry, self.namespace) if p)):
            try:
                re.compile(pattern)
            except re.error as err:
                raise ValueError(f"pattern {pattern!r}: {err}") from None
        for folder in self.compile_reads:
            if not folder.startswith("/") or folder.rstrip("/") == "":
                raise ValueError(f"compile_reads: {folder!r} is not an absolute folder below /")
        if set(self.keeps_suffix) - set(self.extensions):
            raise ValueError(f"keeps_suffix: {sorted(set(self.keeps_suffix) - set(self.extensions))} not in extensions")
        if any(placeholders(value) for value in (*self.env.values(), *self.compile_env.values())):
            raise ValueError("env and compile_env values are plain text (no placeholders): a compile shares them")
        for argv in (self.compile or (), self.run, (self.source,)):
            for part in argv:
                unknown = placeholders(part) - PLACEHOLDERS
                if unknown:
                    raise ValueError(f"unknown placeholder {{{sorted(unknown)[0]}}} in {part!r}")
                if "files" in placeholders(part) and part != "{files}":
                    raise ValueError(f"{part!r}: {{files}} stands alone, as one argument per file")
                if "binary" in placeholders(part) and self.binary is None:
                    raise ValueError(f"{part!r} uses {{binary}} but the language has no `binary`")
        return self

    @property
    def uses_mainclass(self) -> bool:
        return "mainclass" in placeholders(self.source)

    @property
    def needs_entry(self) -> bool:
        """Whether a program of several files has an entry file (a script that is run, a
        main class, the file a compiler starts from); none where every source file is
        compiled into one binary together (C, C++, Go, C#)."""
        together = self.binary is not None and "{files}" in (self.compile or ())
        named = any({"source", "mainclass"} & placeholders(part) for part in (*(self.compile or ()), *self.run))
        return self.uses_mainclass or named or not together

    def main_class(self, source: bytes) -> str:
        """The main class a source declares (its first pattern that matches), else Main,
        after the package it declares: foo.bar.Main."""
        name = "Main"
        for pattern in self.mainclass:
            match = re.search(pattern.encode(), source)
            if match:
                name = match.group(1).decode("ascii", errors="replace")
                break
        package = re.search(self.namespace.encode(), source) if self.namespace else None
        if package is None:
            return name
        return "".join(package.group(1).decode("ascii", errors="replace").split()) + "." + name

    def missing(self) -> str:
        """Why this language cannot run here ("" when it can): the command a sandboxed program
        would not find, and the package that brings it; or why a toolchain on the judge's PATH
        outside the system's folders cannot be shown in the sandbox (toolfolders)."""
        for command in self.commands:
            found = toolfolders.locate(command)
            if found.why:
                return f"no {self.name} toolchain here: {found.why}"
            if found.where is None:
                return f"no {self.name} toolchain here: `{command}` not found (apt-get install {self.package})"
        return ""

    @property
    def commands(self) -> tuple[str, ...]:
        """The commands it runs by name (not `./{binary}`), the toolchain's own (the version's) first."""
        every = (argv[0] for argv in (self.version, self.compile, self.run) if argv)
        return tuple(dict.fromkeys(command for command in every if not command.startswith(".")))

    def source_name(self, mainclass: str, entry: str = "") -> str:
        """The entry file's name: a main class's file is named after the class alone; an entry
        (its name as given) whose suffix the language keeps has that suffix (main.mjs)."""
        name = self.source.format(mainclass=mainclass.rpartition(".")[2])
        suffix = suffix_of(entry)
        if suffix and suffix in self.keeps_suffix:
            return f"{Path(name).stem}.{suffix}"
        return name

    def fill(
        self,
        argv: Sequence[str],
        source: str,
        mainclass: str,
        memory_mib: int,
        files: Sequence[str] | None = None,
        compiling: bool = False,
    ) -> list[str]:
        """An argv of languages.yaml with its placeholders filled: `{source}` the entry file,
        `{files}` every source file (`files`; the entry alone when not given); a compile's
        (`compiling`) takes compile_env's variables too."""
        values = {"source": source, "binary": self.binary or "", "mainclass": mainclass, "memory_mib": str(memory_mib)}
        # The language's variables go in through env(1): the argv is all a run (or a judge
        # host) needs to know.
        variables = {**self.env, **self.compile_env} if compiling else self.env
        filled: list[str] = ["env", *(f"{k}={v}" for k, v in variables.items())] if variables else []
        for part in argv:
            if part == "{files}":
                filled += files if files is not None else [source]
            else:
                filled.append(part.format(**values))
        return filled

    def compile_argv(self, mainclass: str = "Main") -> list[str] | None:
        """The compile of one source file (named as the language names it)."""
        if self.compile is None:
            return None
        return self.fill(self.compile, self.source_name(mainclass), mainclass, 0, compiling=True)

    def run_argv(self, memory_mib: int, mainclass: str = "Main") -> list[str]:
        return self.fill(self.run, self.source_name(mainclass), mainclass, memory_mib)


@dataclass(frozen=True)
class LanguageTable:
    languages: dict[str, Language]

    def by_id(self, language_id: str) -> Language:
        try:
            return self.languages[language_id]
        except KeyError:
            known = ", ".join(self.languages)
            raise JudgeError(f"unknown language {language_id!r} (known: {known})") from None

    def detect(self, path: Path, content: bytes | None = None) -> Language:
        """The language of a source file, by its extension; where languages share one (.pl),
        by the first line of `content` (read from `path` when not given) against their
        shebangs, else the first that has none."""
        suffix = suffix_of(path.name)
        found = [language for language in self.languages.values() if suffix in language.extensions]
        if len(found) > 1 and any(language.shebang for language in found):
            if content is None:
                try:
                    with path.open("rb") as stream:
                        content = stream.readline(4096)
                except OSError:
                    content = b""
            first = content.split(b"\n", 1)[0].decode("utf-8", errors="replace")
            for language in found:
                if language.shebang and re.search(language.shebang, first):
                    return language
            found = [language for language in found if not language.shebang] or found
        if found:
            return found[0]
        raise JudgeError(
            f"{path}: unknown language for extension '.{suffix}' (known: {self.extensions()}; or pass --lang)"
        )

    def commands(self) -> tuple[str, ...]:
        """The toolchains' commands every language runs by name (not `./{binary}`), in order:
        the ones the sandbox may have to show from outside the system's folders."""
        return tuple(dict.fromkeys(command for lang in self.languages.values() for command in lang.commands))

    def extensions(self) -> str:
        """Every known extension, for an error that lists them."""
        return ", ".join(sorted({f".{e}" for lang in self.languages.values() for e in lang.extensions}))


@lru_cache(maxsize=1)
def memory_marks() -> tuple[bytes, ...]:
    """Every language's out-of-memory messages: a run is read for all of them, so a case
    judged on a judge host needs no more than its argv."""
    return tuple(sorted({mark.encode() for language in load().languages.values() for mark in language.memory_marks}))


def time_factor_of(language_id: str) -> float:
    """A language's own factor on the CPU limit (1 for an id this table does not know)."""
    found = load().languages.get(language_id)
    return found.time_factor if found is not None else 1.0


@lru_cache(maxsize=4)
def load(path: Path = LANGUAGES_FILE) -> LanguageTable:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise JudgeError(f"{path}: {err}") from None
    if not isinstance(data, dict):
        raise JudgeError(f"{path}: expected a mapping of language ids")
    languages: dict[str, Language] = {}
    for language_id, fields in data.items():
        try:
            languages[language_id] = Language.model_validate({"id": language_id, **fields})
        except (ValidationError, TypeError) as err:
            raise JudgeError(f"{path}: language {language_id!r}: {err}") from None
    return LanguageTable(languages)


@dataclass(frozen=True)
class Toolchain:
    """What this machine has of a language: the command a sandboxed program finds, and the
    first line of its version (or why there is none)."""

    command: str
    path: str | None
    version: str
    error: str
    # Found on the judge's PATH outside the system's folders: the folder the sandbox shows
    # read-only for it (not part of the version, which judge hosts compare).
    outside: str = ""


def probe_all(table: LanguageTable) -> dict[str, Toolchain]:
    """Every language's probe, a few at a time (a JVM takes a second to say its version)."""
    from concurrent.futures import ThreadPoolExecutor

    every = list(table.languages.values())
    with ThreadPoolExecutor(8) as pool:
        return {language.id: found for language, found in zip(every, pool.map(probe, every), strict=True)}


def probe(language: Language) -> Toolchain:
    import subprocess

    command = language.version[0]  # the toolchain's own command (a compile may go through sh)
    found = toolfolders.locate(command)  # what a sandboxed program finds
    path = found.where
    if path is None:
        return Toolchain(command, None, "", found.why or f"`{command}` not on PATH")
    try:
        done = subprocess.run([path, *language.version[1:]], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as error:
        return Toolchain(command, path, "", f"cannot run: {error}")
    # The first line that is not a runtime's warning (kotlinc's JVM prints one first).
    text = [line for line in (done.stdout + "\n" + done.stderr).splitlines() if line.strip()]
    shown = [line for line in text if "warning" not in line.lower()] or text
    version = shown[0].strip() if shown else f"exit code {done.returncode}"
    return Toolchain(command, path, version, "", (found.folder or found.bin) if found.outside else "")
