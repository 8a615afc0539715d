"""One cgroup per run: a memory limit (with swap), a process limit and CPU accounting
for the whole process tree, whatever it forks.

cgroup v1 (separate memory, pids and cpuacct hierarchies, as on the machines here) and
v2 (one unified hierarchy) behind one small interface. Groups are made under the
judge's own cgroup, so the machine's accounting of the judge still covers its runs.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import time
from dataclasses import dataclass

from judge.run import lifecycle

ROOT = "/sys/fs/cgroup"
V1_CONTROLLERS = ("memory", "pids", "cpuacct")


@dataclass(frozen=True)
class Support:
    """Whether per-run cgroups can be made here, and if not, exactly why."""

    version: int  # 1 or 2; 0 when unavailable
    reason: str  # why not, or where the groups go


def _own_paths(pid: int | None = None) -> dict[str, str]:
    """Controller (or "" for v2) -> a process's cgroup path (this process's by default)."""
    paths: dict[str, str] = {}
    with open(f"/proc/{pid or 'self'}/cgroup", encoding="utf-8") as stream:
        for line in stream:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(","):
                paths[controller] = path
    return paths


def _try_mkdir(parent: str) -> str | None:
    """None when a child group can be made and removed in `parent`, else the reason."""
    probe = os.path.join(parent, f"judge-probe-{os.getpid()}")
    try:
        os.mkdir(probe)
        os.rmdir(probe)
    except OSError as err:
        return f"cannot create a cgroup in {parent}: {err.strerror}"
    return None


def detect() -> Support:
    if not os.path.isdir(ROOT):
        return Support(0, f"{ROOT} does not exist")
    try:
        own = _own_paths()
    except OSError as err:
        return Support(0, f"cannot read /proc/self/cgroup: {err.strerror}")
    if all(os.path.isdir(os.path.join(ROOT, c)) for c in V1_CONTROLLERS):
        for controller in V1_CONTROLLERS:
            reason = _try_mkdir(os.path.join(ROOT, controller) + own.get(controller, "/"))
            if reason:
                return Support(0, f"cgroup v1: {reason}")
        return Support(1, "cgroup v1: memory, pids, cpuacct")
    if os.path.isfile(os.path.join(ROOT, "cgroup.controllers")):
        return _detect_v2(own.get("", "/"))
    return Support(0, f"no usable cgroup hierarchy under {ROOT}")


V2_NEEDED = ("memory", "pids", "cpu")
LEAF_PREFIX = "judge-leaf-"
# cgroup v2: the group the run groups are made in (None until detect() found one).
_v2_parent: str | None = None


def _v2_parent_of(own: str) -> str:
    """The judge's group, or the delegated group above the leaf it moved itself into."""
    directory = ROOT + own.rstrip("/")
    if os.path.basename(directory).startswith(LEAF_PREFIX):
        return os.path.dirname(directory)
    return directory or ROOT


def _detect_v2(own: str) -> Support:
    """v2: run groups are children of the judge's group, which must hand them the memory,
    pids and cpu controllers. As root that is the judge's own group; as an ordinary user a
    group delegated to it (systemd: `systemd-run --user --scope -p Delegate=yes judge ...`),
    where the judge first moves itself into a leaf, since v2 lets a group give controllers
    to children only while it holds no process itself."""
    global _v2_parent
    parent = _v2_parent_of(own)
    try:
        enabled = _read(os.path.join(parent, "cgroup.subtree_control")).split()
        available = _read(os.path.join(parent, "cgroup.controllers")).split()
    except OSError as err:
        return Support(0, f"cgroup v2: cannot read {parent}: {err.strerror}")
    missing = [c for c in V2_NEEDED if c not in enabled]
    if missing:
        lacking = [c for c in V2_NEEDED if c not in available]
        if lacking:
            return Support(
                0,
                f"cgroup v2: {parent} has no {', '.join(lacking)} controller to hand on "
                "(as an ordinary user: run the judge in a delegated group, "
                "systemd-run --user --scope -p Delegate=yes)",
            )
        refused = _delegate_to_children(parent, missing)
        if refused:
            return Support(0, f"cgroup v2: {refused}")
    unusable = _try_mkdir(parent)
    if unusable:
        return Support(0, f"cgroup v2: {unusable}")
    _v2_parent = parent
    return Support(2, f"cgroup v2: memory, pids, cpu in {parent}")


