"""The teacher's review on the web: the graders' overview (progress per grader, dealing,
release, regrade requests), the grading page of one submission (the code with comments on
lines, the judge's results beside it, the rubric by key), and a student's view of their
released grade with its regrade requests. The rules of the counted score are
judge.course.rubric's, applied by the gradebook; the rows are judge.web.state.review's."""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from judge.course import gradebook, policy, rubric
from judge.course.gradebook import Gradebook
from judge.course.spec import Assignment
from judge.errors import JudgeError
from judge.grade import feedback, highlight
from judge.run import sources
from judge.web.routes.auth import require_grader, require_teacher, require_user
from judge.web.routes.site import FORM_BYTES, Site, WebError, base, site_of
from judge.web.state.accounts import User
from judge.web.state.review import LineComment, Marked, Regrade
from judge.web.state.store import SubmissionRow

TEXT_MAX = 1000  # a comment, a reason, an answer (the form is at most 4 KiB, encoded)


@dataclass(frozen=True)
class CodeLine:
    number: int
    html: Markup
    comments: tuple[LineComment, ...]  # those that end on this line


@dataclass(frozen=True)
class CodeFile:
    name: str
    lines: tuple[CodeLine, ...]


@dataclass(frozen=True)
class ItemView:
    key: str  # the digit that toggles it ("" past the ninth)
    item: rubric.Item
    applied: bool


@dataclass(frozen=True)
class Progress:
    grader: str
    done: int
    total: int


@dataclass(frozen=True)
class ProblemView:
    problem: str
    mine: Progress  # the reader's own queue
    graders: tuple[Progress, ...]  # every grader's (the teacher's overview)


@dataclass(frozen=True)
class ReviewedAssignment:
    assignment: Assignment
    review: rubric.Review
    released: str  # when, or ""
    problems: tuple[ProblemView, ...]


def reviewed(site: Site, problem: str) -> tuple[Assignment, rubric.Review]:
    """The assignment and review of a problem graded by hand, else 404."""
    assignment = site.assignment_of(problem)
    if assignment is None or assignment.review is None:
        raise WebError(404, f"{problem!r} is not graded by hand.", "/grade", "Grading")
    return assignment, assignment.review


def rubric_of(site: Site, assignment: Assignment, problem: str) -> rubric.Rubric:
    assert assignment.review is not None
    return assignment.review.rubric(problem).with_items(site.reviews.items(problem))


def files_of(data: bytes, filename: str) -> list[tuple[str, str]]:
    """A submission's files as text: an archive's each, else the one file."""
    if sources.is_archive(Path(filename)):
        try:
            return [
                (name, body.decode("utf-8", "replace"))
                for name, body in sources.archive_files(Path(filename), data)
                if b"\0" not in body
            ]
        except JudgeError:
            return []
    return [(filename, data.decode("utf-8", "replace"))]


def code_of(site: Site, found: SubmissionRow, comments: list[LineComment]) -> list[CodeFile]:
    shown = []
    for name, text in files_of(site.store.source(found.id), found.filename):
        lines = highlight.lines_of(text, name, found.language)
        shown.append(
            CodeFile(
                name,
                tuple(
                    CodeLine(n, Markup(line), tuple(c for c in comments if c.file == name and c.last == n))
                    for n, line in enumerate(lines, start=1)
                ),
            )
        )
    return shown


def counted_ids(site: Site, problem: str, book: Gradebook | None = None) -> dict[str, int]:
    """Each student's counted submission of a problem (what is graded), by the teacher's book
    (made here unless given: a page that asks several times makes it once). A team submission
    counts for each member but is graded once: it is under one student, its author (or, where
    its author counts another, its first member by id), so it is dealt and counted once."""
    found = {}
    book = book if book is not None else site.book()
    for row in book.rows:
        cell = book.cell(row.student, problem)
        if cell is not None and cell.submission is not None:
            found[row.student] = cell.submission
    if len(set(found.values())) == len(found):
        return found  # no submission counts for two students: no team
    authors = {row.id: row.student for row in site.store.many(set(found.values()))}
    under: dict[int, str] = {}
    for student, submission in sorted(found.items()):
        if submission not in under or student == authors.get(submission):
            under[submission] = student
    return {student: submission for submission, student in sorted(under.items(), key=lambda pair: pair[1])}


