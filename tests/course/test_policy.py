"""The deadline rules at every edge: the due minute, extensions, the late window's last minute,
time zones and the change to summer time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from judge.course import policy
from judge.course.policy import Phase
from judge.course.spec import Course, load_course

BERLIN = ZoneInfo("Europe/Berlin")


def course(tmp_path: Path, body: str, zone: str = "Europe/Berlin") -> Course:
    path = tmp_path / "course.yaml"
    path.write_text(f"title: t\ntimezone: {zone}\n{body}")
    return load_course(path, {"p", "q"})


def at(text: str, zone: ZoneInfo = BERLIN) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=zone)


def phase_of(c: Course, student: str, moment: datetime) -> policy.Standing:
    [a] = c.assignments
    return policy.standing(c, policy.window(c, a, student), moment)


LATE = """\
assignments:
  - id: w
    problems: [p]
    opens: 2026-12-01 09:00
    due: 2026-12-08 23:59
    late: {penalty_per_day: 10, until: 2026-12-11 23:59}
extensions:
  - {student: alice, assignment: w, due: 2026-12-10 23:59}
"""


@pytest.mark.parametrize(
    ("moment", "phase", "penalty"),
    [
        ("2026-12-01 08:59:59", Phase.NOT_OPEN, 0),
        ("2026-12-01 09:00:00", Phase.OPEN, 0),
        ("2026-12-08 23:59:00", Phase.OPEN, 0),  # exactly at due
        ("2026-12-08 23:59:59.999", Phase.OPEN, 0),  # the due minute is included
        ("2026-12-09 00:00:00", Phase.LATE, 10),  # a started day
        ("2026-12-09 23:59:59", Phase.LATE, 10),
        ("2026-12-10 00:00:00", Phase.LATE, 20),
        ("2026-12-11 23:59:30", Phase.LATE, 30),  # the last minute of late.until
        ("2026-12-12 00:00:00", Phase.CLOSED, 0),
    ],
)
def test_the_edges_of_the_window(tmp_path: Path, moment: str, phase: Phase, penalty: float) -> None:
    got = phase_of(course(tmp_path, LATE), "bob", at(moment))
    assert (got.phase, got.penalty) == (phase, penalty)


@pytest.mark.parametrize(
    ("moment", "phase", "penalty"),
    [
        ("2026-12-09 12:00", Phase.OPEN, 0),  # inside the extension: on time
        ("2026-12-10 23:59:59", Phase.OPEN, 0),
        ("2026-12-11 00:00", Phase.LATE, 10),  # outside it: late, counted from the new due
        ("2026-12-13 23:59:59", Phase.LATE, 30),  # the late window moved with the due date
        ("2026-12-14 00:00", Phase.CLOSED, 0),
    ],
)
def test_an_extension_moves_the_due_time_and_the_late_window(
    tmp_path: Path, moment: str, phase: Phase, penalty: float
) -> None:
    c = course(tmp_path, LATE)
    got = phase_of(c, "alice", at(moment))
    assert (got.phase, got.penalty) == (phase, penalty)
    assert policy.window(c, c.assignments[0], "alice").extended


def test_an_extension_with_its_own_until(tmp_path: Path) -> None:
    c = course(tmp_path, LATE.replace("due: 2026-12-10 23:59}", "due: 2026-12-10 23:59, until: 2026-12-11 12:00}"))
    assert phase_of(c, "alice", at("2026-12-11 12:00:59")).phase is Phase.LATE
    assert phase_of(c, "alice", at("2026-12-11 12:01")).phase is Phase.CLOSED


def test_without_late_nothing_is_accepted_after_the_due_minute(tmp_path: Path) -> None:
    c = course(tmp_path, "assignments:\n  - {id: w, problems: [p], due: 2026-12-08 23:59}\n")
    assert phase_of(c, "bob", at("2026-12-08 23:59:59")).phase is Phase.OPEN
    assert phase_of(c, "bob", at("2026-12-09 00:00")).phase is Phase.CLOSED


def test_times_are_read_in_the_course_zone_and_compared_as_moments(tmp_path: Path) -> None:
    c = course(tmp_path, "assignments:\n  - {id: w, problems: [p], due: 2026-12-08 23:59}\n", zone="Asia/Tokyo")
    tokyo_end = datetime(2026, 12, 8, 15, 0, tzinfo=UTC)  # 2026-12-09 00:00 in Tokyo
    assert phase_of(c, "bob", tokyo_end - timedelta(microseconds=1)).phase is Phase.OPEN
    assert phase_of(c, "bob", tokyo_end).phase is Phase.CLOSED
    # The same due time with an offset of its own ignores the zone.
    c = course(tmp_path, "assignments:\n  - {id: w, problems: [p], due: 2026-12-08 23:59Z}\n", zone="Asia/Tokyo")
    assert phase_of(c, "bob", datetime(2026, 12, 8, 23, 59, 30, tzinfo=UTC)).phase is Phase.OPEN


def test_a_day_late_across_the_change_to_summer_time_is_a_wall_clock_day(tmp_path: Path) -> None:
    # Due Saturday 28 March 2026 at 12:00 in Berlin; the clocks go forward that night, so
    # "one day later" is 23 hours later.
    c = course(
        tmp_path,
        "assignments:\n  - id: w\n    problems: [p]\n    due: 2026-03-28 11:59\n"
        "    late: {penalty_per_day: 25, until: 2026-04-05 12:00}\n",
    )
    assert phase_of(c, "bob", at("2026-03-29 11:59:59")).penalty == 25
    assert phase_of(c, "bob", at("2026-03-29 12:00:00")).penalty == 50
    due_end = datetime(2026, 3, 28, 11, 0, tzinfo=UTC)  # 12:00 CET
    assert at("2026-03-29 12:00:00") - due_end == timedelta(hours=23)
    # Five started days would be 125 percent: capped at everything.
    assert phase_of(c, "bob", at("2026-04-02 13:00")).penalty == 100


def test_counted_scores_and_the_time_left(tmp_path: Path) -> None:
    assert policy.counted(100, 50) == 50 and policy.counted(60, 0) == 60
    assert policy.until_text(timedelta(days=2, hours=3, minutes=5)) == "2 days 3 h"
    assert policy.until_text(timedelta(hours=3, minutes=20)) == "3 h 20 min"
    assert policy.until_text(timedelta(seconds=30)) == "under a minute"
