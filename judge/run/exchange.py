"""Two programs piped together, each in its own sandbox: the submission's stdout the other
side's stdin and back (two pipes, unbuffered: nothing of the judge sits between them, but for a
gated exchange's relay, which moves bytes unread: Gate, _Relay). The
interactive kind's judging program and the unit kind's tests (beside the student's code) are
such a partner; this module knows neither, only the pipes, the partner's task and how it ended.

The partner runs in a helper process of the judge (`python -m judge.run.exchange serve`),
because a sandbox run owns its process: one run at a time, its own cgroup, and a final sweep of
every process it left. A helper is kept for the next exchange of the same judge process
(Helper); it ends when the judge lets it go or dies (the parent-death signal).

Who ended first matters to a verdict: each side's run records when its bubblewrap wrote its
exit status, as the kernel stamped it (sandbox.spawn), on the machine's monotonic clock, which
both processes share.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

from judge.run import lifecycle, programs, sandbox
from judge.run.sandbox import procs
from judge.run.sandbox.procs import PR_SET_PDEATHSIG, libc_prctl
from judge.run.sandbox.watch import BUSY_WALL_FACTOR
from judge.run.verdicts import PartnerEnd, wrote_to_a_closed_pipe

FEEDBACK = "feedback"  # the folder the partner leaves its word in (ICPC's feedback_dir)
TASK_FILE = "task.pickle"
GATE_FILE = "gate.pickle"
RESULT_FILE = "result.pickle"
_HELPER_START_S = 30.0  # a helper's Python start, on a loaded machine, at the most
AFTER_SUBMISSION_S = 5.0  # how long the partner may go on once the submission has ended
DECIDED_WRONG = 43  # a partner's exit that decides against the submission (ICPC's WA)


@dataclass(frozen=True)
class Gate:
    """The partner starts only once the submission has written `marker` on its stdout (read by
    the helper: the partner never sees it), has ended, or `wait_s` have passed; then a late
    CpuClock's reader's folder is made (`clock`, the clock's folder: sandbox.show_clock). So
    nothing of the partner's (its start, its files, the clock's folder) is older than the
    submission's readiness (its pipes are made then too: _Relay), and it cannot tell how long
    that took."""

    marker: bytes
    wait_s: float
    clock: str | None = None


@dataclass(frozen=True)
class Exchange:
    submission: sandbox.RunResult
    partner: PartnerEnd
    kept: tuple[tuple[str, bytes], ...] = ()  # the files the partner left in its Task.keep


def partner_limits(tool: sandbox.RunLimits, submission: sandbox.RunLimits) -> sandbox.RunLimits:
    """The partner's own CPU and memory limits; its wall clock outlasts the submission's,
    stretched as far as a busy machine may stretch it, since it mostly waits for it."""
    return replace(tool, wall_s=max(tool.wall_s, submission.wall_s * BUSY_WALL_FACTOR + 2.0))


def interact(
    argv: list[str],
    box: Path,
    limits: sandbox.RunLimits,
    partner: programs.Task,
    clock: sandbox.CpuClock | None = None,
    called: str = "the other side",
    gate: bytes | None = None,
) -> Exchange:
    """Run the submission (`argv` in `box`) against the partner's task (its files, args and
    limits; its stdin and stdout are the pipes). SandboxFailure when a side cannot be run.
    `clock`: where the submission's CPU time is published as it runs, for the other side (a
    late one needs a `gate`); `called`: the partner in the messages of its failures; `gate`:
    the partner starts once the submission has written these bytes, which it never sees (Gate)."""
    held = None
    if gate is not None:
        late = str(clock.folder) if clock is not None and clock.late else None
        held = Gate(gate, limits.wall_s, late)
    with lifecycle.spread_out():  # both sides at once, not on one CPU (lifecycle.spread_out)
        return _interact(argv, box, limits, partner, clock, called, held)


def _interact(
    argv: list[str],
    box: Path,
    limits: sandbox.RunLimits,
    partner: programs.Task,
    clock: sandbox.CpuClock | None,
    called: str,
    gate: Gate | None,
) -> Exchange:
    work = lifecycle.make_temp_dir("interact", cap=lifecycle.BOX_CAP_BYTES)
    to_submission_r, to_submission_w = os.pipe()
    to_partner_r, to_partner_w = os.pipe()
    ready_r, ready_w = os.pipe()
    ends = (to_partner_r, to_submission_w, ready_w)
    helper: Helper | None = None
    try:
        (work / TASK_FILE).write_bytes(pickle.dumps(partner))
        if gate is not None:
            (work / GATE_FILE).write_bytes(pickle.dumps(gate))
        helper = Helper.take()
        helper.start(work, ends)
    except BaseException:
        if helper is not None:
            helper.discard()
        for fd in (to_submission_r, to_submission_w, to_partner_r, to_partner_w, ready_r, ready_w):
            os.close(fd)
        lifecycle.remove_dir(work)
        raise
    # The helper holds its ends now: ours are closed, so each side sees the other's end.
    for fd in ends:
        os.close(fd)
    # The submission starts once the helper is about to start the partner: the helper's
    # own work (on a busy machine) is not the submission's wall time.
    select.select([ready_r], [], [], _HELPER_START_S)
    os.close(ready_r)
    stop = threading.Event()
    finished: list[tuple[PartnerEnd, tuple[tuple[str, bytes], ...]]] = []

    def follow() -> None:
        assert helper is not None
        errors = helper.wait()
        end, kept = _read_end(work, 0 if errors is None else 1, errors or b"", called)
        finished.append((end, kept))
        if end.exit_code == DECIDED_WRONG and end.limit_hit is None:
            stop.set()  # it has decided WA: the submission's run need not go on

    follower = threading.Thread(target=follow, name="judge-partner", daemon=True)
    follower.start()
    try:
        run = sandbox.run(
            argv, box=box, limits=limits, stdin=to_submission_r, stdout=to_partner_w, stop=stop, clock=clock
        )
    except BaseException:
        _end_helper(helper, follower, 0.0)
        lifecycle.remove_dir(work)
        raise
    # Once the submission has ended, the partner has its end of input: it has a few seconds
    # to decide, not its whole wall limit.
    _end_helper(helper, follower, AFTER_SUBMISSION_S)
    lifecycle.remove_dir(work)
    if not finished:
        return Exchange(run, PartnerEnd(None, None, "stopped", 0.0, f"{called} did not end"))
    return Exchange(run, *finished[0])


def _end_helper(helper: Helper, follower: threading.Thread, wait_s: float) -> None:
    """Give the helper's task `wait_s` to end by itself, then stop its run, then kill the
    helper; a helper whose task ended by itself goes back for the next exchange."""
    follower.join(timeout=wait_s)
    if follower.is_alive():
        helper.stop_task()
        follower.join(timeout=10.0)
    if follower.is_alive():
        helper.discard()
        follower.join()
    elif helper.healthy:
        helper.give_back()
    else:
        helper.discard()


class Helper:
    """A helper process of the judge's that runs partners, one task at a time, started once
    and kept for the next (a Python start and the judge's imports cost about 0.2 s, per case
    otherwise). It gets each task as a folder and the three pipe ends over a Unix socket
    (SCM_RIGHTS), and says on it when the task is done; SIGUSR1 stops the task's run. It ends
    when its socket closes (the judge's process ended or let it go) or the judge dies."""

    _idle: ClassVar[list[Helper]] = []
    _lock: ClassVar[threading.Lock] = threading.Lock()
    _registered: ClassVar[int] = 0  # the process whose exit lets its helpers go

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "judge.run.exchange", "serve", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.socket = ours
        self.owner = os.getpid()
        self.healthy = True
        procs.LONG_LIVED.add(self.process.pid)  # not a run's leftover: no sweep kills it

    @classmethod
    def take(cls) -> Helper:
        """An idle helper of this process, else a new one."""
        with cls._lock:
            while cls._idle:
                helper = cls._idle.pop()
                if helper.owner == os.getpid() and helper.process.poll() is None:
                    return helper
                if helper.owner == os.getpid():
                    helper.discard()
            if cls._registered != os.getpid():
                lifecycle.at_exit(cls.let_go)
                cls._registered = os.getpid()
        return cls()

    @classmethod
    def let_go(cls) -> None:
        """At the judge's exit: its idle helpers end (their sockets close)."""
        with cls._lock:
            helpers, cls._idle = cls._idle, []
        for helper in helpers:
            if helper.owner == os.getpid():
                helper.discard()

    def start(self, work: Path, ends: tuple[int, int, int]) -> None:
        """Hand it a task: its folder and the partner's stdin, stdout and ready ends."""
        socket.send_fds(self.socket, [str(work).encode()], list(ends))

    def wait(self) -> bytes | None:
        """Until its task is done: None, else why it failed (its error, or its end)."""
        try:
            said = self.socket.recv(65536)
        except OSError as err:
            said = b"error " + str(err).encode()
        if said == b"done":
            return None
        self.healthy = False
        return said.removeprefix(b"error ") if said else b"the helper ended"

    def stop_task(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGUSR1)

    def give_back(self) -> None:
        with self._lock:
            self._idle.append(self)

    def discard(self) -> None:
        self.healthy = False
        self.socket.close()
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()
        procs.LONG_LIVED.discard(self.process.pid)


def _read_end(
    work: Path, returncode: int, errors: bytes, called: str
) -> tuple[PartnerEnd, tuple[tuple[str, bytes], ...]]:
    try:
        outcome: programs.Outcome = pickle.loads((work / RESULT_FILE).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError):
        why = errors.decode("utf-8", errors="replace").strip().splitlines()
        detail = why[-1] if why else f"exit code {returncode}"
        return PartnerEnd(None, None, None, 0.0, f"{called} could not be run: {detail}"), ()
    run = outcome.run
    feedback = dict(outcome.kept).get("judgemessage.txt", b"").decode("utf-8", errors="replace")
    lines = feedback.strip().splitlines()
    limit = str(run.limit_hit) if run.limit_hit is not None else None
    broke = wrote_to_a_closed_pipe(run.signal, run.stderr)
    end = PartnerEnd(run.exit_code, run.signal, limit, run.ended, lines[0][:200] if lines else "", broke)
    return end, outcome.kept


def _run_task(work: Path, stdin_fd: int, stdout_fd: int, ready_fd: int, stop: threading.Event) -> None:
    """Run the partner's task of `work` on the two pipe ends and keep its outcome there."""
    task: programs.Task = pickle.loads((work / TASK_FILE).read_bytes())
    gated = work / GATE_FILE
    gate: Gate | None = pickle.loads(gated.read_bytes()) if gated.exists() else None
    os.write(ready_fd, b"1")
    os.close(ready_fd)
    relay = None
    if gate is not None:
        _pass(gate, stdin_fd, stop)
        relay = _Relay(stdin_fd, stdout_fd)
        stdin_fd, stdout_fd = relay.partner
        if gate.clock is not None:
            sandbox.show_clock(Path(gate.clock))
    try:
        outcome = programs.run_keeping(task, stdin_fd=stdin_fd, stdout_fd=stdout_fd, stop=stop)
    finally:
        if relay is not None:
            relay.finish(AFTER_SUBMISSION_S)
    partial = work / (RESULT_FILE + ".part")
    partial.write_bytes(pickle.dumps(outcome))
    partial.rename(work / RESULT_FILE)  # whole or absent


def _pass(gate: Gate, fd: int, stop: threading.Event) -> None:
    """Wait at the gate: until the submission has written its marker (taken off the pipe), has
    ended or written something else (the partner then starts as it would have), or the wait or
    the exchange is over."""
    deadline = time.monotonic() + gate.wait_s
    seen = b""
    while seen != gate.marker and not stop.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return
        if not select.select([fd], [], [], min(left, 0.1))[0]:
            continue  # a tenth of a second at a time: a stop is seen soon
        more = os.read(fd, len(gate.marker) - len(seen))
        if not more or not gate.marker.startswith(seen + more):
            return
        seen += more


class _Relay:
    """At a gate, the partner's pipes are made anew and a thread moves the bytes between them
    and the submission's (by splice, never read by the judge): the pipes made before the
    submission started would tell the partner how long that took, by their times (a pipe's
    ctime is when it was made) and their inode numbers (a count of the machine's new pipes,
    sockets and /proc files: a bug's import made more; a ninth review caught a slower start
    13 of 13 by the first, 4 of 6 by the second). Each side sees the other's end as before:
    an end of input when the other has closed its output, a broken pipe once it is gone."""

    def __init__(self, from_submission: int, to_submission: int) -> None:
        to_partner_r, to_partner_w = os.pipe()
        from_partner_r, from_partner_w = os.pipe()
        self.partner = (to_partner_r, from_partner_w)  # its stdin and stdout
        self.routes = {from_submission: to_partner_w, from_partner_r: to_submission}
        self.ending = threading.Event()
        self.thread = threading.Thread(target=self._move, name="judge-relay", daemon=True)
        self.thread.start()

    def _move(self) -> None:
        routes, full = dict(self.routes), set[int]()
        while routes and not self.ending.is_set():
            waiting = [source for source in routes if source not in full]
            readable, writable, _ = select.select(waiting, [routes[source] for source in full], [], 0.1)
            full -= {source for source in full if routes[source] in writable}
            for source in readable:
                try:
                    moved = os.splice(source, routes[source], 1 << 16, flags=os.SPLICE_F_NONBLOCK)
                except BlockingIOError:
                    full.add(source)  # its sink is full: wait until it is not
                    continue
                except OSError:
                    moved = 0  # the sink's reader is gone: the source's writer is told so
                if moved == 0:
                    os.close(source)
                    os.close(routes.pop(source))
                    full.discard(source)
        for source, sink in routes.items():
            os.close(source)
            os.close(sink)

    def finish(self, wait_s: float) -> None:
        """Once the partner has ended: the submission has `wait_s` to end too, then its pipes close."""
        self.thread.join(wait_s)
        self.ending.set()
        self.thread.join()


def _identity(fd: int) -> tuple[int, int] | None:
    """The open file a descriptor number stands for (a pipe's inode), None when it is closed."""
    try:
        found = os.fstat(fd)
    except OSError:
        return None
    return (found.st_dev, found.st_ino)


def _serve(channel_fd: int) -> int:
    """The helper process: a task after another, until its socket closes."""
    libc_prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the judge gone: the run is stopped, and it ends
    stop = threading.Event()
    leaving = threading.Event()

    def on_term(*_: object) -> None:
        leaving.set()
        stop.set()

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGUSR1, lambda *_: stop.set())
    channel = socket.socket(fileno=channel_fd)
    while not leaving.is_set():
        try:
            message, fds, _, _ = socket.recv_fds(channel, 4096, 3)
        except OSError:
            return 0
        if not message or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            return 0
        stop.clear()
        # The task owns the ends: the ready end is closed once written, and the sandbox takes
        # over the other two (closing them when the partner holds them). Closing a number
        # again later could close another descriptor that has taken it meanwhile in this
        # long-lived process; a task that failed early closes only the pipes still there.
        received = [_identity(fd) for fd in fds]
        try:
            _run_task(Path(message.decode()), fds[0], fds[1], fds[2], stop)
        except Exception as err:
            reply = f"error {type(err).__name__}: {err}".encode()[:4000]
            for fd, was in zip(fds, received, strict=True):
                if was is not None and _identity(fd) == was:
                    os.close(fd)
        else:
            reply = b"done"
        try:
            channel.send(reply)
        except OSError:
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(_serve(int(sys.argv[2])))