def graders_of(site: Site) -> list[str]:
    """Who is dealt submissions: the teaching assistants, else the teachers."""
    users = [u for u, _ in site.store.users()]
    tas = [u.id for u in users if u.role == "ta"]
    return tas or [u.id for u in users if u.role == "teacher"]


def queue_of(site: Site, user: User, problem: str, review: rubric.Review, book: Gradebook | None = None) -> list[str]:
    """The students whose work this reader grades on a problem, in the order they come: dealt
    to them (all, to the teacher, or where nothing was dealt); by a seeded order when grading
    is anonymous, so the order tells no name."""
    counted = counted_ids(site, problem, book)
    dealt = site.reviews.dealt(problem)
    students = [s for s in counted if user.can_manage or not dealt or dealt.get(s) == user.id]
    if review.anonymous:
        return sorted(students, key=lambda s: hashlib.sha256(f"{problem}\0{s}".encode()).hexdigest())
    return sorted(students)


def graded_students(site: Site, problem: str, counted: dict[str, int]) -> set[str]:
    """Students whose counted submission of a problem is graded and done (a grade of an older
    one is not: a newer submission since grading waits to be graded)."""
    done = {m.submission for m in site.reviews.grades() if m.problem == problem and m.done}
    return {student for student, submission in counted.items() if submission in done}


def progress(site: Site, problem: str, students: list[str], grader: str, book: Gradebook | None = None) -> Progress:
    graded = graded_students(site, problem, counted_ids(site, problem, book))
    return Progress(grader, sum(s in graded for s in students), len(students))


