"""The supervisor: one process inside a submission's sandbox that starts each case's program.

It is run by the interpreter the judge runs on, as a script bound into the sandbox for its start
(`python -I -S /tmp/judge-supervisor.py`), as
root without most capabilities (bubblewrap keeps only those named in session.SUPERVISOR_CAPS),
so the standard library is all it may use and a program it starts (uid 65534) can neither
signal nor trace it. For each request on its control socket (one JSON datagram, and the case's
stdin, stdout, stderr and cgroup files as descriptors) it gives the case a fresh /tmp and
/dev/shm, forks a child that joins the case's cgroup and an IPC namespace of its own, takes its rlimits and a session of its
own, drops to the unprivileged user and execs the program; it answers with the wait status
when the program ends. It reaps every orphan a case leaves (it is their subreaper), so none
holds a slot of the pids limit. The judge kills the case's processes through their cgroup,
from outside; nothing here decides a verdict or a figure.

Where the judge was installed with a C compiler, the _fastspawn extension (_fastspawn.c,
bound into the sandbox for the start like the interpreter) starts the program instead: the
same steps as system calls in a vfork child, which shares the supervisor's memory, so nothing
of the interpreter is copied, faulted in or torn down. That took a case from 4.2 ms to 1.3.

Rootless (the program would be the supervisor's own user), each case is started that way only,
in a pid and mount namespace of its own under an init that shares the supervisor's memory:
the call returns once the case has ended, with the program's wait status. The supervisor is
not dumpable, so no process of its user may trace it or read its memory.

A zygote is this file again, run by a case's Python interpreter (python3, pypy3) that the
supervisor starts for a function problem's calls (session.Session._zygote): it compiles the
build's harness and, for each call, forks a child that takes the same steps and then runs the
harness instead of an exec, so that a call costs a fork, not an interpreter's start. It never
runs a student's code itself; the child does, as the case's user. Rootless, the fork made
ahead forks again into a pid namespace of its own: that is the call's init (_case_init), which
takes a mount and IPC namespace and mounts what _fastspawn's init does, then forks the program
(pid 2), which drops every capability: what a rootless case gets, with no exec.

Without _fastspawn, the fork is made ahead: once a case's program has ended, a spare child is
forked, which waits for the next request on a socket of its own. Forking an interpreter costs
about a millisecond (its page tables, then copy-on-write faults); made while the judge reads
the last result, it is off the path of the next case when the judge is slower than the fork.
"""

from __future__ import annotations

import array  # noqa: F401  (socket.recv_fds imports it: loaded now, before /tmp is replaced)
import contextlib
import ctypes
import errno
import json
import os
import resource
import select
import signal
import socket
import sys

TYPE_CHECKING = False  # typing's import would cost every zygote's start
if TYPE_CHECKING:
    from types import CodeType

_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_MNT_DETACH = 2
_MS_NOSUID = 2
_MS_NODEV = 4
_FRESH = ("/tmp", "/dev/shm")  # the places a case may write besides its box: new for each case
# _fastspawn.c's STAGES that are the sandbox's failure (a case's init, its IPC namespace)
_INIT_STAGES = ("mount its /proc, /tmp and /dev/shm", "start", "make its IPC namespace")
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWNS = 0x00020000
_CLONE_NEWPID = 0x20000000
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
_CAPABILITY_VERSION_3 = 0x20080522
_MS_NOEXEC, _MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC = 8, 1, 32, 4096, 16384
# A rootless zygote's call (_case_init): what bubblewrap has read-only in /proc, as _fastspawn.c's init
_COVERED = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus")
_STAGE = "/tmp/.judge-box"  # the box's overlay's upper tmpfs, mounted here, then detached
_OVERLAY = "lowerdir=/box,upperdir=/tmp/.judge-box/upper,workdir=/tmp/.judge-box/work"
# rt_sigaction's number, for the two signals glibc's sigaction refuses (32 and 33, its own)
_SYS_RT_SIGACTION = {"x86_64": 13, "aarch64": 134, "riscv64": 134, "ppc64le": 173, "s390x": 174}.get(os.uname().machine)


