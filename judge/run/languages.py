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

LANGUAGES_FILE = Path(__file__).with_name("languages.yaml")
PLACEHOLDERS = frozenset({"source", "binary", "mainclass", "memory_mib"})


def _tuple_from_list(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


Argv = Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list), Field(min_length=1)]


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
    # Memory the JVM needs beyond the program's heap (-Xmx): added to the cgroup limit.
    jvm_allowance_mib: int = Field(default=0, ge=0)
    # RLIMIT_AS is wrong for a JVM, which reserves far more address space than it uses.
    address_space_limit: bool = True

    @model_validator(mode="after")
    def _placeholders_known(self) -> Language:
        for argv in (self.compile or (), self.run, (self.source,)):
            for part in argv:
                unknown = placeholders(part) - PLACEHOLDERS
                if unknown:
                    raise ValueError(f"unknown placeholder {{{sorted(unknown)[0]}}} in {part!r}")
                if "binary" in placeholders(part) and self.binary is None:
                    raise ValueError(f"{part!r} uses {{binary}} but the language has no `binary`")
        return self

    @property
    def uses_mainclass(self) -> bool:
        return "mainclass" in placeholders(self.source)

    def source_name(self, mainclass: str) -> str:
        return self.source.format(mainclass=mainclass)

    def fill(
        self, argv: Sequence[str], source: str, mainclass: str, memory_mib: int, sources: Sequence[str] | None = None
    ) -> list[str]:
        """An argv of languages.yaml with its placeholders filled; a `{source}` of its own
        becomes the files of `sources` when it is given (C, C++: all into one binary)."""
        values = {"source": source, "binary": self.binary or "", "mainclass": mainclass, "memory_mib": str(memory_mib)}
        filled: list[str] = []
        for part in argv:
            if part == "{source}" and sources is not None:
                filled += sources
            else:
                filled.append(part.format(**values))
        return filled

    def compile_argv(self, mainclass: str = "Main") -> list[str] | None:
        return None if self.compile is None else self.fill(self.compile, self.source_name(mainclass), mainclass, 0)

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

    def detect(self, path: Path) -> Language:
        """The language of a source file, by its extension."""
        suffix = path.suffix.lower().lstrip(".")
        for language in self.languages.values():
            if suffix in language.extensions:
                return language
        known = ", ".join(f".{e}" for lang in self.languages.values() for e in lang.extensions)
        raise JudgeError(f"{path}: unknown language for extension '.{suffix}' (known: {known}; or pass --lang)")


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


_PUBLIC_CLASS = re.compile(rb"public\s+(?:final\s+|abstract\s+)*class\s+([A-Za-z_$][A-Za-z0-9_$]*)")
_ANY_CLASS = re.compile(rb"\bclass\s+([A-Za-z_$][A-Za-z0-9_$]*)")


def java_main_class(source: bytes) -> str:
    """The public class of a Java source (the file must be named after it), else the first class."""
    for pattern in (_PUBLIC_CLASS, _ANY_CLASS):
        match = pattern.search(source)
        if match:
            return match.group(1).decode("ascii")
    return "Main"


@dataclass(frozen=True)
class Toolchain:
    """What this machine has of a language: the command a sandboxed program finds, and the
    first line of its version (or why there is none)."""

    command: str
    path: str | None
    version: str
    error: str


def probe(language: Language) -> Toolchain:
    import shutil
    import subprocess

    from judge.run import sandbox

    command = (language.compile or language.run)[0]
    path = shutil.which(command, path=sandbox.SANDBOX_PATH)  # what a sandboxed program finds
    if path is None:
        return Toolchain(command, None, "", f"`{command}` not on PATH")
    try:
        done = subprocess.run([path, *language.version[1:]], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as error:
        return Toolchain(command, path, "", f"cannot run: {error}")
    text = (done.stdout or done.stderr).strip().splitlines()
    return Toolchain(command, path, text[0] if text else f"exit code {done.returncode}", "")