def _delegate_to_children(parent: str, missing: list[str]) -> str:
    """Enable `missing` controllers for the children of `parent`, moving this process into
    a leaf first if it is the group's only process. "" on success, else why not."""
    procs_file = os.path.join(parent, "cgroup.procs")
    control = os.path.join(parent, "cgroup.subtree_control")
    if not (os.access(procs_file, os.W_OK) and os.access(control, os.W_OK)):
        return f"{parent} is not delegated to this user (memory, pids and cpu cannot be handed on)"
    try:
        members = [int(pid) for pid in _read(procs_file).split()]
    except (OSError, ValueError) as err:
        return f"cannot read {procs_file}: {err}"
    if members and members != [os.getpid()]:
        return (
            f"{parent} holds other processes ({len(members)}); start the judge in a group of its own "
            "(systemd-run --user --scope -p Delegate=yes judge ...)"
        )
    leaf = os.path.join(parent, f"{LEAF_PREFIX}{os.getpid()}")
    try:
        if members:
            os.makedirs(leaf, exist_ok=True)
            _write(os.path.join(leaf, "cgroup.procs"), str(os.getpid()))
        _write(control, " ".join(f"+{c}" for c in missing))
    except OSError as err:
        return f"cannot hand {', '.join(missing)} to the children of {parent}: {err.strerror}"
    return ""


def _parents(own: dict[str, str], version: int) -> dict[str, str]:
    """Controller -> the directory the run groups are made in (v2: one for all three)."""
    if version == 1:
        return {c: os.path.join(ROOT, c) + own.get(c, "/").rstrip("/") for c in V1_CONTROLLERS}
    base = _v2_parent or _v2_parent_of(own.get("", "/"))
    return dict.fromkeys(V2_NEEDED, base)


def remove_stale() -> int:
    """Remove the run groups that judges which are gone left behind (killed outright, a
    group can neither be emptied nor removed by its owner); their processes are killed."""
    try:
        own = _own_paths()
    except OSError:
        return 0
    version = 2 if os.path.isfile(os.path.join(ROOT, "cgroup.controllers")) else 1
    removed = 0
    gone: set[str] = set()
    for parent in set(_parents(own, version).values()):
        try:
            names = [n for n in os.listdir(parent) if n.startswith("judge-run-")]
        except OSError:
            continue
        for name in names:
            directory = os.path.join(parent, name)
            try:
                if not lifecycle.stale(name, os.stat(directory).st_mtime):
                    continue  # a live judge holds it, in this pid namespace or another
                for pid in _read(os.path.join(directory, "cgroup.procs")).split():
                    os.kill(int(pid), signal.SIGKILL)
                os.rmdir(directory)
                removed += 1
                gone.add(name)
            except (OSError, ValueError):
                pass  # still emptying, or not ours to remove: the next judge tries again
    for name in gone:
        lifecycle.forget(name)
    return removed


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(value)


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as stream:
        return stream.read()


def children_of(pid: int) -> list[int]:
    """The direct children of a process, from the kernel's list (empty if it has exited)."""
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as stream:
                found += [int(child) for child in stream.read().split()]
    except OSError:
        pass
    return found


