"""Feedback levels (judge.grade.feedback), without processes.

The central property is non-interference: two graded submissions that agree on what a level
lets a student learn give byte-identical student surfaces (the submission page, the web JSON,
Gradescope's tests), however their secret cases' messages, exit codes, outputs, wall times and
exact figures differ. And the same surfaces do change when an allowed fact changes, so the
property is not met by showing nothing.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.explain.render import html_section, text_lines
from judge.explain.search import Explanation, Level
from judge.grade import feedback, reports
from judge.grade.results import CaseRecord, GradeRecord
from judge.grade.runner import GroupRecord
from judge.interop.gradescope import report as gradescope
from judge.kinds.table import load_problem
from judge.problem.spec import Problem
from tests.conftest import PROBLEMS

PROBLEM = load_problem(PROBLEMS / "sicily-rotations")  # samples public; edge, random, bulk secret
CPU_LIMIT = PROBLEM.spec.limits.cpu_s_for("c")
MEMORY_KIB = PROBLEM.spec.limits.memory_mib * 1024
VERDICTS = ("AC", "WA", "RE", "TLE", "MLE", "OLE")


def with_level(level: str) -> Problem:
    return Problem(PROBLEM.directory, PROBLEM.spec.model_copy(update={"feedback": level}))


def case(name: str, group: str, verdict: str, cpu_s: float, memory_kib: int, message: str = "") -> CaseRecord:
    public = group == "samples"
    return CaseRecord(name, group, public, verdict, message, cpu_s, cpu_s * 1.5, memory_kib, None, 0)


def record_of(cases: list[CaseRecord]) -> GradeRecord:
    groups = []
    for g in PROBLEM.spec.groups:
        mine = [c for c in cases if c.group == g.name]
        passed = sum(c.verdict == "AC" for c in mine)
        earned = g.points if mine and passed == len(mine) else 0.0
        groups.append(GroupRecord(g.name, g.points, earned, passed, len(mine)))
    headline = next((c.verdict for c in cases if c.verdict not in ("AC", "NJ")), "AC")
    return GradeRecord(
        "ana",
        PROBLEM.id,
        "main.c",
        "c",
        "h",
        headline,
        sum(g.earned for g in groups),
        100.0,
        "",
        "bwrap",
        "",
        tuple(cases),
        tuple(groups),
    )


def surfaces(record: GradeRecord, problem: Problem) -> str:
    """Every student surface of one record, as text."""
    shown = feedback.for_student(record, problem)
    page = reports.submission_html(reports.submission_context(shown, problem, {}, "/submissions", ["int main() {}"]))
    api = json.dumps([dataclasses.asdict(g) for g in shown.groups] + [dataclasses.asdict(c) for c in shown.cases])
    tests = json.dumps([dataclasses.asdict(t) for t in gradescope.tests_of(shown, "visible")])
    return "\n".join((page, api, tests))


def band_of(value: float, limit: float) -> int:
    return 5 if value > limit else max(1, math.ceil(4 * value / limit))


@st.composite
def twins(draw: st.DrawFn) -> tuple[GradeRecord, GradeRecord, str]:
    """A record, a twin that differs only where no level looks, and the level."""
    level = draw(st.sampled_from(feedback.LEVELS))
    first, second = [], []
    names = [("samples", "samples/01")] + [(g, f"{g}/{i:02d}") for g in ("edge", "random", "bulk") for i in (1, 2)]
    for group, name in names:
        verdict = draw(st.sampled_from(VERDICTS))
        cpu = draw(st.floats(0, 1.3 * CPU_LIMIT))
        memory = draw(st.integers(1, 300 * 1024))
        code = draw(st.integers(1, 255))
        one = case(name, group, verdict, cpu, memory, f"exit code {code}" if verdict == "RE" else "")
        first.append(one)
        if group == "samples":
            second.append(one)  # public: the student sees it whole, in both
            continue
        # Anything that keeps the band: here the twin's case is the group's slowest and
        # largest only when its own figures were, in the same quarter of the limit.
        cpu2 = draw(
            st.floats(0, 1.3 * CPU_LIMIT).filter(lambda c, cpu=cpu: band_of(c, CPU_LIMIT) == band_of(cpu, CPU_LIMIT))
        )
        mem2 = draw(
            st.integers(1, 300 * 1024).filter(
                lambda m, memory=memory: band_of(m, MEMORY_KIB) == band_of(memory, MEMORY_KIB)
            )
        )
        other = draw(st.integers(1, 255))
        twin = replace(
            one,
            message=f"exit code {other}" if verdict == "RE" else draw(st.sampled_from(["", "expected 3, got 4"])),
            wall_s=one.wall_s + draw(st.floats(0.01, 3.0)),
            output=draw(st.sampled_from([None, "12\n"])),
        )
        if level != "cases":
            twin = replace(twin, cpu_s=cpu2, memory_kib=mem2)
        second.append(twin)
    if level != "cases":
        # Only the maximum's band is shown: give every secret group's twin the same maxima.
        fixed = []
        for one, two in zip(first, second, strict=True):
            if one.public:
                fixed.append(two)
                continue
            peers = [c for c in first if c.group == one.group]
            twin_peers = [c for c in second if c.group == one.group]
            same_cpu = band_of(max(c.cpu_s for c in peers), CPU_LIMIT) == band_of(
                max(c.cpu_s for c in twin_peers), CPU_LIMIT
            )
            same_memory = band_of(max(c.memory_kib for c in peers), MEMORY_KIB) == band_of(
                max(c.memory_kib for c in twin_peers), MEMORY_KIB
            )
            fixed.append(two if same_cpu and same_memory else replace(two, cpu_s=one.cpu_s, memory_kib=one.memory_kib))
        second = fixed
    return record_of(first), record_of(second), level


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(twins())
def test_what_a_level_hides_never_changes_a_student_surface(pair: tuple[GradeRecord, GradeRecord, str]) -> None:
    first, second, level = pair
    problem = with_level(level)
    assert first != second  # the twin differs (in a message, a wall time, a figure)
    assert surfaces(first, problem) == surfaces(second, problem)


def secret_row(record: GradeRecord, **change: object) -> GradeRecord:
    """`record` with its first secret case changed."""
    cases = list(record.cases)
    index = next(i for i, c in enumerate(cases) if not c.public)
    cases[index] = replace(cases[index], **change)  # type: ignore[arg-type]
    return record_of(cases)


BASE = record_of(
    [
        case("samples/01", "samples", "AC", 0.01, 2000),
        case("edge/01", "edge", "RE", 0.10, 3000, "exit code 17"),
        case("edge/02", "edge", "NJ", 0.0, 0),
        case("random/01", "random", "AC", 0.40, 9000),
        case("bulk/01", "bulk", "WA", 0.80, 200 * 1024, "line 3: expected 4, got 5"),
    ]
)


def test_each_level_shows_what_it_says_and_no_more() -> None:
    verdict = feedback.for_student(BASE, with_level("verdict"))
    assert [c.name for c in verdict.cases] == ["samples/01"]
    assert [(g.name, g.points, g.earned) for g in verdict.groups] == [("samples", 0, 0), ("secret", 100, 30)]
    groups = feedback.for_student(BASE, with_level("groups"))
    assert [c.name for c in groups.cases] == ["samples/01"]
    # whether each passed and its points: no verdict kind, no figure a case can choose
    assert [(g.name, g.verdict, g.ok, g.passed, g.cpu, g.memory) for g in groups.groups[1:]] == [
        ("edge", None, False, None, "", ""),
        ("random", None, True, None, "", ""),
        ("bulk", None, False, None, "", ""),
    ]
    cases = feedback.for_student(BASE, with_level("cases"))
    assert [(c.name, c.verdict, c.message, c.cpu_s) for c in cases.cases[1:]] == [
        ("edge/01", "RE", "", None),
        ("edge/02", "NJ", "", None),
        ("random/01", "AC", "", None),
        ("bulk/01", "WA", "", None),
    ]
    assert cases.groups[1].passed == 0 and cases.groups[1].total == 2
    assert [(g.verdict, g.cpu) for g in cases.groups[1:]] == [
        ("RE", "≤ 25% of the limit"),
        ("AC", "≤ 50% of the limit"),
        ("WA", "≤ 100% of the limit"),
    ]
    assert cases.groups[3].memory == "≤ 100% of the limit"  # 200 of 256 MiB
    teacher = feedback.for_teacher(BASE)
    assert teacher.cases == tuple(
        feedback.ShownCase(c.name, c.group, c.public, c.verdict, c.message, c.cpu_s, c.wall_s, c.memory_kib, None, 0)
        for c in BASE.cases
    )
    assert teacher.groups[3].cpu == "0.80 s" and not teacher.withheld
    for shown in (verdict, groups, cases):
        assert "stay on the server" in shown.withheld and shown.score == BASE.score and shown.verdict == "RE"


def named_row(record: GradeRecord, name: str, **change: object) -> GradeRecord:
    return record_of([replace(c, **change) if c.name == name else c for c in record.cases])  # type: ignore[arg-type]


def test_an_allowed_fact_does_change_the_surfaces() -> None:
    """The property above is not met by a page that shows nothing."""
    for level, record in (
        ("verdict", secret_row(BASE, verdict="AC", message="")),  # the submission's verdict moves on
        ("groups", named_row(BASE, "random/01", verdict="WA")),  # the random group no longer passes
        ("cases", secret_row(BASE, verdict="TLE", message="")),  # a secret case's verdict
        ("cases", secret_row(BASE, cpu_s=0.9)),  # the edge group's slowest case, a band up
    ):
        problem = with_level(level)
        assert surfaces(BASE, problem) != surfaces(record, problem), level


def test_at_groups_the_case_a_group_stopped_at_chooses_nothing_shown() -> None:
    """A group that breaks ends at its first failure: that case's verdict kind and figures are
    the program's choice, so `groups` shows none of them (the headline verdict aside, which
    is the first failing case of the whole submission's)."""
    problem = with_level("groups")
    seen = set()
    for verdict in ("WA", "RE", "MLE", "OLE", "TLE"):
        for cpu in (0.01, 0.3, 0.6, 0.95):
            for memory in (1000, 100_000, 200_000, 260_000):
                record = named_row(BASE, "bulk/01", verdict=verdict, cpu_s=cpu, memory_kib=memory)
                seen.add(surfaces(record, problem))
    assert len(seen) == 1


