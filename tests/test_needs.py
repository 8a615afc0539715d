"""tests/needs.py: what a test needs is what the judge detects, and a marked test skips before
its fixtures are made, naming what to install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.kinds.unit import kit, pairs
from judge.run import languages
from judge.run.sandbox import session
from tests import needs
from tests.conftest import REPO


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    needs.forget()
    yield
    needs.forget()  # what the test faked is not what later tests find


def _only_missing(monkeypatch: pytest.MonkeyPatch, language_id: str, why: str = "") -> None:
    """The judge says `language_id` is missing, as Language.missing says it (or with `why`)."""
    real = languages.Language.missing

    def missing(self: languages.Language) -> str:
        if self.id != language_id:
            return real(self)
        return why or f"no {self.name} toolchain here: `x` not found (apt-get install {self.package})"

    monkeypatch.setattr(languages.Language, "missing", missing)


def test_a_language_is_the_judges_to_find_not_shutil_which(monkeypatch: pytest.MonkeyPatch) -> None:
    # rustup's rustc on the test's PATH, which no sandboxed program finds: the judge's word wins.
    monkeypatch.setattr(shutil, "which", lambda *args, **kwargs: "/root/.cargo/bin/rustc")
    _only_missing(monkeypatch, "rust")
    rust = languages.load().by_id("rust")
    assert needs.why_not("rust") == f"needs {rust.name}: apt-get install rustc"


def test_a_toolchain_the_sandbox_cannot_show_says_the_judges_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    shim = "no Go toolchain here: ~/.asdf/shims/go is a version manager's shim"
    _only_missing(monkeypatch, "go", shim)
    go = languages.load().by_id("go")
    assert needs.why_not("go") == f"needs {go.name}: {shim}; or apt-get install golang-go"


def test_a_language_whose_version_command_fails_is_not_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(languages.Language, "missing", lambda self: "")
    broken = languages.Toolchain("lua5.4", "/usr/bin/lua5.4", "", "cannot run: exec format error")
    monkeypatch.setattr(languages, "probe", lambda language: broken)
    lua = languages.load().by_id("lua")
    said = f"needs {lua.name} that runs: cannot run: exec format error (apt-get install lua5.4)"
    assert needs.why_not("lua") == said


def test_pytest_and_junit_are_asked_of_the_unit_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def pytest_here() -> str:
        asked.append("pytest")
        return "missing: apt-get install python3-pytest (unit-test problems run their tests with it)"

    monkeypatch.setattr(pairs, "pytest_here", pytest_here)
    said = needs.why_not("pytest")
    assert said == (
        "needs pytest for the unit-test sandbox's python3: apt-get install python3-pytest "
        "(unit-test problems run their tests with it)"
    )
    assert needs.why_not("pytest") == said and asked == ["pytest"]  # probed once
    monkeypatch.setattr(languages.Language, "missing", lambda self: "")
    monkeypatch.setattr(languages, "probe", lambda language: languages.Toolchain("java", "/usr/bin/java", "21", ""))
    monkeypatch.setattr(kit, "junit_here", lambda: "missing: apt-get install junit5 (JUnit 5 problems need it)")
    assert needs.why_not("junit") == "needs JUnit 5: apt-get install junit5 (JUnit 5 problems need it)"


def test_junit_needs_java_first(monkeypatch: pytest.MonkeyPatch) -> None:
    _only_missing(monkeypatch, "java")
    monkeypatch.setattr(kit, "junit_here", lambda: kit.JUNIT_JAR)
    java = languages.load().by_id("java")
    assert needs.why_not("junit") == f"needs {java.name}: apt-get install default-jdk-headless"


def test_fastspawn_switched_off_is_not_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(session.FAST_ENV, "0")
    assert "needs the _fastspawn extension: apt-get install gcc python3-dev" in needs.why_not("fastspawn")


def test_an_unknown_need_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="unknown need 'rustc'"):
        needs.mark("rustc")  # a command, not a language id: it would never be asked


def test_a_marked_test_skips_before_its_fixtures_naming_what_to_install(tmp_path: Path) -> None:
    """Exactly one of root and an ordinary user is here: its test runs, the other skips, and
    the skipped test's fixture is never made."""
    made = tmp_path / "made.txt"
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_configure, pytest_runtest_setup  # noqa\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_marked.py").write_text(
        "import os\n\nimport pytest\n\nfrom tests import needs\n\n\n@pytest.fixture\ndef made():\n"
        f"    with open({str(made)!r}, 'a') as out:\n        out.write('made\\n')\n\n\n"
        '@needs.mark("root")\ndef test_as_root(made):\n    assert os.geteuid() == 0\n\n\n'
        '@needs.mark("user", because="a reason of the test\'s own")\ndef test_as_user(made):\n'
        "    assert os.geteuid() != 0\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p", "no:xdist", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0 and "1 passed, 1 skipped" in ran.stdout, ran.stdout + ran.stderr
    skipped = (
        "needs an ordinary user: run the tests as one" if os.geteuid() == 0 else "needs root: run the tests as root"
    )
    assert skipped in ran.stdout, ran.stdout
    assert ("a reason of the test's own" in ran.stdout) == (os.geteuid() == 0), ran.stdout
    assert made.read_text() == "made\n"  # the skipped test's fixture was never made


def test_the_machines_own_pytest_is_not_the_judges_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that runs pytest itself as its reference needs the machine's, which the kit
    (fetched by the judge for its sandbox) does not give."""
    from judge.kinds.unit import pytest_kit

    monkeypatch.setattr(pytest_kit, "system_version", lambda: "")
    monkeypatch.setattr(pairs, "pytest_here", lambda: "pytest 8.3.5 (will be fetched from PyPI on first use)")
    assert needs.why_not("pytest") == ""
    assert needs.why_not("system-pytest").endswith("apt-get install python3-pytest")
