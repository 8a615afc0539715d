"""The reference's runs beside a bug's (issue 60's clock break): a test that reads anything that
moves through the judging (a clock) passes or fails on both sides of a pair of runs alike, so
it catches nothing; the catch rule is a pure function, the order of the runs checked in-process
with `verdicts` replaced by a stand-in whose "clock" is the number of runs made so far."""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.kinds.tests import scoring, unit_suite
from judge.kinds.unit import pairs
from judge.problem.spec import Bug, Suite
from judge.run.verdicts import CaseVerdict, Verdict

if TYPE_CHECKING:
    from judge.kinds.base import Kind
    from judge.problem.spec import Problem

REFERENCE = "solutions/accepted/stack.py"
BUG = Bug(path="solutions/wrong_answer/b.py")
PASSED, FAILED, BROKE = CaseVerdict(Verdict.AC, ""), CaseVerdict(Verdict.WA, "no"), CaseVerdict(Verdict.IE, "x")
IDS = ("t.py::young", "t.py::honest")
TESTS = unit_suite.UnitSuite((), IDS, ("t-young", "t-honest"))
PROBLEM = cast("Problem", SimpleNamespace(spec=SimpleNamespace(reference=REFERENCE)))
KIND = cast("Kind", None)  # verdicts, replaced, uses neither


class Coins:
    """unit_suite's coin, told which way to fall: below 0.5 the bug's run comes first."""

    def __init__(self, falls: tuple[float, ...]) -> None:
        self.falls = iter(falls)

    def random(self) -> float:
        return next(self.falls)


def judged_by_a_clock(monkeypatch: pytest.MonkeyPatch, young_runs: int) -> list[str]:
    """Stand in for `run_suite`: "young" passes only the first `young_runs` runs made (a clock of
    the judging, read from whatever moves), "honest" passes the reference and fails the bug.
    The sides run, in order."""
    sides: list[str] = []

    def run_suite(_problem: object, _kind: object, path: str | Path, *_rest: object) -> unit_suite.SuiteRun:
        sides.append("R" if path == REFERENCE else "B")
        young = PASSED if len(sides) <= young_runs else FAILED
        return unit_suite.SuiteRun({IDS[0]: young, IDS[1]: PASSED if path == REFERENCE else FAILED}, 0.0)

    monkeypatch.setattr(unit_suite, "run_suite", run_suite)
    return sides


@pytest.mark.parametrize("falls", list(itertools.product((0.2, 0.8), repeat=unit_suite.RUNS)))
def test_a_test_that_passes_only_while_the_judging_is_young_catches_no_bug(
    monkeypatch: pytest.MonkeyPatch, falls: tuple[float, ...]
) -> None:
    # Valid: it passed the reference's first RUNS runs (made before, elsewhere); it fails
    # every run after, the reference's beside each bug's too. Before the fix, the bug's runs
    # alone: it failed all three and caught the bug first.
    for fresh in range(unit_suite.RUNS * 2):  # the clock turns at any run of the bug's judging
        sides = judged_by_a_clock(monkeypatch, fresh)
        monkeypatch.setattr(unit_suite, "_COIN", Coins(falls))
        run = unit_suite.run_bug(PROBLEM, KIND, BUG, TESTS, IDS)
        assert run == scoring.BugRun("t-honest"), (fresh, sides)
        # Each pair of runs in the coin's order, in the same worker (this process).
        wanted = [("B", "R") if fall < 0.5 else ("R", "B") for fall in falls]
        assert sides == [side for pair in wanted for side in pair]


def test_a_test_that_passes_the_reference_and_fails_the_bug_throughout_catches(monkeypatch: pytest.MonkeyPatch) -> None:
    judged_by_a_clock(monkeypatch, 0)
    monkeypatch.setattr(unit_suite, "_COIN", Coins((0.2, 0.8, 0.2)))
    assert unit_suite.run_bug(PROBLEM, KIND, BUG, TESTS, (IDS[1],)) == scoring.BugRun("t-honest")


def test_no_reference_run_is_made_once_no_test_can_catch(monkeypatch: pytest.MonkeyPatch) -> None:
    sides = judged_by_a_clock(monkeypatch, 100)  # young passes everywhere: it catches nothing
    monkeypatch.setattr(unit_suite, "_COIN", Coins((0.2,)))
    assert unit_suite.run_bug(PROBLEM, KIND, BUG, TESTS, (IDS[0],)) == scoring.BugRun("")
    assert sides == ["B"]  # the bug's run first left no candidate: the reference's is not made


def test_a_run_the_cap_cut_catches_nothing_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = iter([{IDS[1]: pairs.CUT}, {IDS[1]: PASSED}])
    monkeypatch.setattr(unit_suite, "run_suite", lambda *_args: unit_suite.SuiteRun(next(runs), 0.0))
    monkeypatch.setattr(unit_suite, "_COIN", Coins((0.2,)))
    assert unit_suite.run_bug(PROBLEM, KIND, BUG, TESTS, (IDS[1],)) == scoring.BugRun("", cut=True)
    suite = Suite.model_validate({"for": "stack"})
    rows = scoring.rows(suite, (BUG,), (), (scoring.BugRun("", cut=True),))
    assert rows[0].verdict is Verdict.WA and "time cap cut" in rows[0].message


