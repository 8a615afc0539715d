"""The CPU clock's folder as a reader's sandbox sees it: at one fixed name (watch.CLOCK_MOUNT),
whatever its host name (which holds the judge worker's pid and start, issue 60)."""

from __future__ import annotations

import os

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


def test_the_clocks_figure_starts_at_a_random_point_and_moves_by_the_cpu_time() -> None:
    # A reader takes differences; the figure itself would tell it the CPU the watched program
    # spent before it looked (a tests problem's module side: a bug's extra imports).
    with sandbox.CpuClock() as one, sandbox.CpuClock() as other:
        first = float(os.readlink(one.path))
        assert 0.0 <= first < watch.OFFSET_MAX_S
        assert first != float(os.readlink(other.path))  # a tie: about one in a billion
        one.publish(0.25)
        assert abs(float(os.readlink(one.path)) - first - 0.25) < 1e-5
        one.publish(0.1)  # never back
        assert abs(float(os.readlink(one.path)) - first - 0.25) < 1e-5


def test_the_clocks_link_is_dated_like_a_boxs_files() -> None:
    # Its own time would say when the watched program's CPU last moved (its start's end).
    with sandbox.CpuClock() as clock:
        clock.publish(0.5)
        assert os.lstat(clock.path).st_mtime == watch.CLOCK_DATE


def test_a_late_clocks_reader_folder_is_made_only_when_shown_with_the_figure_so_far() -> None:
    # A gated exchange's reader starts once the watched program is ready: the folder it sees is
    # made then (its birth time would else say how long that program took to start).
    with sandbox.CpuClock(late=True) as clock:
        assert clock.bind == argv.bound_at(str(clock.shown), watch.CLOCK_MOUNT)
        assert clock.shown.parent == clock.folder and not clock.shown.exists()
        clock.publish(0.5)
        assert not clock.shown.exists()  # nothing is shown before its time
        watch.show_clock(clock.folder)
        assert os.readlink(clock.shown / "cpu") == os.readlink(clock.path)
        assert os.lstat(clock.shown / "cpu").st_mtime == watch.CLOCK_DATE
        clock.publish(0.75)
        assert os.readlink(clock.shown / "cpu") == os.readlink(clock.path)
        watch.show_clock(clock.folder)  # the watch's figure stays: never an older one over it
        assert os.readlink(clock.shown / "cpu") == os.readlink(clock.path)
        folder = clock.folder
    assert not folder.exists()