def test_bands_are_quarters_of_the_limit() -> None:
    assert [feedback.band(v, 1.0) for v in (0.0, 0.25, 0.26, 0.5, 0.99, 1.0, 1.01)] == [
        "≤ 25% of the limit",
        "≤ 25% of the limit",
        "≤ 50% of the limit",
        "≤ 50% of the limit",
        "≤ 100% of the limit",
        "≤ 100% of the limit",
        "over the limit",
    ]


def test_a_record_whose_problem_is_gone_shows_the_least() -> None:
    shown = feedback.for_student(BASE, None)
    assert shown.level == "verdict" and [c.name for c in shown.cases] == ["samples/01"]
    assert all(not g.cpu for g in shown.groups if not g.public)


def test_the_problem_spec_defaults_to_groups(tmp_path: Path) -> None:
    assert PROBLEM.spec.feedback == "groups"
    assert feedback.level_of(PROBLEM) == "groups"


def explanation(found: bool = True) -> Explanation:
    return Explanation(
        problem="lanqiao",
        source="main.py",
        language="python3",
        found=found,
        verdict="WA" if found else None,
        message="expected 3, got 4" if found else "no failing input found",
        input="12345678.\n123.46758\n" if found else None,
        expected="3\n" if found else None,
        output="4\n" if found else None,
        distance=3 if found else None,
        measure="distance",
        size_bytes=20 if found else None,
        unreachable=False,
        cases=1 if found else 0,
        claimed="4" if found else None,
        start=(),
        goal=(),
        blank=".",
        moves=(),
        minimal=True,
        tle_from=None,
        growth=(),
        tried=731,
        runs=731,
        skipped=17,
        levels=(Level(0, 0, 1, 2, 1), Level(1, 1, 4, 6, 2)),
        cpu_limit_s=3.0,
        budget_s=30.0,
        elapsed_s=4.2,
        found_after_s=1.3,
        sandbox="bwrap",
    )


