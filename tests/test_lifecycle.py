"""Nothing of the judge outlives it: stopped with SIGTERM or killed with SIGKILL, its runs,
workers and boxes go; what a killed judge left is removed by the next one."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from judge import lifecycle, sandbox

from .conftest import REPO

SPIN = "int main(){ volatile unsigned long x = 0; for (;;) x++; }\n"


@pytest.fixture
def private_tmp() -> Iterator[Path]:
    """A temporary directory of the judges under test only (TMPDIR), readable by the
    unprivileged user the programs run as."""
    where = Path(tempfile.mkdtemp(prefix="judgetest"))
    where.chmod(0o755)
    yield where
    shutil.rmtree(where, ignore_errors=True)


def env_with(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp)}


def boxes(tmp: Path) -> list[Path]:
    return sorted(tmp.glob("judge-box-*"))


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def running_programs(pid: int) -> int:
    """How many submissions ("main") run under the judge `pid` now."""
    count = 0
    for proc in descendants(pid):
        try:
            count += proc.name() == "main"
        except psutil.Error:
            pass  # ended meanwhile
    return count


def wait_for(condition: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def alive(procs: list[psutil.Process]) -> list[psutil.Process]:
    left = []
    for proc in procs:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                left.append(proc)
        except psutil.Error:
            pass
    return left


def test_stale_folders_are_those_whose_owner_is_gone(private_tmp: Path) -> None:
    mine = lifecycle.make_temp_dir("box").rename(private_tmp / f"judge-box-{lifecycle.owner_tag()}-mine")
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    dead = private_tmp / f"judge-box-{child.pid}.12345-dead"
    pid, ticks = lifecycle.owner_tag().split(".")
    reused = private_tmp / f"judge-checker-{pid}.{int(ticks) + 1}-reused"  # same pid, another process
    unrelated = private_tmp / "judge-notes"
    for folder in (dead, reused, unrelated):
        folder.mkdir()
    (dead / "main").write_text("x")
    assert lifecycle.remove_stale(private_tmp) == 2
    assert mine.is_dir() and unrelated.is_dir() and not dead.exists() and not reused.exists()


@pytest.mark.skipif(not sandbox.detect().isolated, reason="the judge refuses to run without isolation")
def test_sigterm_mid_case_kills_the_run_and_removes_the_box(tmp_path: Path, private_tmp: Path) -> None:
    source = tmp_path / "spin.c"
    source.write_text(SPIN)
    (tmp_path / "in.txt").write_text("")
    judge = subprocess.Popen(
        [sys.executable, "-m", "judge", "run", str(source), "--input", str(tmp_path / "in.txt"), "--time-limit", "30"],
        cwd=REPO,
        env=env_with(private_tmp),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    # Running: a box, and the program using the CPU under the judge.
    wait_for(lambda: boxes(private_tmp) and running_programs(judge.pid) == 1)
    tree = descendants(judge.pid)
    judge.send_signal(signal.SIGTERM)
    _, err = judge.communicate(timeout=30)
    assert judge.returncode == 128 + signal.SIGTERM, err
    assert b"Traceback" not in err
    wait_for(lambda: not alive(tree), timeout=5)
    assert boxes(private_tmp) == []


@pytest.mark.skipif(not sandbox.detect().isolated, reason="the judge refuses to run without isolation")
def test_nothing_outlives_a_sigkill_of_grade(tmp_path: Path, private_tmp: Path) -> None:
    students = tmp_path / "submissions"
    for student in ("ann", "bo"):
        (students / student).mkdir(parents=True)
        (students / student / "lanqiao.c").write_text(SPIN)
    judge = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "judge",
            "grade",
            str(students),
            "-p",
            "lanqiao",
            "-o",
            str(tmp_path / "reports"),
            "-j",
            "2",
        ],
        cwd=REPO,
        env=env_with(private_tmp),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # Both workers in the middle of a case.
    wait_for(lambda: running_programs(judge.pid) == 2)
    tree = descendants(judge.pid)
    assert len(tree) >= 4  # two workers, each with its run
    judge.kill()
    judge.wait()
    # The workers get SIGTERM from the kernel as their parent dies, kill their runs,
    # remove their boxes and exit.
    wait_for(lambda: not alive(tree), timeout=10)
    wait_for(lambda: not boxes(private_tmp), timeout=10)


def test_the_next_judge_removes_what_a_killed_one_left(private_tmp: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    ticks = lifecycle._start_ticks(child.pid)
    left = private_tmp / f"judge-box-{child.pid}.{ticks}-abcdefgh"
    left.mkdir()
    (left / "main.c").write_text(SPIN)
    doctor = [sys.executable, "-m", "judge", "doctor"]
    subprocess.run(doctor, cwd=REPO, env=env_with(private_tmp), capture_output=True, timeout=120)
    assert left.is_dir()  # its owner still runs
    child.kill()
    child.wait()
    subprocess.run(doctor, cwd=REPO, env=env_with(private_tmp), capture_output=True, timeout=120)
    assert not left.exists()


def _make_and_forget(kind: str) -> str:
    folder = lifecycle.make_temp_dir(kind)
    lifecycle.remove_at_exit(folder)
    return str(folder)


def test_a_pool_worker_removes_its_folders_when_it_ends(private_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A worker ends without running atexit: the multiprocessing finalizer removes them.
    monkeypatch.setenv("TMPDIR", str(private_tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)
    with lifecycle.worker_pool(2) as pool:
        folders = list(pool.map(_make_and_forget, ["checker", "box"]))
    assert all(Path(f).parent == private_tmp for f in folders)
    assert not any(Path(f).exists() for f in folders)
