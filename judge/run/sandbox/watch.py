"""A run watched to its end: its output read, its figures checked against the limits, its result made."""

from __future__ import annotations

import contextlib
import os
import random
import resource
import selectors
import signal
import time
from collections.abc import Callable
from pathlib import Path

from judge.run import cgroups, lifecycle
from judge.run.sandbox.argv import bound_at
from judge.run.sandbox.procs import decode_status, kill_tree, process_tree, runnable, sample_tree
from judge.run.sandbox.records import STDERR_CAP, Limit, RunLimits, RunResult, Stop

_POLL_S = 0.01  # the finest look at CPU time and the clock while the program runs


_POLL_MAX_S = 0.05  # the coarsest: a frozen (out of memory) program waits at most this long


# A program that is running (not sleeping) when the wall clock runs out is on a busy
# machine: its deadline moves, up to this many times the wall limit, so that load does not
# change a verdict that CPU time decides.
BUSY_SHARE = 0.1  # CPU seconds per wall second that count as running (a sleeper uses ~0)


BUSY_WALL_FACTOR = 3.0


CLOCK_STEP_S = 0.01  # how often a watch looks while it publishes the run's CPU time (CpuClock)


# Where the reader sees a CpuClock's folder: one fixed name, since the host's (unique to keep
# judges apart) holds the worker's pid and start, a clock a student's test could read the
# judging's age by (issue 60).
CLOCK_MOUNT = "/judge-clock"


OFFSET_MAX_S = 1000.0  # a CpuClock's figure starts at a random point below this
SHOWN = "shown"  # a late CpuClock's reader's folder, in its own
CLOCK_DATE = 946684800  # 2000-01-01 UTC: the figure's link's time, as a box's files (pairs.timeless)
_OFFSETS = random.SystemRandom()


class CpuClock:
    """A run's CPU time as its watch reads it (the cgroup's figure, else its process tree's,
    sampled), published while it runs for a program in another sandbox to read: the tests of
    a unit-test problem time each test of the student's process by it, never by a figure that
    process reports. The figure is the target of a symbolic link, `cpu` -> "1.234567", in a
    folder of its own, replaced whole by a rename: one readlink never sees half a figure (a
    file renamed over another costs 0.2 ms on ext4, which flushes it; a link, 10 us). The
    folder is bound read-only into the reader's sandbox (`bind`, for RunLimits.read_only) at
    CLOCK_MOUNT, where the reader finds the figure (`inside`). The figure never goes back, is
    at most one look of the watch behind, and starts at a random figure of up to
    OFFSET_MAX_S: a reader takes differences (a test's CPU time), and the figure itself would
    tell it how much CPU the watched program spent before (a tests problem's module side: a
    bug's extra imports)."""

    def __init__(self, late: bool = False) -> None:
        self.folder = lifecycle.make_temp_dir("clock")
        self.folder.chmod(0o755)  # the reader may be uid 65534
        self.path = self.folder / "cpu"
        # Late (a gated exchange's), the reader sees a folder of its own, made only when its
        # program starts (show_clock): a folder's birth time, which nothing can redate, would
        # else say how long the watched program took to start (a tests problem's bug).
        self.late = late
        self.shown = self.folder / SHOWN if late else self.folder
        self.bind = bound_at(str(self.shown), CLOCK_MOUNT)
        self.inside = f"{CLOCK_MOUNT}/cpu"
        self.figure = -1.0
        self.offset = _OFFSETS.uniform(0.0, OFFSET_MAX_S)
        self.publish(0.0)

    def publish(self, cpu_s: float) -> None:
        if cpu_s <= self.figure:
            return
        self.figure = cpu_s
        figure = f"{self.offset + cpu_s:.6f}"
        _put_link(self.folder, figure)
        # The private figure first, the shown one then: a show_clock between the two copies
        # the new figure (never an older one over it, see there).
        if self.late and self.shown.is_dir():
            _put_link(self.shown, figure)

    def close(self) -> None:
        # Only the judge writes here (the reader's bind is read-only): no walk of rm's, which
        # costs a process start (a few ms a pair).
        try:
            for folder in ((self.shown,) if self.late else ()) + (self.folder,):
                for name in ("cpu.new", "cpu"):
                    (folder / name).unlink(missing_ok=True)
                if folder != self.folder:
                    with contextlib.suppress(FileNotFoundError):
                        folder.rmdir()
            self.folder.rmdir()
        except OSError:
            lifecycle.remove_dir(self.folder)
        else:
            lifecycle.release(self.folder.name)

    def __enter__(self) -> CpuClock:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _put_link(folder: Path, figure: str) -> None:
    """The figure as the target of folder/cpu, replaced whole by a rename."""
    fresh = folder / "cpu.new"
    fresh.unlink(missing_ok=True)
    os.symlink(figure, fresh)
    # Dated like a box's files: its own time would say when the program's CPU last moved.
    os.utime(fresh, (CLOCK_DATE, CLOCK_DATE), follow_symlinks=False)
    os.replace(fresh, folder / "cpu")