def test_a_students_explanation_says_nothing_of_which_inputs_were_tests() -> None:
    for found in (True, False):
        full = explanation(found)
        cut = full.for_student()
        assert (cut.skipped, cut.tried, cut.runs, cut.levels, cut.minimal) == (0, 0, 0, (), False)
        assert cut.input == full.input and cut.expected == full.expected
        shown = str(html_section(cut)) + "\n".join(text_lines(cut))
        for count in ("731", "17", "4.2", "1.3", "candidates", "skipped", "no smaller"):
            assert count not in shown, count
        assert "none of the inputs from the tests" in shown or "none of them is a test" in shown
        # The teacher's (and the CLI's) explanation keeps its counts.
        assert "17 candidates equal to a test input" in str(html_section(full))


def test_bits_count_what_each_level_can_show() -> None:
    counts = {"samples": 1, "edge": 4, "random": 5, "bulk": 2}  # secret: 30, 30 and 40 points, all or nothing
    headline = math.log2(7)
    assert feedback.bits(PROBLEM, "groups", counts) == pytest.approx(headline + 3)  # each passed or not
    # the total: 0, 30, 40, 60, 70 or 100 (only 100 says all passed)
    assert feedback.bits(PROBLEM, "verdict", counts) == pytest.approx(headline + math.log2(6))
    assert feedback.bits(PROBLEM, "cases", counts) == pytest.approx(11 * 3 + 3 * 2 * math.log2(5))
    # A secret group worth no points still shows whether it passed: a bit all the same.
    groups = [g.model_copy(update={"points": 0.0}) if g.name == "bulk" else g for g in PROBLEM.spec.groups]
    free = Problem(PROBLEM.directory, PROBLEM.spec.model_copy(update={"groups": tuple(groups)}))
    assert feedback.bits(free, "groups", counts) == pytest.approx(headline + 3)
    # 0, 30 or 60, and at 60 whether bulk passed too
    assert feedback.bits(free, "verdict", counts) == pytest.approx(headline + math.log2(4))


def test_a_submission_the_judge_failed_on_shows_nothing_of_its_secret_cases_at_any_level() -> None:
    failed = replace(named_row(BASE, "random/01", verdict="IE", message="the judge's own failure"), verdict="IE")
    for level in ("verdict", "groups", "cases"):
        shown = feedback.for_student(failed, with_level(level))  # type: ignore[arg-type]
        assert [c.name for c in shown.cases] == ["samples/01"]
        assert [g.name for g in shown.groups] == ["samples"]
        assert shown.score == 0 and shown.verdict == "IE" and "does not count" in shown.withheld
    # The teacher still sees every case, the failed one with its message.
    assert "the judge's own failure" in [c.message for c in feedback.for_teacher(failed).cases]
