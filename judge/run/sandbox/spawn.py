"""Starting a run: its cgroup, the launcher thread that starts it inside, its limits, then the watch."""

from __future__ import annotations

import contextlib
import importlib
import os
import queue
import re
import resource
import select
import signal
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from judge.errors import SandboxFailure
from judge.run import cgroups, lifecycle
from judge.run.sandbox import filters
from judge.run.sandbox.argv import Rlimit, bwrap_prefix, hidden_options, prlimit_options, rlimit_list
from judge.run.sandbox.detect import detect
from judge.run.sandbox.inputs import sealed_copy
from judge.run.sandbox.procs import (
    PR_SET_PDEATHSIG,
    become_subreaper,
    high_water_bytes,
    kill_tree,
    libc_prctl,
    own_children,
    resident_bytes,
    sweep,
)
from judge.run.sandbox.records import BOX_MOUNT, NOBODY, SANDBOX_PATH, Layers, RunLimits, RunResult, Stop
from judge.run.sandbox.watch import CpuClock, watch_run

# One run at a time per process: the final sweep kills every child the run left.
RUN_LOCK = threading.Lock()


def run(
    argv: Sequence[str],
    *,
    box: Path,
    limits: RunLimits,
    stdin: Path | int | None = None,
    env: Mapping[str, str] | None = None,
    layers: Layers | None = None,
    stdout: int | None = None,
    stop: Stop | None = None,
    fixed: tuple[str, ...] = (),
    clock: CpuClock | None = None,  # where its CPU time is published as it runs (watch.CpuClock)
) -> RunResult:
    """Run `argv` in `box` (its working directory) under `limits`; stdin a sealed copy of a file.
    SandboxFailure when the run's own files fail it (its box or cgroup removed meanwhile).

    An interaction: `stdin` and `stdout` may be pipe ends (file descriptors), which the run
    takes over (they are closed here once it has started, so the other side sees the end when
    the program ends); its stdout is then not read here. `stop` set ends the run (STOPPED).
    `fixed`: names of files in the box the program may read but not change (a checker's input)."""
    owned = [fd for fd in (stdin, stdout) if isinstance(fd, int)]
    with RUN_LOCK:
        if not box.is_dir():
            for fd in owned:
                os.close(fd)
            raise SandboxFailure(f"the sandbox failed to run {Path(argv[0]).name}: its box {box} is gone")
        try:
            result = _run_locked(argv, box, limits, stdin, env, layers or detect(), stdout, stop, fixed, clock)
        except OSError as err:
            where = f" ({err.filename})" if err.filename else ""
            raise SandboxFailure(
                f"the sandbox failed to run {Path(argv[0]).name}: {err.strerror or err}{where}"
            ) from None
        if not box.is_dir():  # whatever the program got, it was not the box it was given
            raise SandboxFailure(f"the sandbox failed to run {Path(argv[0]).name}: its box {box} went away")
        return result


def measured_group(version: int, limits: RunLimits) -> cgroups.RunGroup:
    """The run's cgroup, its memory a little above the limit: a program that uses exactly the
    limit is measured at it (peak >= limit means MLE) instead of killed a page short of it."""
    group = run_group(version, limits.memory_mib * 1024 * 1024 + 4 * 1024 * 1024, limits.pids)
    group.forgets = limits.forget_reads  # see release_group
    return group


def run_environment(env: Mapping[str, str] | None, home: str, path: str = SANDBOX_PATH) -> dict[str, str]:
    """The program's environment: what the caller gives, and a PATH (the layers' own: the
    system's folders, then the toolchains shown from outside them), a locale and a HOME."""
    run_env = dict(env) if env is not None else {}
    run_env.setdefault("PATH", path)
    run_env.setdefault("LANG", "C.UTF-8")
    run_env.setdefault("HOME", home)
    return run_env


