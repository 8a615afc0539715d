"""Nothing of the judge outlives it: stopped with SIGTERM or killed with SIGKILL, its runs,
workers and boxes go; what a killed judge left is removed by the next one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from judge.run import lifecycle
from tests import needs
from tests.conftest import REPO

SPIN = "int main(){ volatile unsigned long x = 0; for (;;) x++; }\n"


@pytest.fixture
def private_tmp() -> Iterator[Path]:
    """A temporary directory of the judges under test only (TMPDIR), readable by the
    unprivileged user the programs run as."""
    where = Path(tempfile.mkdtemp(prefix="judgetest"))
    where.chmod(0o755)
    yield where
    lifecycle.remove_tree(where)  # capped boxes a killed judge left are mounts


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


HOLDER = """
import sys, tempfile
from judge.run import cgroups, lifecycle
tempfile.tempdir = sys.argv[1]
print(lifecycle.make_temp_dir("box"), flush=True)
if cgroups.detect().version:
    group = cgroups.run_group(cgroups.detect().version, 64 << 20, 8)
    print(*group.dirs.values(), flush=True)
else:
    print(flush=True)
sys.stdin.read()  # held until the test closes our stdin (or kills us)
"""


def holder(tmp: Path, *prefix: str) -> tuple[subprocess.Popen[str], Path, list[str]]:
    """A judge-like process (under `prefix`, e.g. unshare) holding a box and a run cgroup."""
    child = subprocess.Popen(
        [*prefix, sys.executable, "-c", HOLDER, str(tmp)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    box = Path(child.stdout.readline().strip())
    groups = child.stdout.readline().split()
    assert box.is_dir(), box
    return child, box, groups


def test_what_a_live_judge_holds_stays_and_what_a_dead_one_held_goes(
    private_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    mine = lifecycle.make_temp_dir("box")
    alive, kept, _ = holder(private_tmp)
    dead, left, _ = holder(private_tmp)
    dead.kill()  # SIGKILL: no cleanup, but the kernel drops its locks
    dead.wait()
    unrelated = private_tmp / "judge-notes"
    unrelated.mkdir()
    try:
        assert lifecycle.remove_stale(private_tmp) == 1
        assert mine.is_dir() and kept.is_dir() and unrelated.is_dir() and not left.exists()
        assert not (lifecycle.lock_dir(private_tmp) / f"{left.name}.lock").exists()  # its lock file too
    finally:
        alive.communicate("")
    assert lifecycle.remove_stale(private_tmp) == 1 and not kept.exists()
    lifecycle.remove_dir(mine)
    assert not mine.exists() and not (lifecycle.lock_dir(private_tmp) / f"{mine.name}.lock").exists()


def test_an_older_judges_folder_without_a_lock_goes_by_its_owner_and_age(private_tmp: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    old = private_tmp / f"judge-box-{child.pid}.12345-old"
    fresh = private_tmp / f"judge-box-{child.pid}.12345-fresh"
    pid, ticks = lifecycle.owner_tag().split(".")
    living = private_tmp / f"judge-checker-{pid}.{ticks}-living"  # its owner (this process) lives
    for folder in (old, fresh, living):
        folder.mkdir()
    long_ago = time.time() - 2 * lifecycle.LEGACY_AGE_S
    for folder in (old, living):
        os.utime(folder, (long_ago, long_ago))
    assert lifecycle.remove_stale(private_tmp) == 1
    assert not old.exists() and fresh.is_dir() and living.is_dir()


def test_a_folders_name_says_nothing_of_its_owner_and_without_a_lock_it_stays(
    private_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder may be bound into a sandbox, where its host path shows (/proc/self/mountinfo)."""
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    made = lifecycle.make_temp_dir("box")
    pid, ticks = lifecycle.owner_tag().split(".")
    assert pid not in made.name and ticks not in made.name
    lifecycle.release(made.name)  # its lock gone, as if none could be made for it
    assert not (lifecycle.lock_dir(private_tmp) / f"{made.name}.lock").exists()
    long_ago = time.time() - 2 * lifecycle.LEGACY_AGE_S
    os.utime(made, (long_ago, long_ago))
    assert lifecycle.remove_stale(private_tmp) == 0 and made.is_dir()
    lifecycle.remove_tree(made)


