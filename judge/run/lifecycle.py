"""What a judge process leaves behind when it stops: nothing; and what it holds, no other
judge takes from it.

- What a judge owns (its temporary folders: boxes, builds, built checkers; its run cgroups)
  it holds by an `flock` on a lock file named after the thing, in a lock folder beside
  the boxes. Every judge sharing the file system sees that lock, whatever its pid
  namespace (a container, `unshare --pid`, a CI runner), and the kernel drops it when the
  holder dies, even by SIGKILL. The next judge that starts removes only what nobody holds
  (a judge killed outright cannot clean up after itself). A pid is never the test: in
  another pid namespace a live judge's pid is invisible, or another process's.
- SIGTERM becomes SystemExit, so the `finally` blocks that kill a run and remove its box
  run as they do for Ctrl-C.
- Worker processes of a pool die with their parent (the kernel's parent-death signal), and
  a parent that is stopped terminates them instead of waiting for their cases to end.
"""

from __future__ import annotations

import atexit
import ctypes
import errno
import fcntl
import logging
import multiprocessing.util
import os
import re
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType
from typing import TypeVar

T = TypeVar("T")
PREFIX = "judge-"
_PR_SET_PDEATHSIG = 1
# judge-<kind>-<pid>.<start time in clock ticks>-<random> (a cgroup's, an older judge's folder)
_OWNED = re.compile(r"^judge-[a-z]+(?:-[a-z]+)*-(\d+)\.(\d+)-")  # a kind may hold a hyphen: unit-box
# judge-<kind>-<random>: a folder's. Its name says nothing of its owner: a folder may be bound
# into a sandbox, and a bind's host path shows in /proc/self/mountinfo there, where the
# owner's pid and start time would tell a program how long the judging has run.
_UNTAGGED = re.compile(r"^judge-[a-z]+(?:-[a-z]+)*-[0-9a-f]{20}$")


def _start_ticks(pid: int) -> int | None:
    """The start time of a process (field 22 of /proc/PID/stat), or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            text = stream.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: count from its end.
    fields = text[text.rindex(b")") + 2 :].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


def owner_tag() -> str:
    pid = os.getpid()
    return f"{pid}.{_start_ticks(pid) or 0}"


LOCKS = "judge-locks"  # one folder for every user and namespace, sticky like /tmp itself
LEGACY_AGE_S = 3600.0  # a folder without a lock (an older judge's) is left alone this long
_held: dict[str, int] = {}  # name -> the open lock file, for as long as this process owns it


def lock_dir(root: Path | None = None) -> Path:
    return Path(root or tempfile.gettempdir()) / LOCKS


def _lock_folder(root: Path | None) -> Path:
    folder = lock_dir(root)
    try:
        folder.mkdir()
        folder.chmod(0o1777)  # every user's judges lock here; only a file's owner removes it
    except FileExistsError:
        pass
    if folder.is_symlink() or not folder.is_dir():
        raise OSError(errno.ENOTDIR, f"{folder} is not a folder")
    return folder


def _lock_file(path: Path, wait: bool) -> int | None:
    """An open descriptor holding an flock on `path` (made if missing); None when another
    process holds it and `wait` is False. Read-only is enough for an flock, so a file another
    user made is shared too. OSError where it cannot be opened."""
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW
    while True:
        try:
            fd = os.open(path, flags)  # without O_CREAT: protected_regular refuses it on another's file
        except FileNotFoundError:
            fd = os.open(path, flags | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                return fd
        except BlockingIOError:
            os.close(fd)
            return None
        except FileNotFoundError:
            pass
        except OSError:
            os.close(fd)
            raise
        os.close(fd)  # a cleaner removed the file between the open and the lock: again


def hold(name: str, root: Path | None = None) -> None:
    """Take the lock of `name` (a folder or cgroup about to be made) for this process's life.
    The lock comes first, so nothing exists unlocked for a cleaner to find. Where no lock
    can be made (a lock folder that is not one), the thing is protected by its age alone."""
    try:
        fd = _lock_file(_lock_folder(root) / f"{name}.lock", wait=True)
    except OSError:
        return
    if fd is not None:
        _held[name] = fd


def release(name: str, root: Path | None = None) -> None:
    """Give up what `name` was, once it is gone (removed by this process)."""
    fd = _held.pop(name, None)
    if fd is None:
        return
    forget(name, root)
    os.close(fd)


def forget(name: str, root: Path | None = None) -> None:
    """Remove the lock file of something that is gone."""
    try:
        os.unlink(lock_dir(root) / f"{name}.lock")
    except OSError:
        pass


def held(name: str, root: Path | None = None) -> bool | None:
    """Whether a live process holds `name`'s lock: True, False (it was a judge's that is gone),
    or None (no lock file: not a judge's of this kind, or an older judge's)."""
    if name in _held:
        return True
    path = lock_dir(root) / f"{name}.lock"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError:
        return True  # another user's, say: not this judge's to judge
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return True
        raise
    finally:
        os.close(fd)  # the lock taken to test it goes with the descriptor
    return False


def owned_name(kind: str) -> str:
    return f"{PREFIX}{kind}-{owner_tag()}-{uuid.uuid4().hex[:10]}"


def folder_name(kind: str) -> str:
    """A folder's name: random, without owner_tag (see _UNTAGGED); its lock alone holds it."""
    return f"{PREFIX}{kind}-{uuid.uuid4().hex[:20]}"


