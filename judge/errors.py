"""Errors the CLI turns into one-line messages and exit codes (no tracebacks for bad input)."""

from __future__ import annotations

# Exit codes of every `judge` command.
EXIT_OK = 0
EXIT_FAILED = 1  # the command ran and what it checked does not hold (stale tests, bad input files)
EXIT_USAGE = 2  # bad input to the judge itself: a malformed spec, an unknown problem, a bad flag
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as shells report it


class JudgeError(Exception):
    """A problem the user can fix; `str(err)` is the whole message (one line per issue)."""

    exit_code = EXIT_USAGE


class SandboxFailure(JudgeError):
    """The judge could not run a program: its box or cgroup went away under it, say. Never
    the program's fault: a case or a compilation it hits is an internal error (IE)."""

    exit_code = EXIT_FAILED
