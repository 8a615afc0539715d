"""The judge's pytest kit: which pytest the tests use (the system's, else the kit), the kit
made from PyPI once, its wheels checked against the pins, two makers at once making it once,
and a pytest problem judged with the kit alone (JUDGE_PYTEST=kit) in either mode."""

from __future__ import annotations

import hashlib
import io
import multiprocessing
import shutil
import subprocess
import zipfile
from multiprocessing.synchronize import Event
from pathlib import Path

import pytest

from judge.author import scaffold
from judge.errors import JudgeError
from judge.grade import judging
from judge.kinds.table import load_problem
from judge.kinds.unit import pairs, pytest_kit
from judge.run import sandbox
from judge.run.programs import ProgramError
from tests import needs
from tests.test_cli import judge

# pip's words when the index cannot be reached or does not have the pins: the registry is not
# there, which is no fault of the kit's.
UNREACHABLE = ("could not find a version", "no matching distribution", "connection", "network", "timed out")
# A teacher's test that passes only where pytest is the kit's.
FROM_THE_KIT = (
    "\n\ndef test_pytest_is_the_kits():\n    import pytest\n\n"
    f'    assert "/{pytest_kit.KITS}/" in pytest.__file__, pytest.__file__\n'
)


def _wheel(name: str, version: str, module: str) -> bytes:
    """A wheel of one module, as pip would fetch it."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as wheel:
        wheel.writestr(f"{name}/__init__.py", module)
        wheel.writestr(f"{name}-{version}.dist-info/METADATA", f"Name: {name}\nVersion: {version}\n")
    return data.getvalue()


FAKE_WHEEL = _wheel("fakepkg", "1.0", "VERSION = '1.0'\n")
FAKE_PINS = (pytest_kit.Pin("fakepkg", "1.0", hashlib.sha256(FAKE_WHEEL).hexdigest()),)


def fake_fetch(pins: tuple[pytest_kit.Pin, ...], work: Path) -> Path:
    """The fake wheel, as pip downloads it; each call leaves a mark beside the work folder."""
    with open(work.parent / "fetches", "a") as marks:
        marks.write("fetched\n")
    (work / "wheels").mkdir()
    (work / "wheels" / "fakepkg-1.0-py3-none-any.whl").write_bytes(FAKE_WHEEL)
    return pytest_kit.unpack_checked(pins, work / "wheels", work / "kit")


def test_the_systems_pytest_comes_first_and_the_kit_where_it_is_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A cache of its own, with no kit in it: the session's may hold one another test made (on a
    # machine without the system's pytest, the minimal root of .ci/fresh, every unit test does).
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(pytest_kit, "system_version", lambda: "7.2.1")
    monkeypatch.setenv(pytest_kit.MODE_ENV, "auto")
    assert pairs.pytest_here() == "pytest 7.2.1 (the system's)"
    assert pytest_kit.resolve() == pytest_kit.Pytest("7.2.1", "")
    # JUDGE_PYTEST=kit passes the system's by (the kit is not made here: it would be fetched).
    monkeypatch.setenv(pytest_kit.MODE_ENV, "kit")
    assert "will be fetched from PyPI on first use" in pairs.pytest_here()
    monkeypatch.setattr(pytest_kit, "system_version", lambda: "")
    monkeypatch.setenv(pytest_kit.MODE_ENV, "auto")
    assert pairs.pytest_here().startswith(f"pytest {pytest_kit.PINS[0].version} (will be fetched")
    # Without pip or uv, or with the system's alone asked for and none there: missing.
    monkeypatch.setattr(pytest_kit, "fetcher", lambda: "")
    assert pairs.pytest_here().startswith("missing: unit-test problems need pytest: apt-get install python3-pytest")
    monkeypatch.setenv(pytest_kit.MODE_ENV, "system")
    assert pairs.pytest_here().startswith("missing: apt-get install python3-pytest")
    with pytest.raises(ProgramError, match="apt-get install python3-pytest"):
        pytest_kit.resolve()


def test_a_bad_mode_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(pytest_kit.MODE_ENV, "newest")
    assert pairs.pytest_here() == "missing: JUDGE_PYTEST='newest': must be one of auto, kit, system"
    with pytest.raises(JudgeError, match="JUDGE_PYTEST='newest'"):
        pytest_kit.resolve()


def test_the_kit_is_unpacked_whole_once(tmp_path: Path) -> None:
    folder = pytest_kit.make(tmp_path, FAKE_PINS, fake_fetch)
    assert pytest_kit.is_made(folder) and (folder / "fakepkg" / "__init__.py").read_text() == "VERSION = '1.0'\n"
    assert pytest_kit.make(tmp_path, FAKE_PINS, fake_fetch) == folder
    assert (tmp_path / "fetches").read_text() == "fetched\n"
    # Nothing of the making is left beside it: the kit and its lock.
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([folder.name, f"{folder.name}.lock", "fetches"])


def test_a_wheel_that_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    wrong = (pytest_kit.Pin("fakepkg", "1.0", "0" * 64),)
    with pytest.raises(pytest_kit.KitError, match=r"fakepkg-1.0-py3-none-any.whl: its sha256 is not the pinned one"):
        pytest_kit.make(tmp_path, wrong, fake_fetch)
    assert not pytest_kit.kit_folder(tmp_path, wrong).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"{pytest_kit.key(wrong)}.lock", "fetches"])


def _make_in(root: Path, start: Event, said: Path) -> None:
    start.wait()
    said.write_text(str(pytest_kit.make(root, FAKE_PINS, _slow_fetch)))


def _slow_fetch(pins: tuple[pytest_kit.Pin, ...], work: Path) -> Path:
    import time

    time.sleep(0.5)  # a maker still fetching while the other arrives (no assertion rests on it)
    return fake_fetch(pins, work)


def test_two_makers_at_once_make_the_kit_once(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    context = multiprocessing.get_context("fork")
    start = context.Event()
    makers = [context.Process(target=_make_in, args=(root, start, tmp_path / f"said-{i}")) for i in range(2)]
    for maker in makers:
        maker.start()
    start.set()
    for maker in makers:
        maker.join(120)
    assert [maker.exitcode for maker in makers] == [0, 0]
    folder = str(pytest_kit.kit_folder(root, FAKE_PINS))
    assert [(tmp_path / f"said-{i}").read_text() for i in range(2)] == [folder, folder]
    assert (root / "fetches").read_text() == "fetched\n"


@pytest.fixture(scope="module")
def kit() -> Path:
    """The real kit, from PyPI into this session's cache (skipped where PyPI is not reachable)."""
    try:
        return pytest_kit.make()
    except pytest_kit.KitError as err:
        if any(word in str(err).lower() for word in UNREACHABLE):
            pytest.skip(f"PyPI is not reachable here: {err}")
        raise