def show_clock(folder: Path) -> None:
    """Make a late CpuClock's reader's folder (in `folder`, the clock's), with the figure so
    far: by the process that starts the reader, just before. Its first link is made only where
    the watch has not put one meanwhile, so a figure it read before the watch's newer one
    never lands over that."""
    shown = folder / SHOWN
    shown.mkdir(mode=0o755, exist_ok=True)
    shown.chmod(0o755)
    figure = os.readlink(folder / "cpu")
    with contextlib.suppress(FileExistsError):
        os.symlink(figure, shown / "cpu")
        os.utime(shown / "cpu", (CLOCK_DATE, CLOCK_DATE), follow_symlinks=False)


class Watch:
    """One run watched to its end, in three steps: read what it writes (`read`), check its
    figures against the limits and kill it at the first one passed (`poll`), and once it has
    ended, read the rest and make the RunResult (`finish`). Mutable, and private to `watch_run`."""

    def __init__(
        self,
        kill: Callable[[float], None],
        exit_fd: int | None,
        root: int | None,
        group: cgroups.RunGroup | None,
        limits: RunLimits,
        out_r: int | None,
        err_r: int,
        start: float,
        memory_bytes: int,
        cpu_base: float,
        stop: Stop | None = None,
    ) -> None:
        self.stop = stop
        self.killed_at = self.last_kill = 0.0
        self.exit_stamp: Callable[[], float | None] | None = None  # see watch_run
        self.clock: CpuClock | None = None  # see watch_run
        # How to kill every process of the run; a descriptor readable once it has ended; the
        # pid of its first process, to sample its tree where there is no cgroup.
        self.kill_run, self.root = kill, root
        self.group, self.limits = group, limits
        self.start, self.memory_bytes, self.cpu_base = start, memory_bytes, cpu_base
        self.selector = selectors.DefaultSelector()
        if out_r is not None:  # None: its stdout goes to another program (an interaction)
            self.selector.register(out_r, selectors.EVENT_READ, "out")
        self.selector.register(err_r, selectors.EVENT_READ, "err")
        # It wakes the loop the moment the program ends, instead of at the next poll.
        if exit_fd is not None:
            self.selector.register(exit_fd, selectors.EVENT_READ, "exit")
        # And the moment it is frozen at its memory limit (v1 with the OOM killer off).
        oom_fd = group.oom_event_fd() if group is not None else None
        if oom_fd is not None:
            self.selector.register(oom_fd, selectors.EVENT_READ, "oom")
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.output_bytes = 0
        self.limit_hit: Limit | None = None
        self.sampled_cpu = 0.0
        self.sampled_peak = 0
        self.deadline = start + limits.wall_s
        self.busy = False
        self.cpu = 0.0
        self.cores = max(1, len(os.sched_getaffinity(0)))

    def _kill(self, limit: Limit) -> None:
        self.limit_hit = limit
        # Its end, for an interaction: what the other side sees from now (the pipe's end) comes
        # after this, however long the kill and the reaping take.
        self.killed_at = self.last_kill = time.monotonic()
        self.kill_run(0.5)

    def _take(self, kind: str, data: bytes) -> None:
        if kind == "out":
            self.output_bytes += len(data)
            self.stdout += data[: max(self.limits.output_bytes - len(self.stdout), 0)]
        else:
            self.stderr += data[: max(STDERR_CAP - len(self.stderr), 0)]

    def read(self) -> None:
        """Wait for output (or the end) at most as long as the next look at the figures."""
        if self.group:
            # Far from the limit the judge looks less often (its polls take CPU from the
            # other worker); the tree cannot use more than `cores` CPU-seconds per second.
            timeout = min(max((self.limits.cpu_s - self.cpu) / self.cores / 2, _POLL_S), _POLL_MAX_S)
            if self.clock is not None:
                timeout = min(timeout, CLOCK_STEP_S)
        else:
            timeout = _POLL_S / 5  # the tree is sampled: look often enough to see a short peak
        for key, _ in self.selector.select(timeout=timeout):
            if key.data == "exit":
                continue  # the caller's wait4 reaps it
            if key.data == "oom":
                # Once is enough: poll() sees under_oom and kills; the group's next run drains it.
                self.selector.unregister(key.fd)
                continue
            try:
                data = os.read(key.fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.selector.unregister(key.fd)
                continue
            self._take(key.data, data)
            if key.data == "out" and self.output_bytes > self.limits.output_bytes and self.limit_hit is None:
                self._kill(Limit.OUTPUT)

    def poll(self) -> None:
        """The figures now against the limits: the first one passed kills the run."""
        now = time.monotonic()
        tree = [] if self.group or self.root is None else process_tree(self.root)
        if self.group:
            self.cpu = self.group.cpu_seconds() - self.cpu_base
        else:
            self.cpu, rss = sample_tree(tree)
            self.sampled_cpu = max(self.sampled_cpu, self.cpu)
            self.sampled_peak = max(self.sampled_peak, rss)
        if self.clock is not None:
            self.clock.publish(self.cpu if self.group else self.sampled_cpu)
        if self.limit_hit is not None:
            # Killed, yet not ended: the kill came before the program had joined its cgroup
            # (a session's case stopped as it starts). Again, until it ends.
            if now - self.last_kill > _POLL_MAX_S:
                self.last_kill = now
                self.kill_run(0.5)
            return
        if self.cpu > self.limits.cpu_s:
            self._kill(Limit.CPU)
        elif self.stop is not None and self.stop.is_set():
            self._kill(Limit.STOPPED)
        elif self.group is not None and self.group.oom_guarded and self.group.under_oom():
            self._kill(Limit.MEMORY)
        elif not self.group and self.sampled_peak > self.memory_bytes:
            self._kill(Limit.MEMORY)
        elif now > self.deadline:
            elapsed = now - self.start
            self.busy = self.cpu >= BUSY_SHARE * elapsed or (self.group is None and runnable(tree))
            if self.busy and elapsed < self.limits.wall_s * BUSY_WALL_FACTOR:
                # Running, not sleeping: the machine is loaded. CPU time will end it.
                self.deadline = now + min(0.5, self.limits.wall_s)
            else:
                self._kill(Limit.WALL)

    def finish(self, status: int, usage: resource.struct_rusage | None, under_bwrap: bool, judge_rss: int) -> RunResult:
        """The run has ended (reaped with `status` and, where it was the judge's child, its
        `usage`): what it left is killed, the rest of its output read, its figures decided."""
        now = time.monotonic()
        # Its end: when the kernel recorded it where there is such a record (or the kill
        # that ended it, if earlier), else now.
        stamped = self.exit_stamp() if self.exit_stamp is not None else None
        ends = [moment for moment in (self.killed_at, stamped) if moment]
        ended = min(max(min(ends), self.start), now) if ends else now
        wall = now - self.start
        # The program is gone; what it left (daemons holding the pipes) is killed, then the rest read.
        self.kill_run(2.0)
        for key in list(self.selector.get_map().values()):
            if key.data in ("exit", "oom"):
                self.selector.unregister(key.fd)
                continue
            os.set_blocking(key.fd, False)
            try:
                while chunk := os.read(key.fd, 65536):
                    self._take(key.data, chunk)
            except (BlockingIOError, OSError):
                pass
        self.selector.close()
        exit_code, sig = decode_status(status, under_bwrap)
        group, limits, limit_hit = self.group, self.limits, self.limit_hit
        if group:
            cpu_s = max(group.cpu_seconds() - self.cpu_base, 0.0)
            peak = group.peak_bytes()
            refused = group.oom_killed() or group.hit_memory_limit()
        else:
            assert usage is not None  # without a cgroup the run is the judge's own child
            cpu_s = max(self.sampled_cpu, usage.ru_utime + usage.ru_stime)
            # ru_maxrss covers the child's whole life, the fork of the judge before the exec
            # included: above the judge's own size it can only be the program's peak.
            own_peak = usage.ru_maxrss * 1024
            peak = max(self.sampled_peak, own_peak) if own_peak > judge_rss + (1 << 20) else self.sampled_peak
            refused = False
        if self.clock is not None:
            self.clock.publish(cpu_s)  # the kernel's own total, for a reader still at work
        if self.output_bytes > limits.output_bytes and limit_hit is None:
            limit_hit = Limit.OUTPUT
        if limit_hit is None and sig == signal.SIGXFSZ:
            limit_hit = Limit.FILE_SIZE
        if limit_hit is None and sig == signal.SIGKILL and group is not None and group.oom_killed():
            limit_hit = Limit.MEMORY  # the kernel's OOM killer, whatever CPU time it had used
        if limit_hit is None and sig in (signal.SIGXCPU, signal.SIGKILL) and cpu_s >= limits.cpu_s * 0.95:
            limit_hit = Limit.CPU  # the rlimit backstop fired
        if limit_hit is None and peak >= self.memory_bytes:
            limit_hit = Limit.MEMORY
        return RunResult(
            exit_code=exit_code,
            signal=sig,
            cpu_s=round(cpu_s, 4),
            wall_s=round(wall, 4),
            memory_kib=peak // 1024,
            output_bytes=self.output_bytes,
            limit_hit=limit_hit,
            memory_refused=refused,
            stdout=bytes(self.stdout),
            stderr=bytes(self.stderr),
            busy=limit_hit == Limit.WALL and self.busy,
            ended=ended,
        )


def watch_run(
    pid: int,
    group: cgroups.RunGroup | None,
    limits: RunLimits,
    out_r: int | None,
    err_r: int,
    start: float,
    under_bwrap: bool,
    memory_bytes: int,
    judge_rss: int,
    cpu_base: float = 0.0,
    stop: Stop | None = None,
    exit_stamp: Callable[[], float | None] | None = None,
    clock: CpuClock | None = None,
) -> RunResult:
    """A run the judge started itself (its child): reaped with wait4. `exit_stamp`: when it
    ended by the kernel's clock, where there is such a record (an interaction's). `clock`:
    where its CPU time is published as it runs."""
    # A pidfd wakes the loop the moment the program ends, instead of at the next poll.
    pidfd: int | None = None
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pass

    def kill(timeout: float) -> None:
        kill_tree(pid, group, timeout)

    watch = Watch(kill, pidfd, pid, group, limits, out_r, err_r, start, memory_bytes, cpu_base, stop)
    watch.exit_stamp, watch.clock = exit_stamp, clock
    try:
        while True:
            watch.read()
            reaped, status, usage = os.wait4(pid, os.WNOHANG)
            if reaped:
                return watch.finish(status, usage, under_bwrap, judge_rss)
            watch.poll()
    finally:
        if pidfd is not None:
            os.close(pidfd)