class RunGroup:
    """The cgroup(s) of one run. Create, let the child join, read figures, kill, remove.
    What differs between the versions (the files of the limits and figures) is GroupV1's
    and GroupV2's; run_group makes the one this machine has."""

    version = 0

    def __init__(self, memory_bytes: int, pids: int) -> None:
        self.memory_bytes = memory_bytes
        self.pids_max = pids
        self._oom_base = 0
        # The judge's pid, while a thread of it lives in the group: never killed, not a run's.
        self.exempt: int | None = None
        self.oom_guarded = False  # the kernel's OOM killer is off: the judge watches under_oom
        self._oom_event: int | None = None  # an eventfd on memory.oom_control: see oom_event_fd
        self.forgets = False  # this run's reads are evicted from the page cache as it ends: see forget
        # The group's files, each opened once: a run reads and writes a dozen of them, and
        # opening one costs 15 times what a read at offset 0 of an open one does.
        self._kept: dict[tuple[str, int], int] = {}
        name = lifecycle.owned_name("run")  # held by a lock while it lives: see remove_stale
        lifecycle.hold(name)
        self.name = name
        own = _own_paths()
        self.dirs = {c: parent + "/" + name for c, parent in _parents(own, self.version).items()}
        made: list[str] = []
        try:
            for directory in dict.fromkeys(self.dirs.values()):
                os.mkdir(directory)
                made.append(directory)
            self._limit(memory_bytes, pids)
        except OSError:
            for directory in reversed(made):
                try:
                    os.rmdir(directory)
                except OSError:
                    pass
            lifecycle.release(name)
            raise

    # What each version does its own way.

    def _limit(self, memory_bytes: int, pids: int) -> None:
        raise NotImplementedError

    def _controller_dir(self, controller: str, current: dict[str, str]) -> str:
        """Where a process whose cgroups are `current` is, for `controller`'s hierarchy."""
        raise NotImplementedError

    def cpu_seconds(self) -> float:
        """CPU time (user + system) of every process that ever ran in the group."""
        raise NotImplementedError

    def peak_bytes(self) -> int:
        raise NotImplementedError

    def _oom_kills(self) -> int:
        raise NotImplementedError

    def hit_memory_limit(self) -> bool:
        """True when an allocation was refused or reclaimed at the limit."""
        raise NotImplementedError

    def under_oom(self) -> bool:
        """Whether the run waits at its memory limit (only with the OOM killer off: v1)."""
        return False

    def _reclaim(self) -> None:
        """Reclaim all the group holds that can be reclaimed without swapping."""
        raise NotImplementedError

    def oom_event_fd(self) -> int | None:
        """A descriptor readable once the run waits at its memory limit (v1, OOM killer
        off), drained of earlier runs' events; None where there is none."""
        return None

    # The same in both.

    def _file(self, controller: str, name: str) -> str:
        return os.path.join(self.dirs[controller], name)

    def _fd(self, path: str, mode: int) -> int:
        fd = self._kept.get((path, mode))
        if fd is None:
            # Opened for writing as open(path, "w") would (the first time only).
            flags = mode | os.O_CLOEXEC | (os.O_CREAT | os.O_TRUNC if mode == os.O_WRONLY else 0)
            fd = self._kept[(path, mode)] = os.open(path, flags, 0o644)
        return fd

    def _get(self, path: str) -> str:
        """A file of the group, read whole from its start."""
        fd = self._fd(path, os.O_RDONLY)
        chunks = [os.pread(fd, 65536, 0)]
        while len(chunks[-1]) == 65536:
            chunks.append(os.pread(fd, 65536, 65536 * len(chunks)))
        return b"".join(chunks).decode()

    def _put(self, path: str, value: str) -> None:
        """Write a value to a file of the group (one write, as the kernel wants it)."""
        os.pwrite(self._fd(path, os.O_WRONLY), value.encode(), 0)

    def _memory_stat(self) -> dict[str, int]:
        """memory.stat, each figure by its name (bytes)."""
        found: dict[str, int] = {}
        for line in self._get(self._file("memory", "memory.stat")).splitlines():
            name, _, value = line.partition(" ")
            if value.isdigit():
                found[name] = int(value)
        return found

    def join_fds(self) -> list[int]:
        """The files of join_files, open for writing (the group's own: the caller closes none)."""
        return [self._fd(path, os.O_WRONLY) for path in self.join_files()]

    def _read_count(self, controller: str, name: str, key: str) -> int:
        """The value of `key` in a flat-keyed file (memory.events, memory.oom_control)."""
        try:
            for line in self._get(self._file(controller, name)).splitlines():
                found, _, value = line.partition(" ")
                if found == key:
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def join_files(self) -> list[str]:
        """The files the child writes its pid into (before exec, while still root)."""
        return [os.path.join(d, "cgroup.procs") for d in dict.fromkeys(self.dirs.values())]

    def join(self, pid: int) -> None:
        """Move a process into the group (its later children inherit it).

        A move is costly under cgroup v1 (the kernel waits for an RCU grace period), so a
        process already in the group, typically a child forked after its parent moved, is
        left where it is.
        """
        for path in self._missing(pid):
            try:
                _write(path, str(pid))
            except OSError as err:
                if err.errno == errno.ESRCH:
                    raise ProcessLookupError(pid) from None
                raise

    def _missing(self, pid: int) -> list[str]:
        """The cgroup.procs files of the controllers `pid` is not yet in."""
        try:
            current = _own_paths(pid)
        except OSError:
            return []  # exited
        missing = [
            os.path.join(directory, "cgroup.procs")
            for controller, directory in self.dirs.items()
            if self._controller_dir(controller, current) != directory
        ]
        return list(dict.fromkeys(missing))

    def oom_killed(self) -> bool:
        """True when the kernel killed a process of the group for its memory limit (this run)."""
        return self._oom_kills() > self._oom_base

    def forget(self) -> bool:
        """Evict what the group's runs were the first to bring into the machine's page cache,
        once their processes are gone; whether that could be done here.

        The kernel charges a page of the page cache to the cgroup of the process that read it
        in, and only that one: the pages a run found cached stay charged to whoever read them
        first. So reclaiming the group evicts exactly what the run added (clean pages of the
        files it read, and the dentries and inodes of the names it looked up, which are charged
        too), and a later run finds the page cache as it was before this one: a read it times
        tells it nothing of what this run read. What is memory rather than cache (its files in
        the box, in /tmp) cannot be reclaimed without swap and is left, as is swap itself."""
        try:
            self._reclaim()
        except OSError:
            return False
        return True

    def enter_thread(self, tid: int) -> None:
        """Move one thread of the judge into the group (v1 is thread-granular); see sandbox.spawn._Launcher."""
        for directory in dict.fromkeys(self.dirs.values()):
            _write(os.path.join(directory, "tasks"), str(tid))
        self.exempt = os.getpid()

    def pids(self) -> list[int]:
        """The processes of the run in the group (the judge itself left out)."""
        try:
            # Opened anew each time: v1 keeps an open cgroup.procs's list of pids for up to a
            # second, and a sweep must see who is in the group now.
            found = [int(p) for p in _read(self._file("pids", "cgroup.procs")).split()]
        except (OSError, ValueError):
            return []
        return [p for p in found if p != self.exempt]

    def _kill_at_once(self) -> None:
        """Kill the whole group in one step where the version can (v2's cgroup.kill)."""

    def kill_all(self, timeout: float = 2.0) -> bool:
        """SIGKILL every process in the group until it is empty; False if some survived."""
        deadline = time.monotonic() + timeout
        if self.exempt is None:
            self._kill_at_once()
        while True:
            pids = self.pids()
            if not pids:
                return True
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if time.monotonic() > deadline:
                return False
            _await_exit(pids, min(deadline - time.monotonic(), 0.05))

    def remove(self) -> None:
        for fd in self._kept.values():
            os.close(fd)
        self._kept.clear()
        if self._oom_event is not None:
            os.close(self._oom_event)
            self._oom_event = None
        left = False
        for directory in dict.fromkeys(self.dirs.values()):
            for _ in range(50):  # a killed process may take a moment to leave
                try:
                    os.rmdir(directory)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)
            else:
                left = True
        if not left:
            lifecycle.release(self.name)  # else held until this judge ends, then another removes it


