"""What a judge process leaves behind when it stops: nothing.

- Its temporary folders (boxes, built checkers) carry the owner's pid and start time in
  their names, so the next judge that starts removes those whose owner is gone (a judge
  killed with SIGKILL cannot clean up after itself).
- SIGTERM becomes SystemExit, so the `finally` blocks that kill a run and remove its box
  run as they do for Ctrl-C.
- Worker processes of a pool die with their parent (the kernel's parent-death signal), and
  a parent that is stopped terminates them instead of waiting for their cases to end.
"""

from __future__ import annotations

import atexit
import ctypes
import multiprocessing.util
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import FrameType
from typing import TypeVar

T = TypeVar("T")
PREFIX = "judge-"
_PR_SET_PDEATHSIG = 1
# judge-<kind>-<pid>.<start time in clock ticks>-<random>
_OWNED = re.compile(r"^judge-[a-z]+-(\d+)\.(\d+)-")


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


def make_temp_dir(kind: str) -> Path:
    """A private temporary folder named after this process, so a later judge can tell
    whether its owner is still alive."""
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-{owner_tag()}-"))


def at_exit(function: Callable[..., object], *args: object) -> None:
    """Call `function` when this process ends: atexit in the main process, and the
    multiprocessing finalizers in a pool worker (which ends without running atexit)."""
    atexit.register(function, *args)
    multiprocessing.util.Finalize(None, function, args=args, exitpriority=0)


def remove_at_exit(path: Path) -> None:
    at_exit(shutil.rmtree, path, True)


def remove_stale(directory: Path | None = None) -> int:
    """Remove the judge folders in the temporary directory whose owner process is gone."""
    where = Path(directory or tempfile.gettempdir())
    removed = 0
    try:
        names = os.listdir(where)
    except OSError:
        return 0
    for name in names:
        path = where / name
        if owner_gone(name) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
            removed += not path.exists()
    return removed


def owner_gone(name: str) -> bool:
    """Whether a name made with owner_tag() belongs to a process that has ended (False for
    any other name). A pid reused by another process has another start time."""
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


def pool_worker_init(parent: int) -> None:
    """Initializer of a grading or verifying pool's worker processes.

    SIGTERM (sent by a stopped parent, or by the kernel when the parent died) unwinds the
    current case; Ctrl-C is the parent's to handle, which then terminates the workers.
    """
    handle_sigterm()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)


def in_worker(function: Callable[..., T], *args: object) -> T:
    """Run a task in a pool worker; a SIGTERM ends the worker once the task has unwound
    (its runs killed, its box removed), since the pool's loop would catch the SystemExit
    and wait on for work from a parent that may be gone."""
    try:
        return function(*args)
    except SystemExit as stop:
        os._exit(stop.code if isinstance(stop.code, int) else 1)


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=max(1, jobs), initializer=pool_worker_init, initargs=(os.getpid(),))


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel what has not started and terminate the workers (each kills
    its run and removes its box on SIGTERM), rather than wait for their cases to end."""
    processes = list(getattr(pool, "_processes", {}).values())  # no public handle on the workers
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        try:
            process.terminate()
        except (OSError, ValueError):
            pass
    for process in processes:
        process.join(timeout=10)
        if process.is_alive():
            process.kill()