# A folder programs run in (a box, a build, a tool program's work) is, as root, a tmpfs of its
# own of this size: what a program writes there is memory counted in its run's cgroup and
# capped, as in /tmp, and the folder is unmounted whole at its end. (On disk, a program that
# made files as fast as it could wrote 1.5 GiB in 2 s.)
BOX_CAP_BYTES = 256 << 20
_MNT_DETACH = 2
_MS_NOSUID, _MS_NODEV = 2, 4
_LIBC = ctypes.CDLL(None, use_errno=True)


def make_temp_dir(kind: str, where: Path | None = None, cap: int | None = None) -> Path:
    """A private folder held by this process (see the module's docstring), in the temporary
    folder or in `where`; its lock is in the temporary folder's lock folder either way.
    `cap`: the folder is a tmpfs of that many bytes where the judge is root (cap_folder)."""
    name = folder_name(kind)
    hold(name)
    path = Path(where or tempfile.gettempdir()) / name
    path.mkdir(mode=0o700)
    if cap is not None:
        cap_folder(path, cap)
    return path


def cap_folder(path: Path, size: int) -> bool:
    """Mount a tmpfs of `size` bytes on the empty folder `path` (root only): True if it is one
    now. Without root the folder stays on disk, bounded by its programs' time alone."""
    if os.geteuid() != 0:
        return False
    options = f"size={size},mode=0700".encode()
    flags = _MS_NOSUID | _MS_NODEV
    return bool(_LIBC.mount(b"tmpfs", os.fsencode(path), b"tmpfs", flags, options) == 0)


def _unmount(path: Path) -> None:
    """Detach every mount at or below `path` (capped folders, such as the builds in a builds
    folder, and any stacked on them by a killed judge), the deepest first."""
    top = os.path.realpath(path)
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as table:
            points = [_unescape(line.split()[4]) for line in table if len(line.split()) > 4]
    except OSError:
        return
    below = sorted({p for p in points if p == top or p.startswith(top + "/")}, key=len, reverse=True)
    for point in below:
        while os.path.ismount(point) and _LIBC.umount2(os.fsencode(point), _MNT_DETACH) == 0:
            pass


