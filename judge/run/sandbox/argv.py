"""The command lines of a run: bubblewrap's arguments and the rlimits (as prlimit's options)."""

from __future__ import annotations

import math
import os
import resource
from pathlib import PurePosixPath

from judge.run.sandbox.records import AS_SLACK_BYTES, BOX_MOUNT, TMP_CAP_BYTES, Layers, RunLimits

# A read-only entry "HOST\nINSIDE" binds the folder HOST at INSIDE (bound_at): a folder whose
# host name says something of the judge (a worker's pid) is shown under a fixed name.
BOUND_AT = "\n"


def bound_at(host: str, inside: str) -> str:
    return f"{host}{BOUND_AT}{inside}"


def host_binds() -> tuple[tuple[str, ...], ...]:
    binds: list[tuple[str, ...]] = [("--ro-bind", "/usr", "/usr"), ("--ro-bind", "/etc", "/etc")]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            binds.append(("--symlink", os.readlink(top), top))
        elif os.path.isdir(top):
            binds.append(("--ro-bind", top, top))
    return tuple(binds)


def bwrap_prefix(
    layers: Layers,
    box: str,
    block_fd: int | None = None,
    tmp_bytes: int = TMP_CAP_BYTES,
    read_only: tuple[str, ...] = (),
    status_fd: int | None = None,
    seccomp_fd: int | None = None,
    fixed: tuple[str, ...] = (),
    info_fd: int | None = None,
) -> list[str]:
    """bubblewrap's arguments, up to its "--". `fixed`: names of files in the box that the
    program may read but not change (bound read-only over themselves)."""
    assert layers.bwrap_path is not None
    argv = [
        layers.bwrap_path,
        *(["--block-fd", str(block_fd)] if block_fd is not None else []),
        # bubblewrap writes the program's exit status there as its sandbox ends (see spawn.py)
        *(["--json-status-fd", str(status_fd)] if status_fd is not None else []),
        # the kernel's keyrings refused (filters.py): the one kernel state no namespace covers
        *(["--seccomp", str(seccomp_fd)] if seccomp_fd is not None else []),
        # bubblewrap names its first process in the sandbox there, once it has made it
        *(["--info-fd", str(info_fd)] if info_fd is not None else []),
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
    # After /tmp's tmpfs, so that a folder below /tmp (a cache in a test's temporary folder) is seen.
    # Toolchains outside the system's folders too (toolfolders): read-only, whoever owns them.
    for entry in (*layers.toolchains, *read_only):
        host, _, inside = entry.partition(BOUND_AT)
        folder = inside or host
        # The folders bubblewrap makes on the way are root's, 0700 unless told: the program's
        # user (nobody) must be able to pass through them.
        parents = [str(parent) for parent in reversed(PurePosixPath(folder).parents) if str(parent) != "/"]
        for parent in parents:
            argv += ["--perms", "0755", "--dir", parent]
        argv += ["--ro-bind-try", host, folder]
    argv += ["--bind", box, BOX_MOUNT]
    for name in fixed:
        # A read-only mount, not a mode: rootless, the program's uid owns the box's files and
        # may chmod them; on a read-only mount opening to write, truncate and chmod fail (EROFS).
        assert name and "/" not in name and name not in (".", ".."), name
        argv += ["--ro-bind", os.path.join(box, name), f"{BOX_MOUNT}/{name}"]
    argv += ["--chdir", BOX_MOUNT, "--remount-ro", "/"]
    return argv + ["--"]


def hidden_options(command: list[str]) -> tuple[list[str], int]:
    """The command with bubblewrap's options (all up to its "--") moved into a memfd that
    `--args FD` names: the command and the descriptor, which the start must keep open.

    Inside the sandbox bubblewrap's own processes (its init, pid 1) show its command line in
    /proc/N/cmdline, and the options name host folders whose names hold the worker's pid and
    start (lifecycle.owner_tag): from them a test could tell how long the judging has run.
    Given by descriptor they show as `bwrap --args N`; bubblewrap reads it whole and closes it
    before it makes the sandbox. The program's own arguments after "--" stay as they were."""
    end = command.index("--")
    data = b"".join(os.fsencode(part) + b"\0" for part in command[1:end])
    fd = os.memfd_create("bwrap-args", os.MFD_CLOEXEC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return [command[0], "--args", str(fd), *command[end:]], fd


Rlimit = tuple[int, tuple[int, int]]


def rlimit_list(limits: RunLimits, memory_bytes: int, no_cgroup: bool) -> list[Rlimit]:
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


def prlimit_options(rlimits: list[Rlimit]) -> list[str]:
    def text(value: int) -> str:
        return "unlimited" if value == resource.RLIM_INFINITY else str(value)

    return [f"--{_PRLIMIT_NAMES[which]}={text(soft)}:{text(hard)}" for which, (soft, hard) in rlimits]
