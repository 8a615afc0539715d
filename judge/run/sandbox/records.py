"""What a run is given and gives back (its limits, its raw figures), and the layers a machine has."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

NOBODY = 65534


BOX_MOUNT = "/box"


STDERR_CAP = 64 * 1024


SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"  # programs find compilers here, not on the judge's PATH


AS_SLACK_BYTES = 1 << 30  # RLIMIT_AS without a cgroup: the memory limit plus this


TMP_CAP_BYTES = 64 << 20  # the sandbox's private /tmp (a tmpfs, so memory): no more than this


BWRAP_ENV = "JUDGE_BWRAP"  # "system", "bundled" or a path: which bubblewrap to use


UNSAFE_ENV = "JUDGE_UNSAFE"  # 1: run submissions even with no filesystem and network isolation


class Limit(StrEnum):
    """The limit that stopped a run. A StrEnum: results and JSON keep the plain word."""

    CPU = "cpu"
    WALL = "wall"
    MEMORY = "memory"
    OUTPUT = "output"
    FILE_SIZE = "file_size"  # RLIMIT_FSIZE: a file written past the output limit
    STOPPED = "stopped"  # ended by the judge: the other side of an interaction had decided


class Stop(Protocol):
    """What ends a run early once set (STOPPED): a threading.Event, or a flag another process sets."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class RunLimits:
    cpu_s: float  # CPU time of the whole tree (user + system)
    wall_s: float  # real time; the run is killed when it passes
    memory_mib: int  # peak memory of the whole tree
    output_bytes: int  # stdout, and every file written
    pids: int = 64  # processes and threads at once
    address_space: bool = True  # RLIMIT_AS without a cgroup (never for a JVM)
    tmp_mib: int = TMP_CAP_BYTES >> 20  # the private /tmp under bubblewrap (memory, counted in the cgroup)
    # Host folders outside /usr and /etc a compiler reads (ghc's package database in /var/lib),
    # bound read-only for that compile only: a submission's runs never get them.
    read_only: tuple[str, ...] = ()
    # A run that may have read a secret (a secret case's program): what it was first to bring
    # into the machine's page cache is evicted as it ends (cgroups.RunGroup.forget), so that no
    # later run can time it (docs/sandbox.md, "The page cache"). Needs the run's own cgroup.
    forget_reads: bool = False


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
    # When it ended (time.monotonic()): which side of an interaction ended first. The kernel's
    # stamp of bubblewrap's exit status for an interaction's run, else when it was reaped.
    ended: float = 0.0

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
    # Toolchains found on the judge's PATH outside the system's folders (toolfolders.shown):
    # their folders, bound read-only at their own paths, and the PATH a program gets.
    toolchains: tuple[str, ...] = ()
    path: str = SANDBOX_PATH

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
            # spawn.py: by _fastspawn where it is built, else (and rootless, NPROC) by prlimit
            what += (
                "; in force before the program's exec: a sandbox of a case's own takes them before"
                " bubblewrap's exec (the _fastspawn extension; rootless, NPROC is set inside), else"
                f" {self.prlimit_path} sets them inside the sandbox"
            )
        elif self.bwrap.active:
            what += "; prlimit(1) not found (util-linux): set from outside, which can race with a fork under load"
        return (self.bwrap, self.user, self.cgroup, Layer("rlimits", True, what))
