"""The CPU clock's folder as a reader's sandbox sees it: at one fixed name (watch.CLOCK_MOUNT),
whatever its host name (which holds the judge worker's pid and start, issue 60)."""

from __future__ import annotations

from judge.run import sandbox
from judge.run.sandbox import argv, watch
from judge.run.sandbox.records import Layer, Layers

OFF = Layer("off", False, "not run")
LAYERS = Layers(OFF, OFF, OFF, 0, "/usr/bin/bwrap", None, ())


def test_the_clock_is_bound_at_a_fixed_name_its_host_folder_unique() -> None:
    with sandbox.CpuClock() as one, sandbox.CpuClock() as other:
        assert one.folder != other.folder  # judges on one machine keep apart
        assert one.inside == other.inside == f"{watch.CLOCK_MOUNT}/cpu"
        made = argv.bwrap_prefix(LAYERS, "/tmp/box", read_only=(one.bind,))
        at = made.index(str(one.folder))
        assert made[at - 1 : at + 2] == ["--ro-bind-try", str(one.folder), watch.CLOCK_MOUNT]
        assert made.count(str(one.folder)) == 1  # the source alone: no folder made there inside


def test_a_plain_read_only_folder_is_bound_at_its_own_path() -> None:
    made = argv.bwrap_prefix(LAYERS, "/tmp/box", read_only=("/opt/kit",))
    at = made.index("/opt/kit")
    assert made[at - 1 : at + 2] == ["--ro-bind-try", "/opt/kit", "/opt/kit"]
