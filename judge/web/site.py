"""What every route of one `judge serve` shares: its settings, store, problems and page
templates, and the rules each audience's routes apply alike: who may see a submission, what
of it they may see now, and how a page is made."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from starlette.exceptions import HTTPException

from judge.cluster.address import Endpoint
from judge.errors import JudgeError
from judge.explain import stored
from judge.grade import feedback, reports
from judge.grade.results import GradeRecord
from judge.problem.locate import problem_dirs
from judge.problem.spec import Problem, load_problem
from judge.run import languages, sandbox
from judge.web.store import Store, SubmissionRow, User

FORM_BYTES = 4096  # the body of every form but the submission's: a few short fields
FORM_FIELDS = 4  # no form of the judge has more fields (nor more than one file)
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


class WebError(HTTPException):
    """An error page: status, a title and one sentence for the reader."""

    def __init__(
        self, status: int, message: str, next_link: str = "/", next_label: str = "Back to the problems"
    ) -> None:
        super().__init__(status, message)
        self.message = message
        self.next_link = next_link
        self.next_label = next_label


def base(request: Request) -> str:
    """The path prefix a proxy serves the judge under (--root-path), for links."""
    return str(request.scope.get("root_path", "")).rstrip("/")


class Site:
    def __init__(self, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.store = Store(settings.data_dir)
        for note in self.store.notes:
            log.warning("%s", note)
        self.problems: dict[str, Problem] = {}
        for directory in problem_dirs(settings.problems_dir):
            problem = load_problem(Path(directory))
            self.problems[problem.id] = problem
        if not self.problems:
            raise JudgeError(f"{settings.problems_dir}: no problems to serve")
        self.table = languages.load()
        self.env = reports.environment()
        self.markdown = MarkdownIt("commonmark", {"html": False})  # the statement's own HTML is not trusted
        # Every body is counted as it arrives (not by what Content-Length claims) and cut at
        # the route's limit: a form's few fields, or a submission.
        self.submit_bytes = 2 * settings.max_source_bytes + 16 * 1024

    def page(
        self, request: Request, template: str, http_status: int = 200, user: User | None = None, **context: object
    ) -> HTMLResponse:
        html = self.env.get_template(template).render(
            base=base(request), user=user, sandbox_mode=sandbox.detect().mode, **context
        )
        return HTMLResponse(html, status_code=http_status)

    def too_large(self, limit: int) -> str:
        if limit == FORM_BYTES:
            return f"This form is over its {FORM_BYTES // 1024} KiB limit."
        return f"The upload is over the {self.settings.max_source_bytes // 1024} KiB limit for a source file."

    def problem_or_404(self, problem_id: str) -> Problem:
        if problem_id not in self.problems:
            raise WebError(404, f"There is no problem {problem_id!r}.")
        return self.problems[problem_id]

    def visible(self, user: User, submission_id: int) -> SubmissionRow:
        found = self.store.get(submission_id)
        # Another student's submission is "not found": its existence is not theirs to know.
        if found is None or (found.student != user.id and user.role != "teacher"):
            raise WebError(404, f"There is no submission {submission_id} of yours.", "/submissions", "My submissions")
        return self.seen_by(user, found)

    def seen_by(self, user: User, found: SubmissionRow) -> SubmissionRow:
        """A submission as its reader may see it now: to a student, a judged one is still
        running until the end of its judging's last whole step (Settings.result_step_s)."""
        if (
            user.role == "teacher"
            or found.status != "done"
            or found.released(self.settings.result_step_s, self.clock())
        ):
            return found
        return dataclasses.replace(found, status="running", verdict=None, score=None)

    def record_for(self, found: SubmissionRow) -> GradeRecord | None:
        return self.store.record(found.id) if found.status == "done" else None

    def shown_to(self, user: User, record: GradeRecord) -> feedback.Shown:
        """The one place a record is cut for its reader: the teacher sees it whole."""
        if user.role == "teacher":
            return feedback.for_teacher(record)
        return feedback.for_student(record, self.problems.get(record.problem))

    @staticmethod
    def status_for(user: User, found: SubmissionRow) -> str:
        # "running case k of n", polled, would time each secret case: students see the stage only.
        return found.status_text if user.role == "teacher" else found.status

    def explainable(self, record: GradeRecord) -> bool:
        return self.settings.explains_per_hour > 0 and stored.wanted(record, self.problems)


def site_of(request: Request) -> Site:
    """The dependency that hands a route its Site."""
    site: Site = request.app.state.site
    return site
