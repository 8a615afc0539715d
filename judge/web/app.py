"""`judge serve`: the web judge. Students log in, read the problems, submit, and watch their
submissions being judged; the hidden cases stay on the server.

Pages are the project's Jinja2 templates (no script or style from the network). Requests
are plain HTML forms, each body capped as it arrives; a session is a random id in an
HttpOnly, SameSite=Lax cookie, and a row in SQLite that logging out deletes. Failed logins
are throttled per account and per address. What a student sees of a submission is cut to
the problem's feedback level by judge.grade.feedback. Every error is a page with its HTTP status
and one clear sentence, never a stack trace, and every response carries the same headers.
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from markdown_it import MarkdownIt
from markupsafe import Markup
from starlette.exceptions import HTTPException

from judge.cluster.address import Endpoint
from judge.errors import JudgeError
from judge.explain import render, stored
from judge.grade import feedback, reports
from judge.grade.results import GradeRecord
from judge.problem import testdata
from judge.problem.locate import problem_dirs
from judge.problem.spec import Problem, load_problem
from judge.run import languages, sandbox
from judge.web.store import (
    ACCOUNT_THROTTLE,
    ADDRESS_THROTTLE,
    SESSION_S,
    PendingError,
    Store,
    SubmissionRow,
    Throttle,
    User,
)
from judge.web.worker import Workers

COOKIE = "judge_session"
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
FORM_BYTES = 4096  # the body of every form but the submission's: a few short fields
FORM_FIELDS = 4  # no form of the judge has more fields (nor more than one file)
log = logging.getLogger("judge.web")


@dataclass(frozen=True)
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


_TITLES = {
    400: "Bad request",
    401: "Not logged in",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    411: "Length required",
    413: "Too large",
    422: "Bad request",
    429: "Too many requests",
    500: "Internal error",
}


def harden(response: Response) -> Response:
    """The headers of every response, errors included: no script, no framing, no sniffing,
    no referrer to other sites, and nothing kept in a cache (pages show sources and results)."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Cache-Control"] = "no-store"
    return response


async def _watch(workers: Workers) -> None:
    """Every second: a worker that died is replaced and its submission queued again."""
    while True:
        await asyncio.sleep(1.0)
        for pid in workers.revive():
            log.warning("judge worker %d died; replaced, its submission is queued again", pid)


def statement_html(problem: Problem, markdown: MarkdownIt) -> str:
    """The statement as HTML: Markdown rendered (raw HTML in it escaped); an imported LaTeX or
    text statement shown as it is; anything else named. Titles may come from a package: escaped."""
    title = f"<h1>{html.escape(problem.spec.title)}</h1>"
    try:
        data = problem.statement_path.read_bytes()
    except OSError:
        return title
    text = data.decode("utf-8", errors="replace")
    if problem.statement_path.suffix.lower() == ".md":
        return str(markdown.render(text))
    if b"\0" in data:
        return f"{title}<p>The statement is the file {html.escape(problem.statement_path.name)}.</p>"
    return f'{title}<pre class="statement">{html.escape(text)}</pre>'


