"""Where a language's command is for a sandboxed program: on the sandbox's own PATH (the
system's folders), or on the judge's own PATH outside them (rustup, a Go tarball, SDKMAN,
nvm), then shown read-only in the sandbox at its real path; or why it cannot be shown.

`folder_for` is pure (paths as text); `locate` and `shown` read the file system (and ask
rustup which toolchain its proxy runs). languages.py (missing, probe) and the sandbox's
binds (detect) both ask here, so what `judge doctor` says and what a run finds agree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath

from judge.run.sandbox.records import BOX_MOUNT, SANDBOX_PATH

# The host folders every sandbox already shows (argv.host_binds): nothing more to bind there.
SYSTEM_TOPS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What the sandbox makes its own (a fresh /proc and /dev, the box, and a /tmp for each case,
# which in a session the supervisor mounts anew): a host folder there is unseen.
HIDDEN_TOPS = ("/proc", "/dev", "/sys", "/tmp", BOX_MOUNT)


@dataclass(frozen=True)
class ToolFolder:
    """A command as a sandboxed program finds it. `where`: the file it runs (its host path is
    its path inside), None when it finds none; `folder`: what is bound read-only at the same
    path for it ("" when the system's folders hold it); `bin`: the folder added to the
    sandbox's PATH ("" when on the sandbox's own PATH); `why`: why a command on the judge's
    PATH cannot be shown ("" when it can, or when there is none)."""

    command: str
    where: str | None
    folder: str = ""
    bin: str = ""
    why: str = ""

    @property
    def outside(self) -> bool:
        """Found on the judge's PATH beyond the sandbox's own, and shown."""
        return self.where is not None and bool(self.bin)


@dataclass(frozen=True)
class ToolView:
    """What the sandbox shows of toolchains outside the system's folders: folders bound
    read-only at their own paths, and the PATH a sandboxed program gets."""

    folders: tuple[str, ...] = ()
    path: str = SANDBOX_PATH


def _under(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def folder_for(real: str, home: str) -> tuple[str, str]:
    """(folder to bind, why not) for the real file of a toolchain's command. The folder is the
    one above its bin/ (a toolchain finds its libraries from there: Go's GOROOT, a JDK's home,
    rustup's sysroot, nvm's node), or the bin folder alone where that would be a shared place
    (the home, ~/.local, /): the narrowest folder that works, never the whole home."""
    for top in HIDDEN_TOPS:
        if _under(real, top):
            return "", f"{real} is under {top}, which the sandbox makes its own"
    if any(_under(real, top) for top in SYSTEM_TOPS):
        return "", ""  # shown already: only its bin goes on PATH
    bin_folder = str(PurePosixPath(real).parent)
    shared = {"/", "/opt", "/var", "/home", "/root", home, os.path.join(home, ".local")}

    def too_wide(folder: str) -> bool:
        return folder in shared or _under(home, folder)

    if too_wide(bin_folder):
        return (
            "",
            f"{real} sits in {bin_folder}, which the sandbox will not show whole (move it into a folder of its own)",
        )
    parent = str(PurePosixPath(bin_folder).parent)
    if PurePosixPath(bin_folder).name == "bin" and not too_wide(parent):
        return parent, ""
    return bin_folder, ""


def _rustup_target(found: str, real: str, command: str) -> tuple[str, str]:
    """The toolchain's own command behind a rustup proxy (~/.cargo/bin/rustc is rustup under
    another name, which reads RUSTUP_HOME), asked of rustup itself; or why not."""
    try:
        done = subprocess.run([real, "which", command], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return "", f"{found} is rustup's proxy and `rustup which {command}` failed: {err}"
    target = done.stdout.strip()
    if done.returncode != 0 or not target:
        said = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return "", f"{found} is rustup's proxy and `rustup which {command}` says: {said}"
    return os.path.realpath(target), ""


def _is_rustup(real: str, found: str) -> bool:
    if os.path.basename(real) == "rustup":
        return True
    sibling = os.path.join(os.path.dirname(found), "rustup")
    try:
        return os.path.samefile(sibling, real)  # an older rustup's proxies are hard links
    except OSError:
        return False


def _unreadable(folder: str, real: str) -> str:
    """As root, a sandboxed program runs as nobody: the file, and every folder from the bound
    one down to it, must be open to others. (Rootless it is the judge's own user.)"""
    if os.geteuid() != 0:
        return ""
    steps = [real]
    here = os.path.dirname(real)
    while folder and _under(here, folder):
        steps.append(here)
        here = os.path.dirname(here)
    for step in steps:
        try:
            mode = os.stat(step).st_mode
        except OSError as err:
            return f"{step}: {err.strerror}"
        if mode & 0o005 != 0o005:
            return f"{step} is not readable by the sandbox's user (nobody): chmod -R o+rX {folder or step}"
    return ""


def locate(command: str) -> ToolFolder:
    """Where a sandboxed program finds `command`, by the judge's PATH as it is now."""
    return _locate(command, os.environ.get("PATH", ""), os.path.expanduser("~"))


@lru_cache(maxsize=256)
def _locate(command: str, user_path: str, home: str) -> ToolFolder:
    inside = shutil.which(command, path=SANDBOX_PATH)
    if inside is not None:
        return ToolFolder(command, inside)
    found = shutil.which(command, path=user_path)
    if found is None:
        return ToolFolder(command, None)
    found = os.path.abspath(found)
    real = os.path.realpath(found)
    if _is_rustup(real, found):
        real, why = _rustup_target(found, real, command)
        if why:
            return ToolFolder(command, None, why=why)
    if PurePosixPath(real).parent.name == "shims":
        return ToolFolder(
            command, None, why=f"{found} is a version manager's shim: put the toolchain's own bin folder on PATH"
        )
    if os.path.basename(real) != command:
        return ToolFolder(
            command,
            None,
            why=f"{found} leads to {real}, another name: put a folder holding `{command}` itself on PATH",
        )
    folder, why = folder_for(real, home)
    why = why or _unreadable(folder, real)
    if why:
        return ToolFolder(command, None, why=why)
    return ToolFolder(command, real, folder, os.path.dirname(real))


def shown(commands: Iterable[str]) -> ToolView:
    """What the sandbox shows for these commands (languages.yaml's): every one found outside
    the system's folders, its folder bound and its bin after the sandbox's own PATH (the
    system's toolchain wins, as `locate` says)."""
    found = [located for located in map(locate, dict.fromkeys(commands)) if located.outside]
    folders = sorted({located.folder for located in found if located.folder})
    # A folder inside another bound one is bound with it.
    folders = [f for f in folders if not any(f != g and _under(f, g) for g in folders)]
    bins = [b for b in dict.fromkeys(located.bin for located in found) if b not in SANDBOX_PATH.split(":")]
    return ToolView(tuple(folders), ":".join([SANDBOX_PATH, *bins]))
