"""An exam in course.yaml (its keys, each mistake one line) and each student's window (pure):
the clock moved across each edge, extra time, the due minute, the address ranges."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.course import policy
from judge.course.exam import ExamPhase, address_allowed, exam_window, extra_of
from judge.course.spec import Course, load_course
from judge.problem.spec import SpecError

PROBLEMS = {"lanqiao", "eight-digits", "sicily-rotations"}
EXAM = """\
title: Algorithms 2026
timezone: UTC
assignments:
  - id: midterm
    problems: [lanqiao]
    opens: 2026-12-07 09:00
    due: 2026-12-07 11:00
    exam: {duration: 40m, addresses: [10.1.0.0/16, "2001:db8::/32"], one_session: true, lock_others: true}
  - id: week1
    problems: [eight-digits]
extensions:
  - {student: bob, assignment: midterm, extra: 10m}
"""


def load(tmp_path: Path, text: str = EXAM) -> Course:
    path = tmp_path / "course.yaml"
    path.write_text(text)
    return load_course(path, PROBLEMS)


def at(hhmm: str) -> datetime:
    return datetime.fromisoformat(f"2026-12-07 {hhmm}").replace(tzinfo=UTC)


def test_an_exam_loads_with_its_duration_ranges_and_a_students_extra_time(tmp_path: Path) -> None:
    course = load(tmp_path)
    midterm = course.assignments[0]
    assert midterm.exam is not None and midterm.exam.duration == timedelta(minutes=40)
    assert [str(n) for n in midterm.exam.addresses] == ["10.1.0.0/16", "2001:db8::/32"]
    assert midterm.exam.one_session and midterm.exam.lock_others
    assert extra_of(course, "midterm", "bob", timedelta(0)) == timedelta(minutes=10)
    assert extra_of(course, "midterm", "alice", timedelta(minutes=5)) == timedelta(minutes=5)
    # An extra-time extension moves no due date, and marks no extension in the gradebook.
    win = policy.window(course, midterm, "bob")
    assert win.due_end == at("11:01") and not win.extended
    assert course.assignments[1].exam is None


@pytest.mark.parametrize(
    ("exam", "said"),
    [
        ("{duration: 40}", "course.yaml:8: assignments[0].exam.duration"),
        ("{duration: forty}", "'forty' is not a duration like 40m, 1h or 1h30m"),
        ("{duration: 0m}", "an exam lasts at least a minute"),
        ("{duration: 40m, addresses: [10.1.0.1/16]}", "'10.1.0.1/16' is not an address range"),
        ("{duration: 40m, proctor: yes}", "course.yaml:8: assignments[0].exam.proctor"),
    ],
)
def test_each_mistake_of_an_exam_is_one_line_naming_the_file_and_line(tmp_path: Path, exam: str, said: str) -> None:
    text = EXAM.replace(
        '{duration: 40m, addresses: [10.1.0.0/16, "2001:db8::/32"], one_session: true, lock_others: true}', exam
    )
    with pytest.raises(SpecError) as caught:
        load(tmp_path, text)
    assert said in str(caught.value)
    assert "Traceback" not in str(caught.value)


def test_an_exam_takes_no_late_policy_and_extra_time_is_for_exams_only(tmp_path: Path) -> None:
    text = EXAM.replace("    exam:", "    late: {penalty_per_day: 10, until: 2026-12-08 11:00}\n    exam:")
    with pytest.raises(SpecError, match=r"course.yaml:8: assignments\[0\].late: an exam has no late window"):
        load(tmp_path, text)
    text = EXAM.replace("assignment: midterm, extra: 10m", "assignment: week1, extra: 10m")
    with pytest.raises(SpecError, match=r"course.yaml:\d+: extensions\[0\].extra: assignment 'week1' is no exam"):
        load(tmp_path, text)
    text = EXAM.replace("assignment: midterm, extra: 10m", "assignment: midterm")
    with pytest.raises(SpecError, match=r"extensions\[0\]: an extension gives a new `due`, or an exam's `extra`"):
        load(tmp_path, text)


def test_the_window_across_each_edge_with_extra_time_and_the_due_minute(tmp_path: Path) -> None:
    course = load(tmp_path)
    midterm = course.assignments[0]
    assert midterm.exam is not None
    exam, win = midterm.exam, policy.window(course, midterm, "bob")
    extra = extra_of(course, "midterm", "bob", timedelta(0))
    assert exam_window(exam, win, None, extra, at("08:59")).phase is ExamPhase.NOT_OPEN
    assert exam_window(exam, win, None, extra, at("09:00")).phase is ExamPhase.READY
    started = at("09:10")
    running = exam_window(exam, win, started, extra, started)
    assert running.phase is ExamPhase.RUNNING and running.ends == at("10:00")  # 40 + 10 min
    assert running.left(at("09:59")) == timedelta(minutes=1)
    # Alice, without extra time, is over where bob still runs.
    plain = exam_window(exam, win, started, timedelta(0), at("09:50"))
    assert plain.phase is ExamPhase.OVER and plain.left(at("09:50")) == timedelta(0)
    assert exam_window(exam, win, started, extra, at("09:50")).phase is ExamPhase.RUNNING
    assert exam_window(exam, win, started, extra, at("10:00")).phase is ExamPhase.OVER
    # Started 10 minutes before the due minute ends: the due minute's end is the end.
    late_start = exam_window(exam, win, at("10:51"), extra, at("10:51"))
    assert late_start.ends == at("11:01") and late_start.capped
    # Never started, after due: over.
    assert exam_window(exam, win, None, extra, at("11:01")).phase is ExamPhase.OVER


def test_addresses_in_and_out_of_the_ranges(tmp_path: Path) -> None:
    exam = load(tmp_path).assignments[0].exam
    assert exam is not None
    assert address_allowed(exam, "10.1.200.3") and address_allowed(exam, "2001:db8::7")
    assert address_allowed(exam, "::ffff:10.1.0.9")
    assert not address_allowed(exam, "10.2.0.1") and not address_allowed(exam, "testclient")
    assert not address_allowed(exam, None)


def test_an_exam_is_no_team_assignment(tmp_path: Path) -> None:
    """Issue 61, a hostile student: in an exam taken by teams, a teammate who started later
    submitted after a member's end, and it counted for that member."""
    text = EXAM.replace("    exam:", "    teams: {size: [2, 2], formed: students}\n    exam:")
    with pytest.raises(SpecError) as caught:
        load(tmp_path, text)
    assert "course.yaml:8: assignments[0].teams: an exam is taken alone" in str(caught.value)
    assert "\n" not in str(caught.value).strip()
