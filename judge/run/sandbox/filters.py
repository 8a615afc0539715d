"""The seccomp filter every sandbox starts under: the kernel's keyrings refused.

Keyrings are kernel state no namespace of a run covers: the user keyring of uid 65534 (every
case's user, as root) lives as long as the kernel, so a key one case adds is there for the
next case of any student and any later judge. Docker's default profile refuses these calls for
that reason, and so does the judge: add_key, request_key and keyctl fail with EPERM (no
compiler or runtime the judge runs needs them). request_key would also start the host's
/sbin/request-key as root.

The filter is made by libseccomp (through pyseccomp, its ctypes binding) and handed to
bubblewrap as a compiled program (`--seccomp FD`); every process of the run inherits it. Where
libseccomp cannot be loaded, runs go on without it and `judge doctor` says so.
"""

from __future__ import annotations

import errno
import os
import platform
from functools import lru_cache

from judge.run.sandbox.records import Layer

REFUSED = ("add_key", "request_key", "keyctl")

# The other ABIs a native program can call the kernel through (a 32-bit program on x86_64):
# each gets the same rules, where the kernel accepts it; any other would be killed.
_OTHER_ABIS = {"x86_64": ("X86", "X32"), "aarch64": ("ARM",)}


@lru_cache(maxsize=1)
def _program() -> tuple[bytes, str]:
    """The compiled filter and "", or b"" and why it cannot be had here."""
    try:
        import pyseccomp as seccomp
    except ImportError as err:  # pragma: no cover - a dependency of the judge
        return b"", f"pyseccomp is not installed ({err})"
    try:
        rules = seccomp.SyscallFilter(seccomp.ALLOW)
        for abi in _OTHER_ABIS.get(platform.machine(), ()):
            arch = getattr(seccomp.Arch, abi, None)
            if arch is not None:
                try:
                    rules.add_arch(arch)
                except (OSError, ValueError):
                    pass  # already there, or not known to this libseccomp
        for name in REFUSED:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
        with os.fdopen(os.memfd_create("judge-seccomp-export", os.MFD_CLOEXEC), "w+b") as sink:
            rules.export_bpf(sink)
            sink.seek(0)
            return sink.read(), ""
    except (OSError, RuntimeError, ValueError, AttributeError) as err:
        # pyseccomp raises RuntimeError where libseccomp.so.2 cannot be loaded
        return b"", f"libseccomp could not make the filter: {err} (Debian: libseccomp2)"


def program_fd() -> int | None:
    """A descriptor (close-on-exec; pass it on) holding the compiled filter from its start,
    for bubblewrap's --seccomp; None where there is no filter. The caller closes it."""
    program, _ = _program()
    if not program:
        return None
    fd = os.memfd_create("judge-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, program)
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd


def support() -> Layer:
    """The layer as `judge doctor` shows it."""
    program, why = _program()
    if program:
        return Layer("seccomp", True, f"keyrings refused ({', '.join(REFUSED)}: EPERM), as Docker's default profile")
    return Layer("seccomp", False, f"keyrings not refused: {why}; a key one run adds can reach the next")