def _default_signals(libc: ctypes.CDLL) -> None:
    """Every signal to its default, as _fastspawn's start does: a signal an ancestor of the judge
    ignores stays ignored through fork and exec (a zygote's call saw 32 ignored where a case of
    its own did not). glibc refuses its own 32 and 33: those by the raw call, whose all-zero
    sigaction is SIG_DFL with no flags and no mask."""
    zero = ctypes.create_string_buffer(64)
    for signum in range(1, signal.NSIG):
        if signum in (signal.SIGKILL, signal.SIGSTOP):
            continue
        if 32 <= signum < signal.SIGRTMIN:  # glibc's own (PyPy's signal() fails on them silently)
            if _SYS_RT_SIGACTION is not None:
                libc.syscall(_SYS_RT_SIGACTION, signum, zero, None, signal.NSIG // 8)
            continue
        with contextlib.suppress(OSError, ValueError):
            signal.signal(signum, signal.SIG_DFL)


def _fresh_tmpfs(libc: ctypes.CDLL, size: int) -> None:
    """Replace /tmp and /dev/shm with empty tmpfs mounts (what a case wrote there goes with them)."""
    for where in _FRESH:
        target = where.encode()
        # EINVAL: nothing mounted there (a zygote killed between the two steps): mount anew
        if libc.umount2(target, _MNT_DETACH) != 0 and ctypes.get_errno() != errno.EINVAL:
            raise OSError(ctypes.get_errno(), f"umount {where}")
        options = f"size={size},mode=1777".encode()
        if libc.mount(b"tmpfs", target, b"tmpfs", _MS_NOSUID | _MS_NODEV, options) != 0:
            raise OSError(ctypes.get_errno(), f"mount {where}")


def _child(request: dict[str, object], fds: list[int]) -> None:
    """Between fork and exec: the case's cgroup, descriptors, limits and user. Never returns.
    In a zygote, the harness it loaded runs instead of the exec (_run_harness)."""
    argv = [str(part) for part in request["argv"]]  # type: ignore[attr-defined]
    try:
        stdin, stdout, stderr, *joins = fds
        for join in joins:
            os.write(join, b"0")  # cgroup.procs: "0" moves the writer; its page faults count from here
        # SysV IPC and POSIX message queues of the case's own, gone with its last process
        # (rootless, the call's init made them already)
        libc = ctypes.CDLL(None, use_errno=True)
        if not _isolated and libc.unshare(_CLONE_NEWIPC) != 0:
            raise OSError(ctypes.get_errno(), "cannot make its IPC namespace")
        os.setsid()
        _default_signals(libc)  # Python ignores SIGPIPE and SIGXFSZ; a program expects the default
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        os.dup2(stderr, 2)
        os.closerange(3, 1 << 16)  # the control socket and the cgroup files stay with the supervisor
        for which, soft, hard in request["rlimits"]:  # type: ignore[attr-defined]
            resource.setrlimit(which, (soft, hard))
        uid = request["uid"]
        if isinstance(uid, int):
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)  # from root: every capability goes with it
        else:
            _no_capability(libc)
        os.chdir(str(request["cwd"]))
        env = {str(k): str(v) for k, v in request["env"].items()}  # type: ignore[attr-defined]
        if _harness is None:
            os.execvpe(argv[0], argv, env)
    except BaseException as err:  # the program could not start: say why where its stderr goes
        try:
            os.write(2, f"judge: cannot run {argv[0] if argv else '?'}: {err}\n".encode())
        finally:
            os._exit(127)
    try:
        _run_harness(_harness, argv[-1], env)
    finally:
        os._exit(127)  # never back into the zygote's loop, whatever failed


def _no_capability(libc: ctypes.CDLL) -> None:
    """Rootless, the program is the supervisor's own user: no capability may reach it, neither
    its own set nor the ambient one bubblewrap gave, nor a file's later (as _fastspawn.c's child)."""
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "cannot set no_new_privs")
    if libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 and ctypes.get_errno() != errno.EINVAL:
        raise OSError(ctypes.get_errno(), "cannot clear the ambient capabilities")
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    if libc.capset(header, (ctypes.c_uint32 * 6)()) != 0:
        raise OSError(ctypes.get_errno(), "cannot drop its capabilities")


