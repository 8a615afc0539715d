"""course.yaml: strict, every problem reported with its file and line, times zone-aware."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.course.spec import implicit, load_course
from judge.problem.spec import SpecError

PROBLEMS = {"lanqiao", "eight-digits", "sicily-rotations"}
GOOD = """\
title: Algorithms 2026
timezone: Europe/Berlin
assignments:
  - id: week1
    title: Sliding puzzles
    problems: [lanqiao, eight-digits]
    opens: 2026-12-01 09:00
    due: 2026-12-08 23:59
    late: {penalty_per_day: 10, until: 2026-12-11 23:59}
    keep: best
    max_submissions: 20
    scoreboard: off
  - id: week2
    problems: [sicily-rotations]
    due: 2026-12-15 12:00:00
    keep: last
extensions:
  - {student: alice, assignment: week1, due: 2026-12-10 23:59}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "course.yaml"
    path.write_text(text)
    return path


def errors(tmp_path: Path, text: str) -> str:
    with pytest.raises(SpecError) as caught:
        load_course(write(tmp_path, text), PROBLEMS)
    return str(caught.value)


def test_the_example_of_the_issue_loads_with_its_times_in_the_course_zone(tmp_path: Path) -> None:
    course = load_course(write(tmp_path, GOOD), PROBLEMS)
    week1, week2 = course.assignments
    assert week1.problems == ("lanqiao", "eight-digits") and week1.max_submissions == 20
    assert week1.opens == datetime(2026, 12, 1, 8, 0, tzinfo=UTC)  # 09:00 in Berlin's winter
    assert week1.due == datetime(2026, 12, 8, 22, 59, tzinfo=UTC)
    assert week1.late is not None and week1.late.penalty_per_day == 10
    assert week2.due == datetime(2026, 12, 15, 11, 0, tzinfo=UTC)  # YAML's datetime form, naive
    assert week2.keep == "last" and week2.late is None and week2.opens is None
    assert course.extension("alice", "week1") is not None and course.extension("bob", "week1") is None
    assert course.assignment_of("sicily-rotations") is week2


def test_the_example_course_of_the_docs_loads() -> None:
    from tests.conftest import REPO

    course = load_course(REPO / "docs" / "course.example.yaml", PROBLEMS)
    assert course.assignments


def test_without_a_course_file_every_problem_is_open_with_no_deadline() -> None:
    course = implicit(["a", "b"])
    [everything] = course.assignments
    assert everything.problems == ("a", "b") and everything.due is None and everything.keep == "best"


@pytest.mark.parametrize(
    ("change", "line", "expected"),
    [
        (("keep: best", "keep: newest"), 10, "assignments[0].keep: Input should be 'best' or 'last'"),
        (
            ("max_submissions: 20", "max_submissions: '20'"),
            11,
            "assignments[0].max_submissions: Input should be a valid integer",
        ),
        (
            ("scoreboard: off", "scorebord: off"),
            12,
            "assignments[0].scorebord: unknown key; did you mean 'scoreboard'?",
        ),
        (
            ("[lanqiao, eight-digits]", "[lanqiao, nine-digits]"),
            6,
            "assignments[0].problems[1]: unknown problem 'nine-digits'",
        ),
        (
            ("problems: [sicily-rotations]", "problems: [lanqiao]"),
            14,
            "problem 'lanqiao' is already in assignment 'week1'",
        ),
        (("timezone: Europe/Berlin", "timezone: Mars/Olympus"), 2, "timezone: unknown time zone 'Mars/Olympus'"),
        (("due: 2026-12-08 23:59", "due: 2026-12-08"), 8, "assignments[0].due: 2026-12-08 is a day: give the time too"),
        (("due: 2026-12-08 23:59", "due: next friday"), 8, "'next friday' is not a time"),
        (("due: 2026-12-08 23:59", "due: 2026-11-08 23:59"), 8, "due must come after opens"),
        (("until: 2026-12-11 23:59}", "until: 2026-12-07 23:59}"), 9, "late.until must come after due"),
        (
            ("assignment: week1, due", "assignment: week9, due"),
            18,
            "extensions[0].assignment: unknown assignment 'week9'",
        ),
        (("- id: week2", "- id: week1"), 13, "assignment 'week1' is defined twice"),
    ],
)
def test_each_mistake_is_one_line_with_its_file_line_and_key(
    tmp_path: Path, change: tuple[str, str], line: int, expected: str
) -> None:
    message = errors(tmp_path, GOOD.replace(*change))
    assert f"course.yaml:{line}:" in message and expected in message, message


def test_a_local_time_the_clocks_skip_or_repeat_asks_for_an_offset(tmp_path: Path) -> None:
    skipped = errors(tmp_path, GOOD.replace("due: 2026-12-15 12:00:00", "due: 2026-03-29 02:30"))
    assert "2026-03-29 02:30 does not exist in Europe/Berlin" in skipped and "offset" in skipped
    twice = errors(tmp_path, GOOD.replace("due: 2026-12-15 12:00:00", "due: 2026-10-25 02:30"))
    assert "happens twice in Europe/Berlin" in twice and "+02:00" in twice and "+01:00" in twice
    given = load_course(
        write(tmp_path, GOOD.replace("due: 2026-12-15 12:00:00", "due: 2026-10-25 02:30+01:00")), PROBLEMS
    )
    assert given.assignments[1].due == datetime(2026, 10, 25, 1, 30, tzinfo=UTC)


def test_a_broken_or_empty_file_is_one_line_too(tmp_path: Path) -> None:
    assert "course.yaml:1: the file is empty" in errors(tmp_path, "")
    assert "course.yaml:4: YAML syntax" in errors(tmp_path, "title: x\nassignments:\n  - id: [\n")
    assert "must be a mapping" in errors(tmp_path, "- a\n")


def test_time_zones_load_where_the_system_has_no_zone_database(tmp_path: Path) -> None:
    """Slim containers have no /usr/share/zoneinfo: the zones come from the tzdata package, in a
    fresh interpreter told to look nowhere else (zoneinfo's search path is read at start)."""
    import subprocess
    import sys

    path = write(tmp_path, GOOD)
    probe = (
        "import sys, zoneinfo; from pathlib import Path; from judge.course.spec import implicit, load_course\n"
        "assert zoneinfo.TZPATH == (), zoneinfo.TZPATH\n"
        "implicit(['a'])\n"
        f"course = load_course(Path(sys.argv[1]), {sorted(PROBLEMS)!r})\n"
        "import datetime; print(course.assignments[0].opens.astimezone(datetime.UTC).isoformat())\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONTZPATH": ""}
    done = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2026-12-01T08:00:00+00:00"


def test_default_language_is_a_known_language_id_or_one_line_naming_the_file(tmp_path: Path) -> None:
    course = load_course(write(tmp_path, GOOD + "default_language: python3\n"), PROBLEMS, {"python3", "java"})
    assert course.default_language == "python3"
    assert load_course(write(tmp_path, GOOD), PROBLEMS, {"python3"}).default_language is None
    with pytest.raises(SpecError) as caught:
        load_course(write(tmp_path, GOOD + "default_language: cobol\n"), PROBLEMS, {"python3", "java"})
    assert "course.yaml:19: default_language: unknown language 'cobol' (known: java, python3)" in str(caught.value)
    assert "default_language" in errors(tmp_path, GOOD + "default_language: [python3]\n")
