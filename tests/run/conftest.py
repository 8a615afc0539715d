"""What the sandbox's tests share: whether a session works here, and the ways a case starts."""

from __future__ import annotations

import pytest

from judge.run import sandbox
from judge.run.sandbox import session
from tests import needs

SUPPORT = sandbox.session_support()
needs_bwrap = needs.mark("bwrap")
# Rootless, a session gives each case a pid and mount namespace of its own, under an init,
# and that start is _fastspawn's only (there is no fork path).
ROOTLESS = sandbox.detect().rootless
VFORK_ONLY = "a rootless session starts each case by vfork only (_fastspawn)"


@pytest.fixture(params=["session", "session-fork", "per-case"])
def case_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The three ways a case starts: in the session by vfork (where _fastspawn is built), in
    the session by a fork of the supervisor, and in a sandbox of its own."""
    if request.param == "per-case":
        monkeypatch.setenv(sandbox.SESSION_ENV, "0")
    elif not SUPPORT.active:
        pytest.skip(SUPPORT.detail)
    if request.param == "session-fork":
        if ROOTLESS:
            pytest.skip(VFORK_ONLY)
        monkeypatch.setenv(session.FAST_ENV, "0")
    return str(request.param)