def _command(
    layers: Layers,
    box: Path,
    limits: RunLimits,
    argv: Sequence[str],
    inside: list[Rlimit] | None,
    fds: tuple[int | None, int | None, int | None, int | None],
    fixed: tuple[str, ...] = (),
) -> list[str]:
    """The command line: bubblewrap's (with the block, status and seccomp fds), then prlimit
    with the rlimits `inside` (none: set before bubblewrap's exec, or from outside), then
    setpriv to nobody, then argv."""
    if not layers.bwrap.active:
        return list(argv)
    block_r, status_fd, rules, info_fd = fds
    full = bwrap_prefix(
        layers, str(box), block_r, limits.tmp_mib << 20, limits.read_only, status_fd, rules, fixed, info_fd
    )
    if inside:
        assert layers.prlimit_path is not None
        full += [layers.prlimit_path, *prlimit_options(inside), "--"]
    if layers.user.active and layers.setpriv_path and not layers.rootless:
        full += [layers.setpriv_path, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
    return full + list(argv)


def _child_setup(join_files: Sequence[str | Path], rlimits: list[Rlimit], drop_user: bool) -> Callable[[], None]:
    """What runs between fork and exec without bubblewrap: plain system calls only."""

    def in_child() -> None:
        pid = str(os.getpid())
        for path in join_files:
            with open(path, "w") as stream:
                stream.write(pid)
        for which, (soft, hard) in rlimits:
            if which == resource.RLIMIT_STACK:
                _raise_limit(which, soft)  # without root the hard limit may be lower
            else:
                resource.setrlimit(which, (soft, hard))
        if drop_user:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
        # Without bubblewrap's --die-with-parent: a judge killed outright takes the run along
        # (set after setuid, which clears it).
        libc_prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    return in_child


@dataclass(frozen=True)
class _FastStart:
    """A sandbox started by _fastspawn's vfork (see _fastspawn.c): the rlimits it takes before
    bubblewrap's exec, so that every process of the sandbox inherits them."""

    module: ModuleType
    rlimits: tuple[Rlimit, ...]


@dataclass(frozen=True)
class _Started:
    pid: int
    popen: subprocess.Popen[bytes] | None  # None: started by _fastspawn
    out_r: int | None  # None: stdout was handed to another program
    err_r: int
    start: float
    cpu_base: float
    held: int | None  # the judge's descriptor of the input's copy, closed once the run is over


def _start(
    full: list[str],
    box: Path,
    stdio: tuple[Path | int | None, int | None],
    run_env: dict[str, str],
    in_child: Callable[[], None] | None,
    group: cgroups.RunGroup | None,
    passed: tuple[int | None, ...],
    fast: _FastStart | None = None,
    under_bwrap: bool = False,
) -> _Started:
    """Spawn the command, the program's ends of its pipes closed here once it holds them; on
    failure every descriptor is closed and the group released, as if nothing had begun.
    `under_bwrap`: the command is bubblewrap's, its options handed by a memfd (hidden_options)."""
    stdin, stdout = stdio
    closing = [fd for fd in passed if fd is not None]
    try:
        if under_bwrap:
            full, options_fd = hidden_options(full)
            closing.append(options_fd)
        # A file is handed as a sealed copy (inputs.py): rootless, the program's uid owns it.
        stdin_fd = stdin if isinstance(stdin, int) else sealed_copy(stdin)
    except OSError:
        for fd in [fd for fd in (stdout,) if fd is not None] + closing:
            os.close(fd)
        if group:
            release_group(group)
        raise
    # The input's copy stays open here until the run is over: its last close frees its pages
    # (6 ms for 100 MB), in the judge's time then, not in the program's exit.
    held = None if isinstance(stdin, int) else stdin_fd
    out_r, out_w = os.pipe() if stdout is None else (None, stdout)
    err_r, err_w = os.pipe()
    start = time.monotonic()
    try:
        spawn_args: dict[str, object] = dict(
            args=full,
            stdin=stdin_fd,
            stdout=out_w,
            stderr=err_w,
            cwd=box,
            env=run_env,
            preexec_fn=in_child,
            start_new_session=True,
            close_fds=True,
            pass_fds=tuple(closing),
        )
        launcher = _launcher_for(group) if in_child is None else None
        if fast is not None:
            # Born in the group under the launcher; else the child joins it before the exec.
            joins = [] if launcher or group is None else group.join_fds()
            fds = (stdin_fd, out_w, err_w)

            def begin() -> tuple[int, subprocess.Popen[bytes] | None]:
                return _fast_spawn(fast, full, box, fds, run_env, (closing, joins)), None
        else:

            def begin() -> tuple[int, subprocess.Popen[bytes] | None]:
                proc = subprocess.Popen(**spawn_args)  # type: ignore[call-overload]
                return proc.pid, proc

        pid, popen = launcher.call(begin) if launcher else begin()
        # The launcher thread sits in the group, so its fork of the judge (page tables: more
        # in a bigger judge process, such as a dask worker) is charged there: not the
        # program's time. The program has not started yet (bwrap waits on the block fd).
        cpu_base = group.cpu_seconds() if group else 0.0
    except BaseException:
        for maybe in (out_r, err_r, held):
            if maybe is not None:
                os.close(maybe)
        if group:
            release_group(group)
        raise
    finally:
        # The program holds its ends now (or never will): the other side of a pipe handed to
        # it sees its end when it ends. bubblewrap has read the filter or holds its own copy.
        for fd in (out_w, err_w, *closing, *([] if held is not None else [stdin_fd])):
            os.close(fd)
    return _Started(pid, popen, out_r, err_r, start, cpu_base, held)


_FAST_ENV = "JUDGE_FASTSPAWN"  # session.FAST_ENV: 0 starts a sandbox per case by Popen too


def starts_by_vfork() -> bool:
    """Whether a sandbox of a case's own starts here by _fastspawn's vfork, its rlimits taken
    before bubblewrap's exec (else by Popen, and prlimit(1) inside sets them)."""
    return _fast_module() is not None


def _fast_module() -> ModuleType | None:
    """_fastspawn where it was built (with its sandbox start) and not switched off, else None."""
    if os.environ.get(_FAST_ENV, "").strip() == "0":
        return None
    return _fast_built()


@lru_cache(maxsize=1)
def _fast_built() -> ModuleType | None:
    try:
        module = importlib.import_module("judge.run.sandbox._fastspawn")
    except ImportError:
        return None
    return module if getattr(module, "SANDBOX_START", 0) else None  # an older build has no sandbox start


def _fast_spawn(
    fast: _FastStart,
    full: list[str],
    box: Path,
    stdio: tuple[int, int, int],
    env: Mapping[str, str],
    fds: tuple[list[int], list[int]],
) -> int:
    """bubblewrap started by vfork with the run's rlimits: its pid. `fds`: the descriptors it
    keeps (the block, seccomp and status ones) and the group files it writes itself into."""
    keep, joins = fds
    pid, error, stage, _ = fast.module.spawn(
        [os.fsencode(part) for part in full],
        [os.fsencode(f"{name}={value}") for name, value in env.items()],
        [os.fsencode(full[0])],
        os.fsencode(str(box)),
        -1,
        stdio,
        joins,
        [(which, soft, hard) for which, (soft, hard) in fast.rlimits],
        False,
        0,
        0,
        sorted(keep),
        True,
    )
    if error:
        os.waitpid(pid, 0)  # it has exited (127) without running anything
        raise OSError(error, f"{os.strerror(error)} (where it was to {stage})", full[0])
    return int(pid)


def _run_locked(
    argv: Sequence[str],
    box: Path,
    limits: RunLimits,
    stdin: Path | int | None,
    env: Mapping[str, str] | None,
    layers: Layers,
    stdout: int | None = None,
    stop: Stop | None = None,
    fixed: tuple[str, ...] = (),
    clock: CpuClock | None = None,
) -> RunResult:
    become_subreaper()
    mine = frozenset(own_children())  # what is not the run's: never swept
    memory_bytes = limits.memory_mib * 1024 * 1024
    group = measured_group(layers.cgroup_version, limits) if layers.cgroup.active else None
    under_bwrap = layers.bwrap.active
    rlimits = rlimit_list(limits, memory_bytes, group is None)
    # Under bubblewrap nothing runs between fork and exec (the spawn is a cheap vfork):
    # bwrap waits on a block fd before it runs anything of the submission, and meanwhile
    # the judge moves its processes into the cgroup. Without bubblewrap a preexec hook
    # sets the cgroup and the rlimits in the child.
    block_r, block_w = os.pipe() if under_bwrap else (None, None)
    # An interaction's verdict may turn on which side ended first (kinds.interactive.rules):
    # the end is the kernel's stamp of bubblewrap's exit status, not when the judge got to it.
    status = _status_socket() if under_bwrap and stdout is not None and _writes_status(layers.bwrap_path) else None
    status_fd = status[1].fileno() if status is not None else None
    # The rlimits are in force before the program's first instruction: set in bubblewrap's
    # own process before its exec (_fastspawn), so that every process it makes inherits them,
    # or else inside the sandbox by prlimit(1), which execs the program. (Set from outside on
    # bwrap's processes, they raced with bwrap's fork: a child forked meanwhile kept the
    # judge's 8 MiB stack.) Rootless, RLIMIT_NPROC is never set on bubblewrap: a user namespace
    # keeps its maker's as the bound of the user's processes on the whole machine, so it would
    # count the judge user's every process. Started by _fastspawn, it is set from outside on
    # the sandbox's first process, made in the namespaces and blocked (_limit_sandbox): the
    # namespace's own count is bounded, and no prlimit exec costs each case its start.
    inside = under_bwrap and layers.prlimit_path is not None
    nested = [limit for limit in rlimits if layers.rootless and limit[0] == resource.RLIMIT_NPROC]
    module = _fast_module() if under_bwrap else None
    fast = _FastStart(module, tuple(limit for limit in rlimits if limit not in nested)) if module else None
    inner = None if fast else rlimits if inside else None
    info_r, info_w = os.pipe() if fast and nested else (None, None)
    rules = filters.program_fd() if under_bwrap else None
    full = _command(layers, box, limits, argv, inner, (block_r, status_fd, rules, info_w), fixed)
    run_env = run_environment(env, BOX_MOUNT if under_bwrap else str(box), layers.path)
    drop_user = layers.user.active and not under_bwrap
    in_child = None if under_bwrap else _child_setup(group.join_files() if group else [], rlimits, drop_user)
    # What a fork (or vfork) of the judge is charged before it execs: the judge's own peak,
    # which the kernel folds into the child's ru_maxrss at the exec (read only without a cgroup).
    judge_rss = max(high_water_bytes(os.getpid()), resident_bytes()) if group is None else 0
    try:
        # bubblewrap's end of the status socket goes to it as a plain descriptor (same number).
        passed = (block_r, rules, status[1].detach() if status is not None else None, info_w)
        started = _start(full, box, (stdin, stdout), run_env, in_child, group, passed, fast, under_bwrap)
    except BaseException:
        for fd in (block_w, info_r):
            if fd is not None:
                os.close(fd)
        if status is not None:
            status[0].close()
        raise
    pid = started.pid
    # (Started by _fastspawn, bubblewrap is in its cgroup and under the rlimits already.)
    outside = ([] if inside else rlimits, [], None) if fast is None else ([], nested, info_r)
    confined = block_w is None or _unblock(pid, block_w, group if fast is None else None, *outside)
    stamp = (lambda: _exit_stamp(status[0])) if status is not None else None
    try:
        if not confined:  # killed before anything of the program ran: the judge's failure
            raise SandboxFailure(f"bubblewrap made no sandbox in {_SANDBOX_START_S:g} s")
        return watch_run(
            pid,
            group,
            limits,
            started.out_r,
            started.err_r,
            started.start,
            under_bwrap,
            memory_bytes,
            judge_rss,
            started.cpu_base,
            stop,
            stamp,
            clock,
        )
    finally:
        if started.out_r is not None:
            os.close(started.out_r)
        os.close(started.err_r)
        if status is not None:
            status[0].close()
        if started.popen is not None:
            started.popen.returncode = 0  # reaped with wait4 (or by the sweep): no wait of Popen's
        kill_tree(pid, group)
        sweep(mine)
        if started.held is not None:
            os.close(started.held)
        if group:
            release_group(group)


_SO_TIMESTAMPNS = 35  # SOL_SOCKET: each datagram stamped (realtime, ns) as it is queued


@lru_cache(maxsize=4)
def _writes_status(bwrap: str | None) -> bool:
    """Whether this bubblewrap has --json-status-fd (0.3 and later): else the end is when reaped."""
    try:
        shown = subprocess.run([str(bwrap), "--help"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return b"--json-status-fd" in shown.stdout + shown.stderr


def _status_socket() -> tuple[socket.socket, socket.socket]:
    """(ours, bubblewrap's) ends of a datagram pair whose every datagram the kernel stamps."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    ours.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
    return ours, theirs


def _exit_stamp(ours: socket.socket) -> float | None:
    """When bubblewrap wrote the program's exit status, on the monotonic clock (None if it
    wrote none). It writes it once the program has ended and before its own end, which is
    when the other side of an interaction sees the pipe close: an order no observer's delay
    can turn round, where two processes' wake-ups on a busy machine can."""
    ours.setblocking(False)
    stamp: float | None = None
    while True:
        try:
            data, ancillary, _, _ = ours.recvmsg(4096, socket.CMSG_SPACE(16))
        except OSError:  # BlockingIOError: all read
            break
        if b"exit-code" not in data:
            continue
        for level, kind, raw in ancillary:
            if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS and len(raw) >= 16:
                seconds, nanoseconds = struct.unpack("qq", raw[:16])
                stamp = seconds + nanoseconds / 1e9
    if stamp is None:
        return None
    return stamp - (time.time() - time.monotonic())


_Begun = tuple[int, "subprocess.Popen[bytes] | None"]  # a run's first pid, and its Popen if it has one


class _Launcher:
    """A thread of the judge that lives in the reusable cgroup and starts the runs.

    A process is born in the cgroups of the thread that forks it, so runs started by this
    thread need no cgroup move, which under v1 costs an RCU grace period per hierarchy
    (about 2 ms a run here). Memory is charged to the judge's main thread, outside; the
    judge's own pid, listed by the group because of this thread, is never killed.
    """

    def __init__(self, group: cgroups.RunGroup) -> None:
        self.group = group
        self._requests: queue.SimpleQueue[
            tuple[Callable[[], _Begun], queue.SimpleQueue[_Begun | BaseException]] | None
        ] = queue.SimpleQueue()
        self._ready = threading.Event()
        self._error: OSError | None = None
        self._thread = threading.Thread(target=self._loop, name="judge-launcher", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error

    def _loop(self) -> None:
        try:
            self.group.enter_thread(threading.get_native_id())
        except OSError as err:
            self._error = err
            self._ready.set()
            return
        self._ready.set()
        while (request := self._requests.get()) is not None:
            begin, reply = request
            try:
                reply.put(begin())
            except BaseException as err:  # handed to the caller, who raises it
                reply.put(err)

    def call(self, begin: Callable[[], _Begun]) -> _Begun:
        """`begin` (a start of a run) called in the launcher's thread: what it returns."""
        reply: queue.SimpleQueue[_Begun | BaseException] = queue.SimpleQueue()
        self._requests.put((begin, reply))
        result = reply.get()
        if isinstance(result, BaseException):
            raise result
        return result

    def stop(self) -> None:
        self._requests.put(None)
        self._thread.join(timeout=2)  # a thread that ends leaves its cgroups


# The v1 group this process reuses from run to run with its launcher, and the process
# they belong to (a forked worker must not share its parent's group).
_reusable: tuple[int, cgroups.GroupV1, _Launcher | None] | None = None


def run_group(version: int, memory_bytes: int, pids: int) -> cgroups.RunGroup:
    global _reusable
    if _reusable is not None and _reusable[0] == os.getpid():
        if _reusable[1].keeps_cache():
            _drop_reusable()  # a new group instead: see GroupV1.keeps_cache
        else:
            try:
                _reusable[1].reset(memory_bytes, pids)
                return _reusable[1]
            except OSError:
                _drop_reusable()
    group = cgroups.run_group(version, memory_bytes, pids)
    if isinstance(group, cgroups.GroupV1):  # reused from run to run: see GroupV1.reset
        if _reusable is None or _reusable[0] != os.getpid():
            lifecycle.at_exit(_drop_reusable)  # a pool worker ends without atexit
        _reusable = (os.getpid(), group, None)
    return group


def _launcher_for(group: cgroups.RunGroup | None) -> _Launcher | None:
    """The launcher of the reusable group (started on first use), or None to spawn directly."""
    global _reusable
    if group is None or _reusable is None or _reusable[1] is not group or _reusable[0] != os.getpid():
        return None
    if _reusable[2] is None:
        try:
            # With a thread of the judge in the group, the kernel's OOM killer could pick the
            # judge: it is switched off for the group, and the watcher kills a run that is
            # stuck at its memory limit instead (an MLE all the same).
            group.disable_oom_killer()
            _reusable = (_reusable[0], group, _Launcher(group))
        except OSError:
            return None
    return _reusable[2]


def release_group(group: cgroups.RunGroup) -> None:
    """After a run: keep the reusable group if it is empty again, else remove the group. A run
    that may have read a secret (RunLimits.forget_reads) first has what it brought into the
    page cache evicted (RunGroup.forget): kept or removed, the group would leave it cached."""
    reusable = _reusable is not None and _reusable[1] is group
    emptied = (reusable or group.forgets) and group.kill_all()
    if group.forgets:
        group.forget()
        group.forgets = False
    if reusable and emptied:
        return
    if reusable:
        _drop_reusable()
    else:
        group.remove()


def _drop_reusable() -> None:
    global _reusable
    if _reusable is not None and _reusable[0] == os.getpid():
        _, group, launcher = _reusable
        if launcher is not None:
            launcher.stop()
        group.kill_all()
        group.remove()
    _reusable = None


def _confine_tree(root: int, group: cgroups.RunGroup | None, rlimits: list[Rlimit]) -> None:
    """Put `root` and its descendants of the moment in the cgroup and under the rlimits,
    each before its children are listed (so a child forked meanwhile inherits both)."""
    pending, seen = [root], set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            if group is not None:
                group.join(pid)
            for which, values in rlimits:
                resource.prlimit(pid, which, values)
        except ProcessLookupError:
            continue  # it ended meanwhile
        pending += cgroups.children_of(pid)


def _unblock(
    bwrap: int,
    block_w: int,
    group: cgroups.RunGroup | None,
    rlimits: list[Rlimit],
    nested: list[Rlimit],
    info_r: int | None,
) -> bool:
    """Confine what bubblewrap has started (its cgroup and `rlimits` on its whole tree, where
    _fastspawn has not; `nested` on the sandbox's first process, which bubblewrap names on
    `info_r`), then let it run the program. False when it could not be: bubblewrap was killed."""
    try:
        # bwrap's monitor is confined at once, while it is still starting up, so the
        # processes it forks into the namespaces are born confined; any it forked
        # already are confined too. Nothing of the submission runs before this ends.
        if group is not None or rlimits:
            _confine_tree(bwrap, group, rlimits)
        return info_r is None or _limit_sandbox(bwrap, nested, info_r)
    finally:
        os.write(block_w, b"1")
        os.close(block_w)
        if info_r is not None:
            os.close(info_r)


_SANDBOX_START_S = 30.0  # bubblewrap making its namespaces, on a loaded machine, at the most
_CHILD_PID = re.compile(rb'"child-pid":\s*(\d+)')


def _limit_sandbox(bwrap: int, rlimits: list[Rlimit], info_r: int) -> bool:
    """Set `rlimits` on the sandbox's first process, which bubblewrap (`bwrap`, outside) names
    on `info_r` once it has made it in the new namespaces: it waits on the block fd, and every
    later process inherits them. True, else (none named in time) bubblewrap is killed: the
    program never runs without them. Ended without naming one (it failed), True: it says why."""
    deadline, said = time.monotonic() + _SANDBOX_START_S, b""
    # Read to its closing brace: bubblewrap writes the rest (the namespaces) after the pid, and
    # a pipe closed under it would end it by SIGPIPE.
    while (found := _CHILD_PID.search(said)) is None or not said.rstrip().endswith(b"}"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([info_r], [], [], left)[0]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(bwrap, signal.SIGKILL)
            return False
        more = os.read(info_r, 4096)
        if not more:
            break
        said += more
    if found is None:
        return True
    with contextlib.suppress(ProcessLookupError):
        for which, values in rlimits:
            resource.prlimit(int(found.group(1)), which, values)
    return True


def _raise_limit(which: int, value: int) -> None:
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY and value > hard:
        value = hard
    resource.setrlimit(which, (value, hard if hard == resource.RLIM_INFINITY else max(value, hard)))
