"""What a client needs of a judge worker, and what a worker has.

A worker tells the scheduler what it has as dask resources: the fingerprint of the judge's
code, an isolated sandbox, and each toolchain with a digest of its version line. Every
task of a client asks for the resources its submission needs, so the scheduler never
gives a case to a worker that would judge it otherwise than the client's own machine
(another judge version, another compiler, no sandbox). A worker that lacks something is
named once, with the reason, and gets none of that client's work."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judge import paths

JUDGE = "judge"
SANDBOX = "sandbox-isolated"
LANGUAGE = "language"


@dataclass(frozen=True)
class Offer:
    """What a worker has."""

    code: str  # fingerprint of the judge's code
    sandbox_mode: str
    isolated: bool
    toolchains: tuple[tuple[str, str], ...]  # (language id, version line); only those that run

    def to_json(self) -> str:
        return json.dumps([self.code, self.sandbox_mode, self.isolated, [list(t) for t in self.toolchains]])

    @staticmethod
    def from_json(text: str) -> Offer:
        code, mode, isolated, toolchains = json.loads(text)
        return Offer(str(code), str(mode), bool(isolated), tuple((str(a), str(b)) for a, b in toolchains))


@dataclass(frozen=True)
class Needs:
    """What a client needs: its judge code, isolation (unless it runs unsafe) and the
    toolchains of its submissions, at the client's version when it has the toolchain."""

    code: str
    isolated: bool
    languages: tuple[tuple[str, str], ...]  # (language id, version line or "" for any)


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """The judge's code and language table: a worker running other code could judge otherwise."""
    root = Path(paths.PACKAGE)
    digest = hashlib.sha256()
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.yaml")]):
        if "__pycache__" in path.parts:
            continue
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _version_key(version: str) -> str:
    return hashlib.sha256(version.encode()).hexdigest()[:12]


def resources(offer: Offer) -> dict[str, float]:
    """The dask resources a worker advertises (one unit each: a worker runs one case at a time)."""
    found = {f"{JUDGE}-{offer.code}": 1.0}
    if offer.isolated:
        found[SANDBOX] = 1.0
    for language, version in offer.toolchains:
        found[f"{LANGUAGE}-{language}"] = 1.0
        found[f"{LANGUAGE}-{language}-{_version_key(version)}"] = 1.0
    return found


def required(needs: Needs) -> dict[str, float]:
    """The resources each task of a client asks for."""
    wanted = {f"{JUDGE}-{needs.code}": 1.0}
    if needs.isolated:
        wanted[SANDBOX] = 1.0
    for language, version in needs.languages:
        key = f"{LANGUAGE}-{language}-{_version_key(version)}" if version else f"{LANGUAGE}-{language}"
        wanted[key] = 1.0
    return wanted


def refusal(needs: Needs, offer: Offer) -> str:
    """Why a worker cannot take this client's work, in a few words ("" when it can)."""
    if offer.code != needs.code:
        return f"runs other judge code ({offer.code}, the client has {needs.code}): install the same judge"
    if needs.isolated and not offer.isolated:
        return f"its sandbox is not isolated ({offer.sandbox_mode}): see `judge doctor` there"
    has = dict(offer.toolchains)
    for language, version in needs.languages:
        if language not in has:
            return f"has no {language} toolchain"
        if version and has[language] != version:
            return f"has {has[language]!r} for {language}, the client {version!r}"
    return ""


def local_offer() -> Offer:
    """What this machine has (probes the toolchains: a second or so)."""
    from judge.run import languages, sandbox

    layers = sandbox.detect()
    toolchains = []
    for language_id, found in languages.probe_all(languages.load()).items():
        if found.path is not None and not found.error:
            toolchains.append((language_id, found.version))
    return Offer(code_fingerprint(), layers.mode, layers.isolated, tuple(toolchains))


def client_needs(language_ids: set[str], isolated: bool) -> Needs:
    """The needs of a client judging these languages: the version it has itself, where it has one."""
    from judge.run import languages

    table = languages.load()
    wanted = []
    for language_id in sorted(language_ids):
        found = languages.probe(table.by_id(language_id))
        wanted.append((language_id, found.version if found.path is not None and not found.error else ""))
    return Needs(code_fingerprint(), isolated, tuple(wanted))
