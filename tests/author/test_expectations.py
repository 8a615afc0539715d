"""The rules of `judge verify` (pure): folders and headers, verdicts at the real limit,
per-group outcomes and time-limit warnings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.author.expectations import (
    FOLDERS,
    MARGIN,
    ExpectationError,
    Measured,
    at_limit,
    expectation,
    failure_stops_group,
    group_outcomes,
    time_warnings,
)
from judge.run.verdicts import Verdict

V = Verdict


def test_the_folder_alone_sets_the_verdict() -> None:
    for folder, verdict in FOLDERS.items():
        found = expectation(folder, "int main() { return 0; }\n")
        assert found.verdicts == {verdict} and found.line == 0


def test_an_icpc_folder_allows_what_the_format_has_no_folder_for() -> None:
    # DOMjudge's hello keeps a program flooding stdout in time_limit_exceeded/.
    assert expectation("time_limit_exceeded", "", icpc=True).verdicts == {V.TLE, V.OLE}
    assert expectation("run_time_error", "", icpc=True).verdicts == {V.RE, V.MLE}
    assert expectation("wrong_answer", "", icpc=True).verdicts == {V.WA}
    assert expectation("time_limit_exceeded", "").verdicts == {V.TLE}  # the judge's own folders are exact


@pytest.mark.parametrize(
    "header",
    ["// @EXPECTED: WA or TLE", "/* @EXPECTED: TLE, WA */", "# @EXPECTED: wa|tle", "-- @EXPECTED:  WA  /  TLE"],
)
def test_a_header_names_the_verdicts_allowed(header: str) -> None:
    found = expectation("wrong_answer", f"#include <stdio.h>\n{header}\nint main() {{}}\n")
    assert found.verdicts == {V.WA, V.TLE}
    assert found.line == 2


def test_a_header_must_keep_its_folders_verdict() -> None:
    with pytest.raises(ExpectationError, match="leaves out WA") as caught:
        expectation("wrong_answer", "x = 1\n# @EXPECTED: TLE\n")
    assert caught.value.line == 2


def test_unknown_verdicts_and_empty_headers_are_refused() -> None:
    with pytest.raises(ExpectationError, match="unknown verdict 'SLOW'"):
        expectation("time_limit_exceeded", "// @EXPECTED: TLE or SLOW\n")
    with pytest.raises(ExpectationError, match="names no verdict"):
        expectation("time_limit_exceeded", "// @EXPECTED:\n")


def test_an_accepted_solution_cannot_expect_a_failure() -> None:
    with pytest.raises(ExpectationError, match="only expect AC"):
        expectation("accepted", "// @EXPECTED: AC or TLE\n")


def test_a_header_far_down_the_file_is_not_a_header() -> None:
    text = "\n" * 40 + "// @EXPECTED: WA or RE\n"
    assert expectation("wrong_answer", text).verdicts == {V.WA}


def test_the_verdict_at_the_real_limit_follows_from_cpu_time() -> None:
    assert at_limit(Measured("g", V.AC, 0.99), 1.0) is V.AC
    assert at_limit(Measured("g", V.AC, 1.01), 1.0) is V.TLE  # finished, but too late
    assert at_limit(Measured("g", V.WA, 1.2), 1.0) is V.TLE  # stopped before it printed
    assert at_limit(Measured("g", V.TLE, 1.5), 1.0) is V.TLE
    assert at_limit(Measured("g", V.RE, 0.1), 1.0) is V.RE


@given(st.lists(st.tuples(st.sampled_from([V.AC, V.WA, V.RE, V.MLE]), st.floats(0, 3)), max_size=12), st.floats(0.1, 2))
def test_a_case_within_the_limit_keeps_its_verdict(cases: list[tuple[Verdict, float]], limit: float) -> None:
    for verdict, cpu in cases:
        derived = at_limit(Measured("g", verdict, cpu), limit)
        assert derived is (verdict if cpu <= limit else V.TLE)


def test_group_outcomes_take_the_first_failure_and_the_slowest_case() -> None:
    cases = [
        Measured("samples", V.AC, 0.1),
        Measured("hard", V.AC, 0.3),
        Measured("hard", V.AC, 1.2),  # over the 1 s limit: TLE there
        Measured("hard", V.WA, 0.2),
    ]
    samples, hard, missing = group_outcomes([("samples", 1), ("hard", 5), ("random", 3)], cases, 1.0, compiled=True)
    assert (samples.verdict, samples.run, samples.total) == (V.AC, 1, 1)
    assert (hard.verdict, hard.max_cpu_s, hard.run, hard.total) == (V.TLE, 1.2, 3, 5)
    assert (missing.verdict, missing.run) == (V.AC, 0)
    assert all(g.verdict is V.CE for g in group_outcomes([("a", 1)], [], 1.0, compiled=False))


def test_an_accepted_solution_over_half_the_limit_is_warned_about() -> None:
    assert time_warnings("accepted", [Measured("g", V.AC, 0.4)], 1.0) == []
    (warning,) = time_warnings("accepted", [Measured("g", V.AC, 0.2), Measured("g", V.AC, 0.62)], 1.0)
    assert "0.62 s" in warning and "1 s limit" in warning


def test_a_slow_solution_just_over_the_limit_is_warned_about() -> None:
    # Finished in 1.3 s: TLE at 1 s, but a faster machine would accept it.
    (warning,) = time_warnings("time_limit_exceeded", [Measured("g", V.AC, 0.1), Measured("g", V.AC, 1.3)], 1.0)
    assert "1.30 s" in warning and f"{MARGIN:g}x" in warning
    # Stopped at the raised limit: more than MARGIN x the limit, so safely TLE.
    assert time_warnings("time_limit_exceeded", [Measured("g", V.TLE, MARGIN + 0.01)], 1.0) == []
    assert time_warnings("wrong_answer", [Measured("g", V.WA, 0.9)], 1.0) == []


def test_only_failing_folders_stop_a_group_early() -> None:
    assert not failure_stops_group("accepted")
    assert all(failure_stops_group(f) for f in FOLDERS if f != "accepted")