VERDICTS = st.sampled_from([PASSED, FAILED, BROKE, pairs.CUT, CaseVerdict(Verdict.TLE, ""), None])


@given(st.lists(st.tuples(VERDICTS, VERDICTS), min_size=1, max_size=6))
def test_the_catch_rule_keeps_a_test_failing_the_bug_and_passing_the_reference(
    pairs_of: list[tuple[CaseVerdict | None, CaseVerdict | None]],
) -> None:
    ids = [f"t.py::{i}" for i in range(len(pairs_of))]
    on_bug = {i: v for i, (v, _) in zip(ids, pairs_of, strict=True) if v is not None}
    on_reference = {i: v for i, (_, v) in zip(ids, pairs_of, strict=True) if v is not None}
    # Either order gives the same tests, in the order given.
    one = unit_suite.still_catching(unit_suite.still_catching(ids, on_bug, False), on_reference, True)
    other = unit_suite.still_catching(unit_suite.still_catching(ids, on_reference, True), on_bug, False)
    assert one == other
    for test, (bug, reference) in zip(ids, pairs_of, strict=True):
        failed = bug is not None and bug.verdict in (Verdict.WA, Verdict.TLE)  # IE and a cut fail nothing
        assert (test in one) == (failed and reference == PASSED)


# The cap of a submission's whole judging (Suite.time_cap_s): each run ends by the sooner of its
# own end and the judging's; once that is past, a bug's runs stop and it catches nothing.


def test_a_files_cap_is_its_start_and_the_suites_own_time_left_or_the_judgings_end() -> None:
    assert unit_suite.pair_cap(None, 1.5, 100.0, None) is None
    assert unit_suite.pair_cap(10.0, 1.5, 100.0, None) == 11.5  # own time left and the start
    assert unit_suite.pair_cap(-4.0, 1.5, 100.0, None) == 1.5  # own time spent: the start alone
    assert unit_suite.pair_cap(None, 1.5, 100.0, 150.0) == 50.0
    assert unit_suite.pair_cap(10.0, 1.5, 100.0, 105.0) == 5.0  # the judging ends first
    assert unit_suite.pair_cap(10.0, 1.5, 100.0, 500.0) == 11.5
    assert unit_suite.pair_cap(10.0, 1.5, 100.0, 90.0) == -10.0  # already spent: run_pairs cuts all


@given(st.floats(0, 100), st.floats(0, 10))
def test_a_files_own_time_is_its_wall_time_past_the_start_allowance(wall: float, allowance: float) -> None:
    own = unit_suite.own_time(wall, allowance)
    assert own >= 0.0 and own <= wall
    assert own == (wall - allowance if wall > allowance else 0.0)


def test_the_start_allowance_is_twice_the_measured_start_and_a_quarter_second() -> None:
    assert unit_suite.start_allowance(0.0) == unit_suite.START_EXTRA_S
    assert unit_suite.start_allowance(1.5) == unit_suite.START_FACTOR * 1.5 + unit_suite.START_EXTRA_S
    assert unit_suite.START_FACTOR >= 1.0  # never below the start measured


def suite_runs(asked: list[tuple[str, tuple[str, ...], float | None]], caught_by: str, own_s: float = 0.0) -> object:
    """A stand-in for `run_suite`: the reference passes every test, the bug fails `caught_by`
    alone; each run taking `own_s` of own time. What each run was given: its side, tests and budget."""

    def run_suite(
        _problem: object, _kind: object, path: str | Path, ids: tuple[str, ...], *rest: object
    ) -> unit_suite.SuiteRun:
        asked.append(("R" if path == REFERENCE else "B", ids, cast("float | None", rest[3])))
        return unit_suite.SuiteRun({i: (PASSED if path == REFERENCE or i != caught_by else FAILED) for i in ids}, own_s)

    return run_suite


def test_a_bug_is_judged_file_after_file_up_to_the_first_that_catches(monkeypatch: pytest.MonkeyPatch) -> None:
    # Files are processes of their own: a file whose every test is invalid (b.py) cannot change
    # another's verdicts and is not run; a.py stops once its valid test passed the bug's run;
    # c.py's test catches, through every pair of runs; d.py, after the catch, is never run.
    ids = ("a.py::one", "a.py::two", "b.py::three", "c.py::four", "d.py::five")
    tests = unit_suite.UnitSuite((), ids, ("a-one", "a-two", "b-three", "c-four", "d-five"))
    asked: list[tuple[str, tuple[str, ...], float | None]] = []
    monkeypatch.setattr(unit_suite, "run_suite", suite_runs(asked, "c.py::four"))
    monkeypatch.setattr(unit_suite, "_COIN", Coins((0.2, 0.8, 0.2, 0.8)))
    valid = ("a.py::two", "c.py::four", "d.py::five")
    assert unit_suite.run_bug(PROBLEM, KIND, BUG, tests, valid) == scoring.BugRun("c-four")
    assert [(side, run_ids) for side, run_ids, _ in asked] == [
        ("B", ("a.py::one", "a.py::two")),  # the whole file, its invalid test too
        *[(side, ("c.py::four",)) for side in ("R", "B", "B", "R", "R", "B")],  # in the coins' order
    ]


