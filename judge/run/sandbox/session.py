"""One sandbox for all the cases of a submission: namespaces and mounts made once, a fresh process per case.

Starting bubblewrap, prlimit and setpriv for every case costs several milliseconds before the
program's first instruction; a fast solution's whole run costs less. A session starts
bubblewrap once per submission with the supervisor (supervisor.py) inside, as root with only
CAP_SYS_ADMIN, CAP_SETUID and CAP_SETGID; for each case the supervisor mounts a fresh /tmp
and /dev/shm and starts the program (by vfork through the _fastspawn extension where it was
built, else by a fork of itself), which joins the case's cgroup, takes the case's rlimits
and a session of its own, and drops to uid 65534 before its exec. The judge watches it as it
watches any run (watch.py): CPU time and peak memory from the cgroup, output through pipes,
and every process of the case killed through the cgroup when it ends. The box is the judge's
to clean between cases (runner), as on the per-case path.

Without root (a cgroup delegated to the judge's user) there is no other user to drop to: the
supervisor keeps only CAP_SYS_ADMIN, in its user namespace, and each case gets a pid and mount
namespace of its own under an init (_fastspawn.c), so the program sees neither the supervisor
nor another case.

Where a session cannot be had (no cgroup, no bubblewrap, rootless without _fastspawn, or it
fails to start), `cases()` runs each case through `spawn.run` as before; `support()` (judge
doctor) says why.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from judge.errors import SandboxFailure
from judge.run import lifecycle
from judge.run.sandbox import filters, spawn, supervisor, zygote_kit
from judge.run.sandbox.argv import bwrap_prefix, hidden_options, rlimit_list
from judge.run.sandbox.detect import detect
from judge.run.sandbox.inputs import sealed_copy
from judge.run.sandbox.procs import LONG_LIVED, become_subreaper, own_children, reap_new
from judge.run.sandbox.records import (
    BOX_MOUNT,
    NOBODY,
    SANDBOX_PATH,
    TMP_CAP_BYTES,
    Layer,
    Layers,
    RunLimits,
    RunResult,
    Stop,
)
from judge.run.sandbox.watch import Watch

SUPERVISOR_CAPS = ("CAP_SYS_ADMIN", "CAP_SETUID", "CAP_SETGID")  # mounts for /tmp; the drop to nobody
# Rootless there is no other user to drop to: namespaces and mounts for each case only, and
# the overlay of each case's box, whose work folder overlayfs makes with mode 000 (in the
# supervisor's user namespace, that is over the judge user's own files alone).
ROOTLESS_CAPS = ("CAP_SYS_ADMIN", "CAP_DAC_OVERRIDE")
_START_S = 10.0  # the supervisor's start-up (an interpreter's): far more than it takes


_PYTHON_MOUNT = "/tmp/judge-python"  # under the first /tmp, which the supervisor replaces once started


def _interpreter() -> tuple[list[str], dict[str, str]]:
    """How the supervisor's interpreter (the judge's own) is reached inside: bubblewrap's
    arguments, the command and its environment. One outside /usr (pyenv's, uv's) is bound
    under /tmp for the supervisor's start only: no program ever sees it, nor its host path."""
    executable = os.path.realpath(sys.executable)
    env = {"PATH": SANDBOX_PATH, "LANG": "C.UTF-8"}
    if _bound(executable):
        return [executable], env
    prefix = os.path.realpath(sys.base_prefix)
    inside = os.path.join(_PYTHON_MOUNT, os.path.relpath(executable, prefix))
    env["LD_LIBRARY_PATH"] = _PYTHON_MOUNT + "/lib"  # a shared libpython found by an absolute rpath outside
    return ["--ro-bind", prefix, _PYTHON_MOUNT, "--", inside], env


_FAST_MOUNT = "/tmp/judge-fastspawn.so"  # likewise: read once at the start, then gone
FAST_ENV = "JUDGE_FASTSPAWN"  # 0: the supervisor forks each case even where _fastspawn is built


