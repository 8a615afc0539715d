"""What every route of one `judge serve` shares: its settings, store, problems and page
templates, and the rules each audience's routes apply alike: who may see a submission, what
of it they may see now, and how a page is made."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException

from judge.cluster.address import Endpoint
from judge.course import gradebook, policy, rubric
from judge.course.spec import COURSE_FILE, Assignment, Course, implicit, load_course
from judge.course.teams import check_kept
from judge.errors import JudgeError
from judge.explain import stored
from judge.grade import feedback, reports
from judge.grade.results import GradeRecord
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.problem.locate import problem_dirs
from judge.problem.spec import Problem
from judge.run import languages, sandbox
from judge.web import examining, variants
from judge.web.coursefile import CourseWatch
from judge.web.state.accounts import User
from judge.web.state.exams import ExamRecords
from judge.web.state.lti import LtiRecords
from judge.web.state.review import Reviews
from judge.web.state.runs import Runs
from judge.web.state.store import Store, SubmissionRow
from judge.web.state.teams import TeamBook

CSP = (
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; "
    "form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
FORM_BYTES = 4096  # the body of every form but the submission's: a few short fields
FORM_FIELDS = 4  # no form of the judge has more fields (nor more than one file)
COURSE_CHECK_S = 1.0  # course.yaml's time and size are looked at this often at most, on requests
FRAMED_S = 10.0  # how long the LMS origins that may frame the judge are kept before reading again
log = logging.getLogger("judge.web")


@dataclass(frozen=True, kw_only=True)
class Settings:
    problems_dir: Path
    data_dir: Path
    workers: int = 2
    max_source_bytes: int = 64 * 1024
    secure_cookies: bool = False  # set behind HTTPS: the cookie is then never sent in clear
    cluster: Endpoint | None = None  # judge hosts run the cases; SQLite stays the source of truth
    explain_budget_s: float = 30.0  # seconds of `judge explain` per request
    explains_per_hour: int = 10  # per student; 0 turns the explain button off
    result_step_s: float = 5.0  # a student sees judging time in whole steps of this (0: at once)
    course_file: Path | None = None  # None: course.yaml beside the problems folder, if there is one
    per_minute: int = 10  # submissions a student may make in a minute (0: no cap)
    turn_s: float = 10.0  # judging one submission this long, a worker lets a waiting classmate in
    lms_retry_s: float = 15.0  # a grade the LMS did not take is sent again after this, doubled each time


class WebError(HTTPException):
    """An error page: status, a title and one sentence for the reader."""

    def __init__(
        self, status: int, message: str, next_link: str = "/", next_label: str = "Back to the problems"
    ) -> None:
        super().__init__(status, message)
        self.message = message
        self.next_link = next_link
        self.next_label = next_label


def content_policy(framed_by: tuple[str, ...] = (), forms_to: tuple[str, ...] = ()) -> str:
    """The Content-Security-Policy: `framed_by`, the LMS origins whose pages may frame the judge
    (none unless LTI is set up); `forms_to`, origins a form may post to beside the judge's own
    (an LMS's deep-linking return)."""
    found = CSP
    if forms_to:
        found = found.replace("form-action 'self'", "form-action 'self' " + " ".join(forms_to))
    if framed_by:
        found = found.replace("frame-ancestors 'none'", "frame-ancestors 'self' " + " ".join(framed_by))
    return found


def base(request: Request) -> str:
    """The path prefix a proxy serves the judge under (--root-path), for links."""
    return str(request.scope.get("root_path", "")).rstrip("/")


class Site:
    def __init__(self, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.store = Store(settings.data_dir)
        self.team_book = TeamBook(self.store)  # teams' rows (issue 61), on the store's database
        self.lti = LtiRecords(self.store)  # LTI's rows, on the store's database
        self.reviews = Reviews(self.store)  # the review's rows (rubrics, grades by hand), alike
        self.runs = Runs(self.store)  # runs on the samples or one's own input (issue 59), alike
        self.exams = ExamRecords(self.store)  # exams' starts and events (issue 61), alike
        for note in self.store.notes:
            log.warning("%s", note)
        self.problems: dict[str, Problem] = {}
        for directory in problem_dirs(settings.problems_dir):
            problem = load_problem(Path(directory))
            self.problems[problem.id] = problem
        if not self.problems:
            raise JudgeError(f"{settings.problems_dir}: no problems to serve")
        self.watch = CourseWatch(
            self._course,
            watched_course(settings.problems_dir, settings.course_file),
            COURSE_CHECK_S,
            changed=self.course_changed,
        )
        self.table = languages.load()
        self.env = reports.environment()
        self._public: dict[str, tuple[Problem, int]] = {}
        # Every body is counted as it arrives (not by what Content-Length claims) and cut at
        # the route's limit: a form's few fields, or a submission.
        self.submit_bytes = 2 * settings.max_source_bytes + 16 * 1024
        self._framed: tuple[float, tuple[str, ...]] = (-FRAMED_S, ())

    def framed_by(self) -> tuple[str, ...]:
        """The LMS origins whose pages may frame the judge's (LTI), read again every FRAMED_S."""
        now = time.monotonic()
        if now - self._framed[0] >= FRAMED_S:
            self._framed = (now, self.lti.frame_origins())
        return self._framed[1]

    def public_cases(self, problem: Problem) -> int:
        """How many public cases a problem has (counted once per loaded problem: a live page asks
        twice a second)."""
        held = self._public.get(problem.id)
        if held is None or held[0] is not problem:
            try:
                count = sum(1 for c in testdata.load_cases(problem) if c.public)
            except JudgeError:
                count = 0
            held = (problem, count)
            self._public[problem.id] = held
        return held[1]

    def _course(self) -> Course:
        course = course_for(self.settings.problems_dir, self.settings.course_file, sorted(self.problems))
        check_kept(course, self.team_book.teams())  # `teams:` removed after team submissions
        return course

    def course_changed(self, old: Course, new: Course) -> None:
        """course.yaml taken again: log each released grade whose score a rubric item's new points
        moved (by "course.yaml", the file being who changed it)."""
        released = self.reviews.released()
        moved = {}
        for assignment in new.assignments:
            was = old.assignment(assignment.id)
            if assignment.id not in released or assignment.review is None or was is None or was.review is None:
                continue
            for problem in assignment.problems:
                what = rubric.moved_points(was.review.rubric(problem), assignment.review.rubric(problem))
                if what:
                    moved[problem] = f"course.yaml's points: {what}"
        if moved:
            before, after = class_book(old, self.store, self.problems), class_book(new, self.store, self.problems)
            self.reviews.log_moved(before, after, moved, "course.yaml", self.clock())

    @property
    def course(self) -> Course:
        """The course in force: course.yaml is read again when it changes (coursefile.py)."""
        return self.watch.current()

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def when(self, moment: datetime) -> str:
        """A moment as the course's wall clock shows it: `Tue 8 Dec 2026 23:59 CET`."""
        local = self.course.local(moment)
        return f"{local:%a} {local.day} {local:%b %Y %H:%M} {local.tzname()}"

    def assignment_of(self, problem_id: str) -> Assignment | None:
        return self.course.assignment_of(problem_id)

    def window(self, user: User, assignment: Assignment) -> policy.Window:
        return policy.window(self.course, assignment, user.id)

    def standing(self, user: User, assignment: Assignment) -> policy.Standing:
        return policy.standing(self.course, self.window(user, assignment), self.now())

    def open_problem(self, user: User, problem_id: str) -> tuple[Problem, Assignment | None]:
        """A problem its reader may open now, with its assignment: to a student, a problem in no
        assignment, or in one not open yet, does not exist (404). A teacher sees every problem."""
        problem = self.problems.get(problem_id)
        assignment = self.assignment_of(problem_id)
        if user.can_grade and problem is not None:
            return problem, assignment
        if problem is None or assignment is None or self.standing(user, assignment).phase is policy.Phase.NOT_OPEN:
            raise WebError(404, f"There is no problem {problem_id!r}.")
        return self.variant_of(problem, user.id), assignment

    def variant_of(self, problem: Problem, student: str) -> Problem:
        """The student's own variant of a problem (made on their first visit): its statement and
        cases theirs alone. The problem itself where it has no variants."""
        try:
            return variants.of_student(problem, student, self.settings.data_dir)
        except JudgeError as err:
            log.error("the variant of %s for %s: %s", problem.id, student, err)
            raise WebError(500, "Your variant of this problem could not be made: your teacher can see why.") from None

    def problem_of(self, problem_id: str, student: str) -> Problem | None:
        """A submission's problem as it is judged: the student's variant where it has variants
        (None when the problem, or the variant, cannot be had)."""
        problem = self.problems.get(problem_id)
        try:
            return None if problem is None else variants.of_student(problem, student, self.settings.data_dir)
        except JudgeError:
            return None

    def variant_label(self, problem_id: str, student: str) -> str:
        """Which variant of a problem a student has, for the teacher's pages ("" for none)."""
        problem = self.problems.get(problem_id)
        return "" if problem is None else variants.label(problem, student, self.settings.data_dir)

    def book(self) -> gradebook.Gradebook:
        """The teacher's gradebook: every roster student, every judged submission."""
        return class_book(self.course, self.store, self.problems)

    def book_of(self, user: User) -> gradebook.Gradebook:
        """A student's own row, by the same rule, over the results released to them so far."""
        seen = [self.seen_by(user, row).attempt_record for row in self.rows_of(user)]
        released = self.reviews.counted(self.course, every=False)  # hand grades once released
        return gradebook.of_problems(self.course, [user.id], seen, self.problems, released, self.team_book.teams())

    def rows_of(self, user: User) -> list[SubmissionRow]:
        """A student's submissions and those that count for them by the team rule (a teammate's),
        newest first."""
        teams = self.team_book.teams()
        theirs = {m.team for m in teams.members if m.student == user.id}
        if not theirs:
            return self.store.of_student(user.id)
        ids = {s for s, t in teams.stamped.items() if t in theirs}
        rows = self.store.of_student(user.id) + [r for r in self.store.many(ids) if r.student != user.id]
        counted = [r for r in rows if user.id in teams.credited(r.id, r.student, r.created)]
        return sorted(counted, key=lambda r: -r.id)

    def marks(self, rows: list[SubmissionRow]) -> dict[int, str]:
        """What each listed submission's row says of its deadline (gradebook.late_mark), by id."""
        found = {}
        for row in rows:
            assignment = self.assignment_of(row.problem)
            if assignment is not None:
                found[row.id] = gradebook.late_mark(self.course, assignment, row.student, row.created)
        return found

    def notes(self) -> list[str]:
        """What the teacher should know of the course file: a new one that does not load (the old
        one still in force), extensions for ids not on the roster."""
        broken = [self.watch.error] if self.watch.error else []
        if self.course.path is None:
            return broken
        roster = set(self.store.students())
        return broken + [
            f"{self.course.path}:{e.line}: an extension for {e.student!r}, who is not on the roster"
            for e in self.course.extensions
            if e.student not in roster
        ]

    def submissions_page(
        self,
        request: Request,
        user: User,
        rows: list[SubmissionRow],
        heading: str,
        show_student: bool,
        refresh_s: int,
        **more: object,
    ) -> HTMLResponse:
        """A list of submissions (a student's own, one student's, every one): it reloads every
        `refresh_s` seconds while one of them waits or is judged. `more`: the filters' form."""
        return self.page(
            request,
            "web/submissions.html.j2",
            200,
            user,
            submissions=rows,
            marks=self.marks(rows),
            show_student=show_student,
            # Names are for the teacher and the teaching assistants, never another student.
            people=self.store.people() if user.can_grade else {},
            heading=heading,
            refresh=refresh_s if any(s.pending for s in rows) else 0,
            **more,
        )

    def page(
        self, request: Request, template: str, http_status: int = 200, user: User | None = None, **context: object
    ) -> HTMLResponse:
        # A student's exams (the home page's start button, every page's timer bar).
        exams = (
            examining.lines(self.course, self.exams, user.id, self.clock())
            if user is not None and not user.can_grade and any(a.exam for a in self.course.assignments)
            else {}
        )
        html = self.env.get_template(template).render(
            base=base(request),
            user=user,
            exams=exams,
            sandbox_mode=sandbox.detect().mode,
            course_title=self.course.title or "",
            reviewed_problems={p for a in self.course.assignments if a.review is not None for p in a.problems},
            **context,
        )
        return HTMLResponse(html, status_code=http_status)

    def too_large(self, limit: int) -> str:
        if limit != self.submit_bytes:
            return f"This form is over its {limit // 1024} KiB limit."
        return f"The upload is over the {self.settings.max_source_bytes // 1024} KiB limit for a source file."

    def problem_or_404(self, problem_id: str) -> Problem:
        if problem_id not in self.problems:
            raise WebError(404, f"There is no problem {problem_id!r}.")
        return self.problems[problem_id]

    def visible(self, user: User, submission_id: int) -> SubmissionRow:
        found = self.store.get(submission_id)
        # Another student's submission is "not found": its existence is not theirs to know,
        # unless it counts for them (a teammate's, by the team rule).
        if found is None or (found.student != user.id and not user.can_grade and not self.counts_for(user, found)):
            raise WebError(404, f"There is no submission {submission_id} of yours.", "/submissions", "My submissions")
        return self.seen_by(user, found)

    def counts_for(self, user: User, found: SubmissionRow) -> bool:
        return user.id in self.team_book.teams().credited(found.id, found.student, found.created)

    def seen_by(self, user: User, found: SubmissionRow) -> SubmissionRow:
        """A submission as its reader may see it now: to a student, nothing changes at a moment
        a case can choose. A judged one is still running until the end of its judging's last
        whole step (Settings.result_step_s); one claimed once is running until then."""
        if user.can_grade:
            return found
        if found.status != "done":
            # A judging paused between fair turns (or requeued) goes back to the queue at a
            # moment its cases chose: to its student it stays running.
            return dataclasses.replace(found, status=found.student_status)
        if found.released(self.settings.result_step_s, self.clock()):
            return found
        return dataclasses.replace(found, status="running", verdict=None, score=None)

    def record_for(self, found: SubmissionRow) -> GradeRecord | None:
        return self.store.record(found.id) if found.status == "done" else None

    def shown_to(self, user: User, record: GradeRecord) -> feedback.Shown:
        """The one place a record is cut for its reader: the teacher sees it whole; a student at
        the assignment's feedback level if it sets one, else at the problem's."""
        if user.can_grade:
            return feedback.for_teacher(record)
        assignment = self.assignment_of(record.problem)
        level = assignment.feedback if assignment is not None else None
        return feedback.for_student(record, self.problems.get(record.problem), level)

    @staticmethod
    def status_for(user: User, found: SubmissionRow) -> str:
        # "running case k of n", polled, would time each secret case: students see the stage only.
        return found.status_text if user.can_grade else found.status

    def explainable(self, record: GradeRecord) -> bool:
        return self.settings.explains_per_hour > 0 and stored.wanted(record, self.problems)


def watched_course(problems_dir: Path, course_file: Path | None) -> Path:
    """The file whose changes change the course: the one given, else course.yaml beside the
    problems folder (watched even while absent: one saved there later is taken)."""
    return course_file if course_file is not None else problems_dir.resolve().parent / COURSE_FILE


def course_for(problems_dir: Path, course_file: Path | None, problems: list[str]) -> Course:
    """The course file given, else course.yaml beside the problems folder, else every problem open."""
    path = course_file
    if path is None:
        beside = problems_dir.resolve().parent / COURSE_FILE
        path = beside if beside.is_file() else None
    if path is None:
        return implicit(problems)
    if not path.is_file():
        raise JudgeError(f"{path}: no such course file")
    return load_course(path, set(problems), set(languages.load().languages))


def class_book(course: Course, store: Store, problems: dict[str, Problem]) -> gradebook.Gradebook:
    """The gradebook of a web judge's data: the teacher's pages, grades.csv and `judge gradebook`
    (every hand grade counted, released or not: they are the teacher's)."""
    manual = Reviews(store).counted(course, every=True)
    attempts = [row.attempt_record for row in store.all()]
    return gradebook.of_problems(course, store.students(), attempts, problems, manual, TeamBook(store).teams())


def site_of(request: Request) -> Site:
    """The dependency that hands a route its Site."""
    site: Site = request.app.state.site
    return site