def create_app(settings: Settings, start_workers: bool = True, clock: Callable[[], float] = time.time) -> FastAPI:
    store = Store(settings.data_dir)
    for note in store.notes:
        log.warning("%s", note)
    problems: dict[str, Problem] = {}
    for directory in problem_dirs(settings.problems_dir):
        problem = load_problem(Path(directory))
        problems[problem.id] = problem
    if not problems:
        raise JudgeError(f"{settings.problems_dir}: no problems to serve")
    table = languages.load()
    env = reports.environment()
    markdown = MarkdownIt("commonmark", {"html": False})  # the statement's own HTML is not trusted

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        requeued = store.requeue_interrupted()
        if requeued:
            log.info("requeued %d submission(s) left unfinished by the last run", requeued)
        workers = (
            Workers(
                settings.data_dir, settings.problems_dir, settings.workers, settings.cluster, settings.explain_budget_s
            )
            if start_workers
            else None
        )
        watch: asyncio.Task[None] | None = None
        if workers is not None:
            workers.start()
            watch = asyncio.create_task(_watch(workers))
        try:
            yield
        finally:
            if watch is not None:
                watch.cancel()
            if workers is not None:
                workers.stop()

    # Every body is counted as it arrives (not by what Content-Length claims) and cut at the
    # route's limit: a form's few fields, or a submission.
    submit_bytes = 2 * settings.max_source_bytes + 16 * 1024
    app = FastAPI(
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        form_limits={"max_fields": FORM_FIELDS, "max_files": 1, "max_part_size": submit_bytes},
    )

    def base(request: Request) -> str:
        return str(request.scope.get("root_path", "")).rstrip("/")

    def page(
        request: Request, template: str, http_status: int = 200, user: User | None = None, **context: object
    ) -> HTMLResponse:
        html = env.get_template(template).render(
            base=base(request), user=user, sandbox_mode=sandbox.detect().mode, **context
        )
        return HTMLResponse(html, status_code=http_status)

    def current_user(request: Request) -> User | None:
        value = request.cookies.get(COOKIE)
        return store.session_user(value) if value else None

    def require_user(request: Request) -> User:
        user = current_user(request)
        if user is None:
            raise WebError(401, "Log in with your id and token to see this page.", "/login", "Log in")
        return user

    def require_teacher(request: Request) -> User:
        user = require_user(request)
        if user.role != "teacher":
            raise WebError(403, "This page is for the teacher.")
        return user

    def problem_or_404(problem_id: str) -> Problem:
        if problem_id not in problems:
            raise WebError(404, f"There is no problem {problem_id!r}.")
        return problems[problem_id]

    # --- errors: a readable page, never a trace --------------------------------------------

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        message = error.message if isinstance(error, WebError) else str(error.detail)
        next_link = error.next_link if isinstance(error, WebError) else "/"
        next_label = error.next_label if isinstance(error, WebError) else "Back to the problems"
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=error.status_code)
        return page(
            request,
            "web/error.html.j2",
            error.status_code,
            current_user(request),
            status=error.status_code,
            title=_TITLES.get(error.status_code, "Error"),
            message=message,
            next_link=next_link,
            next_label=next_label,
        )

    @app.exception_handler(RequestValidationError)
    async def bad_form(request: Request, error: RequestValidationError) -> Response:
        fields = sorted({".".join(str(p) for p in e["loc"][1:]) or "request" for e in error.errors()})
        return await http_error(
            request, WebError(400, f"The request is missing or has a malformed field: {', '.join(fields)}.")
        )

    @app.exception_handler(Exception)
    async def crash(request: Request, error: Exception) -> Response:
        log.exception("unexpected error on %s", request.url.path)
        # This answer leaves from outside the middleware below: it is hardened here too.
        return harden(
            await http_error(
                request, WebError(500, "The judge failed on this request; the teacher can see why in its log.")
            )
        )

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        return harden(await _guarded(request, call_next))

    async def _guarded(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        length = request.headers.get("content-length")
        chunked = "transfer-encoding" in request.headers
        if chunked and length is not None:
            # Two lengths that may disagree are how requests are smuggled past a proxy.
            return await http_error(
                request, WebError(400, "The request gives both Content-Length and Transfer-Encoding.")
            )
        if request.method != "POST":
            if chunked or (length is not None and length != "0"):
                return await http_error(request, WebError(413, "This page takes no request body."))
            return await call_next(request)
        # A browser names the page a form came from: a post from another site (CSRF) is
        # refused, on top of the SameSite cookie. Clients that send no Origin are not browsers.
        origin = request.headers.get("origin")
        if origin is not None and (origin == "null" or urlsplit(origin).netloc != request.headers.get("host")):
            return await http_error(
                request,
                WebError(403, "This form was sent from another site; open the judge's own page and try again."),
            )
        if length is None or not length.isdigit():
            return await http_error(request, WebError(411, "The request must say its length."))
        # An honest length over the limit is refused before reading; a false one is cut at
        # the limit by the body's own count (max_body_size).
        limit = submit_bytes if request.url.path.endswith("/submit") else FORM_BYTES
        if int(length) > limit:
            return await http_error(request, WebError(413, too_large(limit)))
        return await call_next(request)

    def too_large(limit: int) -> str:
        if limit == FORM_BYTES:
            return f"This form is over its {FORM_BYTES // 1024} KiB limit."
        return f"The upload is over the {settings.max_source_bytes // 1024} KiB limit for a source file."

    # --- logging in -----------------------------------------------------------------------

    @app.get("/healthz", response_class=PlainTextResponse)
    def healthz() -> str:
        return "ok"

    @app.get("/login", response_class=HTMLResponse)
    def login_page(request: Request) -> HTMLResponse:
        return page(request, "web/login.html.j2", message="")

    def throttled(user: str, request: Request) -> dict[str, Throttle]:
        keys = {f"user:{user}": ACCOUNT_THROTTLE}
        if request.client is not None:
            keys[f"addr:{request.client.host}"] = ADDRESS_THROTTLE
        return keys

    @app.post("/login", max_body_size=FORM_BYTES)
    def login(request: Request, user: str = Form(""), token: str = Form("")) -> Response:
        user = user.strip()
        keys = throttled(user, request)
        wait = store.login_wait(keys)
        if wait > 0:
            # Refused without looking at the token: a guess during the lock tells nothing.
            seconds = math.ceil(wait)
            refused = page(
                request, "web/login.html.j2", 429, message=f"Too many failed logins; try again in {seconds} s."
            )
            refused.headers["Retry-After"] = str(seconds)
            return refused
        found = store.authenticate(user, token.strip())
        if found is None:
            store.login_failed(keys)
            return page(request, "web/login.html.j2", 401, message="Unknown id or wrong token.")
        store.login_succeeded([f"user:{found.id}"])
        response = RedirectResponse(f"{base(request)}/", status_code=303)
        response.set_cookie(
            COOKIE,
            store.new_session(found.id),
            max_age=SESSION_S,
            httponly=True,
            samesite="lax",
            secure=settings.secure_cookies,
            path="/",
        )
        return response

    @app.post("/logout", max_body_size=FORM_BYTES)
    def logout(request: Request) -> Response:
        value = request.cookies.get(COOKIE)
        if value:
            store.end_session(value)  # the cookie, copied or not, is worth nothing from now on
        response = RedirectResponse(f"{base(request)}/login", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    # --- problems and submitting ----------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    def problem_list(request: Request) -> HTMLResponse:
        user = require_user(request)
        best: dict[str, SubmissionRow] = {}
        for s in (seen_by(user, found) for found in store.of_student(user.id)):
            if not s.pending and (s.problem not in best or (s.score or 0.0) > (best[s.problem].score or 0.0)):
                best[s.problem] = s
        rows = [
            {"id": p.id, "title": p.spec.title, "points": sum(g.points for g in p.spec.groups), "best": best.get(p.id)}
            for p in problems.values()
        ]
        return page(request, "web/problems.html.j2", user=user, problems=rows)

    @app.get("/problems/{problem_id}", response_class=HTMLResponse)
    def problem_page(request: Request, problem_id: str) -> HTMLResponse:
        user = require_user(request)
        problem = problem_or_404(problem_id)
        statement = statement_html(problem, markdown)
        try:
            cases = testdata.load_cases(problem)
        except JudgeError:
            cases = []  # no tests made yet: the statement still shows its samples
        samples = [
            {
                "name": c.id,
                "input": c.input.read_text(encoding="utf-8", errors="replace"),
                "answer": c.answer.read_text(encoding="utf-8", errors="replace"),
            }
            for c in cases
            if c.public
        ]
        limits = problem.spec.limits
        multipliers = ", ".join(f"{lang} {m:g}×" for lang, m in limits.time_multipliers.items())
        text = f"{limits.time_s:g} s CPU{f' ({multipliers})' if multipliers else ''}, {limits.memory_mib} MiB"
        return page(
            request,
            "web/problem.html.j2",
            user=user,
            problem=problem,
            statement=statement,
            samples=samples,
            languages=list(table.languages.values()),
            max_kib=settings.max_source_bytes // 1024,
            limits=text,
            feedback_note=feedback.describe(problem.spec.feedback),
        )

    @app.post("/problems/{problem_id}/submit", max_body_size=submit_bytes)
    def submit(
        request: Request,
        problem_id: str,
        language: str = Form("auto"),
        source: str = Form(""),
        file: UploadFile | None = File(None),
    ) -> Response:
        user = require_user(request)
        problem = problem_or_404(problem_id)
        back = f"/problems/{problem.id}#submit"
        if file is not None and file.filename:
            name = file.filename
            if any(bad in name for bad in ("/", "\\", "\0")) or name.startswith(".") or ".." in name or len(name) > 128:
                raise WebError(
                    400,
                    f"The file name {name!r} looks like a path; upload a plain file name such as main.cpp.",
                    back,
                    "Back to the form",
                )
            data = file.file.read(settings.max_source_bytes + 1)
        else:
            name = "pasted"
            data = source.replace("\r\n", "\n").encode("utf-8")
        if len(data) > settings.max_source_bytes:
            raise WebError(
                413, f"The source is over the {settings.max_source_bytes // 1024} KiB limit.", back, "Back to the form"
            )
        if not data.strip():
            raise WebError(400, "The submission is empty.", back, "Back to the form")
        if b"\0" in data:
            raise WebError(400, "This is a binary file, not source code.", back, "Back to the form")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError(400, "The source is not UTF-8 text.", back, "Back to the form") from None
        known = ", ".join(table.languages)
        if language == "auto":
            if name == "pasted":
                raise WebError(400, f"Choose the language of pasted source ({known}).", back, "Back to the form")
            try:
                chosen = table.detect(Path(name)).id
            except JudgeError:
                raise WebError(
                    400, f"Unknown language for {name!r}: choose one of {known}.", back, "Back to the form"
                ) from None
        elif language in table.languages:
            chosen = language
        else:
            raise WebError(400, f"Unknown language {language!r}: choose one of {known}.", back, "Back to the form")
        try:
            submission_id = store.submit(user.id, problem.id, chosen, name, data)
        except PendingError as err:
            raise WebError(
                429, f"Wait for your last submission to be judged ({err}).", "/submissions", "My submissions"
            ) from None
        return RedirectResponse(f"{base(request)}/submissions/{submission_id}", status_code=303)

    # --- watching submissions ---------------------------------------------------------------------

    def visible(user: User, submission_id: int) -> SubmissionRow:
        found = store.get(submission_id)
        # Another student's submission is "not found": its existence is not theirs to know.
        if found is None or (found.student != user.id and user.role != "teacher"):
            raise WebError(404, f"There is no submission {submission_id} of yours.", "/submissions", "My submissions")
        return seen_by(user, found)

    def seen_by(user: User, found: SubmissionRow) -> SubmissionRow:
        """A submission as its reader may see it now: to a student, a judged one is still
        running until the end of its judging's last whole step (Settings.result_step_s)."""
        if user.role == "teacher" or found.status != "done" or found.released(settings.result_step_s, clock()):
            return found
        return dataclasses.replace(found, status="running", verdict=None, score=None)

    def record_for(found: SubmissionRow) -> GradeRecord | None:
        return store.record(found.id) if found.status == "done" else None

    def shown_to(user: User, record: GradeRecord) -> feedback.Shown:
        """The one place a record is cut for its reader: the teacher sees it whole."""
        if user.role == "teacher":
            return feedback.for_teacher(record)
        return feedback.for_student(record, problems.get(record.problem))

    def status_for(user: User, found: SubmissionRow) -> str:
        # "running case k of n", polled, would time each secret case: students see the stage only.
        return found.status_text if user.role == "teacher" else found.status

    @app.get("/submissions", response_class=HTMLResponse)
    def my_submissions(request: Request) -> HTMLResponse:
        user = require_user(request)
        mine = [seen_by(user, s) for s in store.of_student(user.id)]
        return page(
            request,
            "web/submissions.html.j2",
            user=user,
            submissions=mine,
            show_student=False,
            heading="My submissions",
            refresh=2 if any(s.pending for s in mine) else 0,
        )

    @app.get("/submissions/{submission_id}", response_class=HTMLResponse)
    def submission_page(request: Request, submission_id: int) -> HTMLResponse:
        user = require_user(request)
        found = visible(user, submission_id)
        record = record_for(found)
        if record is None:
            return page(request, "web/pending.html.j2", user=user, s=found, status=status_for(user, found), refresh=1)
        source = store.source(submission_id).decode("utf-8", errors="replace").splitlines()
        asked = store.explanation(submission_id)
        section, note, action, refresh = "", "", "", 0
        if asked is not None and asked.status == "done":
            made = stored.from_json(asked.result) if asked.result is not None else None
            if made is not None:
                if user.role != "teacher":
                    made = made.for_student()
                section = str(render.html_section(made))
            else:
                note = f"No explanation could be made: {asked.error or 'its record is damaged'}."
        elif asked is not None:
            note = (
                f"Explaining: searching fresh inputs for the smallest one this program fails on "
                f"(up to {settings.explain_budget_s:g} s once a worker is free; this page refreshes itself)."
            )
            refresh = 3
        elif explainable(record):
            action = f"{base(request)}/submissions/{submission_id}/explain"
        html = reports.submission_html(
            shown_to(user, record),
            problems.get(record.problem),
            {},
            f"{base(request)}/submissions",
            source,
            back_label="my submissions",
            explanation=Markup(section),
            explain_action=action,
            explain_note=note,
            refresh=refresh,
        )
        return HTMLResponse(html)

    def explainable(record: GradeRecord) -> bool:
        return settings.explains_per_hour > 0 and stored.wanted(record, problems)

    @app.post("/submissions/{submission_id}/explain", max_body_size=FORM_BYTES)
    def explain(request: Request, submission_id: int) -> Response:
        user = require_user(request)
        found = visible(user, submission_id)
        record = record_for(found)
        back = f"/submissions/{submission_id}"
        if record is None or not explainable(record):
            raise WebError(
                400,
                "Only a judged submission that failed a case (WA, RE, TLE, MLE, OLE) can be explained.",
                back,
                "Back to the submission",
            )
        try:
            store.request_explanation(submission_id, found.student, settings.explains_per_hour)
        except PendingError as err:
            raise WebError(429, f"Not now: {err}.", back, "Back to the submission") from None
        return RedirectResponse(f"{base(request)}/submissions/{submission_id}#explain-note", status_code=303)

    @app.get("/api/submissions/{submission_id}")
    def submission_status(request: Request, submission_id: int) -> JSONResponse:
        user = require_user(request)
        found = visible(user, submission_id)
        record = record_for(found)
        shown = shown_to(user, record) if record is not None else None
        body: dict[str, object] = {
            "id": found.id,
            "problem": found.problem,
            "language": found.language,
            "status": found.status,
            "status_text": status_for(user, found),
            "verdict": found.verdict,
            "score": found.score,
            "max_score": found.max_score,
            "feedback": shown.level if shown is not None else None,
            "groups": [dataclasses.asdict(g) for g in shown.groups] if shown is not None else [],
            "cases": [dataclasses.asdict(c) for c in shown.cases] if shown is not None else [],
        }
        if user.role == "teacher":
            body |= {"case_done": found.case_done, "case_total": found.case_total}
        return JSONResponse(body)

    # --- the teacher ----------------------------------------------------------------------------

    @app.get("/teacher", response_class=HTMLResponse)
    def dashboard(request: Request, message: str = "") -> HTMLResponse:
        user = require_teacher(request)
        every = store.all()
        counts = {
            "queued": sum(s.status == "queued" for s in every),
            "judging": sum(s.status in ("compiling", "running") for s in every),
            "done": sum(s.status == "done" for s in every),
        }
        students = sum(1 for u, _ in store.users() if u.role == "student")
        return page(
            request,
            "web/dashboard.html.j2",
            user=user,
            counts=counts,
            students=students,
            problems=sorted(problems),
            sandbox=sandbox.detect().mode,
            message=message,
        )

    @app.get("/teacher/class", response_class=HTMLResponse)
    def class_matrix(request: Request) -> HTMLResponse:
        require_teacher(request)
        latest = store.latest_records()
        ids = {(r.student, r.problem): i for i, r in latest}
        records = [r for _, r in latest]
        prefix = base(request)
        view = reports.class_view(
            records, problems, {}, [], link=lambda r: f"{prefix}/submissions/{ids[(r.student, r.problem)]}"
        )
        generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        html = reports.index_html(
            view,
            records,
            {},
            sandbox.detect().mode,
            generated,
            back=f"{prefix}/teacher",
            back_label="dashboard",
            files_footer=False,
            refresh=10,
        )  # live: new verdicts appear without a reload
        return HTMLResponse(html)

    @app.get("/teacher/grades.csv")
    def grades(request: Request) -> Response:
        require_teacher(request)
        records = [r for _, r in store.latest_records()]
        view = reports.class_view(records, problems, {}, [])
        return Response(
            reports.grades_csv(view),
            media_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="grades.csv"'},
        )

    @app.get("/teacher/submissions", response_class=HTMLResponse)
    def every_submission(request: Request) -> HTMLResponse:
        user = require_teacher(request)
        every = list(reversed(store.all()))
        return page(
            request,
            "web/submissions.html.j2",
            user=user,
            submissions=every,
            show_student=True,
            heading="Every submission",
            refresh=3 if any(s.pending for s in every) else 0,
        )

    @app.post("/teacher/sessions", max_body_size=FORM_BYTES)
    def end_sessions(request: Request, student: str = Form(...)) -> Response:
        require_teacher(request)
        if store.user(student.strip()) is None:
            raise WebError(404, f"There is no {student.strip()!r} on the roster.", "/teacher", "Dashboard")
        count = store.end_sessions(student.strip())
        return RedirectResponse(
            f"{base(request)}/teacher?message=" + f"{count}+session(s)+of+{student.strip()}+ended", status_code=303
        )

    @app.post("/teacher/rejudge", max_body_size=FORM_BYTES)
    def rejudge(request: Request, problem: str = Form(...)) -> Response:
        require_teacher(request)
        problem_or_404(problem)
        try:  # the fixed problem is what the pages show from now on
            problems[problem] = load_problem(problems[problem].directory)
        except JudgeError as err:
            raise WebError(
                400, f"The problem does not load, so nothing was queued: {err}", "/teacher", "Dashboard"
            ) from None
        count = store.rejudge(problem)
        return RedirectResponse(
            f"{base(request)}/teacher?message=" + f"{count}+submission(s)+of+{problem}+queued+again", status_code=303
        )

    return app