def _await_exit(pids: list[int], timeout: float) -> None:
    """Until a process of `pids` has ended (its pidfd readable), at most `timeout`: a killed
    sandbox's pid 1 takes its namespaces down first (0.5-1 ms), and a sleep of a fixed step
    woke late by up to that step. 0.5 ms where a pidfd cannot tell (one ended already, yet the
    group still lists it; or no pidfd here)."""
    fds: list[int] = []
    try:
        for pid in pids:
            fds.append(os.pidfd_open(pid))
        poller = select.poll()
        for fd in fds:
            poller.register(fd, select.POLLIN)
        if not poller.poll(0):  # none has ended yet
            poller.poll(max(timeout, 0.0) * 1000)
            return
    except (OSError, AttributeError):
        pass  # gone already (ESRCH), or no pidfd_open here
    finally:
        for fd in fds:
            os.close(fd)
    time.sleep(0.0005)


RESIDUE_BYTES = 1 << 20  # what a reused group may keep charged from its earlier runs (v1)
# ... of which kernel objects, not cache: a sandbox's namespaces and mounts, freed a little after it ends
KERNEL_RESIDUE_BYTES = 4 << 20


class GroupV1(RunGroup):
    """cgroup v1: a group in each of the memory, pids and cpuacct hierarchies."""

    version = 1

    def _limit(self, memory_bytes: int, pids: int) -> None:
        self._put(self._file("memory", "memory.limit_in_bytes"), str(memory_bytes))
        memsw = self._file("memory", "memory.memsw.limit_in_bytes")
        if os.path.exists(memsw):  # no swapping past the limit
            self._put(memsw, str(memory_bytes))
        self._put(self._file("pids", "pids.max"), str(pids))

    def _controller_dir(self, controller: str, current: dict[str, str]) -> str:
        return ROOT + "/" + controller + current.get(controller, "")

    def reset(self, memory_bytes: int, pids: int) -> None:
        """Ready an empty group for another run: these limits, counters from zero.

        Reusing one group per judge process spares a mkdir and an rmdir in three
        hierarchies per run. Only a group that keeps less than RESIDUE_BYTES charged is
        reused (see keeps_cache), so the next peak starts from (nearly) nothing.
        """
        limit = self._file("memory", "memory.limit_in_bytes")
        memsw = self._file("memory", "memory.memsw.limit_in_bytes")
        if memory_bytes != self.memory_bytes:
            # v1 wants memory.limit <= memsw.limit at every moment.
            order = [memsw, limit] if memory_bytes > self.memory_bytes else [limit, memsw]
            for path in order:
                if path == limit or os.path.exists(path):
                    self._put(path, str(memory_bytes))
            self.memory_bytes = memory_bytes
        if pids != self.pids_max:
            self._put(self._file("pids", "pids.max"), str(pids))
            self.pids_max = pids
        for name in ("memory.max_usage_in_bytes", "memory.failcnt"):
            self._put(self._file("memory", name), "0")
        self._put(self._file("cpuacct", "cpuacct.usage"), "0")
        self._oom_base = self._oom_kills()

    def keeps_cache(self) -> bool:
        """Whether the runs so far left RESIDUE_BYTES or more charged here: the page cache of
        the files they were first to read (a runtime's libraries, a JVM's class archive).
        Such a group is removed rather than reused. Reclaiming it in place (lowering the
        limit for a moment) would evict those files from the machine's page cache: every
        JVM start read 3-4 MB from disk again, an idle core meanwhile, and any other process
        mapping them faulted them back in. Removed, the group keeps its pages charged until
        the kernel needs the memory; they stay cached for every later run. Each case leaves
        a little below the threshold (its input file's pages).

        Only the cache counts against RESIDUE_BYTES: a sandbox of a case's own leaves the kernel
        objects of its namespaces and mounts charged for a moment (0.5-1.8 MiB here, freed by the
        kernel a little later), which counted as usage made the group new every third case, a
        mkdir, an rmdir and a thread's move in three hierarchies each time (10-20 ms). They
        may stay up to KERNEL_RESIDUE_BYTES, all the next run's peak can start from."""
        try:
            usage = self._usage()
            if usage < RESIDUE_BYTES:
                return False  # memory.stat's lines cost 0.1 ms to read: only where they can matter
            cache = self._memory_stat().get("cache", usage)
        except (OSError, ValueError):
            return True
        return cache >= RESIDUE_BYTES or usage >= KERNEL_RESIDUE_BYTES

    def _usage(self) -> int:
        return int(self._get(self._file("memory", "memory.usage_in_bytes")))

    def _reclaim(self) -> None:
        """A memory limit of 0, put back at once: the kernel reclaims until it cannot (the
        dentries and inodes too, in its last try) and keeps the limit (EBUSY). A page the run
        read last on a CPU it did not end on can still be in that CPU's batch on its way to
        the lists reclaim walks: where a page of a file is still charged here, memory.force_empty
        drains every CPU's batch and reclaims again. (force_empty alone costs 0.4 ms a case
        here, against 0.07: it tries 16 times over to reclaim what cannot be, the kernel objects
        of the case's namespaces, freed a little later.) Swappiness 0 for the time of it, where
        the kernel has the file: with swap, the box's files would otherwise be written out to
        it (a run's own reclaim never swaps: its memory+swap limit is its memory limit)."""
        swappiness = self._file("memory", "memory.swappiness")
        try:
            before = self._get(swappiness).strip()
            self._put(swappiness, "0")
        except OSError:
            before = ""
        try:
            limit = self._file("memory", "memory.limit_in_bytes")
            try:
                self._put(limit, "0")
            except OSError as err:
                if err.errno != errno.EBUSY:
                    raise
            self._put(limit, str(self.memory_bytes))
            left = self._memory_stat()
            if left.get("cache", 0) > left.get("shmem", 0):
                self._put(self._file("memory", "memory.force_empty"), "0")
        finally:
            if before:
                self._put(swappiness, before)

    def cpu_seconds(self) -> float:
        try:
            return int(self._get(self._file("cpuacct", "cpuacct.usage"))) / 1e9
        except (OSError, ValueError):
            return 0.0

    def peak_bytes(self) -> int:
        try:
            return int(self._get(self._file("memory", "memory.max_usage_in_bytes")))
        except (OSError, ValueError):
            return 0

    def _oom_kills(self) -> int:
        return self._read_count("memory", "memory.oom_control", "oom_kill")

    def hit_memory_limit(self) -> bool:
        """v1: the memory controller's failcnt (allocations refused at the limit)."""
        try:
            return int(self._get(self._file("memory", "memory.failcnt"))) > 0
        except (OSError, ValueError):
            return False

    def disable_oom_killer(self) -> None:
        """At the limit, tasks wait instead of being killed; see under_oom()."""
        self._put(self._file("memory", "memory.oom_control"), "1")
        self.oom_guarded = True

    def under_oom(self) -> bool:
        try:
            return "under_oom 1" in self._get(self._file("memory", "memory.oom_control"))
        except OSError:
            return False

    def oom_event_fd(self) -> int | None:
        """v1's OOM notification (cgroup.event_control): a run frozen at its limit wakes the
        watcher at once, instead of waiting for its next look (up to 50 ms of an idle core
        per MLE case)."""
        if not self.oom_guarded:
            return None
        if self._oom_event is None:
            event = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            try:
                # The notification lives as long as the group keeps oom_control open (_kept).
                control = self._fd(self._file("memory", "memory.oom_control"), os.O_RDONLY)
                self._put(self._file("memory", "cgroup.event_control"), f"{event} {control}")
            except OSError:
                os.close(event)
                return None
            self._oom_event = event
        with contextlib.suppress(BlockingIOError):
            os.eventfd_read(self._oom_event)
        return self._oom_event


