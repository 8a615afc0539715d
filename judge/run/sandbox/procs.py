"""The processes of runs: the judge as their subreaper, their tree and its figures, and killing and reaping what a run leaves."""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import stat
import threading
import time
from functools import lru_cache
from pathlib import Path

import psutil

from judge.run import cgroups
from judge.run.sandbox.records import NOBODY

_PR_SET_CHILD_SUBREAPER = 36


PR_SET_PDEATHSIG = 1


_LIBC = ctypes.CDLL(None, use_errno=True)


def libc_prctl(option: int, value: int) -> None:
    _LIBC.prctl(option, value, 0, 0, 0)


_subreaper_pid = 0  # the process that made itself subreaper (a forked worker must do it again)


def become_subreaper() -> bool:
    """Orphans of a run re-parent to the judge instead of init, so the sweep finds them.

    Per process, not per memory image: the flag is not inherited by fork, while a cache
    would be (a worker forked from a subreaper judge would skip the call, and its runs'
    orphans would go to its parent, to stay zombies charged to the worker's pids cgroup).
    """
    global _subreaper_pid
    if _subreaper_pid == os.getpid():
        return True
    try:
        if _LIBC.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except AttributeError:
        return False
    _subreaper_pid = os.getpid()
    return True


def prepare_box(box: Path) -> None:
    """Make the box writable by the unprivileged user the programs run as."""
    box.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        os.chown(box, NOBODY, NOBODY)
    box.chmod(0o777)


def seal_build(box: Path) -> None:
    """After the compile, as root: the build's files become root's and read-only, and the box
    sticky, so a case may add files (removed before the next case) but not change, rename or
    remove the build's: nothing a case writes reaches the next. Without root, left as it is
    (the program runs as the judge's own user, who could undo it)."""
    if os.geteuid() != 0:
        return
    # Never through a symbolic link: the build made them, and outside the sandbox one can
    # point anywhere on the host (os.walk does not follow them; lchown and lstat do not).
    for folder, dirs, files in os.walk(box):
        for name in dirs + files:
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            os.lchown(path, 0, 0)
            if not stat.S_ISLNK(mode):
                os.chmod(path, mode & 0o555 | 0o444 | (0o111 if stat.S_ISDIR(mode) else 0))
    os.chown(box, 0, 0)
    box.chmod(0o1777)


def decode_status(status: int, under_bwrap: bool) -> tuple[int | None, int | None]:
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    code = os.WEXITSTATUS(status)
    # bubblewrap reports a program killed by signal N as exit code 128 + N.
    if under_bwrap and 128 < code < 128 + 65:
        return None, code - 128
    return code, None


def process_tree(pid: int) -> list[psutil.Process]:
    """`pid` and its descendants ([] once it is gone), by the kernel's list of each one's
    children: a walk of the tree alone, where psutil's children() reads every process of the
    machine (1-3 ms a look on a busy one, and without a cgroup the watch looks every 2 ms)."""
    if not _children_lists():
        try:
            root = psutil.Process(pid)
            return [root, *root.children(recursive=True)]
        except psutil.Error:
            return []
    found: list[psutil.Process] = []
    pending, seen = [pid], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            found.append(psutil.Process(current))
        except psutil.Error:
            continue  # ended meanwhile: its children, if any, went to the judge (the subreaper)
        pending += cgroups.children_of(current)
    return found


@lru_cache(maxsize=1)
def _children_lists() -> bool:
    """Whether the kernel lists each task's children (/proc/PID/task/TID/children)."""
    return os.path.exists(f"/proc/self/task/{threading.get_native_id()}/children")


def runnable(procs: list[psutil.Process]) -> bool:
    """Whether a process of the tree is running or waiting for a CPU (state R), not asleep:
    what "busy" means where the CPU time is only sampled (without a cgroup), since a sample
    taken while the judge itself waits for the core can read low."""
    for proc in procs:
        try:
            if proc.status() == psutil.STATUS_RUNNING:
                return True
        except psutil.Error:
            continue
    return False


def resident_bytes() -> int:
    try:
        with open("/proc/self/statm", "rb") as stream:
            return int(stream.read().split()[1]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def high_water_bytes(pid: int) -> int:
    """VmHWM: the peak resident size of the process's program since its exec."""
    try:
        with open(f"/proc/{pid}/status", "rb") as stream:
            for line in stream:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def sample_tree(procs: list[psutil.Process]) -> tuple[float, int]:
    """CPU seconds and peak resident bytes of the given processes (the fallback without cgroups).

    The peak is each program's VmHWM, which catches short peaks between samples (see
    watch_run for rusage's ru_maxrss, which also counts the judge's image before the exec).
    """
    cpu, peak = 0.0, 0
    for proc in procs:
        try:
            times = proc.cpu_times()
            cpu += times.user + times.system
        except psutil.Error:
            continue
        peak += high_water_bytes(proc.pid)
    return cpu, peak


def _has_children() -> bool:
    """Whether this process has any child, read from the kernel's own list (no /proc scan)."""
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", "rb") as stream:
                if stream.read().strip():
                    return True
        return False
    except OSError:
        return True  # no such list here: let psutil look


def own_children() -> list[int]:
    """This process's children, zombies included: the kernel's list, else psutil's scan."""
    try:
        found: list[int] = []
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", "rb") as stream:
                found += [int(child) for child in stream.read().split()]
        return found
    except OSError:
        return [child.pid for child in psutil.Process().children()]


# Children of the judge's own that outlive runs (an interaction's helper, kept for the next
# one): no sweep or reaping after a run touches them; their owner waits for them.
LONG_LIVED: set[int] = set()


def _reap(keep: frozenset[int] = frozenset()) -> None:
    """Collect every child that has already exited, so no zombie stays behind; the children
    in `keep` (this process's own, from before a run) are left to whoever waits for them."""
    for pid in own_children():
        if pid in keep or pid in LONG_LIVED:
            continue
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass


def reap_new(before: set[int], timeout: float = 1.0) -> None:
    """Wait for (and reap) the children that appeared since `before` was taken."""
    deadline = time.monotonic() + timeout
    while (
        new := [pid for pid in cgroups.children_of(os.getpid()) if pid not in before and pid not in LONG_LIVED]
    ) and time.monotonic() < deadline:
        for pid in new:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
        time.sleep(0.002)


def sweep(keep: frozenset[int] = frozenset()) -> int:
    """Kill what a run left: every descendant of the judge (orphans come to it as subreaper)
    but the children in `keep`, which it had before the run (a server a test started, the
    workers of an embedding program) and their own descendants."""
    killed = 0
    _reap(keep)  # the namespace's init, exiting after the program, comes back to us as a zombie
    if not _has_children():
        return 0
    for _ in range(5):
        left: list[psutil.Process] = []
        # The kernel's lists, not psutil's scan of every process: a sandbox's pid 1 outlives
        # its monitor by a moment and is swept here after every case without a cgroup.
        for child in own_children():
            if child not in keep and child not in LONG_LIVED:
                left += process_tree(child)
        if not left:
            break
        for proc in left:
            try:
                proc.kill()
                killed += 1
            except psutil.Error:
                pass
        psutil.wait_procs(left, timeout=0.5)
    _reap(keep)
    return killed


def kill_tree(pid: int, group: cgroups.RunGroup | None, timeout: float = 2.0) -> None:
    """SIGKILL every process of a run: its cgroup, and its session (the process group)."""
    if group:
        group.kill_all(timeout=timeout)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