def _unescape(field: str) -> str:
    """A mountinfo path: space, tab, newline and backslash are written as octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


_log = logging.getLogger("judge")


def remove_tree(path: Path, quiet: bool = False) -> bool:
    """Remove a folder a program may have filled (a box, a build): True once it is gone.

    A capped folder (cap_folder) is unmounted first, which drops all it held at once. Then
    never a recursion of Python's (a program can nest folders past its recursion limit, and
    past PATH_MAX), never through a symbolic link, never into another file system: rm's own
    walk, by descriptor. A folder its owner may not enter (rootless, the program is the judge's
    own user and may chmod 000) is opened up first, by chmod's walk, which follows no link
    either. What is left is logged, never raised: the next judge's remove_stale tries again."""
    if not os.path.lexists(path):
        return True
    if os.geteuid() == 0 and not path.is_symlink():
        _unmount(path)  # a capped folder goes whole, whatever is in it
    if path.is_symlink() or not path.is_dir():
        with suppress(OSError):
            path.unlink()
        return not os.path.lexists(path)
    said = ""
    for command in (["rm", "-rf", "--one-file-system"], ["chmod", "-R", "u+rwx"], ["rm", "-rf", "--one-file-system"]):
        try:
            done = subprocess.run(
                [*command, "--", str(path)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"},
                check=False,
            )
        except OSError as err:
            said = str(err)
            continue
        if command[0] == "rm" and not os.path.lexists(path):
            return True
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        said = lines[-1] if lines else said
    # Another judge's leftover (remove_stale) is tried again at every start: said once, by its owner.
    (_log.debug if quiet else _log.warning)(
        "judge: could not remove %s (%s); a later judge will try again", path, said or "rm failed"
    )
    return False


def remove_dir(path: Path) -> None:
    """Remove a folder of make_temp_dir and give up its lock (kept while anything is left,
    so that remove_stale tries again once this process is gone)."""
    if remove_tree(path):
        release(path.name)


_exit_hooks: list[tuple[int, Callable[..., object], tuple[object, ...]]] = []


def at_exit(function: Callable[..., object], *args: object) -> None:
    """Call `function` when this process ends: atexit in the main process, and the
    multiprocessing finalizers in a pool worker (which ends without running atexit), or
    in_worker when a SIGTERM ends the worker in the middle of a task."""
    atexit.register(function, *args)
    multiprocessing.util.Finalize(None, function, args=args, exitpriority=0)
    _exit_hooks.append((os.getpid(), function, args))


def _run_exit_hooks() -> None:
    while _exit_hooks:
        pid, function, args = _exit_hooks.pop()
        if pid == os.getpid():  # not a hook of the parent this worker was forked from
            try:
                function(*args)
            except Exception:  # ending anyway; the next hook still runs
                pass


def remove_at_exit(path: Path) -> None:
    at_exit(remove_dir, path)


def remove_stale(directory: Path | None = None, locks: Path | None = None) -> int:
    """Remove the judge folders in `directory` (the temporary one by default) that no live
    judge holds, and the lock files of what is gone. `locks` is where their locks are, the
    temporary folder's by default (an import stages in the problems folder, its lock here)."""
    where = Path(directory or tempfile.gettempdir())
    locks = locks or where
    removed = 0
    try:
        names = os.listdir(where)
    except OSError:
        return 0
    for name in names:
        path = where / name
        if not (_OWNED.match(name) or _UNTAGGED.match(name)) or not path.is_dir() or path.is_symlink():
            continue
        try:
            if not stale(name, path.stat().st_mtime, locks):
                continue
        except OSError:
            continue
        if remove_tree(path, quiet=True):
            removed += 1
            forget(name, locks)
    if locks == where:
        _remove_free_locks(where)
    return removed


def stale(name: str, made: float, root: Path | None = None) -> bool:
    """Whether a judge's folder or cgroup named `name` is left over: its lock is free, or it
    has none (an older judge's), its owner pid is gone and it is an hour old."""
    state = held(name, root)
    if state is not None:
        return not state
    return owner_gone(name) and time.time() - made > LEGACY_AGE_S


def _remove_free_locks(root: Path) -> None:
    """Lock files whose thing is gone and whose holder too (a judge killed outright)."""
    folder = lock_dir(root)
    try:
        names = [n.removesuffix(".lock") for n in os.listdir(folder) if n.endswith(".lock")]
    except OSError:
        return
    for name in names:
        if name.startswith((f"{PREFIX}run-", f"{PREFIX}import-", f"{PREFIX}cpu-")):
            continue  # a cgroup's (cgroups.remove_stale), an import's (in a problems folder), a CPU's
        if not (root / name).exists() and held(name, root) is False:
            forget(name, root)


def owner_gone(name: str) -> bool:
    """Whether a name made with owner_tag() belongs to a process that has ended, as far as
    this pid namespace can tell (only for what has no lock: an older judge's). A name without
    the tag never looks gone: without its lock (no lock folder could be made) it is kept."""
    match = _OWNED.match(name)
    if match is None:
        return False
    return _start_ticks(int(match.group(1))) != int(match.group(2))


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    # Once: the cleanup this starts must not be cut short by another SIGTERM. (A worker
    # gets one from the kernel for each thread of its dying parent it is handed to.)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(128 + signum)


def handle_sigterm() -> None:
    """SIGTERM unwinds like Ctrl-C: running sandboxes are killed and boxes removed."""
    signal.signal(signal.SIGTERM, _exit_on_sigterm)


def die_with_parent(parent: int, sig: int = signal.SIGTERM) -> None:
    """Ask the kernel for `sig` when the parent dies; exit now if it already has."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)


def claim_cpu(root: Path | None = None) -> int | None:
    """A CPU of this process's affinity that no other live process holds, held (an flock,
    like what a judge owns) for this process's life; None when every one is taken."""
    try:
        folder = _lock_folder(root)
        cpus = sorted(os.sched_getaffinity(0))
    except OSError:
        return None
    for cpu in cpus:
        name = f"{PREFIX}cpu-{cpu}"
        try:
            fd = _lock_file(folder / f"{name}.lock", wait=False)
        except OSError:
            continue
        if fd is not None:
            _held[name] = fd
            return cpu
    return None


