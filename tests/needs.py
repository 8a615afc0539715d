"""One rule for "is this here?": what a test needs of the machine, asked of the judge's own
detection (what `judge doctor` reports), never of `shutil.which`. A test that finds a tool the
judge cannot use (a rustup rustc on the tests' PATH that doctor calls missing) fails where it
should skip; asking here, it skips with the package to install.

What can be needed, by name:
  a language id of languages.yaml   its toolchain, as the sandbox finds it (Language.missing, probe)
  "pytest"      pytest for the unit-test sandbox's Python (pairs.pytest_here: the system's or
                the judge's kit from PyPI)
  "system-pytest"  the machine's python3's own pytest (pytest_kit.system_version), for a test
                that runs pytest itself beside the judge, as a reference
  "junit"       Java and JUnit 5's jar (kit.junit_here)
  "isolation"   a sandbox the judge runs submissions in (sandbox.detect().isolated)
  "bwrap"       bubblewrap in use (sandbox.detect().bwrap.active)
  "fastspawn"   the _fastspawn extension, built at install and switched on (session.fast_spawn)
  "chromium"    Debian's chromium, which the browser tests drive through Playwright
  "root", "user"  the tests run as root, or as an ordinary user

`mark(...)` marks a test (or, as `pytestmark`, a module); the conftest's hook asks at the test's
setup, so nothing is probed for a test that does not run. `require(...)` skips from inside a test
or a fixture. The answers are cached: some probes start a program (a JVM, python3 with pytest).
"""

from __future__ import annotations

import os
import shutil
from functools import cache

import pytest

MARK = "needs"
CHROMIUM_NAMES = ("chromium", "chromium-browser")


def mark(*things: str, because: str = "") -> pytest.MarkDecorator:
    """A test (or module) that skips unless every one of `things` is here; `because` says why
    the test needs it, where that is not plain."""
    for thing in things:
        if thing not in known():
            raise ValueError(f"tests.needs: unknown need {thing!r} (known: {', '.join(sorted(known()))})")
    return getattr(pytest.mark, MARK)(*things, because=because)


def require(*things: str, because: str = "") -> None:
    """Skip the running test unless every one of `things` is here."""
    why = why_not(*things, because=because)
    if why:
        pytest.skip(why)


def why_not(*things: str, because: str = "") -> str:
    """The first missing thing's skip reason (naming what to install), or "" when all are here."""
    for thing in things:
        why = _why_not_one(thing)
        if why:
            return f"{why} ({because})" if because else why
    return ""


def forget() -> None:
    """Ask again next time (a test of this module changes what the judge detects)."""
    _why_not_one.cache_clear()


@cache
def known() -> frozenset[str]:
    from judge.run import languages

    return frozenset(languages.load().languages) | frozenset(_CHECKS)


def chromium() -> str | None:
    """Debian's chromium, the browser the tests drive (never one Playwright downloads). The
    judge has no word on it: it runs beside the tests, outside any sandbox, so their PATH is it."""
    found = (shutil.which(name) for name in CHROMIUM_NAMES)
    return next((path for path in found if path), None)


@cache
def _why_not_one(thing: str) -> str:
    check = _CHECKS.get(thing)
    if check is not None:
        return check()
    return _language(thing)


def _language(language_id: str) -> str:
    """As `judge doctor` decides it: missing (not found where the sandbox looks), broken (found,
    but its version command fails), or installed."""
    from judge.run import languages

    language = languages.load().by_id(language_id)
    missing = language.missing()
    install = f"apt-get install {language.package}"
    if install in missing:
        return f"needs {language.name}: {install}"
    if missing:  # found, but where the sandbox cannot show it (toolfolders): the judge says why
        return f"needs {language.name}: {missing}; or {install}"
    found = languages.probe(language)
    if found.error:
        return f"needs {language.name} that runs: {found.error} (apt-get install {language.package})"
    return ""


def _pytest() -> str:
    from judge.kinds.unit import pairs

    here = pairs.pytest_here()
    if here.startswith("missing"):
        return f"needs pytest for the unit-test sandbox's python3: {here.removeprefix('missing').lstrip(': ')}"
    return ""


def _system_pytest() -> str:
    from judge.kinds.unit import pytest_kit

    if pytest_kit.system_version():
        return ""
    return "needs pytest for the machine's python3 (a reference run beside the judge): apt-get install python3-pytest"


def _junit() -> str:
    from judge.kinds.unit import kit

    java = _language("java")
    if java:
        return java
    here = kit.junit_here()
    if here.startswith("missing"):
        return f"needs JUnit 5: {here.removeprefix('missing').lstrip(': ')}"
    return ""


def _isolation() -> str:
    from judge.run import sandbox

    problem = sandbox.isolation_problem(sandbox.detect())
    return f"needs a sandbox that isolates: {problem}" if problem else ""


def _bwrap() -> str:
    from judge.run import sandbox

    layer = sandbox.detect().bwrap
    return "" if layer.active else f"needs bubblewrap (apt-get install bubblewrap): {layer.detail}"


def _fastspawn() -> str:
    from judge.run.sandbox import session

    if session.fast_spawn():
        return ""
    return (
        "needs the _fastspawn extension: apt-get install gcc python3-dev, then reinstall the judge "
        f"(pip install -e .), with ${session.FAST_ENV} not 0"
    )


def _chromium() -> str:
    return "" if chromium() else "needs Debian's chromium: apt-get install chromium"


def _root() -> str:
    return "" if os.geteuid() == 0 else "needs root: run the tests as root"


def _user() -> str:
    return "" if os.geteuid() != 0 else "needs an ordinary user: run the tests as one (.ci/rootless does)"


_CHECKS = {
    "pytest": _pytest,
    "system-pytest": _system_pytest,
    "junit": _junit,
    "isolation": _isolation,
    "bwrap": _bwrap,
    "fastspawn": _fastspawn,
    "chromium": _chromium,
    "root": _root,
    "user": _user,
}