def _mount(libc: ctypes.CDLL, source: str | None, target: str, kind: str | None, flags: int, data: str = "") -> int:
    """mount(2): 0, or the error's number."""
    given = [part.encode() if part is not None else None for part in (source, kind, data or None)]
    if libc.mount(given[0], target.encode(), given[1], flags, given[2]) == 0:
        return 0
    return ctypes.get_errno()


def _call_mounts(libc: ctypes.CDLL, tmp_bytes: int) -> None:
    """A rootless call's init, now pid 1 of its own pid namespace, in a mount and IPC namespace
    of its own: what _fastspawn.c's case_init mounts before the box (a /proc of the call's
    processes alone, its covered parts read-only; a fresh /tmp and /dev/shm)."""
    if libc.unshare(_CLONE_NEWNS | _CLONE_NEWIPC) != 0:
        raise OSError(ctypes.get_errno(), "cannot make its mount and IPC namespaces")
    hidden = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    if _mount(libc, "proc", "/proc", "proc", hidden):
        raise OSError(ctypes.get_errno(), "cannot mount its /proc")
    for covered in _COVERED:
        failed = _mount(libc, covered, covered, None, _MS_BIND | _MS_REC)
        if failed == errno.ENOENT:
            continue
        if failed or _mount(libc, None, covered, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | hidden):
            raise OSError(ctypes.get_errno(), f"cannot cover {covered}")
    for where in _FRESH:
        if _mount(libc, "tmpfs", where, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={tmp_bytes},mode=1777"):
            raise OSError(ctypes.get_errno(), f"cannot mount {where}")


def _box_mounts(libc: ctypes.CDLL, tmp_bytes: int, box_bytes: int) -> None:
    """At a rootless call's request, in its init: /tmp and /dev/shm at the request's size where
    it is not the one made ahead; the box as an overlay, the build below and a capped tmpfs of
    the call's own above (best effort, as _fastspawn.c's): now, since the judge cleans the box
    between cases, and an overlay's lower folder must not change under it."""
    if tmp_bytes != _tmp_ahead:
        for where in _FRESH:
            if _mount(libc, None, where, None, _MS_REMOUNT | _MS_NOSUID | _MS_NODEV, f"size={tmp_bytes}"):
                raise OSError(ctypes.get_errno(), f"cannot resize {where}")
    if box_bytes > 0:
        with contextlib.suppress(OSError):  # a kernel without overlays in a user namespace: the box on disk
            _overlay_box(libc, box_bytes)


def _overlay_box(libc: ctypes.CDLL, box_bytes: int) -> None:
    """The box as an overlay whose upper tmpfs is staged in the fresh /tmp, then detached from
    there (the overlay keeps it), so the program never sees it (_fastspawn.c's overlay_box)."""
    os.mkdir(_STAGE, 0o700)
    if not _mount(libc, "tmpfs", _STAGE, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={box_bytes},mode=0755"):
        os.mkdir(f"{_STAGE}/upper", 0o777)
        os.chmod(f"{_STAGE}/upper", 0o777)
        os.mkdir(f"{_STAGE}/work", 0o700)
        for extra in (",userxattr", ""):
            if not _mount(libc, "overlay", "/box", "overlay", _MS_NOSUID | _MS_NODEV, _OVERLAY + extra):
                break
        libc.umount2(_STAGE.encode(), _MNT_DETACH)
    os.rmdir(_STAGE)


def _case_init(request: dict[str, object], fds: list[int], said: socket.socket, ahead: str) -> None:
    """A rootless zygote's call: this fork is pid 1 of a pid namespace of its own (_init_ahead),
    as _fastspawn.c's case_init is a case's. Its mount and IPC namespaces and
    mounts made ahead (or `ahead`: why not), it mounts the box, forks the program (pid 2, _child), reaps whatever is orphaned to
    it, and once the program has ended says its wait status on `said` (the zygote's socket
    for this fork) and exits, which kills whatever of the call is left. It never runs the
    program's code, and the program can neither signal it (as pid 1 it gets only the signals
    it has a handler for: none) nor trace it or open its memory (not dumpable). Never returns."""
    try:
        if ahead:
            raise OSError(ahead)
        libc = ctypes.CDLL(None, use_errno=True)
        _box_mounts(libc, int(request["tmp_bytes"]), int(request.get("box_bytes", 0)))  # type: ignore[call-overload]
        program = os.fork()
    except BaseException as err:
        with contextlib.suppress(BaseException):
            said.send(json.dumps({"error": f"the call's init failed: {err}"}).encode())
        os._exit(127)
    if program == 0:
        said.close()
        _child(request, fds)
    try:
        for fd in fds:
            os.close(fd)
        os.closerange(0, said.fileno())  # nothing of the zygote's stays open here
        os.closerange(said.fileno() + 1, 1 << 16)
        while True:
            pid, status = os.waitpid(-1, 0)
            if pid == program:
                said.send(json.dumps({"status": status}).encode())
                break
    finally:
        os._exit(0)


# A zygote (main's `harness`): the harness's code, compiled at its start from the build's copy,
# and the modules a fresh interpreter has (its boot's), so that a child drops the zygote's own.
_harness: CodeType | None = None
# Rootless (main's `isolate_each`): each case in pid, mount and IPC namespaces of its own
_isolated = False
_tmp_ahead = 0  # a rootless zygote's: the size of the /tmp a call's init mounts ahead (its last request's)
_FRESH_MODULES: frozenset[str] = frozenset(globals().get("FRESH_MODULES", ()))
# How a zygote starts (`python -I -c _BOOT ...`, this file's text on descriptor 4): the modules
# the interpreter loaded before any of ours are noted, then this file runs as the supervisor does.
_BOOT = (
    "import sys, os\nfresh = frozenset(sys.modules)\nwith os.fdopen(4, 'rb') as text:\n    source = text.read()\n"
    "exec(compile(source, 'judge-zygote', 'exec'), {'__name__': '__main__', 'FRESH_MODULES': fresh})\n"
)


def _as_fresh() -> None:
    """In a zygote's fork, what of a fresh interpreter is no case's: no wake-up pipe of the
    zygote's (closed here: no signal's byte to a reused descriptor), and only the modules a
    fresh one has (a module of the student's own name is theirs). Done again in the call for
    what the steps since loaded; the box goes on sys.path only once the fork is the case's user."""
    signal.set_wakeup_fd(-1)
    for name in set(sys.modules) - _FRESH_MODULES:
        del sys.modules[name]


def _run_harness(code: CodeType, script: str, env: dict[str, str]) -> None:
    """In a zygote's child, now the case's user with the case's limits: the harness as a fresh
    `python script` would run it (its environment, argv, path, signals and __main__). Never returns."""
    ctypes.CDLL(None).prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)  # as after an exec: the program's own
    _as_fresh()
    if dict(os.environ) != env:  # the zygote's own is a case's, most often
        os.environ.clear()
        os.environ.update(env)
    path = os.path.join(os.getcwd(), script)
    sys.argv = [script]
    sys.path[:0] = [os.path.dirname(path)]
    for signum in (signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(signum, signal.SIG_IGN)  # as Python's start sets them
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main = type(sys)("__main__")
    main.__file__ = path
    sys.modules["__main__"] = main
    status = 0
    try:
        exec(code, main.__dict__)
    except SystemExit as end:
        status = end.code if isinstance(end.code, int) else int(end.code is not None)
        if end.code is not None and not isinstance(end.code, int):
            print(end.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
    os._exit(status)


def _load_harness(path: str) -> CodeType:
    """The harness's code, compiled (never run) as the zygote starts: the judge's file in the
    build, which no case can change (the build is sealed)."""
    with open(path, "rb") as source:
        return compile(source.read(), path, "exec")


def _zygote_boot(
    request: dict[str, object], fds: list[int], source: str, tmp_bytes: int
) -> tuple[list[str], list[int], int, str]:
    """How a zygote of the request's language starts: the arguments after its interpreter's
    command; what goes on its descriptors from 4 on (Python: a pipe that this process writes
    the supervisor's text into; Node: the addon the judge built, zygote_node.c, and its script
    in a memfd, run as a main script of that path, so that no `-e` adds its globals); and that
    pipe's writing end and text (-1 and "" for none)."""
    harness = str(request["harness"])
    if request.get("boot") == "node":
        if len(fds) != 2:
            raise ValueError("a Node zygote takes one channel and its addon")
        script = os.memfd_create("judge-zygote.js")
        try:
            text = str(request["text"]).encode()
            while text:
                text = text[os.write(script, text) :]
        except OSError:
            os.close(script)
            raise
        isolate = "1" if _isolated else "0"  # rootless: each call in namespaces of its own (zygote_node.c)
        argv = [
            "--single-threaded",
            "--preserve-symlinks-main",
            "/proc/self/fd/5",
            "3",
            str(tmp_bytes),
            harness,
            isolate,
        ]
        return argv, [fds[1], script], -1, ""
    if len(fds) != 1:
        raise ValueError("a zygote takes one channel")
    text_r, text_w = os.pipe()
    isolate = "1" if _isolated else "0"  # rootless: each call in namespaces of its own (_case_init)
    return ["-I", "-c", _BOOT, "3", str(tmp_bytes), "", isolate, harness], [text_r], text_w, source


def _start_zygote(request: dict[str, object], fds: list[int], source: str, tmp_bytes: int) -> int:
    """Fork and exec a zygote (the case's interpreter with the harness's language's zygote
    loaded: this file for Python, zygote_node.js for Node), root with the supervisor's
    capabilities, on the channel in `fds`; its pid."""
    command = [str(part) for part in request["zygote"]]  # type: ignore[attr-defined]
    env = {str(k): str(v) for k, v in request["env"].items()}  # type: ignore[attr-defined]
    if not command:
        raise ValueError("a zygote takes a command")
    tail, given, text_w, written = _zygote_boot(request, fds, source, tmp_bytes)
    try:
        pid = os.fork()
    except OSError:
        for fd in (*given, text_w):
            if fd >= 0 and fd not in fds:  # the request's own are closed by the caller
                os.close(fd)
        raise
    if pid == 0:
        try:
            if text_w >= 0:
                os.close(text_w)
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            devnull = os.open(os.devnull, os.O_RDWR)
            os.dup2(devnull, 0)
            os.dup2(devnull, 1)  # 2 stays the supervisor's: the judge reads it
            for to, fd in enumerate([fds[0], *given], start=3):
                os.dup2(fd, to)
                os.set_inheritable(to, True)
            os.closerange(4 + len(given), 1 << 16)
            os.chdir("/")  # never the box: nothing of a student's is on its path (-I)
            # No stack limit in its start, so the kernel lays out its memory leaving the stack
            # room to grow; each child then takes its case's limit, as an exec'd program has.
            hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
            resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))
            os.execvpe(command[0], [*command, *tail], env)
        finally:
            os._exit(127)
    for fd in {*fds, *given}:
        os.close(fd)
    if text_w < 0:
        return pid
    try:  # the zygote reads it to its end as it starts (a write the pipe cannot hold waits for that)
        left = written.encode()
        while left:
            left = left[os.write(text_w, left) :]
    except OSError:
        pass  # it is gone: the judge hears no word from it, and says so
    finally:
        os.close(text_w)
    return pid


class _Spec:
    """What the import system's loader of C extensions reads of a module's spec."""

    def __init__(self, path: str) -> None:
        self.name, self.origin = "_fastspawn", path


def _load_fast(path: str) -> object | None:
    """The _fastspawn extension at `path` (bound for the start, like the interpreter), or None."""
    if not path:
        return None
    import _imp  # the loader the import system itself uses: no module more in memory

    try:
        module = _imp.create_dynamic(_Spec(path))  # type: ignore[arg-type]  # it reads .name and .origin only
    except (ImportError, OSError):
        return None
    return module if callable(getattr(module, "spawn", None)) else None


def _spawn_fast(fast: object, request: dict[str, object], fds: list[int], isolate: bool) -> tuple[int, int]:
    """Start the case's program through _fastspawn (vfork: nothing of the supervisor copied):
    its pid, and with `isolate` its wait status (the call returns once it has ended), else -1."""
    argv = [os.fsencode(str(part)) for part in request["argv"]]  # type: ignore[attr-defined]
    env = {str(k): str(v) for k, v in request["env"].items()}  # type: ignore[attr-defined]
    name = argv[0] if argv else b""
    if b"/" in name:
        candidates = [name]
    else:  # as os.execvpe: each folder of the program's PATH in turn
        candidates = [os.path.join(os.fsencode(folder), name) for folder in os.get_exec_path(env)]
    uid = request["uid"]
    stdin, stdout, stderr, *joins = fds
    pid, error, stage, status = fast.spawn(  # type: ignore[attr-defined]
        argv,
        [f"{k}={v}".encode() for k, v in env.items()],
        candidates or [name],
        str(request["cwd"]).encode(),
        uid if isinstance(uid, int) else -1,
        (stdin, stdout, stderr),
        joins,
        [(which, soft, hard) for which, soft, hard in request["rlimits"]],  # type: ignore[attr-defined]
        isolate,
        int(request["tmp_bytes"]),  # type: ignore[call-overload]
        int(request.get("box_bytes", 0)),  # type: ignore[call-overload]
    )
    if error and stage in _INIT_STAGES:  # the sandbox's failure, not the program's: the session breaks
        raise OSError(error, f"the case's init could not {stage}: {os.strerror(error)}")
    if error:  # the child has exited with 127: say why where the program's stderr goes
        step = "" if stage == "exec" else f"could not {stage}: "
        said = f"judge: cannot run {os.fsdecode(name) or '?'}: {step}[Errno {error}] {os.strerror(error)}\n"
        os.write(stderr, said.encode())
    return int(pid), int(status)


def main(control_fd: int, tmp_bytes: int, fast_path: str = "", isolate_each: str = "", harness: str = "") -> None:
    """Serve the judge's requests on `control_fd`. With `harness` this process is a zygote: it
    compiles that file and runs it in each case's child instead of an exec (_run_harness)."""
    global _harness, _isolated, _tmp_ahead
    _harness, _tmp_ahead = _load_harness(harness) if harness else None, tmp_bytes
    source = "" if harness else _own_source()  # for the zygotes it starts (read now: /tmp goes below)
    fast = _load_fast(fast_path)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # No process of the supervisor's user may trace it or read its memory (rootless, the
    # program's user is the same one; each case's init shares this memory).
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    control = socket.socket(fileno=control_fd)
    isolate = _isolated = isolate_each == "1"
    if isolate and fast is None and not harness:
        control.send(json.dumps({"error": "a case of its own namespaces needs the _fastspawn extension"}).encode())
        return
    wake_r, wake_w = _wake_pipe()
    # A /tmp of our own, which takes along the interpreter a judge outside /usr bound
    # there for the start: from now on nothing here reads a file of it. (isolate: each
    # case's init mounts its own over bubblewrap's, which cannot be unmounted from here.)
    if not isolate and not harness:  # a zygote mounts one for each call
        _fresh_tmpfs(libc, tmp_bytes)
    control.send(json.dumps({"ready": os.getpid(), "vfork": fast is not None}).encode())
    running = 0  # the pid of the case's program while it runs
    fresh = not harness  # a zygote's /tmp is the session's, which the supervisor's cases used too
    # The next case's child, forked ahead (a zygote's first call's too: it is asked for at once)
    spare = _prefork(control, (wake_r, wake_w)) if harness else None
    watching: tuple[int, socket.socket] | None = None  # a rootless zygote's call: its init's socket
    while True:
        # A rootless call's init says its end before its own exit, a wait of its mount namespace's teardown
        listened = [control.fileno(), wake_r, *([watching[1].fileno()] if watching else [])]
        readable, _, _ = select.select(listened, [], [])
        if wake_r in readable:
            os.read(wake_r, 4096)
        if watching is not None and watching[1].fileno() in readable:
            control.send(_ended(watching, -1))
            watching, running = None, 0
            spare = spare or _prefork(control, (wake_r, wake_w))
        status = _reaped(running)
        if status >= 0:
            running = 0
            control.send(_ended(watching, status))
            watching = None
            if spare is None and fast is None:
                spare = _prefork(control, (wake_r, wake_w))
        if control.fileno() not in readable:
            continue
        try:
            data, fds, _, _ = socket.recv_fds(control, 1 << 20, 16)
        except OSError:
            return
        if not data:
            return  # the judge closed the session
        request = json.loads(data)
        between = _between(control, request, fds, libc, source, tmp_bytes)
        if between is not None:
            fresh = between
            continue
        ended = -1  # isolate: the program's wait status (the case ends within the call)
        try:
            if isolate and harness:  # a rootless zygote's call: its init, pid 1 of its own namespaces
                watching, spare = _hand_init(spare, data, fds, control, (wake_r, wake_w)), None
                pid = watching[0]
            elif isolate:
                pid, ended = _spawn_fast(fast, request, fds, True)
            else:
                if not fresh or request.get("stale") or int(request["tmp_bytes"]) != tmp_bytes:
                    tmp_bytes = int(request["tmp_bytes"])
                    _fresh_tmpfs(libc, tmp_bytes)
                fresh = False
                if fast is not None:
                    pid, _ = _spawn_fast(fast, request, fds, False)
                else:
                    pid = _hand(spare, data, fds) if spare is not None else 0
                    if not pid:
                        pid = os.fork()
        except (OSError, ValueError, TypeError) as err:
            for fd in fds:
                os.close(fd)
            control.send(json.dumps({"error": str(err)}).encode())
            continue
        finally:
            if spare is not None:
                spare[1].close()  # handed its request, or broken: a new one is forked for the next case
                spare = None
        if pid == 0:
            control.close()
            _child(request, fds)
        for fd in fds:
            os.close(fd)
        control.send(json.dumps({"started": pid}).encode())
        if ended >= 0:
            control.send(json.dumps({"status": ended}).encode())
        else:
            running = pid


def _reaped(running: int) -> int:
    """Reap whatever ended (the program, and orphans the judge killed): the wait status of
    `running` if it is among them, else -1."""
    ended = -1
    while True:
        try:
            pid, status, _ = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        if pid == running:
            ended = status


def _wake_pipe() -> tuple[int, int]:
    """SIGCHLD wakes the loop through a pipe (its two ends); every child that ended is reaped at once."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    # Every module the loop and a child need is loaded now (os.execvpe imports warnings).
    json.loads(json.dumps({"warm": [1.5, "x"]}))
    os.get_exec_path({"PATH": "/"})
    return wake_r, wake_w


def _hand_init(
    spare: tuple[int, socket.socket] | None,
    data: bytes,
    fds: list[int],
    control: socket.socket,
    wake: tuple[int, int],
) -> tuple[int, socket.socket]:
    """A rootless zygote's call, handed to the child forked ahead (or now) into a pid namespace
    of its own, its init (_case_init): that child's pid and socket, on which it says the end."""
    global _tmp_ahead
    spare = spare or _prefork(control, wake)
    if spare is None:
        raise OSError(errno.EAGAIN, "cannot fork the call's init")
    if not _hand(spare, data, fds):
        spare[1].close()
        raise OSError(errno.ESRCH, "the call's init is gone")
    _tmp_ahead = int(json.loads(data)["tmp_bytes"])  # the next call's init mounts its /tmp at this size
    return spare


def _ended(watching: tuple[int, socket.socket] | None, status: int) -> bytes:
    """What the judge is told of a case whose process ended with `status`: that, or for a
    rootless zygote's call, what its init said of the program (its wait status, or why it failed)."""
    if watching is None:
        return json.dumps({"status": status}).encode()
    try:
        said = json.loads(watching[1].recv(4096, socket.MSG_DONTWAIT) or b"{}")
    except (OSError, ValueError):
        said = {}
    finally:
        watching[1].close()
    if isinstance(said, dict) and isinstance(said.get("status"), int):
        return json.dumps({"status": said["status"]}).encode()
    why = said.get("error") if isinstance(said, dict) else None
    return json.dumps({"error": str(why or f"the call's init ended with {status} and said nothing")}).encode()


def _between(
    control: socket.socket, request: dict[str, object], fds: list[int], libc: ctypes.CDLL, source: str, tmp_bytes: int
) -> bool | None:
    """A request between cases: start a zygote (whose calls write the /tmp this process would
    hand the next case: not fresh), or, once the judge has swept a case's processes (none is
    left to write into it), a fresh /tmp made before the next request (fresh). None: a case."""
    if "zygote" in request:
        _answer_zygote(control, request, fds, source, tmp_bytes)
        return False
    if "swept" not in request:
        return None
    for fd in fds:
        os.close(fd)
    try:
        if not _isolated:  # else each call's init mounts its own
            _fresh_tmpfs(libc, tmp_bytes)
    except OSError:
        fresh = False  # the next case's request tries again, and says why
    else:
        fresh = True
    # Done: the judge waits for this before another process of the sandbox mounts its /tmp
    control.send(json.dumps({"fresh": fresh}).encode())
    return fresh


def _answer_zygote(
    control: socket.socket, request: dict[str, object], fds: list[int], source: str, tmp_bytes: int
) -> None:
    """Start the zygote asked for and say its pid, or why not."""
    try:
        if not source:
            raise ValueError("no zygote here")
        control.send(json.dumps({"zygote": _start_zygote(request, fds, source, tmp_bytes)}).encode())
    except (OSError, ValueError, TypeError, KeyError) as err:
        for fd in fds:
            os.close(fd)
        control.send(json.dumps({"error": str(err)}).encode())


def _own_source() -> str:
    with open(sys.argv[0], encoding="utf-8") as own:
        return own.read()


def _prefork(control: socket.socket, wake: tuple[int, int]) -> tuple[int, socket.socket] | None:
    """A child forked now that becomes the next case's program: (its pid, the socket its
    request goes to); None if it cannot be made (the next case is forked then)."""
    try:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        ours.close()
        theirs.close()
        return None
    if pid == 0:
        try:
            signal.set_wakeup_fd(-1)  # a signal here must not wake the supervisor's loop
            control.close()
            ours.close()
            for fd in wake:
                os.close(fd)
            # Off the call's path where the steps load nothing again (PyPy's ctypes would, anew)
            if _harness is not None and sys.implementation.name == "cpython":
                _as_fresh()
            ahead = _init_ahead() if _isolated and _harness is not None else ""
            data, fds, _, _ = socket.recv_fds(theirs, 1 << 20, 16)
        except BaseException:
            os._exit(127)
        if not data:
            os._exit(0)  # the session ended, or the supervisor forks the next case itself
        try:
            if _isolated and _harness is not None:
                _case_init(json.loads(data), fds, theirs, ahead)
            _child(json.loads(data), fds)
        finally:
            os._exit(127)  # never back into the supervisor's loop
    theirs.close()
    return pid, ours


def _init_ahead() -> str:
    """In a rootless zygote's fork made ahead: the call's init, forked now as pid 1 of a pid
    namespace of its own, goes on (returns) to make its mount and IPC namespaces and mounts
    (_call_mounts), then waits for the request; this fork only waits for it and exits (the
    zygote reads the call's end from the init, on the socket they share). Returns why the
    mounts failed ("" if they did not), which the init says when the request comes.
    The zygote itself never unshares one: the kernel allows a process one pid namespace for its
    children, and the sandbox's own (bubblewrap's) is not the zygote's to enter again.
    Made ahead, a /tmp is as fresh as at the request: only the call's processes will ever be in
    its mount namespace, and the last call's (in a pid namespace beside this one) cannot name
    the init, which is not dumpable besides."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(_CLONE_NEWPID) != 0:
        raise OSError(ctypes.get_errno(), "cannot make a pid namespace for the call")
    init = os.fork()
    if init == 0:
        _default_signals(libc)  # as pid 1 it takes only the signals it has a handler for: none
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        try:
            _call_mounts(libc, _tmp_ahead)
        except OSError as err:
            return str(err) or "the mounts failed"
        return ""
    os.closerange(0, 1 << 16)  # the socket is the init's alone
    _default_signals(libc)
    os.waitpid(init, 0)
    os._exit(0)


def _hand(spare: tuple[int, socket.socket], data: bytes, fds: list[int]) -> int:
    """Hand a request to the spare child: its pid, or 0 if it is gone."""
    pid, ours = spare
    try:
        socket.send_fds(ours, [data], fds)
    except OSError:
        return 0
    return pid


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:6])
