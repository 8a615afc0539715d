"""A sandbox of a case's own (spawn.py): what its program holds from its first instruction."""

from __future__ import annotations

import os
import resource
from pathlib import Path

import pytest

from judge.run import sandbox
from judge.run.sandbox import spawn
from judge.run.sandbox.argv import rlimit_list
from tests import needs

LAYERS = sandbox.detect()
pytestmark = needs.mark("bwrap")

# /proc/PID/limits names the rlimits so
NAMES = {
    resource.RLIMIT_CORE: "Max core file size",
    resource.RLIMIT_CPU: "Max cpu time",
    resource.RLIMIT_FSIZE: "Max file size",
    resource.RLIMIT_STACK: "Max stack size",
    resource.RLIMIT_AS: "Max address space",
    resource.RLIMIT_NPROC: "Max processes",
}
# The program prints its own status and limits, then those of the sandbox's pid 1 (bubblewrap's init).
SHOW = "cat /proc/self/status; echo ===; cat /proc/self/limits; echo ===; cat /proc/1/limits"


def limits_shown(text: str) -> dict[int, tuple[int, int]]:
    def value(word: str) -> int:
        return resource.RLIM_INFINITY if word == "unlimited" else int(word)

    found: dict[int, tuple[int, int]] = {}
    for line in text.splitlines():
        for which, name in NAMES.items():
            if line.startswith(name + " "):
                soft, hard = line[len(name) :].split()[:2]
                found[which] = (value(soft), value(hard))
    return found


def status_field(status: str, name: str) -> str:
    return next(line.split(":", 1)[1].split() for line in status.splitlines() if line.startswith(name + ":"))[0]


@pytest.mark.parametrize("start", ["vfork", "popen"])
def test_a_case_of_its_own_holds_its_limits_user_and_filter_from_its_start(
    tmp_path: Path, start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if start == "popen":
        monkeypatch.setenv("JUDGE_FASTSPAWN", "0")  # the start without the extension: prlimit inside
    elif not spawn.starts_by_vfork():
        pytest.skip("the _fastspawn extension is not built here")
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    limits = sandbox.RunLimits(cpu_s=1, wall_s=10, memory_mib=64, output_bytes=1 << 20)
    run = sandbox.run(["sh", "-c", SHOW], box=box, limits=limits)
    assert run.exit_code == 0, run.stderr
    status, own, init = run.stdout.decode().split("===")
    expected = dict(rlimit_list(limits, 64 << 20, not LAYERS.cgroup.active))
    assert limits_shown(own) == {which: expected.get(which, resource.getrlimit(which)) for which in NAMES}
    root = os.geteuid() == 0
    assert status_field(status, "Uid") == str(sandbox.NOBODY if root else os.getuid())
    assert status_field(status, "Gid") == str(sandbox.NOBODY if root else os.getgid())
    assert status_field(status, "CapEff") == "0000000000000000"
    assert status_field(status, "NoNewPrivs") == "1"
    assert status_field(status, "Seccomp") == ("2" if sandbox.filter_support().active else "0")
    if start == "vfork":
        # Taken before bubblewrap's exec: every process of the sandbox holds them, its init too,
        # so none that bubblewrap forks can start without them (rootless, NPROC is set inside).
        shown = limits_shown(init)
        for which, values in expected.items():
            if which != resource.RLIMIT_NPROC or not LAYERS.rootless:
                assert shown[which] == values, NAMES[which]
