"""An interaction: the submission and the problem's interactor run at once, each in its
own sandbox, the submission's stdout the interactor's stdin and back (two pipes, unbuffered:
nothing of the judge sits between them).

The interactor is run as an ICPC output validator is: `interactor input answer feedback_dir
[args]`, deciding with exit 42 (accepted) or 43 (wrong answer). It runs in a helper process
of the judge (`python -m judge.problem.kinds.interactive.exchange`), because a sandbox run owns its process: one run
at a time, its own cgroup, and a final sweep of every process it left. The helper ends when
its interactor ends, when the judge asks it to (SIGTERM: its run is stopped), or when the
judge dies (the parent-death signal).

Who ended first matters to the verdict (rules.judge_interaction): each side's run records
when its bubblewrap wrote its exit status, as the kernel stamped it (sandbox.spawn), on the
machine's monotonic clock, which both processes share.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from judge.errors import JudgeError
from judge.problem.kinds.interactive.rules import InteractorEnd, wrote_to_a_closed_pipe
from judge.run import lifecycle, programs, sandbox
from judge.run.sandbox.procs import PR_SET_PDEATHSIG, libc_prctl
from judge.run.sandbox.watch import BUSY_WALL_FACTOR

FEEDBACK = "feedback"
TASK_FILE = "task.pickle"
RESULT_FILE = "result.pickle"
_HELPER_START_S = 30.0  # a helper's Python start, on a loaded machine, at the most
AFTER_SUBMISSION_S = 5.0  # how long an interactor may go on once the submission has ended


@dataclass(frozen=True)
class Interaction:
    submission: sandbox.RunResult
    interactor: InteractorEnd
    kept: tuple[tuple[str, bytes], ...] = ()  # the files the interactor left in its Task.keep


@lru_cache(maxsize=8)
def built_interactor(program: Path, memory_mib: int) -> programs.Built:
    """The interactor, compiled once (the program cache keeps it across processes)."""
    try:
        return programs.load_and_build(program, memory_mib)
    except JudgeError as err:
        raise programs.ProgramError(f"the interactor: {err}") from None


def interactor_limits(tool: sandbox.RunLimits, submission: sandbox.RunLimits) -> sandbox.RunLimits:
    """The interactor's own CPU and memory limits; its wall clock outlasts the submission's,
    stretched as far as a busy machine may stretch it, since it mostly waits for it."""
    return replace(tool, wall_s=max(tool.wall_s, submission.wall_s * BUSY_WALL_FACTOR + 2.0))


def interact(
    argv: list[str],
    box: Path,
    limits: sandbox.RunLimits,
    interactor: programs.Task,
) -> Interaction:
    """Run the submission (`argv` in `box`) against the interactor's task (its files, args and
    limits; its stdin and stdout are the pipes). SandboxFailure when a side cannot be run."""
    with lifecycle.spread_out():  # both sides at once, not on one CPU (lifecycle.spread_out)
        return _interact(argv, box, limits, interactor)


def _interact(argv: list[str], box: Path, limits: sandbox.RunLimits, interactor: programs.Task) -> Interaction:
    work = lifecycle.make_temp_dir("interact", cap=lifecycle.BOX_CAP_BYTES)
    to_submission_r, to_submission_w = os.pipe()
    to_interactor_r, to_interactor_w = os.pipe()
    ready_r, ready_w = os.pipe()
    helper: subprocess.Popen[bytes] | None = None
    try:
        (work / TASK_FILE).write_bytes(pickle.dumps(interactor))
        ends = (to_interactor_r, to_submission_w, ready_w)
        helper = subprocess.Popen(
            [sys.executable, "-m", "judge.problem.kinds.interactive.exchange", str(work), *map(str, ends)],
            pass_fds=ends,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    except BaseException:
        for fd in (to_submission_r, to_submission_w, to_interactor_r, to_interactor_w, ready_r, ready_w):
            os.close(fd)
        lifecycle.remove_dir(work)
        raise
    # The helper holds its ends now: ours are closed, so each side sees the other's end.
    for fd in (to_interactor_r, to_submission_w, ready_w):
        os.close(fd)
    # The submission starts once the helper is about to start the interactor: the helper's
    # own start (Python, on a busy machine) is not the submission's wall time.
    select.select([ready_r], [], [], _HELPER_START_S)
    os.close(ready_r)
    stop = threading.Event()
    finished: list[tuple[InteractorEnd, tuple[tuple[str, bytes], ...]]] = []

    def follow() -> None:
        assert helper is not None
        _, errors = helper.communicate()
        end, kept = _read_end(work, helper.returncode, errors)
        finished.append((end, kept))
        if end.exit_code == 43 and end.limit_hit is None:
            stop.set()  # it has decided WA: the submission's run need not go on

    follower = threading.Thread(target=follow, name="judge-interactor", daemon=True)
    follower.start()
    try:
        run = sandbox.run(argv, box=box, limits=limits, stdin=to_submission_r, stdout=to_interactor_w, stop=stop)
    except BaseException:
        _end_helper(helper, follower, 0.0)
        lifecycle.remove_dir(work)
        raise
    # Once the submission has ended, the interactor has its end of input: it has a few seconds
    # to decide, not its whole wall limit.
    _end_helper(helper, follower, AFTER_SUBMISSION_S)
    lifecycle.remove_dir(work)
    if not finished:
        return Interaction(run, InteractorEnd(None, None, "stopped", 0.0, "the interactor did not end"))
    return Interaction(run, *finished[0])


def _end_helper(helper: subprocess.Popen[bytes], follower: threading.Thread, wait_s: float) -> None:
    """Give the helper `wait_s` to end by itself, then stop its run, then kill it."""
    follower.join(timeout=wait_s)
    if follower.is_alive():
        helper.send_signal(signal.SIGTERM)
        follower.join(timeout=10.0)
    if follower.is_alive():
        helper.kill()
        follower.join()


def _read_end(work: Path, returncode: int, errors: bytes) -> tuple[InteractorEnd, tuple[tuple[str, bytes], ...]]:
    try:
        outcome: programs.Outcome = pickle.loads((work / RESULT_FILE).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError):
        why = errors.decode("utf-8", errors="replace").strip().splitlines()
        detail = why[-1] if why else f"exit code {returncode}"
        return InteractorEnd(None, None, None, 0.0, f"the interactor could not be run: {detail}"), ()
    run = outcome.run
    feedback = dict(outcome.kept).get("judgemessage.txt", b"").decode("utf-8", errors="replace")
    lines = feedback.strip().splitlines()
    limit = str(run.limit_hit) if run.limit_hit is not None else None
    broke = wrote_to_a_closed_pipe(run.signal, run.stderr)
    end = InteractorEnd(run.exit_code, run.signal, limit, run.ended, lines[0][:200] if lines else "", broke)
    return end, outcome.kept


def _helper(work: Path, stdin_fd: int, stdout_fd: int, ready_fd: int) -> int:
    """The helper process: run the interactor's task on the two pipe ends, keep the outcome."""
    libc_prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the judge gone: the run is stopped
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    task: programs.Task = pickle.loads((work / TASK_FILE).read_bytes())
    os.write(ready_fd, b"1")
    os.close(ready_fd)
    outcome = programs.run_keeping(task, stdin_fd=stdin_fd, stdout_fd=stdout_fd, stop=stop)
    partial = work / (RESULT_FILE + ".part")
    partial.write_bytes(pickle.dumps(outcome))
    partial.rename(work / RESULT_FILE)  # whole or absent
    return 0


if __name__ == "__main__":
    sys.exit(_helper(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