def pool_worker_init(parent: int) -> None:
    """Initializer of a grading or verifying pool's worker processes.

    SIGTERM (sent by a stopped parent, or by the kernel when the parent died) unwinds the
    current case; Ctrl-C is the parent's to handle, which then terminates the workers.

    A worker keeps to a CPU of its own where one is free (claim_cpu): its supervisor, its
    compilers and its programs inherit it. A worker's steps follow one another (it waits
    for the program, which waits for its input), and a JVM's threads hand work to each
    other: on two CPUs each hand-off may leave one idle a moment. Two JVMs at once left
    8-10% of two cores idle, 2-5% when each kept to its CPU. A CPU time is also steadier
    on a CPU no other worker of the judge shares. Where every CPU is taken (more workers
    than CPUs, or other judges on the machine), a worker runs wherever the kernel puts it.
    """
    # Stopped before it is set up, a worker has nothing to undo: it leaves at once, without the
    # "Exception in initializer" trace the pool prints for a SystemExit raised in here.
    signal.signal(signal.SIGTERM, _leave_now)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    global _spread
    cpu = claim_cpu()
    if cpu is not None:
        try:
            spread = os.sched_getaffinity(0)
            os.sched_setaffinity(0, {cpu})
            _spread = spread
        except OSError:
            pass  # a CPU set that changed meanwhile: anywhere, then
    handle_sigterm()


def _leave_now(signum: int, frame: FrameType | None) -> None:
    os._exit(128 + signum)


_spread: set[int] | None = None  # the CPUs of a worker that keeps to one, as it had them before


def _set_threads_affinity(cpus: set[int]) -> None:
    """Every thread of this process (affinity is a thread's; a new thread takes its creator's)."""
    for tid in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError:
            pass  # a thread that ended meanwhile


@contextmanager
def spread_out() -> Iterator[None]:
    """Within it, a worker that keeps to one CPU (pool_worker_init) has all of them again, and
    what it starts meanwhile too: an interaction's two sides run at once, as they would on
    any machine, instead of taking turns on one CPU."""
    spread = _spread
    if spread is None:
        yield
        return
    pinned = os.sched_getaffinity(0)
    _set_threads_affinity(spread)
    try:
        yield
    finally:
        _set_threads_affinity(pinned)


def in_worker(function: Callable[..., T], *args: object) -> T:
    """Run a task in a pool worker; a SIGTERM ends the worker once the task has unwound
    (its runs killed, its box removed), since the pool's loop would catch the SystemExit
    and wait on for work from a parent that may be gone."""
    try:
        return function(*args)
    except SystemExit as stop:
        _run_exit_hooks()  # what the worker holds beyond a task (a box kept for the next case)
        os._exit(stop.code if isinstance(stop.code, int) else 1)


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=max(1, jobs), initializer=pool_worker_init, initargs=(os.getpid(),))


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel what has not started and terminate the workers (each kills
    its run and removes its box on SIGTERM), rather than wait for their cases to end."""
    processes = list(getattr(pool, "_processes", {}).values())  # no public handle on the workers
    # The workers end first: one still reading its next task when the pool's queue closes
    # prints a traceback (EOFError) to the user's terminal.
    for process in processes:
        try:
            process.terminate()
        except (OSError, ValueError):
            pass
    for process in processes:
        process.join(timeout=10)
        if process.is_alive():
            process.kill()
            process.join(timeout=10)
    pool.shutdown(wait=False, cancel_futures=True)
