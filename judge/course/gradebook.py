"""The gradebook (pure): every roster student by every assignment problem, the counted score
after the course's policy, and its renderings (the judge's CSV, Canvas', Moodle's).

It is the one rule for what counts: the teacher's matrix, a student's own view, grades.csv and
`judge gradebook` all read a Gradebook made here, so they cannot disagree.
- Only judged submissions received while the assignment was open to the student count
  (on time or inside the late window); a late one counts with its penalty.
- `keep: best`: the highest counted score; `keep: last`: the newest judged submission's.
  An internal error (IE) is the judge's failure and never counts, not even as the last.
- A student with no counted submission has a blank cell, and 0 in the totals.
- Graded by hand (an assignment's `review:`, judge.course.rubric): the rubric's manual part
  combines with the judge's counted score by the course's rule (`add` or `replace`), and an
  override replaces both. A grade belongs to the submission it was made on (the store keeps
  one per submission graded): where another
  submission counts, the hand part is not carried over (the cell is `awaiting`, under
  `replace` 0 until graded). A submission received after the due date (a late one) never
  displaces a graded one: grading happens after the deadline, and a late resubmission must
  not silently drop a grade. Which grades count is the caller's choice: the teacher's views every
  one, a student's view and the LMS those released.
- Teams (an assignment's `teams:`, judge.course.teams): a team submission is in the row of each
  student it counts for, by the team rule there; a submission's deadline is its author's (their
  extension included), so one submission has one standing in every member's row, and a hand
  grade of it counts for each of them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from judge.course import policy, rubric
from judge.course.spec import Assignment, Course
from judge.course.teams import NO_TEAMS, Teams
from judge.problem.spec import Problem
from judge.run.verdicts import Verdict


@dataclass(frozen=True)
class Attempt:
    """One submission as the gradebook needs it; `score` None: not judged (yet)."""

    id: int
    student: str
    problem: str
    received: float  # the server's clock when it arrived (seconds since the epoch)
    verdict: str | None
    score: float | None


@dataclass(frozen=True)
class Counted:
    score: float | None  # None: nothing counted (blank)
    submission: int | None  # the submission that counts
    verdict: str | None
    late: bool  # the counted submission was late
    penalty: float  # its penalty in percent
    extended: bool  # the student has an extension of this assignment
    attempts: int  # submissions of this problem received in the window
    judged: float | None = None  # where graded by hand: the judge's counted score before it
    manual: float | None = None  # the rubric's manual part (None: not graded by hand)
    overridden: bool = False  # a teacher's override is the score
    awaiting: bool = False  # graded by hand, a submission counts and no grade of it counts yet
    graded: int | None = None  # the submission a grade was made on, where it is not this one

    @property
    def blank(self) -> bool:
        return self.score is None


@dataclass(frozen=True)
class Column:
    assignment: str
    problem: str
    max_score: float

    @property
    def key(self) -> str:
        return f"{self.assignment}:{self.problem}"


@dataclass(frozen=True)
class Row:
    student: str
    cells: tuple[Counted, ...]  # one per Gradebook.columns
    totals: tuple[float, ...]  # one per Gradebook.assignments
    total: float


@dataclass(frozen=True)
class Gradebook:
    assignments: tuple[Assignment, ...]
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]

    def max_of(self, assignment: str) -> float:
        return sum(c.max_score for c in self.columns if c.assignment == assignment)

    @property
    def max_total(self) -> float:
        return sum(c.max_score for c in self.columns)

    def row(self, student: str) -> Row | None:
        return next((r for r in self.rows if r.student == student), None)

    def cell(self, student: str, problem: str) -> Counted | None:
        row = self.row(student)
        if row is None:
            return None
        return next((cell for col, cell in zip(self.columns, row.cells, strict=True) if col.problem == problem), None)


def judged_at(course: Course, assignment: Assignment, student: str, received: float) -> policy.Standing:
    """The phase and penalty of a submission the server received at `received`."""
    moment = datetime.fromtimestamp(received, UTC)
    return policy.standing(course, policy.window(course, assignment, student), moment)


def cell(
    course: Course, assignment: Assignment, student: str, attempts: Iterable[Attempt], graded: int | None = None
) -> Counted:
    """The counted score of one student on one problem (`graded`: the submission a hand grade
    was made on, which no later late submission displaces)."""
    extended = course.extension(student, assignment.id) is not None
    # Each submission stands by its author's deadline: a team's is the same in every member's row.
    standings = (
        (a, judged_at(course, assignment, a.student, a.received)) for a in sorted(attempts, key=lambda a: a.id)
    )
    inside = [(a, s) for a, s in standings if s.accepted]
    judged = [(a, s) for a, s in inside if a.score is not None and a.verdict != Verdict.IE]
    if graded is not None and any(a.id == graded for a, _ in judged):
        judged = [(a, s) for a, s in judged if a.id <= graded or s.phase is not policy.Phase.LATE]
    if not judged:
        return Counted(None, None, None, False, 0.0, extended, len(inside))
    if assignment.keep == "last":
        chosen, standing = judged[-1]
    else:  # the first of the best, so an equal later score does not move the link
        chosen, standing = max(
            judged, key=lambda pair: (policy.counted(pair[0].score or 0.0, pair[1].penalty), -pair[0].id)
        )
    score = policy.counted(chosen.score or 0.0, standing.penalty)
    late = standing.phase is policy.Phase.LATE
    return Counted(score, chosen.id, chosen.verdict, late, standing.penalty, extended, len(inside))


def with_manual(
    found: Counted, assignment: Assignment, judge_max: float, grade: rubric.Grade | None, rub: rubric.Rubric
) -> Counted:
    """A counted cell with what was given by hand, by the review's rule (or the override). A
    grade made on another submission than the counted one is not carried over."""
    if grade is None and assignment.review is None:
        return found
    base = replace(found, judged=found.score)
    if grade is not None and grade.override is not None:
        return replace(base, score=grade.override, overridden=True)
    if assignment.review is None:
        return base
    stale = grade is not None and grade.submission is not None and grade.submission != found.submission
    if grade is None or stale or found.submission is None:
        other = grade.submission if grade is not None and stale and found.submission is not None else None
        score = rubric.combined(assignment.review, judge_max, found.score, None)
        return replace(base, score=score, awaiting=found.submission is not None, graded=other)
    manual = rubric.points(rub, grade.applied)
    score = rubric.combined(assignment.review, judge_max, found.score, manual)
    if assignment.review.manual == "replace" and found.late and score is not None:
        score = policy.counted(score, found.penalty)  # the late rule holds for the score by hand too
    return replace(base, score=score, manual=manual)


def late_mark(course: Course, assignment: Assignment, student: str, received: float) -> str:
    """What a listing says of a submission beside its verdict: `late -20%` (what the policy takes
    off), not counted before the opening or after the deadline, `extended`; "" when on time."""
    text = ""
    if assignment.due is not None:
        text = {
            policy.Phase.LATE: f"late -{judged_at(course, assignment, student, received).penalty:g}%",
            policy.Phase.CLOSED: "after the deadline: not counted",
            policy.Phase.NOT_OPEN: "before opening: not counted",
        }.get(judged_at(course, assignment, student, received).phase, "")
    extended = assignment.due is not None and course.extension(student, assignment.id) is not None
    return ", ".join(t for t in (text, "extended" if extended else "") if t)


def of_problems(
    course: Course,
    roster: Sequence[str],
    attempts: Iterable[Attempt],
    problems: Mapping[str, Problem],
    manual: rubric.Manual = rubric.NONE,
    teams: Teams = NO_TEAMS,
) -> Gradebook:
    """The gradebook over these problems, each column out of its problem's maximum score (with
    the manual part's, where the review adds one)."""
    return build(course, roster, attempts, {p.id: p.max_score for p in problems.values()}, manual, teams)


