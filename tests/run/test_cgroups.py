"""cgroup v2 delegation (rootless), on a fake hierarchy: the real one here may be v1; and a
reused v1 group, on the real one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.run import cgroups


@pytest.fixture
def fake_v2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cgroup"
    scope = root / "user.slice" / "user@1000.service" / "app.slice" / "judge.scope"
    scope.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (scope / "cgroup.controllers").write_text("cpu io memory pids\n")
    (scope / "cgroup.subtree_control").write_text("\n")
    (scope / "cgroup.procs").write_text(f"{os.getpid()}\n")
    monkeypatch.setattr(cgroups, "ROOT", str(root))
    monkeypatch.setattr(cgroups, "_v2_parent", None)
    monkeypatch.setattr(
        cgroups, "_own_paths", lambda pid=None: {"": "/user.slice/user@1000.service/app.slice/judge.scope"}
    )
    return scope


def test_a_delegated_group_is_used_after_the_judge_moves_into_a_leaf(fake_v2: Path) -> None:
    support = cgroups.detect()
    assert support.version == 2, support.reason
    leaf = fake_v2 / f"judge-leaf-{os.getpid()}"
    assert (leaf / "cgroup.procs").read_text() == str(os.getpid())
    assert set((fake_v2 / "cgroup.subtree_control").read_text().split()) == {"+memory", "+pids", "+cpu"}
    # Run groups are siblings of the leaf, in the delegated group.
    assert cgroups._v2_parent == str(fake_v2)
    # A worker forked later sees the leaf as its own group and finds the same parent.
    assert cgroups._v2_parent_of(str(leaf).removeprefix(cgroups.ROOT)) == str(fake_v2)


def test_a_group_shared_with_other_processes_is_not_taken(fake_v2: Path) -> None:
    (fake_v2 / "cgroup.procs").write_text(f"1\n{os.getpid()}\n")
    support = cgroups.detect()
    assert support.version == 0 and "holds other processes" in support.reason
    assert "systemd-run --user --scope -p Delegate=yes" in support.reason
    assert not any(p.name.startswith("judge-leaf-") for p in fake_v2.iterdir())


def test_a_group_without_the_controllers_says_which(fake_v2: Path) -> None:
    (fake_v2 / "cgroup.controllers").write_text("cpu io\n")
    support = cgroups.detect()
    assert support.version == 0 and "no memory, pids controller" in support.reason


def test_a_group_that_already_delegates_is_used_as_it_is(fake_v2: Path) -> None:
    (fake_v2 / "cgroup.subtree_control").write_text("cpu memory pids\n")
    support = cgroups.detect()
    assert support.version == 2
    assert not any(p.name.startswith("judge-leaf-") for p in fake_v2.iterdir())


def test_a_v2_group_writes_its_limits_and_reads_its_figures_in_its_own_files(fake_v2: Path) -> None:
    """GroupV2 on the fake hierarchy (the machine's own may be v1): one group for the three
    controllers, its limits in memory.max, memory.swap.max and pids.max, its figures from
    cpu.stat, memory.peak and memory.events."""
    from judge.run import lifecycle

    assert cgroups.detect().version == 2
    group = cgroups.run_group(2, 64 << 20, 8)
    try:
        assert isinstance(group, cgroups.GroupV2)
        folder = Path(group.dirs["memory"])
        assert folder.parent == fake_v2 and {Path(d) for d in group.dirs.values()} == {folder}
        assert (folder / "memory.max").read_text() == str(64 << 20)
        assert (folder / "memory.swap.max").read_text() == "0" and (folder / "pids.max").read_text() == "8"
        assert group.cpu_seconds() == 0.0 and group.peak_bytes() == 0 and not group.hit_memory_limit()
        (folder / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\n")
        (folder / "memory.peak").write_text("4096\n")
        (folder / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 0\noom_kill 1\n")
        assert group.cpu_seconds() == 1.5 and group.peak_bytes() == 4096
        assert group.hit_memory_limit() and group.oom_killed()
        # This process is in the judge's own group, not yet in the run's: one file to join.
        assert group.join_files() == [str(folder / "cgroup.procs")]
        assert group._missing(os.getpid()) == [str(folder / "cgroup.procs")]
    finally:
        lifecycle.release(group.name)


def _leave_a_group_behind() -> None:
    group = cgroups.run_group(cgroups.detect().version, 64 << 20, 8)
    print(group.dirs["pids"], flush=True)
    os._exit(0)  # as a judge killed outright would: no cleanup


@pytest.mark.skipif(cgroups.detect().version == 0, reason="no cgroup here")
def test_the_groups_of_a_judge_that_is_gone_are_removed() -> None:
    import subprocess
    import sys

    from tests.conftest import REPO

    script = "from tests.run.test_cgroups import _leave_a_group_behind\n_leave_a_group_behind()"
    left = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True)
    directory = left.stdout.strip()
    assert os.path.isdir(directory)
    mine = cgroups.run_group(cgroups.detect().version, 64 << 20, 8)  # a live judge's group stays
    try:
        assert cgroups.remove_stale() >= 1
        assert not os.path.isdir(directory)
        assert all(os.path.isdir(d) for d in mine.dirs.values())
    finally:
        mine.remove()


def resident_bytes(path: Path) -> int:
    """How much of a file is in the page cache (mincore, through a shared read-only map)."""
    import ctypes
    import mmap

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    size = path.stat().st_size
    pages = -(-size // mmap.PAGESIZE)
    fd = os.open(path, os.O_RDONLY)
    try:
        address = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        assert address not in (None, ctypes.c_void_p(-1).value), os.strerror(ctypes.get_errno())
        try:
            vector = (ctypes.c_ubyte * pages)()
            assert libc.mincore(address, size, vector) == 0, os.strerror(ctypes.get_errno())
            return sum(page & 1 for page in vector) * mmap.PAGESIZE
        finally:
            libc.munmap(address, size)
    finally:
        os.close(fd)


def _read_in_group(group: cgroups.RunGroup, path: Path) -> None:
    """A run: a child joins the group, then reads `path` (its pages are charged to the group
    when the read brings them into the page cache)."""
    reader = os.fork()
    if reader == 0:
        for join in group.join_files():
            with open(join, "w") as stream:
                stream.write("0")
        path.read_bytes()
        os._exit(0)
    os.waitpid(reader, 0)


@pytest.mark.skipif(cgroups.detect().version != 1 or os.geteuid() != 0, reason="a real cgroup v1 hierarchy, as root")
def test_a_v1_group_is_reused_only_while_its_runs_leave_less_than_the_residue(tmp_path: Path) -> None:
    from judge.run.sandbox import spawn

    small, large = tmp_path / "small", tmp_path / "large"
    small.write_bytes(b"x" * 4096)
    large.write_bytes(b"x" * (8 << 20))
    for path in (small, large):  # out of the page cache: the run's read brings them in
        fd = os.open(path, os.O_RDONLY)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
    group = spawn.run_group(1, 64 << 20, 16)
    assert isinstance(group, cgroups.GroupV1)
    try:
        _read_in_group(group, small)
        assert not group.keeps_cache()
        again = spawn.run_group(1, 64 << 20, 16)
        assert again is group  # reused, counters from zero
        assert group.peak_bytes() < cgroups.RESIDUE_BYTES and group.cpu_seconds() == 0
        _read_in_group(group, large)
        assert group._usage() >= 8 << 20 and group.keeps_cache()
        fresh = spawn.run_group(1, 64 << 20, 16)
        assert fresh is not group and fresh._usage() < cgroups.RESIDUE_BYTES
        assert not any(os.path.isdir(d) for d in group.dirs.values())
        # The file the run read is still cached for every later run: a reclaim of the group
        # in place would have evicted it from the machine.
        assert resident_bytes(large) == 8 << 20
    finally:
        spawn._drop_reusable()


@pytest.mark.skipif(cgroups.detect().version != 1 or os.geteuid() != 0, reason="a real cgroup v1 hierarchy, as root")
def test_a_v1_run_frozen_at_its_limit_wakes_the_watcher_through_the_oom_event() -> None:
    import select

    from judge.run.sandbox import spawn

    group = spawn.run_group(1, 32 << 20, 16)
    assert isinstance(group, cgroups.GroupV1)
    try:
        assert group.oom_event_fd() is None  # the kernel's OOM killer still on: nothing to wait for
        group.disable_oom_killer()
        event = group.oom_event_fd()
        assert event is not None
        assert select.select([event], [], [], 0)[0] == []
        hog = os.fork()
        if hog == 0:  # joins the group, then touches more than its limit: frozen, not killed
            for path in group.join_files():
                with open(path, "w") as stream:
                    stream.write("0")
            held = bytearray(64 << 20)
            os._exit(len(held) & 1)
        try:
            # A bound, not a timing expectation: the event comes once the hog reaches the limit.
            assert select.select([event], [], [], 60)[0] == [event]
            assert group.under_oom()
        finally:
            assert group.kill_all()
            os.waitpid(hog, 0)
        group.reset(32 << 20, 16)
        # The next run's watcher starts from a drained event.
        assert group.oom_event_fd() == event
        assert select.select([event], [], [], 0)[0] == []
    finally:
        spawn._drop_reusable()
