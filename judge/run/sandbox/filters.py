"""The seccomp filter every sandbox starts under: the kernel state that no namespace of a run
covers, refused.

- The kernel's keyrings. The user keyring of uid 65534 (every case's user, as root) lives as
  long as the kernel, so a key one case adds is there for the next case of any student and any
  later judge. Docker's default profile refuses these calls for that reason, and so does the
  judge: add_key, request_key and keyctl fail with EPERM (no compiler or runtime the judge runs
  needs them). request_key would also start the host's /sbin/request-key as root.
- The page cache, one for the whole machine (docs/sandbox.md, "The page cache"). A case can
  bring a page of a file it can read into it, and a later run can time a read of that page: a
  channel. What a filter can take away is the rest: the calls that evict a page (fadvise
  POSIX_FADV_DONTNEED; madvise and process_madvise MADV_COLD and MADV_PAGEOUT), and those that
  tell whether a page is cached without a clock (mincore, cachestat, preadv2 with RWF_NOWAIT),
  and io_uring, which offers both (its own fadvise, madvise and RWF_NOWAIT reads) out of a
  filter's sight. Only those advice values are refused: the JVM and Go call madvise all the
  time, and fadvise's other advice (SEQUENTIAL, WILLNEED, ...) only reads ahead. preadv2 with
  RWF_NOWAIT fails with EOPNOTSUPP, as on a file system without it, so a program falls back
  to a plain read; the others with EPERM. readahead and WILLNEED are let through: they bring
  pages in, which a plain read does as well. POSIX_FADV_NOREUSE too: since Linux 6.3 it only
  keeps a file's pages off the active list; nothing is evicted or told.

The filter is made by libseccomp (through pyseccomp, its ctypes binding) and handed to
bubblewrap as a compiled program (`--seccomp FD`); every process of the run inherits it. A
64-bit program can call the kernel through another ABI (`int 0x80`: the i386 one), which the
filter covers with the same rules but fadvise's: its advice is another argument there (and
fadvise64_64, arm_fadvise64_64 besides), so there every fadvise call is refused, advice as it
is. A call's int argument is compared on its low 32 bits, as the kernel reads it: a value with
high bits set is the same advice to the kernel. Where libseccomp cannot be loaded, runs go on
without the filter and `judge doctor` says so.
"""

from __future__ import annotations

import errno
import os
import platform
from functools import lru_cache
from typing import Any

from judge.run.sandbox.records import Layer

KEYRINGS = ("add_key", "request_key", "keyctl")
# The page cache: told without a clock (mincore, cachestat), or evicted and told (io_uring).
PROBES = ("mincore", "cachestat", "io_uring_setup", "io_uring_enter", "io_uring_register")
REFUSED = KEYRINGS + PROBES  # refused whatever their arguments, on every ABI
MADV_COLD, MADV_PAGEOUT = 20, 21  # not in Python's mmap module before 3.12 (the same on every architecture)
RWF_NOWAIT = 0x8
_LOW = 0xFFFFFFFF  # an int argument as the kernel reads it

# The other ABIs a native program can call the kernel through (a 32-bit program on x86_64):
# each gets the same rules, where the kernel accepts it; any other would be killed. x32 passes
# the arguments as x86_64 does; the 32-bit ones place fadvise's advice elsewhere.
_SAME_ARGUMENTS = {"x86_64": ("X32",)}
_OTHER_ABIS = {"x86_64": ("X86",), "aarch64": ("ARM",)}
_FADVISE_CALLS = ("fadvise64", "fadvise64_64", "arm_fadvise64_64")


def _advice_rules(seccomp: Any) -> list[tuple[int, str, Any]]:
    """(action, call, argument test) of the page-cache rules whose arguments sit where they
    do in every ABI: each call refused for the advice or flag given."""
    refuse = seccomp.ERRNO(errno.EPERM)
    rules = []
    for advice in (MADV_COLD, MADV_PAGEOUT):
        rules.append((refuse, "madvise", seccomp.Arg(2, seccomp.MASKED_EQ, _LOW, advice)))
        rules.append((refuse, "process_madvise", seccomp.Arg(3, seccomp.MASKED_EQ, _LOW, advice)))
    # As on a file system without RWF_NOWAIT: a program falls back to a plain read.
    nowait = seccomp.Arg(5, seccomp.MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT)
    rules.append((seccomp.ERRNO(errno.EOPNOTSUPP), "preadv2", nowait))
    return rules


def _add_arches(rules: Any, seccomp: Any, names: tuple[str, ...]) -> bool:
    """Add the ABIs named to a filter; whether one was (an arch already there or unknown to
    this libseccomp is left out)."""
    added = False
    for name in names:
        arch = getattr(seccomp.Arch, name, None)
        if arch is not None:
            try:
                rules.add_arch(arch)
                added = True
            except (OSError, ValueError):
                pass  # already there, or not known to this libseccomp
    return added


def _native(seccomp: Any) -> Any:
    """The rules of the native ABI (and of x32, whose arguments are placed the same way)."""
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    _add_arches(rules, seccomp, _SAME_ARGUMENTS.get(platform.machine(), ()))
    for name in REFUSED:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
    for action, name, test in _advice_rules(seccomp):
        rules.add_rule(action, name, test)
    dontneed = seccomp.Arg(3, seccomp.MASKED_EQ, _LOW, os.POSIX_FADV_DONTNEED)
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "fadvise64", dontneed)
    return rules


def _others(seccomp: Any) -> Any | None:
    """The rules of the other ABIs (None where there is none): fadvise refused whole there."""
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    rules.remove_arch(seccomp.Arch.NATIVE)
    if not _add_arches(rules, seccomp, _OTHER_ABIS.get(platform.machine(), ())):
        return None
    for name in REFUSED + _FADVISE_CALLS:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
    for action, name, test in _advice_rules(seccomp):
        rules.add_rule(action, name, test)
    return rules


@lru_cache(maxsize=1)
def _program() -> tuple[bytes, str]:
    """The compiled filter and "", or b"" and why it cannot be had here."""
    try:
        import pyseccomp as seccomp
    except ImportError as err:  # pragma: no cover - a dependency of the judge
        return b"", f"pyseccomp is not installed ({err})"
    try:
        rules = _native(seccomp)
        others = _others(seccomp)
        if others is not None:
            rules.merge(others)
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
        return Layer(
            "seccomp",
            True,
            f"keyrings refused ({', '.join(KEYRINGS)}: EPERM), as Docker's default profile; the page cache "
            "neither evicted nor told without a clock (fadvise DONTNEED, madvise COLD and PAGEOUT, mincore, "
            "cachestat, preadv2 RWF_NOWAIT, io_uring)",
        )
    return Layer(
        "seccomp",
        False,
        f"keyrings not refused: {why}; a key one run adds can reach the next, and a case may evict pages of the page cache",
    )