class GroupV2(RunGroup):
    """cgroup v2: one group in the unified hierarchy for the three controllers."""

    version = 2

    def _limit(self, memory_bytes: int, pids: int) -> None:
        self._put(self._file("memory", "memory.max"), str(memory_bytes))
        self._put(self._file("memory", "memory.swap.max"), "0")
        self._put(self._file("pids", "pids.max"), str(pids))

    def _controller_dir(self, controller: str, current: dict[str, str]) -> str:
        return ROOT + current.get("", "")

    def cpu_seconds(self) -> float:
        try:
            for line in self._get(self._file("cpu", "cpu.stat")).splitlines():
                key, value = line.split()
                if key == "usage_usec":
                    return int(value) / 1e6
        except (OSError, ValueError):
            pass
        return 0.0

    def peak_bytes(self) -> int:
        try:
            return int(self._get(self._file("memory", "memory.peak")))
        except (OSError, ValueError):
            return 0

    def _oom_kills(self) -> int:
        return self._read_count("memory", "memory.events", "oom_kill")

    def _reclaim(self) -> None:
        """memory.reclaim (Linux 5.19) of what memory.stat says is cache: the files' pages (the
        group has no swap, so its tmpfs pages stay) and the slab that can be reclaimed (the
        dentries and inodes). Asked for more, it tries 16 times over before it answers EAGAIN.
        It drains every CPU's batch of pages on their way to the lists it walks first. Before
        5.19, a memory.max of 0 reclaims all it can (the group is empty: no one to kill) and
        the limit is put back."""
        left = self._memory_stat()
        cache = left.get("file", 0) - left.get("shmem", 0) + left.get("slab_reclaimable", 0)
        if cache <= 0:
            return
        try:
            self._put(self._file("memory", "memory.reclaim"), str(cache))
            return
        except OSError as err:
            if err.errno == errno.EAGAIN:
                return  # reclaimed all that can be
            if err.errno not in (errno.ENOENT, errno.EACCES, errno.EPERM, errno.EINVAL):
                raise
        limit = self._file("memory", "memory.max")
        self._put(limit, "0")
        self._put(limit, str(self.memory_bytes))

    def hit_memory_limit(self) -> bool:
        """v2: memory.events' max (the times the usage reached the limit)."""
        return self._read_count("memory", "memory.events", "max") > 0

    def _kill_at_once(self) -> None:
        try:
            self._put(self._file("pids", "cgroup.kill"), "1")
        except OSError:
            pass


def run_group(version: int, memory_bytes: int, pids: int) -> RunGroup:
    """A new group for one run, of the version detect() found (1 or 2)."""
    if version == 1:
        return GroupV1(memory_bytes, pids)
    if version == 2:
        return GroupV2(memory_bytes, pids)
    raise ValueError(f"no cgroup version {version}")