def build(
    course: Course,
    roster: Sequence[str],
    attempts: Iterable[Attempt],
    max_scores: Mapping[str, float],
    manual: rubric.Manual = rubric.NONE,
    teams: Teams = NO_TEAMS,
) -> Gradebook:
    """The gradebook of every roster student, in roster order (others' submissions: a teacher's
    own tries, say, are left out); a team submission in the row of each student it counts for."""
    columns = tuple(
        Column(a.id, p, rubric.maximum(a.review, max_scores.get(p, 0.0)))
        for a in course.assignments
        for p in a.problems
    )
    by_key: dict[tuple[str, str], list[Attempt]] = {}
    for attempt in attempts:
        for student in teams.credited(attempt.id, attempt.student, attempt.received):
            by_key.setdefault((student, attempt.problem), []).append(attempt)
    students = list(dict.fromkeys(roster))
    rows = []
    for student in students:
        cells = tuple(
            graded_cell(course, a, student, by_key.get((student, p), []), max_scores.get(p, 0.0), manual, p)
            for a in course.assignments
            for p in a.problems
        )
        totals = tuple(
            round(sum(c.score or 0.0 for col, c in zip(columns, cells, strict=True) if col.assignment == a.id), 4)
            for a in course.assignments
        )
        rows.append(Row(student, cells, totals, round(sum(totals), 4)))
    return Gradebook(course.assignments, columns, tuple(rows))


