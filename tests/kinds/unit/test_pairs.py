"""pairs.py's parts that issue 60 touched: the box copies dated alike (no build's time against a
copy's), and a guarded run's budget, which cuts off what is left (CUT: neither a pass nor a
failure, nor the judge's error) instead of failing it."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest

from judge.kinds.unit import bridge_student, outcome, pairs
from judge.run import sandbox
from judge.run.verdicts import CaseVerdict, Verdict

if TYPE_CHECKING:
    from judge.problem.spec import Problem
    from judge.run.sources import Launch

EMPTY = sandbox.RunResult(None, None, 0.0, 0.0, 0, 0, None, False, b"", b"")
LIMITS = sandbox.RunLimits(cpu_s=1.0, wall_s=3.0, memory_mib=256, output_bytes=1 << 20)
PROBLEM = cast("Problem", SimpleNamespace(spec=SimpleNamespace(unit=SimpleNamespace(runs="apart"))))
LAUNCH = cast("Launch", None)  # _pair, replaced, uses it not
IDS = ["t.py::a", "t.py::b", "t.py::c"]
ENDED = CaseVerdict(Verdict.RE, "the tests' process ended during this test (wall)")


def test_every_file_and_folder_is_dated_alike(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "main.py").write_text("x")
    (tmp_path / "link").symlink_to("sub/main.py")
    pairs.timeless(tmp_path)
    for path in (tmp_path, tmp_path / "sub", tmp_path / "sub" / "main.py", tmp_path / "link"):
        assert os.lstat(path).st_mtime == pairs.FIXED_MTIME, path


class Clock:
    """time.monotonic for pairs, moved on by each pair run as much as it is told."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


def paired(monkeypatch: pytest.MonkeyPatch, takes_s: float) -> list[float | None]:
    """Each pair ends during its first test, having taken `takes_s`; the wall time it was given."""
    clock, given = Clock(), list[float | None]()

    def pair(*args: object) -> tuple[sandbox.RunResult, outcome.Collected]:
        ids, left_s = cast("list[str]", args[3]), cast("float | None", args[6])
        given.append(left_s)
        clock.now += takes_s
        return EMPTY, outcome.Collected((), ((ids[0], ENDED),), None, None)

    monkeypatch.setattr(pairs, "time", clock)
    monkeypatch.setattr(pairs, "_pair", pair)
    return given


def test_what_the_budget_cuts_off_is_cut_never_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    given = paired(monkeypatch, 6.0)
    guard = pairs.GuardedPair(budget_s=10.0)
    found = pairs.run_pairs(PROBLEM, LAUNCH, Path("/none"), IDS, LIMITS, guard)
    # The first pair ended within the budget: its test failed. The second ran out of it: the
    # test it was in, and the one after, are cut, and no third pair is made.
    assert {test: result.decided for test, result in found.items()} == {
        "t.py::a": ENDED,
        "t.py::b": pairs.CUT,
        "t.py::c": pairs.CUT,
    }
    assert given == [10.0, 4.0]  # each pair's tests' process is given what is left


def test_without_a_budget_nothing_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    given = paired(monkeypatch, 6.0)
    found = pairs.run_pairs(PROBLEM, LAUNCH, Path("/none"), IDS, LIMITS, pairs.GuardedPair())
    assert all(result.decided == ENDED for result in found.values()) and len(found) == 3
    assert given == [None, None, None]


def test_the_cut_is_no_pass_no_failure_and_no_internal_error() -> None:
    assert pairs.CUT.verdict not in (Verdict.AC, Verdict.IE, Verdict.WA, Verdict.RE, Verdict.TLE)


def test_a_guarded_module_side_gets_the_problems_memory_and_a_random_part_more() -> None:
    # Where a suite that fills the module is killed must not tell a bug whose start holds a
    # few MiB more from the reference (a seventh review): the limit moves by up to 64 MiB a pair.
    drawn = [pairs.memory_jitter() for _ in range(400)]
    assert min(drawn) >= 0 and max(drawn) <= pairs.MEMORY_JITTER_MIB
    assert len(set(drawn)) > pairs.MEMORY_JITTER_MIB // 2


def test_both_guarded_bridges_write_the_gate_the_exchange_waits_for() -> None:
    # The bridges are copied into the box as they are (no import of the judge's): the marker
    # is written out in each, and a typo would start the tests only at the module's wall limit.
    assert bridge_student.GATE == pairs.GATE
    java = (Path(pairs.__file__).parent / "bridge_junit_student.java").read_text()
    assert f'"{pairs.GATE.decode().strip()}\\n".getBytes(StandardCharsets.US_ASCII)' in java