def test_the_kit_from_pypi_runs_on_the_machines_python(kit: Path) -> None:
    assert (kit / f"pytest-{pytest_kit.PINS[0].version}.dist-info").is_dir()
    python = shutil.which("python3", path=sandbox.SANDBOX_PATH)
    assert python is not None
    probe = f"import sys; sys.path.insert(0, {str(kit)!r}); import pytest; print(pytest.__version__, pytest.__file__)"
    done = subprocess.run([python, "-S", "-c", probe], capture_output=True, text=True, check=True)
    version, where = done.stdout.split()
    assert version == pytest_kit.PINS[0].version and where.startswith(str(kit))
    assert list(kit.glob("_pytest/__pycache__/*.pyc")), "the kit's bytecode was compiled"


@needs.mark("isolation")
@pytest.mark.parametrize("mode", ["apart", "together"])
def test_a_pytest_problem_is_judged_with_the_kit_alone(
    kit: Path, mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(pytest_kit.MODE_ENV, "kit")
    made = scaffold.create(tmp_path, "stack", "python3", kind="unit")
    if mode == "together":
        spec = made.directory / "problem.yaml"
        spec.write_text(spec.read_text().replace("  per_test_time_s: 2\n", "  per_test_time_s: 2\n  mode: together\n"))
    tests = made.directory / "unit" / "public" / "test_stack.py"
    tests.write_text(tests.read_text() + FROM_THE_KIT)
    assert judge("--problems", str(tmp_path), "gen", "stack").returncode == 0
    problem = load_problem(made.directory)
    reference = made.directory / "solutions" / "accepted" / "stack.py"
    # pypy3 has no pytest of its own: in mode apart the student's process needs none.
    languages = ["python3"]
    if mode == "apart" and not needs.why_not("pypy3"):
        languages.append("pypy3")
    for language in languages:
        record = judging.judge(judging.identify(problem, reference, "alice", language_id=language), full=True)
        verdicts = {c.group: c.verdict for c in record.cases}
        assert verdicts["test_stack-test_pytest_is_the_kits"] == "AC", (language, record.cases)
        assert set(verdicts.values()) == {"AC"}, (language, record.cases)