def test_each_of_a_bugs_runs_spends_its_budget_over_all_the_files_it_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each run takes 4 s of own time: the bug's first run over a.py and c.py has 10 s, so c.py's
    # part gets the 6 s a.py left; c.py's other runs have their whole budget.
    ids = ("a.py::one", "c.py::four")
    tests = unit_suite.UnitSuite((), ids, ("a-one", "c-four"))
    asked: list[tuple[str, tuple[str, ...], float | None]] = []
    monkeypatch.setattr(unit_suite, "run_suite", suite_runs(asked, "c.py::four", own_s=4.0))
    monkeypatch.setattr(unit_suite, "_COIN", Coins((0.2, 0.2, 0.2, 0.2)))
    assert unit_suite.run_bug(PROBLEM, KIND, BUG, tests, ids, budget_s=10.0) == scoring.BugRun("c-four")
    assert [budget for _, _, budget in asked] == [10.0, 6.0, 10.0, 10.0, 10.0, 10.0, 10.0]


class Clock:
    """unit_suite's clock, moved by hand: `verdicts`' stand-in moves it as a run takes time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_a_bug_whose_runs_the_judgings_cap_leaves_undone_catches_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    clock, sides, ends = Clock(), [], []

    def run_suite(_problem: object, _kind: object, path: str | Path, *rest: object) -> unit_suite.SuiteRun:
        sides.append("R" if path == REFERENCE else "B")
        ends.append(rest[-2])  # the judging's end reaches every run (before the start allowance)
        clock.now += 60.0  # each run takes a minute
        return unit_suite.SuiteRun({IDS[1]: PASSED if path == REFERENCE else FAILED}, 60.0)

    monkeypatch.setattr(unit_suite, "run_suite", run_suite)
    monkeypatch.setattr(unit_suite, "time", clock)
    monkeypatch.setattr(unit_suite, "_COIN", Coins((0.2, 0.2, 0.2)))
    # The honest test fails the bug and passes the reference throughout, but the cap is spent
    # after the first pair of runs: before, it caught the bug after three pairs.
    run = unit_suite.run_bug(PROBLEM, KIND, BUG, TESTS, (IDS[1],), until=1100.0)
    assert run == scoring.BugRun("", cut=True, spent=True)
    assert sides == ["B", "R"] and ends == [1100.0, 1100.0]
    # A cap already spent runs nothing.
    sides.clear()
    assert unit_suite.run_bug(PROBLEM, KIND, BUG, TESTS, (IDS[1],), until=clock.now) == run
    assert sides == []


def test_the_same_bug_within_the_cap_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    judged_by_a_clock(monkeypatch, 0)
    monkeypatch.setattr(unit_suite, "_COIN", Coins((0.2, 0.8, 0.2)))
    far = unit_suite.time.monotonic() + 3600.0
    assert unit_suite.run_bug(PROBLEM, KIND, BUG, TESTS, (IDS[1],), until=far) == scoring.BugRun("t-honest")


def test_a_bug_the_cap_left_undone_says_so_even_with_a_hint() -> None:
    suite = Suite.model_validate({"for": "stack", "shows": "hints", "time_cap_s": 90})
    hinted = Bug(path="solutions/wrong_answer/b.py", hint="pop twice")
    rows = scoring.rows(suite, (hinted, BUG), (), (scoring.BugRun("", cut=True, spent=True), scoring.BugRun("")))
    assert rows[0].verdict is Verdict.WA
    assert rows[0].message == "not caught: the judging's time cap was spent before its runs were done"
    assert rows[1].message == "not caught"  # a bug not cut is said as before
    # At shows: count a bug's row is secret, but the student learns the cap was spent.
    counted = Suite.model_validate({"for": "stack", "shows": "count"})
    rows = scoring.rows(counted, (hinted, BUG), (), (scoring.BugRun("", cut=True, spent=True), scoring.BugRun("")))
    assert [row.public for row in rows] == [True, False] and "time cap was spent" in rows[0].message


def test_the_judgings_cap_is_the_specs_or_a_validity_runs_cap_a_run_and_refuses_nonsense() -> None:
    assert unit_suite.time_cap_for(Suite.model_validate({"for": "stack"}), 2, 20.4) == 306  # 15 runs
    assert unit_suite.time_cap_for(Suite.model_validate({"for": "stack", "time_cap_s": 90}), 2, 20.4) == 90
    for wrong in (0, -1, 10**6):
        with pytest.raises(ValueError, match="time_cap_s"):
            Suite.model_validate({"for": "stack", "time_cap_s": wrong})


def test_a_test_the_judgings_cap_cut_on_the_reference_is_invalid_and_says_which_cap() -> None:
    cut = unit_suite.invalid(PASSED, pairs.CUT, PASSED, cap_s=90.0)
    assert cut == "the suite's run on the reference went over the judging's time cap of 90 s, and this test was cut off"