def fast_spawn() -> str:
    """The built _fastspawn extension (a case started by vfork: see _fastspawn.c), or ""
    where it was not built (no C compiler or Python headers at install) or is switched off."""
    if os.environ.get(FAST_ENV, "").strip() == "0":
        return ""
    return _fast_built()


@lru_cache(maxsize=1)
def _fast_built() -> str:
    spec = importlib.util.find_spec("judge.run.sandbox._fastspawn")
    return spec.origin if spec is not None and spec.origin and spec.origin.endswith(".so") else ""


def _bound(path: str) -> bool:
    return any(path.startswith(top + "/") for top in ("/usr", "/bin", "/lib", "/lib64"))


class Session:
    """bubblewrap and the supervisor for one box; `run` one case at a time, `close` at the end."""

    def __init__(self, box: Path, layers: Layers, tmp_bytes: int, read_only: tuple[str, ...] = ()) -> None:
        self.box, self.layers = box, layers
        python, python_env = _interpreter()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.control = ours
        rules = filters.program_fd()
        # `read_only`: folders of the judge's every case may read (a kind's kit), at their own paths
        prefix = bwrap_prefix(layers, str(box), None, tmp_bytes, read_only, seccomp_fd=rules)[:-1]  # without "--"
        # Rootless, the program would run as the supervisor's own user: each case gets a pid
        # and mount namespace of its own instead, under an init (_fastspawn.c).
        self.isolated = layers.rootless
        kept = ROOTLESS_CAPS if self.isolated else SUPERVISOR_CAPS
        caps = ["--cap-drop", "ALL"] + [part for cap in kept for part in ("--cap-add", cap)]
        if python[0] != "--ro-bind":
            python = ["--", *python]
        control = str(theirs.fileno())
        fast = fast_spawn()
        binds = ["--ro-bind", _SUPERVISOR, _SUPERVISOR_MOUNT, *(["--ro-bind", fast, _FAST_MOUNT] if fast else [])]
        argv = [*prefix, *caps, *binds, *python, "-I", "-S", _SUPERVISOR_MOUNT, control, str(tmp_bytes)]
        argv += [_FAST_MOUNT if fast else "", "1" if self.isolated else "0"]
        become_subreaper()
        self.before = set(own_children())  # the judge's children that are not the session's
        options = None
        try:
            # bubblewrap's options by descriptor: its init (pid 1 inside) shows none of them
            argv, options = hidden_options(argv)
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env=python_env,
                start_new_session=True,
                pass_fds=(theirs.fileno(), options, *([] if rules is None else [rules])),
            )
        finally:
            theirs.close()
            if options is not None:
                os.close(options)
            if rules is not None:
                os.close(rules)
        self.broken = ""
        self.vfork = False  # whether the supervisor starts each case by vfork (_fastspawn)
        # The zygote of the build's harness (docs/sandbox.md, A zygote): what it was started for, its channel
        self.zygote: tuple[tuple[object, ...], socket.socket] | None = None
        self.no_zygote = ""  # why none can start here, once one has failed to
        self.mounting = False  # the zygote makes a fresh /tmp: waited for before anything else
        self.last: socket.socket | None = None  # the channel of the last case's request
        try:
            self._ready()
        except SandboxFailure:
            self.close()
            raise

    def _ready(self) -> None:
        """Wait for the supervisor's first word; SandboxFailure (with why) if it never comes."""
        self.control.settimeout(_START_S)
        try:
            data = self.control.recv(4096)
        except (OSError, TimeoutError) as err:
            data, why = b"", str(err) or "no answer"
        else:
            why = "it ended"
        finally:
            self.control.settimeout(None)
        message = json.loads(data) if data else {}
        if "ready" not in message:
            said = message.get("error") or (self._stderr() if not data else str(message)) or why
            self.broken = f"the sandbox's supervisor failed: {said}"
            raise SandboxFailure(self.broken)
        self.vfork = bool(message.get("vfork"))

    def _stderr(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return ""
        lines = self.proc.stderr.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"bubblewrap exited with {self.proc.returncode}"

    def run(
        self,
        argv: Sequence[str],
        *,
        limits: RunLimits,
        stdin: Path | None = None,
        env: Mapping[str, str] | None = None,
        stop: Stop | None = None,
        zygote: bool = False,
    ) -> RunResult:
        """One case. With `zygote`, argv is an interpreter's command (Python's or Node's) ending
        in a script: the case is a fork of a zygote of that interpreter, where one can start."""
        if self.broken:
            raise SandboxFailure(self.broken)
        with spawn.RUN_LOCK:
            if not self.box.is_dir():
                raise SandboxFailure(f"the sandbox failed to run {Path(argv[0]).name}: its box {self.box} is gone")
            self._settle()
            channel = self._zygote(argv) if zygote else None
            if channel is not None:
                try:
                    return self._run_locked(argv, limits, stdin, env, stop, channel)
                except (OSError, SandboxFailure):
                    # The zygote is gone (nothing a case does should end it): this case runs
                    # again as a process of its own, and the next call starts a new zygote.
                    self._drop_zygote()
            try:
                result = self._run_locked(argv, limits, stdin, env, stop, self.control)
            except OSError as err:
                where = f" ({err.filename})" if err.filename else ""
                self.broken = f"the sandbox failed to run {Path(argv[0]).name}: {err.strerror or err}{where}"
                raise SandboxFailure(self.broken) from None
            if not self.box.is_dir():  # whatever the program got, it was not the box it was given
                raise SandboxFailure(f"the sandbox failed to run {Path(argv[0]).name}: its box {self.box} went away")
            return result

    def _run_locked(
        self,
        argv: Sequence[str],
        limits: RunLimits,
        stdin: Path | None,
        env: Mapping[str, str] | None,
        stop: Stop | None,
        channel: socket.socket,
    ) -> RunResult:
        memory_bytes = limits.memory_mib * 1024 * 1024
        group = spawn.measured_group(self.layers.cgroup_version, limits)  # as on the per-case path
        request = {
            "argv": list(argv),
            "env": spawn.run_environment(env, BOX_MOUNT, self.layers.path),
            "cwd": BOX_MOUNT,
            "uid": None if self.isolated else NOBODY,
            "rlimits": [[which, soft, hard] for which, (soft, hard) in rlimit_list(limits, memory_bytes, False)],
            "tmp_bytes": limits.tmp_mib << 20,
            # Rootless the box is a folder on disk: each case writes into an overlay of its own
            # (_fastspawn.c), capped as a box is as root (lifecycle.cap_folder).
            "box_bytes": lifecycle.BOX_CAP_BYTES if self.isolated else 0,
            # A /tmp made ahead (a zygote's, once a call was swept) is not fresh once a case of
            # another process of the sandbox has run since.
            "stale": self.last is not None and channel is not self.last,
        }
        self.last = channel
        handed: list[int] = []
        out_r = err_r = held = -1
        try:
            # Never the judge's file: rootless, the program's uid owns it. The judge keeps the copy
            # open till the case is over: its last close frees its pages, not in the case's time.
            held = sealed_copy(stdin)
            out_r, out_w = os.pipe()
            handed.append(out_w)
            err_r, err_w = os.pipe()
            handed.append(err_w)
            cpu_base = group.cpu_seconds()
            start = time.monotonic()
            # The cgroup's files go along as the group keeps them (not closed here).
            socket.send_fds(channel, [json.dumps(request).encode()], [held, *handed, *group.join_fds()])
            for fd in handed:  # the supervisor has its own copies from here
                os.close(fd)
            handed = []
        except BaseException:
            for fd in handed:
                os.close(fd)
            for fd in (out_r, err_r, held):
                if fd >= 0:
                    os.close(fd)
            spawn.release_group(group)
            raise
        ended: list[int] = []

        def kill(timeout: float) -> None:
            group.kill_all(timeout=timeout)

        watch = Watch(kill, channel.fileno(), None, group, limits, out_r, err_r, start, memory_bytes, cpu_base, stop)
        try:
            # The supervisor says "started" once it has forked (not waited for: the judge
            # gets on meanwhile), then the wait status; an "error" or its end breaks the session.
            while not ended:
                watch.read()
                while True:
                    try:
                        data = channel.recv(4096, socket.MSG_DONTWAIT)
                    except BlockingIOError:
                        break
                    message = json.loads(data) if data else {}
                    if "status" in message:
                        ended.append(int(message["status"]))
                        break
                    if "started" not in message:
                        said = f"the sandbox's supervisor failed: {message.get('error') or 'it ended'}"
                        if channel is self.control:
                            self.broken = said
                        raise SandboxFailure(said)
                if not ended:
                    watch.poll()
            return watch.finish(ended[0], None, False, 0)
        finally:
            os.close(out_r)
            os.close(err_r)
            if not group.kill_all():
                self.broken = "the sandbox could not end a case's processes"
            elif channel is not self.control and not self.isolated:
                # None of the case's processes is left: the zygote may make the next call's
                # /tmp now, while the judge decides this one, instead of on the next request.
                # (Rootless, each call's init mounts its own in a mount namespace of its own.)
                with suppress(OSError):
                    channel.send(b'{"swept": true}')
                    self.mounting = True
            os.close(held)
            spawn.release_group(group)

    def _zygote(self, argv: Sequence[str]) -> socket.socket | None:
        """The channel of a zygote for `argv` (an interpreter's command, then the harness), started
        for this build's harness if it has none yet; None where none can be had (then each case
        is a process of its own, as before)."""
        if self.no_zygote or len(argv) < 2 or not _options(argv[1:-1]):
            return None
        if self.isolated and os.path.basename(argv[0]) in ROOTLESS_OWN_START:
            return None
        try:
            harness = (self.box / argv[-1]).stat()
        except OSError:
            return None
        # A new build is a new copy of the harness: a zygote per submission, never one of another's
        key = (tuple(argv), harness.st_ino, harness.st_ctime_ns)
        if self.zygote is not None and self.zygote[0] == key:
            return self.zygote[1]
        self._drop_zygote()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        request: dict[str, object] = {
            "zygote": list(argv[:-1]),
            "harness": f"{BOX_MOUNT}/{argv[-1]}",
            "env": spawn.run_environment(None, BOX_MOUNT, self.layers.path),
        }
        handed = [theirs.fileno()]
        try:
            handed += _boot(argv[0], request)
            socket.send_fds(self.control, [json.dumps(request).encode()], handed)
            theirs.close()
            for fd in handed[1:]:
                os.close(fd)
            handed = handed[:1]  # closed: never again below (the number may be another's by then)
            said = _answer(self.control)
            if "zygote" not in said:
                raise OSError(said.get("error") or "the supervisor ended")
            ready = _answer(ours)
            if "ready" not in ready:
                raise OSError(ready.get("error") or f"it ended: {self._stderr() or 'no word'}")
        except (OSError, TimeoutError, ValueError) as err:
            theirs.close()
            ours.close()
            for fd in handed[1:]:
                with suppress(OSError):
                    os.close(fd)
            self.no_zygote = f"a zygote could not start: {err}"
            return None
        self.zygote = (key, ours)
        return ours

    def _drop_zygote(self) -> None:
        """End the zygote: its channel closed, it returns and exits (the supervisor reaps it)."""
        self._settle()
        if self.zygote is not None:
            self.zygote[1].close()
            self.zygote = None

    def _settle(self) -> None:
        """Wait for the zygote's fresh /tmp (asked for once a call was swept): two processes of
        the sandbox must never replace /tmp at once. A zygote that never says is gone."""
        if self.mounting and self.zygote is not None:
            self.mounting = False
            try:
                if "fresh" not in _answer(self.zygote[1]):
                    raise OSError("it ended")
            except (OSError, TimeoutError, ValueError):
                self.zygote[1].close()
                self.zygote = None
        self.mounting = False

    def close(self) -> None:
        """End the supervisor and its namespaces (bubblewrap's pid 1 takes every process along)."""
        self._drop_zygote()
        self.control.close()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()
        # bubblewrap's pid 1 comes back to the judge (the subreaper) as it ends: reap it, and
        # whatever of the namespace outlived its monitor.
        reap_new(self.before)
        for pid in set(own_children()) - self.before - LONG_LIVED:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        reap_new(self.before)


# The supervisor is its own file, bound in for the start like the interpreter: `ps` shows a
# short command line, and the file is gone from /tmp once the supervisor has replaced it.
_SUPERVISOR = os.path.realpath(supervisor.__file__)
_SUPERVISOR_MOUNT = "/tmp/judge-supervisor.py"


def _answer(channel: socket.socket) -> dict[str, object]:
    """The next word on `channel` (an empty one when it ended), waited for as long as a start."""
    channel.settimeout(_START_S)
    try:
        said = json.loads(channel.recv(4096) or b"{}")
    finally:
        channel.settimeout(None)
    return said if isinstance(said, dict) else {}


def _boot(command: str, request: dict[str, object]) -> list[int]:
    """What a zygote of the interpreter `command` needs beyond the request's command: the
    descriptors to hand along (none for Python, whose zygote is supervisor.py). For Node, the
    zygote's script goes in the request and its addon as a descriptor (the sandbox shows no
    file of the judge's); OSError where the addon cannot be had."""
    if os.path.basename(command) not in NODES:
        return []
    addon = zygote_kit.node_addon()
    if not addon:
        raise OSError(f"no zygote for Node here (${zygote_kit.NODE_ENV}=0, or its addon would not compile)")
    request.update(boot="node", text=zygote_kit.node_script())
    return [os.open(addon, os.O_RDONLY | os.O_CLOEXEC)]


NODES = ("node", "nodejs")  # the interpreters whose zygote is zygote_node.js
# Rootless, each call of these is the interpreter's own start: PyPy's ctypes, which takes the
# rootless steps in supervisor.py's zygote, made its calls slower than its own start (docs/benchmarks.md).
ROOTLESS_OWN_START = ("pypy3", "pypy")


def _options(parts: Sequence[str]) -> bool:
    """Whether an interpreter's arguments before its script are all options of its own (-S)."""
    return all(part.startswith("-") and part not in ("-c", "-m") for part in parts)


@dataclass(frozen=True)
class CaseRunner:
    """What runs the cases of one submission in its box: a session, or a sandbox per case.
    With `zygote`, each case's argv is a Python interpreter's, ending in the script to run,
    and where the session can, each case is a fork of a zygote that has the script loaded."""

    box: Path
    session: Session | None
    layers: Layers
    zygote: bool = False
    shown: tuple[str, ...] = ()  # folders every case sees read-only (cases' read_only)

    def forking(self) -> CaseRunner:
        """This runner, its cases forked from a zygote of their script where the session can."""
        return replace(self, zygote=True)

    def run(
        self,
        argv: Sequence[str],
        *,
        limits: RunLimits,
        stdin: Path | None = None,
        env: Mapping[str, str] | None = None,
        stop: Stop | None = None,
    ) -> RunResult:
        if self.session is not None and not self.session.broken:
            try:
                return self.session.run(argv, limits=limits, stdin=stdin, env=env, stop=stop, zygote=self.zygote)
            except SandboxFailure:
                if not self.box.is_dir() or not self.session.broken:
                    raise  # the box is gone: no sandbox could run the case
                # The session broke (its supervisor is gone): this case and the rest get a
                # sandbox each, as on a machine without sessions.
        limits = replace(limits, read_only=(*limits.read_only, *self.shown))
        return spawn.run(argv, box=self.box, limits=limits, stdin=stdin, env=env, layers=self.layers, stop=stop)


def _why_not(layers: Layers) -> str:
    if os.environ.get(SESSION_ENV, "").strip() == "0":
        return f"${SESSION_ENV}=0"
    if not layers.bwrap.active:
        return "no bubblewrap"
    if not layers.cgroup.active:
        if layers.rootless:
            return (
                "no cgroup delegated to the judge's user (each case's CPU time and memory are measured "
                "through one; systemd-run --user --scope -p Delegate=yes judge ... gives one)"
            )
        return "no cgroup (each case's CPU time and memory are measured through one)"
    if layers.rootless and not fast_spawn():
        why = (
            f"${FAST_ENV}=0"
            if _fast_built()
            else "the _fastspawn extension was not built: no C compiler or no Python headers (python3-dev) at install"
        )
        return f"the judge is not root, and a case's own pid and mount namespaces need the _fastspawn extension ({why})"
    return ""


SESSION_ENV = "JUDGE_SESSION"  # 0: a sandbox per case even where a session works (tests run both)


@lru_cache(maxsize=1)
def _probe() -> tuple[str, bool]:
    """Run /bin/true through a session once: ("", whether it started it by vfork) when it
    works here, else (why not, False)."""
    import tempfile

    layers = detect()
    with tempfile.TemporaryDirectory(prefix="judge-probe-") as folder:
        box = Path(folder)
        box.chmod(0o777)
        try:
            session = Session(box, layers, 1 << 20)
        except (OSError, SandboxFailure) as err:
            return str(err), False
        try:
            result = session.run(["/bin/true"], limits=RunLimits(cpu_s=2, wall_s=5, memory_mib=64, output_bytes=1024))
        except SandboxFailure as err:
            return str(err), False
        finally:
            session.close()
        if result.exit_code != 0:
            return (
                f"a probe run exited with {result.exit_code}: {result.stderr.decode(errors='replace').strip()}",
                False,
            )
    return "", session.vfork


def support(layers: Layers | None = None) -> Layer:
    """Whether the cases of a submission share one sandbox here (checked for real once), and
    how its supervisor starts them."""
    layers = layers or detect()
    why, vfork = _why_not(layers), False
    if not why:
        why, vfork = _probe()
    if why:
        return Layer("session", False, f"a new sandbox for each case: {why}")
    if vfork and layers.rootless:
        start = (
            "starts each case by vfork (the _fastspawn extension) in a pid and mount namespace of its own "
            "(the program runs as your user, so it sees neither the supervisor nor another case)"
        )
    elif vfork:
        start = "starts each case by vfork (the _fastspawn extension)"
    elif not _fast_built():
        start = "forks each case (the _fastspawn extension was not built: no C compiler or no Python headers (python3-dev) at install)"
    elif not fast_spawn():
        start = f"forks each case (${FAST_ENV}=0)"
    else:
        start = "forks each case (the _fastspawn extension would not load in the sandbox)"
    return Layer(
        "session",
        True,
        f"one sandbox per submission; its supervisor {start}, with a fresh /tmp, its own IPC namespace, cgroup and limits",
    )


_failed = 0  # the process in which a session failed to start: it runs each case on its own from then on


@contextmanager
def cases(
    box: Path, layers: Layers | None = None, wanted: bool = True, read_only: tuple[str, ...] = ()
) -> Iterator[CaseRunner]:
    """A CaseRunner for the cases of one submission in `box`: a session where the machine has
    one and it is `wanted` (a kind whose cases run in sandboxes of their own has no use for it).
    `read_only`: folders every case sees, read-only, at their own paths."""
    global _failed
    layers = layers or detect()
    session: Session | None = None
    # No probe first (support() has one, for judge doctor): a session that cannot start is
    # its own probe, and this process then stops trying.
    if wanted and not _why_not(layers) and _failed != os.getpid():
        try:
            with spawn.RUN_LOCK:  # a run's sweep must not take the session's bubblewrap for its own
                session = Session(box, layers, TMP_CAP_BYTES, read_only)
        except (OSError, SandboxFailure):
            _failed = os.getpid()
            session = None
    try:
        # The supervisor gives each case a fresh /tmp: a folder below it is not seen in a session.
        shown = tuple(f for f in read_only if session is None or not Path(f).is_relative_to("/tmp"))
        yield CaseRunner(box, session, layers, shown=shown)
    finally:
        if session is not None:
            session.close()
