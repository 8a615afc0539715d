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

Without it, the fork is made ahead: once a case's program has ended, a spare child is
forked, which waits for the next request on a socket of its own. Forking an interpreter costs
about a millisecond (its page tables, then copy-on-write faults); made while the judge reads
the last result, it is off the path of the next case when the judge is slower than the fork.
"""

from __future__ import annotations

import array  # noqa: F401  (socket.recv_fds imports it: loaded now, before /tmp is replaced)
import ctypes
import json
import os
import resource
import select
import signal
import socket
import sys

_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_MNT_DETACH = 2
_MS_NOSUID = 2
_MS_NODEV = 4
_FRESH = ("/tmp", "/dev/shm")  # the places a case may write besides its box: new for each case
# _fastspawn.c's STAGES that are the sandbox's failure (a case's init, its IPC namespace)
_INIT_STAGES = ("mount its /proc, /tmp and /dev/shm", "start", "make its IPC namespace")
_CLONE_NEWIPC = 0x08000000


def _fresh_tmpfs(libc: ctypes.CDLL, size: int) -> None:
    """Replace /tmp and /dev/shm with empty tmpfs mounts (what a case wrote there goes with them)."""
    for where in _FRESH:
        target = where.encode()
        if libc.umount2(target, _MNT_DETACH) != 0:
            raise OSError(ctypes.get_errno(), f"umount {where}")
        options = f"size={size},mode=1777".encode()
        if libc.mount(b"tmpfs", target, b"tmpfs", _MS_NOSUID | _MS_NODEV, options) != 0:
            raise OSError(ctypes.get_errno(), f"mount {where}")


def _child(request: dict[str, object], fds: list[int]) -> None:
    """Between fork and exec: the case's cgroup, descriptors, limits and user. Never returns."""
    argv = [str(part) for part in request["argv"]]  # type: ignore[attr-defined]
    try:
        stdin, stdout, stderr, *joins = fds
        for join in joins:
            os.write(join, b"0")  # cgroup.procs: "0" moves the writer; its page faults count from here
        # SysV IPC and POSIX message queues of the case's own, gone with its last process
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(_CLONE_NEWIPC) != 0:
            raise OSError(ctypes.get_errno(), "cannot make its IPC namespace")
        os.setsid()
        for signum in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGCHLD):
            signal.signal(signum, signal.SIG_DFL)  # Python ignores the first two; a program expects the default
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
        os.chdir(str(request["cwd"]))
        env = {str(k): str(v) for k, v in request["env"].items()}  # type: ignore[attr-defined]
        os.execvpe(argv[0], argv, env)
    except BaseException as err:  # the program could not start: say why where its stderr goes
        try:
            os.write(2, f"judge: cannot run {argv[0] if argv else '?'}: {err}\n".encode())
        finally:
            os._exit(127)


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


def main(control_fd: int, tmp_bytes: int, fast_path: str = "", isolate_each: str = "") -> None:
    fast = _load_fast(fast_path)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # No process of the supervisor's user may trace it or read its memory (rootless, the
    # program's user is the same one; each case's init shares this memory).
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    control = socket.socket(fileno=control_fd)
    isolate = isolate_each == "1"
    if isolate and fast is None:
        control.send(json.dumps({"error": "a case of its own namespaces needs the _fastspawn extension"}).encode())
        return
    # SIGCHLD wakes the loop through a pipe; every child that ended is reaped at once.
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    # Every module the loop and a child need is loaded now (os.execvpe imports warnings).
    json.loads(json.dumps({"warm": [1.5, "x"]}))
    os.get_exec_path({"PATH": "/"})
    # A /tmp of our own, which takes along the interpreter a judge outside /usr bound
    # there for the start: from now on nothing here reads a file of it. (isolate: each
    # case's init mounts its own over bubblewrap's, which cannot be unmounted from here.)
    if not isolate:
        _fresh_tmpfs(libc, tmp_bytes)
    control.send(json.dumps({"ready": os.getpid(), "vfork": fast is not None}).encode())
    running = 0  # the pid of the case's program while it runs
    fresh = True
    spare: tuple[int, socket.socket] | None = None  # the next case's child, forked ahead
    while True:
        readable, _, _ = select.select([control.fileno(), wake_r], [], [])
        if wake_r in readable:
            os.read(wake_r, 4096)
        while True:  # reap whatever ended: the program, and orphans the judge killed
            try:
                pid, status, _ = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            if pid == running:
                running = 0
                control.send(json.dumps({"status": status}).encode())
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
        ended = -1  # isolate: the program's wait status (the case ends within the call)
        try:
            if isolate:
                pid, ended = _spawn_fast(fast, request, fds, True)
            else:
                if not fresh or int(request["tmp_bytes"]) != tmp_bytes:
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
            data, fds, _, _ = socket.recv_fds(theirs, 1 << 20, 16)
        except BaseException:
            os._exit(127)
        if not data:
            os._exit(0)  # the session ended, or the supervisor forks the next case itself
        _child(json.loads(data), fds)
    theirs.close()
    return pid, ours


def _hand(spare: tuple[int, socket.socket], data: bytes, fds: list[int]) -> int:
    """Hand a request to the spare child: its pid, or 0 if it is gone."""
    pid, ours = spare
    try:
        socket.send_fds(ours, [data], fds)
    except OSError:
        return 0
    return pid


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:5])