def overview(
    request: Request, message: str = "", user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    released, book = site.reviews.released(), site.book()
    views = []
    for assignment in site.course.assignments:
        if assignment.review is None:
            continue
        problems = []
        for problem in assignment.problems:
            mine = progress(site, problem, queue_of(site, user, problem, assignment.review, book), user.id, book)
            dealt = site.reviews.dealt(problem)
            every = tuple(
                progress(site, problem, [s for s, g in dealt.items() if g == grader], grader, book)
                for grader in sorted(set(dealt.values()))
            )
            problems.append(ProblemView(problem, mine, every if user.can_manage else ()))
        when = released.get(assignment.id)
        shown = site.when(datetime.fromtimestamp(when, UTC)) if when is not None else ""
        views.append(ReviewedAssignment(assignment, assignment.review, shown, tuple(problems)))
    regrades = [r for r in site.reviews.regrades() if r.answer is None]
    return site.page(
        request,
        "web/grade_index.html.j2",
        user=user,
        assignments=views,
        regrades=regrades,
        anonymous={p for v in views if v.review.anonymous for p in v.assignment.problems},
        message=message,
    )


def _back(request: Request, path: str, message: str = "") -> RedirectResponse:
    suffix = f"?message={message.replace(' ', '+')}" if message else ""
    return RedirectResponse(f"{base(request)}{path}{suffix}", status_code=303)


def _assignment(site: Site, assignment_id: str) -> Assignment:
    assignment = site.course.assignment(assignment_id)
    if assignment is None or assignment.review is None:
        raise WebError(404, f"There is no assignment {assignment_id!r} graded by hand.", "/grade", "Grading")
    return assignment


def deal(
    request: Request, assignment_id: str, _: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> Response:
    assignment = _assignment(site, assignment_id)
    assert assignment.review is not None
    graders = graders_of(site)
    sections = site.reviews.sections() if assignment.review.graders == "section" else None
    count, book = 0, site.book()
    for problem in assignment.problems:
        held = site.reviews.dealt(problem)
        students = list(counted_ids(site, problem, book))
        dealt = rubric.deal(f"{assignment.id}:{problem}", students, graders, held, sections)
        site.reviews.deal(problem, dealt)
        count += len(dealt)
    return _back(request, "/grade", f"{count} submission(s) dealt to {len(graders)} grader(s)")


def release(
    request: Request, assignment_id: str, user: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> Response:
    assignment = _assignment(site, assignment_id)
    done = site.reviews.release(assignment.id, user.id, site.clock())
    return _back(request, "/grade", f"{assignment.id} released" if done else f"{assignment.id} was released before")


def next_ungraded(
    request: Request,
    problem_id: str,
    after: str = "",
    back: int = 0,
    user: User = Depends(require_grader),
    site: Site = Depends(site_of),
) -> Response:
    """The next ungraded submission of the reader's queue after `after` (a submission id; from
    the start when absent), round the end; `back`: the one before, graded or not."""
    _, review = reviewed(site, problem_id)
    book = site.book()
    students = queue_of(site, user, problem_id, review, book)
    counted = counted_ids(site, problem_id, book)
    order = [counted[s] for s in students]
    start = order.index(int(after)) if after.isdigit() and int(after) in order else -1
    if back and order:
        return _back(request, f"/grade/submissions/{order[(start - 1) % len(order)]}")
    done = graded_students(site, problem_id, counted)
    for step in range(1, len(order) + 1):
        index = (start + step) % len(order)
        if students[index] not in done:
            return _back(request, f"/grade/submissions/{order[index]}")
    return _back(request, "/grade", f"every submission of {problem_id} in your queue is graded")


@dataclass(frozen=True)
class Grading:
    """A submission being graded: its row, assignment, review, rubric and grade."""

    found: SubmissionRow
    assignment: Assignment
    review: rubric.Review
    rubric: rubric.Rubric
    marked: Marked | None  # this submission's grade (None: not graded)
    earlier: Marked | None  # a grade made on another submission of the student: not this one's
    uncounted: str = ""  # why this late submission does not count and cannot be graded ("": it can)

    @property
    def offered(self) -> frozenset[str]:
        """The items ticked on the page: this grade's, else the earlier grade's as a start."""
        held = self.marked or self.earlier
        return held.applied if held is not None else frozenset()


def grading(site: Site, user: User, submission_id: int, changing: bool = False) -> Grading:
    """A submission to grade; `changing`: the reader means to change its grade, which a TA
    may only on what is dealt to them (before the teacher deals, every submission is open)."""
    found = site.visible(user, submission_id)
    assignment, review = reviewed(site, found.problem)
    if found.status != "done":
        raise WebError(409, "This submission is not judged yet.", "/grade", "Grading")
    if changing and not user.can_manage:
        dealt = site.reviews.dealt(found.problem)
        if dealt and dealt.get(found.student) != user.id and not dealt_to(site, user, found, dealt):
            raise WebError(403, "This submission is dealt to another grader.", "/grade", "Grading")
    mine = site.reviews.grade(found.student, found.problem)
    held = site.reviews.grade_of(found.id)
    other = mine if mine is not None and held is None else None
    uncounted = not_counted(site, found)
    if changing and uncounted:
        raise WebError(409, uncounted, f"/grade/submissions/{found.id}", "Back")
    return Grading(found, assignment, review, rubric_of(site, assignment, found.problem), held, other, uncounted)


def dealt_to(site: Site, user: User, found: SubmissionRow, dealt: dict[str, str]) -> bool:
    """Whether a team submission is dealt to this grader under a member other than its author
    (one whose author counts another submission since leaving the team)."""
    return any(dealt.get(s) == user.id for s, sub in counted_ids(site, found.problem).items() if sub == found.id)


def not_counted(site: Site, found: SubmissionRow) -> str:
    """Why a late submission cannot be graded ("": it can): the course's late rule keeps the
    submission that counts, and a grade of this one would count nothing."""
    cell = site.book().cell(found.student, found.problem)
    if cell is None or cell.submission == found.id:
        return ""
    assignment, _ = reviewed(site, found.problem)
    if gradebook.judged_at(site.course, assignment, found.student, found.created).phase is not policy.Phase.LATE:
        return ""
    counted = f"submission {cell.submission} counts" if cell.submission is not None else "another counts"
    return f"This late submission does not count ({counted} by the course's late rule): it cannot be graded."


def is_released(site: Site, g: Grading) -> bool:
    return g.assignment.id in site.reviews.released()


def grade_page(
    request: Request,
    submission_id: int,
    message: str = "",
    user: User = Depends(require_grader),
    site: Site = Depends(site_of),
) -> HTMLResponse:
    g = grading(site, user, submission_id)
    applied = g.offered
    items = [ItemView(str(k + 1) if k < 9 else "", i, i.id in applied) for k, i in enumerate(g.rubric.items)]
    book = site.book()
    students = queue_of(site, user, g.found.problem, g.review, book)
    position = students.index(g.found.student) + 1 if g.found.student in students else 0
    manual = rubric.points(g.rubric, applied) if g.marked is not None else None
    record = site.record_for(g.found)
    judge_max = g.found.max_score or 0.0
    cell = book.cell(g.found.student, g.found.problem)
    comments = site.reviews.comments(g.found.id)
    return site.page(
        request,
        "web/grade.html.j2",
        user=user,
        g=g,
        who=f"submission {position} of {len(students)}" if g.review.anonymous else g.found.student,
        items=items,
        manual=manual,
        combined=cell.score if cell is not None else None,
        awaiting=cell is not None and cell.awaiting and cell.submission == g.found.id,
        maximum=rubric.maximum(g.review, judge_max),
        r=site.shown_to(user, record) if record is not None else None,
        files=code_of(site, g.found, comments),
        general=[c for c in comments if not c.file],
        saved=site.reviews.saved(user.id),
        mine=progress(site, g.found.problem, students, user.id, book),
        regrades=site.reviews.regrades(g.found.student, g.found.problem),
        overrides=site.reviews.overrides(g.found.student, g.found.problem) if user.can_manage else [],
        changes=site.reviews.changes(g.found.student, g.found.problem) if user.can_manage else [],
        message=message,
    )


def _text(value: str, what: str, back: str, required: bool = True) -> str:
    text = value.strip()
    if required and not text:
        raise WebError(400, f"Write the {what}.", back, "Back")
    if len(text) > TEXT_MAX:
        raise WebError(400, f"The {what} is over {TEXT_MAX} characters.", back, "Back")
    return text


def toggle(
    request: Request,
    submission_id: int,
    item: str = Form(...),
    user: User = Depends(require_grader),
    site: Site = Depends(site_of),
) -> Response:
    g = grading(site, user, submission_id, changing=True)
    if g.rubric.item(item) is None:
        raise WebError(400, f"There is no rubric item {item!r}.", f"/grade/submissions/{submission_id}", "Back")
    site.reviews.save_grade(
        g.found.student, g.found.problem, g.found.id, user.id, site.clock(), toggle=item, released=is_released(site, g)
    )
    return _back(request, f"/grade/submissions/{submission_id}")


def _lines(at: str, files: list[tuple[str, str]], back: str) -> tuple[str, tuple[int, int]]:
    """`main.py:3` or `main.py:3-5` (a file of the submission, lines in it); a bare `3-5` in a
    submission of one file."""
    name, _, span = at.strip().rpartition(":")
    if not name and len(files) == 1:
        name = files[0][0]
    first, _, last = span.partition("-")
    # A browser sends a quote in an upload's name as %22 (HTML's multipart rule), so the stored
    # name has it so: the name as the student wrote it names the file too.
    stored = {n.replace("%22", '"'): n for n, _ in files} | {n: n for n, _ in files}
    name = stored.get(name, name)
    text = dict(files).get(name)
    if text is None or not first.strip().isdigit() or (last and not last.strip().isdigit()):
        raise WebError(400, f"{at!r}: say the lines as FILE:LINE or FILE:FIRST-LAST.", back, "Back")
    low, high = int(first), int(last or first)
    count = max(1, len(text.splitlines()))
    if not 1 <= low <= high <= count:
        raise WebError(400, f"{at!r}: {name} has lines 1 to {count}.", back, "Back")
    return name, (low, high)


def comment(
    request: Request,
    submission_id: int,
    at: str = Form(""),
    text: str = Form(""),
    item: str = Form(""),
    save: str = Form(""),
    user: User = Depends(require_grader),
    site: Site = Depends(site_of),
) -> Response:
    """A comment on a line or a range (`at`), or a general one (`at` empty), maybe tied to an
    item; `save`: kept among the grader's reusable comments too."""
    back = f"/grade/submissions/{submission_id}"
    g = grading(site, user, submission_id, changing=True)
    words = _text(text, "comment", back)
    file, lines = (
        ("", (0, 0)) if not at.strip() else _lines(at, files_of(site.store.source(g.found.id), g.found.filename), back)
    )
    if item and g.rubric.item(item) is None:
        raise WebError(400, f"There is no rubric item {item!r}.", back, "Back")
    site.reviews.comment(g.found.id, file, lines, words, item or None, user.id, site.clock())
    if save:
        site.reviews.save_text(user.id, words)
    return _back(request, back)


def delete_comment(
    request: Request,
    submission_id: int,
    comment_id: int,
    user: User = Depends(require_grader),
    site: Site = Depends(site_of),
) -> Response:
    grading(site, user, submission_id, changing=True)
    # A TA deletes only their own comments; the teacher any.
    if not site.reviews.delete_comment(comment_id, submission_id, None if user.can_manage else user.id):
        raise WebError(404, "There is no such comment of yours here.", f"/grade/submissions/{submission_id}", "Back")
    return _back(request, f"/grade/submissions/{submission_id}")


def finish(
    request: Request,
    submission_id: int,
    done: str = Form("1"),
    user: User = Depends(require_grader),
    site: Site = Depends(site_of),
) -> Response:
    """Mark the grade done (or not), then on to the next ungraded one."""
    g = grading(site, user, submission_id, changing=True)
    finished = done == "1"
    site.reviews.save_grade(
        g.found.student,
        g.found.problem,
        g.found.id,
        user.id,
        site.clock(),
        done=finished,
        released=is_released(site, g),
    )
    if finished:
        return _back(request, f"/grade/{g.found.problem}/next?after={submission_id}")
    return _back(request, f"/grade/submissions/{submission_id}")


def override(
    request: Request,
    submission_id: int,
    score: str = Form(""),
    reason: str = Form(""),
    user: User = Depends(require_teacher),
    site: Site = Depends(site_of),
) -> Response:
    """The teacher's score for this student and problem, with why (blank score: lifted)."""
    back = f"/grade/submissions/{submission_id}"
    g = grading(site, user, submission_id)
    why = _text(reason, "reason", back)
    value: float | None = None
    if score.strip():
        try:
            value = float(score)
        except ValueError:
            value = math.nan
        top = rubric.maximum(g.review, g.found.max_score or 0.0)
        if not 0 <= value <= top:
            raise WebError(400, f"{score!r}: a score is a number from 0 to {top:g}.", back, "Back")
    site.reviews.override(g.found.student, g.found.problem, value, why, user.id, site.clock())
    return _back(request, back)


def add_item(
    request: Request,
    problem_id: str,
    points: str = Form(""),
    description: str = Form(""),
    group: str = Form(""),
    after: str = Form(""),
    user: User = Depends(require_teacher),
    site: Site = Depends(site_of),
) -> Response:
    """A rubric item made on the grading page (the teacher's: it counts for everyone), in a
    group if named (course.yaml's `caps` bound a group)."""
    reviewed(site, problem_id)
    back = f"/grade/submissions/{after}" if after.isdigit() else "/grade"
    value = _points(points, back)
    if value is None:
        raise WebError(400, "Give the item's points.", back, "Back")
    grp = group.strip() or None
    if grp is not None and not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", grp):
        raise WebError(400, f"{grp!r}: a group is a-z, 0-9, - and _.", back, "Back")
    words = _text(description, "description", back)
    site.reviews.add_item(problem_id, value, words, user.id, site.clock(), grp)
    return _back(request, back)


def _points(points: str, back: str) -> float | None:
    if not points.strip():
        return None
    try:
        value = float(points)
    except ValueError:
        value = math.nan
    if not -10000 <= value <= 10000:
        raise WebError(400, f"{points!r}: points are a number from -10000 to 10000.", back, "Back")
    return value


def change_item(
    request: Request,
    problem_id: str,
    item_id: str,
    points: str = Form(""),
    after: str = Form(""),
    user: User = Depends(require_teacher),
    site: Site = Depends(site_of),
) -> Response:
    """A page-made item's new points, for every student who has it; blank points remove it. Each
    released grade it changes is logged for the teacher."""
    assignment, _ = reviewed(site, problem_id)
    back = f"/grade/submissions/{after}" if after.isdigit() else "/grade"
    new_points = _points(points, back)
    before = site.book()
    if not site.reviews.change_item(problem_id, item_id, new_points):
        raise WebError(
            404, f"There is no item {item_id!r} made on the page (course.yaml's change in the file).", back, "Back"
        )
    if assignment.id in site.reviews.released():
        moved = {problem_id: f"item {item_id} {_fmt(new_points)}"}
        site.reviews.log_moved(before, site.book(), moved, user.id, site.clock())
    return _back(request, back)


def _fmt(points: float | None) -> str:
    return "removed" if points is None else f"now {points:+g} points"


def answer(
    request: Request,
    regrade_id: int,
    text: str = Form(""),
    user: User = Depends(require_grader),
    site: Site = Depends(site_of),
) -> Response:
    asked = site.reviews.regrade(regrade_id)
    if asked is None:
        raise WebError(404, f"There is no regrade request {regrade_id}.", "/grade", "Grading")
    back = f"/grade/submissions/{asked.submission}"
    site.reviews.answer_regrade(regrade_id, _text(text, "answer", back), user.id, site.clock())
    return _back(request, back)


@dataclass(frozen=True)
class Released:
    """What a student sees of their grade by hand, once released."""

    items: tuple[rubric.Item, ...]  # applied
    manual: float
    combined: float | None
    maximum: float
    general: tuple[LineComment, ...]
    files: tuple[CodeFile, ...]
    regrades: tuple[Regrade, ...]
    window: str  # "until Tue 15 Dec 2026 23:59 CET", or "" when closed
    targets: tuple[str, ...]  # what a regrade may be asked on: items applied, the tests


def visible_tests(shown: feedback.Shown) -> tuple[str, ...]:
    """What a student may name in a regrade request of the tests: no more than their feedback
    level shows them (grade.feedback's cut). The cases shown, by name (the public ones; the
    secret ones at `cases`), and each secret group none of whose cases is shown (at `groups`
    by name, at `verdict` the one `secret` total): a name past that is no target, answered as
    an unknown one, so the form is no oracle of the secret cases."""
    cases = tuple(c.name for c in shown.cases)
    named = {c.group for c in shown.cases}
    return (*cases, *(g.name for g in shown.groups if not g.public and g.name not in named))


def released_view(site: Site, user: User, found: SubmissionRow) -> Released | None:
    """The grade of a submission that counts for the reader (their own, or a teammate's by the
    team rule), or None before the release (nothing of it, not even whether it was graded) or
    for a submission that was not the one graded."""
    assignment, review = reviewed(site, found.problem)
    when = site.reviews.released().get(assignment.id)
    marked = site.reviews.grade_of(found.id)
    if when is None or marked is None:
        return None
    rub = rubric_of(site, assignment, found.problem)
    items = tuple(i for i in rub.items if i.id in marked.applied)
    comments = site.reviews.comments(found.id)
    if review.anonymous:  # graders stay nameless to the student
        comments = [
            LineComment(c.id, c.submission, c.file, c.first, c.last, c.text, c.item, "", c.at) for c in comments
        ]
    # The reader's own row, as they see it: a teammate's differs from the author's once either
    # left the team (a grader opening this page sees what the author does).
    reader = found.student if user.can_grade else user.id
    cell = site.book_of(User(reader, "student")).cell(reader, found.problem)
    moment = datetime.fromtimestamp(when, UTC)
    open_now = rubric.regrade_open(review, moment, site.now())
    record = site.record_for(found)
    tests = visible_tests(site.shown_to(User(found.student, "student"), record)) if record is not None else ()
    return Released(
        items,
        rubric.points(rub, marked.applied),
        cell.score if cell is not None else None,
        rubric.maximum(review, found.max_score or 0.0),
        tuple(c for c in comments if not c.file),
        tuple(code_of(site, found, [c for c in comments if c.file])),
        # The reader's own requests, and a teammate's on this submission (the team's one grade).
        tuple(
            q for q in site.reviews.regrades(problem=found.problem) if q.student == reader or q.submission == found.id
        ),
        f"until {site.when(rubric.regrade_closes(review, moment))}" if open_now else "",
        (*(i.id for i in items), *tests),
    )


def student_view(
    request: Request, submission_id: int, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    found = site.visible(user, submission_id)
    view = released_view(site, user, found)
    return site.page(request, "web/review.html.j2", user=user, s=found, view=view)


def ask(
    request: Request,
    submission_id: int,
    target: str = Form(""),
    reason: str = Form(""),
    user: User = Depends(require_user),
    site: Site = Depends(site_of),
) -> Response:
    """A student's regrade request on an item or a test of a released grade that counts for
    them (their own submission's, or a teammate's: the team has one grade), inside the window."""
    back = f"/submissions/{submission_id}/review"
    found = site.visible(user, submission_id)  # another's that counts not for them: 404
    if user.can_grade:
        raise WebError(403, "Only a student whose work it is asks for a regrade.", back, "Back")
    view = released_view(site, user, found)
    if view is None or not view.window:
        raise WebError(403, "Regrade requests are not open for this submission.", back, "Back")
    if target not in view.targets:
        raise WebError(400, f"{target!r} is no rubric item or test of this grade.", back, "Back")
    if any(q.target == target and q.answer is None and q.submission == found.id for q in view.regrades):
        raise WebError(409, f"A request on {target!r} is waiting for its answer already.", back, "Back")
    site.reviews.ask_regrade(user.id, found.problem, found.id, target, _text(reason, "reason", back), site.clock())
    return _back(request, back)


def routes(site: Site) -> APIRouter:
    router = APIRouter()
    get, post = ["GET"], ["POST"]
    router.add_api_route("/grade", overview, methods=get, response_class=HTMLResponse)
    for path, endpoint in (
        ("/grade/{assignment_id}/deal", deal),
        ("/grade/{assignment_id}/release", release),
        ("/grade/submissions/{submission_id}/toggle", toggle),
        ("/grade/submissions/{submission_id}/comment", comment),
        ("/grade/submissions/{submission_id}/comments/{comment_id}/delete", delete_comment),
        ("/grade/submissions/{submission_id}/done", finish),
        ("/grade/submissions/{submission_id}/override", override),
        ("/grade/{problem_id}/items", add_item),
        ("/grade/{problem_id}/items/{item_id}", change_item),
        ("/grade/regrades/{regrade_id}", answer),
        ("/submissions/{submission_id}/regrade", ask),
    ):
        router.add_api_route(path, endpoint, methods=post, max_body_size=FORM_BYTES)
    router.add_api_route("/grade/{problem_id}/next", next_ungraded, methods=get)
    router.add_api_route("/grade/submissions/{submission_id}", grade_page, methods=get, response_class=HTMLResponse)
    router.add_api_route("/submissions/{submission_id}/review", student_view, methods=get, response_class=HTMLResponse)
    return router