UNSHARE = (
    ("unshare", "--pid", "--fork", "--mount-proc")
    if os.geteuid() == 0
    else ("unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc")
)


def _unshare_works() -> bool:
    try:
        return subprocess.run([*UNSHARE, "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _unshare_works(), reason="no pid namespace can be made here (unshare)")
def test_a_judge_in_another_pid_namespace_keeps_its_box_and_cgroup(
    private_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its pid is not this namespace's: by pid it would look gone. By its locks it is not."""
    from judge.run import cgroups

    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    inside, box, groups = holder(private_tmp, *UNSHARE)
    try:
        assert str(inside.pid) not in box.name  # a folder's name names no owner: its lock holds it
        assert lifecycle.remove_stale(private_tmp) == 0 and box.is_dir()
        cgroups.remove_stale()
        assert all(os.path.isdir(g) for g in groups)
    finally:
        inside.communicate("")
    assert lifecycle.remove_stale(private_tmp) == 1 and not box.exists()
    cgroups.remove_stale()
    assert not any(os.path.isdir(g) for g in groups)


@needs.mark("isolation")
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


@needs.mark("isolation")
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
    child, left, _ = holder(private_tmp)
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


def _claim_in_child(root: Path) -> tuple[int, int | None]:
    """A child that claims a CPU under `root` and holds it until it is killed: (its pid, the
    CPU or None)."""
    answer_r, answer_w = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            cpu = lifecycle.claim_cpu(root)
            os.write(answer_w, str(-1 if cpu is None else cpu).encode())
            time.sleep(600)
        finally:
            os._exit(0)
    os.close(answer_w)
    try:
        cpu = int(os.read(answer_r, 16))
    finally:
        os.close(answer_r)
    return child, None if cpu < 0 else cpu


def test_each_live_process_claims_a_cpu_of_its_own_and_a_dead_ones_is_free_again(tmp_path: Path) -> None:
    cpus = sorted(os.sched_getaffinity(0))
    children: list[int] = []
    try:
        claimed = []
        for _ in range(len(cpus) + 1):
            pid, cpu = _claim_in_child(tmp_path)
            children.append(pid)
            claimed.append(cpu)
        assert claimed == [*cpus, None]  # each CPU once, then none is left
        os.kill(children[0], signal.SIGKILL)  # the kernel drops a dead holder's lock
        os.waitpid(children.pop(0), 0)
        pid, cpu = _claim_in_child(tmp_path)
        children.append(pid)
        assert cpu == cpus[0]
    finally:
        for pid in children:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def test_a_pool_worker_keeps_to_the_cpu_it_claimed(monkeypatch: pytest.MonkeyPatch) -> None:
    cpus = sorted(os.sched_getaffinity(0))
    monkeypatch.setattr(lifecycle, "claim_cpu", lambda root=None: cpus[-1])
    with lifecycle.worker_pool(1) as pool:
        assert pool.submit(os.sched_getaffinity, 0).result() == {cpus[-1]}
    monkeypatch.setattr(lifecycle, "claim_cpu", lambda root=None: None)  # every CPU taken
    with lifecycle.worker_pool(1) as pool:
        assert pool.submit(os.sched_getaffinity, 0).result() == set(cpus)


def _affinity_within_and_after_spread_out() -> tuple[set[int], set[int], set[int]]:
    """In a pool worker: a thread's CPUs within lifecycle.spread_out, the worker's, then again after."""
    import threading

    seen: list[set[int]] = []
    look = threading.Event()

    def wait_then_look() -> None:
        look.wait()
        seen.append(os.sched_getaffinity(0))

    thread = threading.Thread(target=wait_then_look)
    thread.start()  # a thread that lives already, as the launcher of runs does
    with lifecycle.spread_out():
        within = os.sched_getaffinity(0)
        look.set()
        thread.join()
    return seen[0], within, os.sched_getaffinity(0)


def test_an_interaction_in_a_pinned_worker_runs_on_every_cpu_again(monkeypatch: pytest.MonkeyPatch) -> None:
    cpus = sorted(os.sched_getaffinity(0))
    monkeypatch.setattr(lifecycle, "claim_cpu", lambda root=None: cpus[-1])
    with lifecycle.worker_pool(1) as pool:
        thread, within, after = pool.submit(_affinity_within_and_after_spread_out).result()
    assert thread == within == set(cpus)
    assert after == {cpus[-1]}


def _nest(top: Path, depth: int) -> None:
    """`depth` folders one in another below `top` (by descriptor: past PATH_MAX)."""
    at = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=at)
            below = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=at)
            os.close(at)
            at = below
        with open(os.open("bottom.txt", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=at), "w") as bottom:
            bottom.write("x")
        os.chmod(at, 0)  # its owner cannot enter it until it gives itself the right back
    finally:
        os.close(at)


def test_a_tree_deeper_than_pythons_recursion_goes_and_no_link_is_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept")
    box = tmp_path / "box"
    box.mkdir()
    (box / "link").symlink_to(outside)
    _nest(box, 3000)
    assert lifecycle.remove_tree(box)
    assert not box.exists()
    assert (outside / "keep.txt").read_text() == "kept"
    assert lifecycle.remove_tree(box)  # already gone: nothing to do


@needs.mark("isolation")
def test_a_program_that_nests_folders_leaves_no_box_and_breaks_no_command(private_tmp: Path) -> None:
    deep = REPO / "tests" / "programs" / "leftovers" / "deep.c"
    given = private_tmp / "case.in"
    given.write_text("x\n")
    for command in (["run", str(deep), "--input", str(given)], ["run", str(deep), "-p", "lanqiao"]):
        ran = subprocess.run(
            [sys.executable, "-m", "judge", *command], cwd=REPO, env=env_with(private_tmp), capture_output=True
        )
        assert b"Traceback" not in ran.stderr, ran.stderr[-2000:]
        assert ran.returncode in (0, 1), ran.stderr[-2000:]  # its verdict: AC ad hoc, WA on lanqiao
        assert boxes(private_tmp) == []
    doctor = subprocess.run(
        [sys.executable, "-m", "judge", "doctor"], cwd=REPO, env=env_with(private_tmp), capture_output=True
    )
    assert b"Traceback" not in doctor.stderr


@needs.mark("root", because="a box is a capped tmpfs where the judge is root")
@needs.mark("isolation")
def test_what_a_program_writes_in_its_box_stops_at_the_boxs_cap(private_tmp: Path) -> None:
    fill = REPO / "tests" / "programs" / "leftovers" / "fill.c"
    given = private_tmp / "case.in"
    given.write_text("x\n")
    command = ["run", str(fill), "--input", str(given), "--memory-limit", "2048", "--time-limit", "10"]
    ran = subprocess.run(
        [sys.executable, "-m", "judge", *command], cwd=REPO, env=env_with(private_tmp), capture_output=True
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert int(ran.stdout.split()[0]) < lifecycle.BOX_CAP_BYTES >> 20  # the box was full, not the disk
    assert boxes(private_tmp) == []
    # and what it wrote was memory of its run: over a limit below the cap, the verdict is MLE
    command[command.index("2048")] = "128"
    limited = subprocess.run(
        [sys.executable, "-m", "judge", *command], cwd=REPO, env=env_with(private_tmp), capture_output=True
    )
    assert b"MLE" in limited.stderr, limited.stderr[-2000:]
    assert boxes(private_tmp) == []


def test_a_dead_judges_folder_of_a_hyphenated_kind_goes_too(private_tmp: Path) -> None:
    """`unit-box`, `pytest-kit`: kinds of two words were passed over by the sweep's pattern."""
    lock_folder = lifecycle.lock_dir(private_tmp)
    lock_folder.mkdir(exist_ok=True)
    left = [private_tmp / "judge-unit-tests-0123456789abcdef0123", private_tmp / "judge-unit-box-123.456-abc"]
    for folder in left:
        folder.mkdir()
        (lock_folder / f"{folder.name}.lock").touch()  # its lock file, which nobody holds
    assert lifecycle.remove_stale(private_tmp) == 2
    assert not any(folder.exists() for folder in left)