def graded_cell(
    course: Course,
    assignment: Assignment,
    student: str,
    attempts: Sequence[Attempt],
    judge_max: float,
    manual: rubric.Manual,
    problem: str,
) -> Counted:
    """One cell with its hand grade: the grade of the counted submission, where it has one. The
    oldest submission graded is the one no later late submission displaces."""
    grade = manual.grades.get((student, problem))
    each = dict(manual.each.get((student, problem), {}))
    ids = {a.id for a in attempts}
    for author in {a.student for a in attempts} - {student}:  # a teammate's submission graded
        each.update((s, items) for s, items in manual.each.get((author, problem), {}).items() if s in ids)
    judged = {a.id for a in attempts if a.score is not None and a.verdict != Verdict.IE}
    pinned = [s for s in each if s in judged]  # a grade of a submission rejudged to IE pins nothing
    graded = min(pinned) if pinned else graded_of(grade) if not each else None
    found = cell(course, assignment, student, attempts, graded)
    if found.submission is not None and found.submission in each:
        override = grade.override if grade is not None else None
        grade = rubric.Grade(each[found.submission], override, found.submission)
    rub = manual.rubrics.get(problem, assignment.review.rubric(problem) if assignment.review else rubric.Rubric())
    return with_manual(found, assignment, judge_max, grade, rub)


def graded_of(grade: rubric.Grade | None) -> int | None:
    """The submission a hand grade was made on (None: no grade, or an override alone)."""
    return grade.submission if grade is not None else None


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _write(rows: Iterable[Sequence[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


@dataclass(frozen=True)
class Named:
    """Who a roster id is, for the teacher's exports: from class.csv or an LMS ("" unknown)."""

    name: str = ""
    email: str = ""
    section: str = ""


NO_NAMES: Mapping[str, Named] = {}


def judge_csv(book: Gradebook, names: Mapping[str, Named] = NO_NAMES) -> str:
    """student, name, email, ASSIGNMENT:PROBLEM..., ASSIGNMENT..., total: blanks where nothing
    was submitted (or no name is known)."""
    header = ["student", "name", "email", *(c.key for c in book.columns), *(a.id for a in book.assignments), "total"]
    body = [
        [
            r.student,
            names.get(r.student, Named()).name,
            names.get(r.student, Named()).email,
            *(_number(c.score) for c in r.cells),
            *(_number(t) for t in r.totals),
            _number(r.total),
        ]
        for r in book.rows
    ]
    return _write([header, *body])


def canvas_csv(book: Gradebook, names: Mapping[str, Named] = NO_NAMES) -> str:
    """Canvas' gradebook import: its five identity columns (the name where known, else the
    roster id, as Student; the roster id as SIS Login ID), one column per assignment total,
    and the Points Possible row."""
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *(a.name for a in book.assignments)]
    points = ["Points Possible", "", "", "", "", *(_number(book.max_of(a.id)) for a in book.assignments)]
    body = [
        [
            names.get(r.student, Named()).name or r.student,
            "",
            "",
            r.student,
            names.get(r.student, Named()).section,
            *(_number(t) for t in r.totals),
        ]
        for r in book.rows
    ]
    return _write([header, points, *body])


def moodle_csv(book: Gradebook, names: Mapping[str, Named] = NO_NAMES) -> str:
    """Moodle's grade import from CSV: a Username column to map to the user, and one column
    per assignment total to map to its grade item (Moodle computes the course total itself)."""
    header = ["Username", *(a.name for a in book.assignments)]
    return _write([header, *([r.student, *(_number(t) for t in r.totals)] for r in book.rows)])


FORMATS = {"csv": judge_csv, "canvas": canvas_csv, "moodle": moodle_csv}
