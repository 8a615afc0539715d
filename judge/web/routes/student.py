"""The routes every logged-in user has: the problems, submitting, and their own submissions
(a teacher sees anyone's), each cut to what its reader may see (Site.shown_to)."""

from __future__ import annotations

import asyncio
import hashlib
import html
import math
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from sse_starlette.sse import EventSourceResponse

from judge.course import policy, rubric
from judge.course.gradebook import Counted
from judge.course.spec import MINUTE, Assignment
from judge.errors import JudgeError
from judge.explain import render, stored
from judge.grade import feedback, highlight, reports
from judge.kinds import shown
from judge.kinds import table as kinds
from judge.problem.spec import Problem
from judge.run import sources
from judge.web import examining
from judge.web.routes import door, suites, trying
from judge.web.routes.auth import require_user
from judge.web.routes.door import default_language, program_of, read_upload
from judge.web.routes.site import FORM_BYTES, Site, WebError, base, site_of
from judge.web.state import live
from judge.web.state.accounts import User
from judge.web.state.queueing import PendingError, QuotaError, RateError
from judge.web.state.store import SubmissionRow
from judge.web.state.teams import TeamError


@dataclass(frozen=True)
class ProblemLine:
    id: str
    title: str
    points: float
    cell: Counted | None  # the counted score (None: a teacher's view without a row)
    used: str  # "3 of 20 used", "3 used", ""


@dataclass(frozen=True)
class AssignmentView:
    """One assignment as its reader sees it on the home page."""

    id: str
    title: str
    phase: str
    announcement: str
    deadline: str  # "due Tue 8 Dec 2026 23:59 CET (in 2 days 3 h)", "closed at ...", ""
    late: str  # what a late submission costs, "" if none may be late
    problems: tuple[ProblemLine, ...]  # empty while not open
    total: float | None
    max_total: float
    scoreboard: bool


def deadline_text(site: Site, user: User, assignment: Assignment) -> tuple[str, str]:
    """The deadline line and the late line of an assignment, for this reader, now."""
    win, now = site.window(user, assignment), site.now()
    phase = policy.standing(site.course, win, now).phase
    extended = " (your extension)" if win.extended else ""
    late = ""
    if win.late_end is not None and phase is not policy.Phase.CLOSED:
        late = f"late until {site.when(win.late_end - MINUTE)}: {win.penalty_per_day:g}% of the score per started day"
    if phase is policy.Phase.NOT_OPEN and win.opens is not None:
        return f"opens {site.when(win.opens)} (in {policy.until_text(win.opens - now)})", late
    if win.due_end is None:
        return "no deadline", late
    due = site.when(win.due_end - MINUTE)
    if phase is policy.Phase.OPEN:
        return f"due {due}{extended} (in {policy.until_text(win.due_end - now)})", late
    if phase is policy.Phase.LATE:
        assert win.late_end is not None
        standing = policy.standing(site.course, win, now)
        return (
            f"was due {due}{extended}; a submission now is late: -{standing.penalty:g}% "
            f"(closes in {policy.until_text(win.late_end - now)})",
            late,
        )
    closed = win.closes or win.due_end
    return f"closed {site.when(closed - MINUTE)}", ""


def used_text(site: Site, user: User, assignment: Assignment | None, problem: str) -> str:
    if assignment is not None and assignment.teams is not None:  # the team's quota, used by any member
        used = site.team_book.used(assignment.id, user.id, problem)
    else:
        used = site.store.used(user.id, problem)
    if assignment is not None and assignment.max_submissions is not None:
        return f"{used} of {assignment.max_submissions} used"
    return f"{used} used" if used else ""


def problem_list(request: Request, user: User = Depends(require_user), site: Site = Depends(site_of)) -> HTMLResponse:
    book = site.book_of(user) if user.role == "student" else None
    judged = {pid: problem.max_score for pid, problem in site.problems.items()}
    # Out of what the gradebook's column is: with a review, its rule's maximum (add: both; replace: max).
    maxes = judged | {
        p: rubric.maximum(a.review, judged[p]) for a in site.course.assignments for p in a.problems if p in judged
    }
    views = []
    for assignment in site.course.assignments:
        phase = site.standing(user, assignment).phase
        shown = user.can_grade or phase is not policy.Phase.NOT_OPEN
        lines = tuple(
            ProblemLine(
                p,
                site.problems[p].spec.title,
                maxes[p],
                book.cell(user.id, p) if book is not None else None,
                used_text(site, user, assignment, p),
            )
            for p in assignment.problems
            if shown
        )
        row = book.row(user.id) if book is not None else None
        index = site.course.assignments.index(assignment)
        deadline, late = deadline_text(site, user, assignment)
        views.append(
            AssignmentView(
                assignment.id,
                assignment.name,
                str(phase),
                assignment.announcement if shown else "",
                deadline,
                late,
                lines,
                row.totals[index] if row is not None else None,
                sum(maxes[p] for p in assignment.problems),
                assignment.scoreboard != "off" and shown,
            )
        )
    return site.page(
        request,
        "web/problems.html.j2",
        user=user,
        title=site.course.title or "Problems",
        assignments=views,
        implicit=site.course.path is None,
        teamed={a.id for a in site.course.assignments if a.teams is not None},
    )


# Ace's mode of each language id (the editor's highlighting); "text" for the others.
EDITOR_MODES = {
    "c": "c_cpp", "cpp": "c_cpp", "cpp20": "c_cpp", "python3": "python", "pypy3": "python", "java": "java",
    "kotlin": "kotlin", "scala": "scala", "csharp": "csharp", "go": "golang", "rust": "rust",
    "javascript": "javascript", "typescript": "typescript", "haskell": "haskell", "ocaml": "ocaml",
    "pascal": "pascal", "fortran": "fortran", "ruby": "ruby", "php": "php", "lua": "lua", "perl": "perl",
    "prolog": "prolog", "lisp": "lisp",
}  # fmt: skip
EDITOR = Path(__file__).parent.parent / "static" / "ace" / "ace.js"


def starters_of(site: Site, problem: Problem) -> dict[str, str]:
    """The starting file's text per language, for the editor (empty: the kind has none)."""
    made: dict[str, str] = {}
    for language in kinds.of(problem).starter_languages(problem):
        if language in site.table.languages:
            try:
                made[language] = kinds.of(problem).starter_file(problem, language)[1]
            except JudgeError:
                continue  # a language that cannot hold the signature: no starter in it
    return made


def problem_page(
    request: Request, problem_id: str, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    problem, assignment = site.open_problem(user, problem_id)
    return problem_view(request, site, user, problem, assignment)


def problem_view(
    request: Request,
    site: Site,
    user: User,
    problem: Problem,
    assignment: Assignment | None,
    status: int = 200,
    error: str = "",
    source: str = "",
    language: str = "",
    own_text: str = "",
    own_error: str = "",
) -> HTMLResponse:
    """The problem page; after a refused submission, with why and the code sent, kept; after a
    refused Run on one's own input, the input kept and why beside it (`own_error`)."""
    fallback = default_language(site, user, problem)
    chosen = language or fallback or "auto"
    statement_part, samples = shown.page_parts(problem, chosen if chosen != "auto" else "", site.table.languages)
    limits = problem.spec.limits
    multipliers = ", ".join(f"{lang} {m:g}×" for lang, m in limits.time_multipliers.items())
    text = f"{limits.time_s:g} s CPU{f' ({multipliers})' if multipliers else ''}, {limits.memory_mib} MiB"
    starters = starters_of(site, problem)
    return site.page(
        request,
        "web/problem.html.j2",
        status,
        user,
        problem=problem,
        statement=statement_part,
        samples=samples,
        languages=list(site.table.languages.values()),
        modes=EDITOR_MODES,
        editor=EDITOR.is_file(),
        default_language=site.table.languages.get(fallback) if fallback else None,
        chosen=chosen,
        # Without scripts too, an empty editor holds the starter of the language it is in.
        source_text=source or ("" if error else starters.get(chosen, "")),
        starters=starters,
        runs=site.course.runs_per_minute > 0,
        own_input=trying.own_input_allowed(kinds.of(problem).name),
        own_call_example=samples[0].call if samples and samples[0].call else "f(...)",
        own_scenario=trying.own_scenario(problem),
        own_text=own_text,
        own_error=own_error,
        error=error,
        max_kib=site.settings.max_source_bytes // 1024,
        limits=text,
        feedback_note=feedback.describe(
            feedback.level_for(problem, assignment.feedback if assignment is not None else None)
        ),
        deadline=deadline_text(site, user, assignment) if assignment is not None else ("", ""),
        used=used_text(site, user, assignment, problem.id),
        starter=starter_view(site, problem, request.query_params.get("lang", "")),
        tests_form=suites.form_of(site, problem, source, bool(error)),
        **own_submissions(site, user, problem),
    )


OWN_SHOWN = 20  # a student's newest submissions of a problem listed on its page


def own_submissions(site: Site, user: User, problem: Problem) -> dict[str, object]:
    """The reader's own submissions of this problem, newest first, with the gradebook's marks:
    which one counts, and which were late (course/gradebook.py, the one rule)."""
    mine = [site.seen_by(user, r) for r in site.store.of_student(user.id) if r.problem == problem.id]
    mine = mine[:OWN_SHOWN]
    counted = None
    if user.role == "student" and mine:
        cell = site.book_of(user).cell(user.id, problem.id)
        counted = cell.submission if cell is not None else None
    return {"mine": mine, "mine_marks": site.marks(mine), "counted": counted}


@dataclass(frozen=True)
class StarterView:
    """A function problem's starting file in the language the student chose (?lang=)."""

    language: str
    offered: tuple[tuple[str, str], ...]  # (id, name) of every language it is written in
    name: str  # the file's name ("" when the language cannot hold the signature)
    text: str  # the file, or why there is none


def starter_view(site: Site, problem: Problem, asked: str) -> StarterView | None:
    offered = tuple(
        (lang, site.table.languages[lang].name)
        for lang in kinds.of(problem).starter_languages(problem)
        if lang in site.table.languages
    )
    if not offered:
        return None
    language = asked if asked in dict(offered) else offered[0][0]
    try:
        name, text = kinds.of(problem).starter_file(problem, language)
    except JudgeError as err:
        return StarterView(language, offered, "", str(err).split(": ", 1)[-1])
    return StarterView(language, offered, name, text)


def starter_file(
    request: Request,
    problem_id: str,
    language: str,
    user: User = Depends(require_user),
    site: Site = Depends(site_of),
) -> Response:
    """The starting file as a download, under its own name."""
    problem, _ = site.open_problem(user, problem_id)
    shown = starter_view(site, problem, language)
    if shown is None or shown.language != language or not shown.name:
        back = f"{base(request)}/problems/{problem_id}"
        raise WebError(404, f"There is no starter file of {problem_id} in {language!r}.", back, "Back to the problem")
    return Response(
        shown.text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{shown.name}"'},
    )


def submit(
    request: Request,
    problem_id: str,
    language: str = Form("auto"),
    source: str = Form(""),
    file: UploadFile | None = File(None),
    user: User = Depends(require_user),
    site: Site = Depends(site_of),
) -> Response:
    problem, assignment = site.open_problem(user, problem_id)
    # Starlette reads a field that is not UTF-8 as Latin-1 without a word: the bytes tell.
    garbled = bool(door.not_utf8(request.headers.get("content-type", ""), door.raw_body(request), ("source",)))
    try:
        if garbled:
            back = f"/problems/{problem.id}#submit"
            raise WebError(400, "The source is not UTF-8 text: save it as UTF-8 and send it again.", back)
        submission_id = _accept(site, user, problem, assignment, language, source, file)
    except WebError as err:
        # Refused: the problem page again, saying why, with the pasted code (read as it was
        # meant: never a Latin-1 reading) and the language kept.
        kept = source if len(source) <= 2 * site.settings.max_source_bytes and not garbled else ""
        return problem_view(request, site, user, problem, assignment, err.status_code, err.message, kept, language)
    return RedirectResponse(f"{base(request)}/submissions/{submission_id}", status_code=303)


def _accept(
    site: Site,
    user: User,
    problem: Problem,
    assignment: Assignment | None,
    language: str,
    source: str,
    file: UploadFile | None,
) -> int:
    """A submission checked and queued (its id), or WebError saying why it was refused."""
    back = f"/problems/{problem.id}#submit"
    quota = None
    received = site.clock()  # one reading: the stamp is the moment the deadline was checked at
    if assignment is not None and user.role == "student":
        if assignment.exam is not None:  # after the student's own end (a replayed form too): refused
            refused = examining.submit_refusal(site.course, site.exams, assignment, user.id, received)
            if refused is not None:
                raise WebError(refused.status, refused.message, back)
        win = site.window(user, assignment)
        if not policy.standing(site.course, win, datetime.fromtimestamp(received, UTC)).accepted:
            closed = win.closes or datetime.fromtimestamp(received, UTC)
            raise WebError(
                403, f"{assignment.name} closed at {site.when(closed - MINUTE)}; nothing more is accepted.", back
            )
        quota = assignment.max_submissions
    identified: bytes | None = None  # a kind that takes data (tests) is read by its kind again when judged
    if kinds.of(problem).takes_data:
        name, data = suites.upload_of(site, problem, file, source, back)
        language = kinds.of(problem).name
    else:
        name, data = read_upload(site, file, source, back)
        program = program_of(site, problem, language, name, data, back, default_language(site, user, problem))
        language, identified = program.language.id, sources.as_record(program)
    try:
        return site.store.submit(
            user.id,
            problem.id,
            language,
            name,
            data,
            now=received,
            quota=quota,
            per_minute=site.settings.per_minute if user.role == "student" else 0,
            # A team assignment's submission is the student's team's: stamped, and in its quota.
            team=assignment.teams if assignment is not None and user.role == "student" else None,
            assignment=assignment.id if assignment is not None else "",
            program=identified,
            # A student's door stays shut until their result is shown, at its result step.
            held_s=0.0 if user.can_grade else site.settings.result_step_s,
        )
    except PendingError as err:
        raise WebError(
            429, f"Wait for your last submission to be judged ({err}).", "/submissions", "My submissions"
        ) from None
    except QuotaError as err:
        raise WebError(
            429, f"No submissions left for {problem.id}: {err.used} of {err.cap} used.", back, "Back to the problem"
        ) from None
    except RateError as err:
        raise WebError(
            429,
            f"{err.count} submissions in the last minute is the most allowed; try again in {math.ceil(err.wait_s)} s.",
            back,
            "Back to the problem",
        ) from None
    except TeamError as err:
        raise WebError(
            err.status, str(err), f"/assignments/{assignment.id if assignment else ''}/team", "Your team"
        ) from None


def _source_lines(data: bytes, filename: str, language: str) -> list[Markup]:
    """A submission's highlighted lines as its page shows them: an archive's files one after another."""
    if sources.is_archive(Path(filename)):
        try:
            files = sources.archive_files(Path(filename), data)
        except JudgeError as err:
            return [Markup(html.escape(f"(the archive cannot be shown: {err})"))]
        shown = [(name, body.decode("utf-8", errors="replace")) for name, body in files if b"\0" not in body]
    else:
        shown = [(filename, data.decode("utf-8", errors="replace"))]
    return [Markup(line) for line in highlight.files_lines(shown, language)]


def my_submissions(request: Request, user: User = Depends(require_user), site: Site = Depends(site_of)) -> HTMLResponse:
    mine = [site.seen_by(user, s) for s in site.rows_of(user)]  # a teammate's that count for them too
    return site.submissions_page(request, user, mine, "My submissions", show_student=False, refresh_s=2)


def _back(user: User) -> tuple[str, str]:
    return ("/teacher/submissions", "Every submission") if user.can_grade else ("/submissions", "My submissions")


def live_view(site: Site, user: User, found: SubmissionRow) -> live.LiveView:
    """The judged cases of a pending submission its reader may see now (judge.web.state.live)."""
    entries = live.loads(site.store.live(found.id))
    if user.can_grade:
        return live.for_teacher(entries, found.case_total)
    problem = site.problems.get(found.problem)
    assignment = site.assignment_of(found.problem)
    level = feedback.level_for(problem, assignment.feedback if assignment is not None else None)
    public_total = site.public_cases(problem) if problem is not None else 0
    seen_at = live.cutoff(found.started, site.clock(), site.settings.result_step_s)
    return live.for_student(entries, public_total, found.case_total, level, seen_at)


def live_state(site: Site, user: User, submission_id: int) -> tuple[str, bool]:
    """A digest of what the submission's page shows its reader now, and whether it can change
    no more (judged, shown, and no explanation on its way)."""
    found = site.visible(user, submission_id)
    asked = site.store.explanation(submission_id)
    explaining = asked is not None and asked.status != "done"
    shown: object = (found.status, live_view(site, user, found)) if found.pending else (found.verdict, found.score)
    if user.can_grade:
        shown = (shown, found.status_text)
    key = hashlib.sha256(repr((shown, asked.status if asked is not None else None)).encode()).hexdigest()[:16]
    return key, not found.pending and not explaining


def _may_explain(site: Site, user: User, problem: str) -> bool:
    """Whether the page offers Explain: not where the request would be refused (an exam's)."""
    assignment = site.assignment_of(problem)
    return examining.explain_refusal(site.course, site.exams, assignment, user.id, user.role, site.clock()) is None


def submission_page(
    request: Request, submission_id: int, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    found = site.visible(user, submission_id)
    record = site.record_for(found)
    back, back_label = _back(user)
    key, finished = live_state(site, user, submission_id)
    live_url = "" if finished else f"{base(request)}/submissions/{submission_id}/events?since={key}"
    if record is None:
        return site.page(
            request,
            "web/pending.html.j2",
            user=user,
            s=found,
            status=found.status,  # the stage; the count is the live view's
            view=live_view(site, user, found),
            refresh=2,
            live_url=live_url,
            back=back,
            back_label=back_label,
        )
    source = _source_lines(site.store.source(submission_id), found.filename, found.language)
    asked = site.store.explanation(submission_id)
    section, note, action, refresh = "", "", "", 0
    if asked is not None and asked.status == "done":
        made = stored.from_json(asked.result) if asked.result is not None else None
        if made is not None:
            if not user.can_grade:
                made = made.for_student()
            section = str(render.html_section(made))
        else:
            note = f"No explanation could be made: {asked.error or 'its record is damaged'}."
    elif asked is not None:
        note = (
            f"Explaining: searching fresh inputs for the smallest one this program fails on "
            f"(up to {site.settings.explain_budget_s:g} s once a worker is free); the example appears here by itself."
        )
        refresh = 3
    elif site.explainable(record) and _may_explain(site, user, found.problem):
        action = f"{base(request)}/submissions/{submission_id}/explain"
    context = reports.submission_context(
        site.shown_to(user, record),
        site.problem_of(record.problem, found.student),
        {},
        back,
        source,
        back_label=back_label,
        explanation=Markup(section),
        explain_action=action,
        explain_note=note,
        notice=site.marks([found]).get(found.id, ""),
        io_link=f"{base(request)}/teacher/submissions/{submission_id}/io" if user.can_grade else "",
    )
    context |= {"s": found, "refresh": refresh, "live_url": live_url}
    context["tests_caught"] = suites.caught_line(site.problems.get(record.problem), record)
    if user.can_grade:  # a student knows their variant by its statement: its label is the teacher's
        context["variant"] = site.variant_label(record.problem, found.student)
    return site.page(request, "web/submission.html.j2", 200, user, **context)


POLL_S = 0.5  # how often a live page's stream looks at the store


def events(
    request: Request,
    submission_id: int,
    since: str = "",
    user: User = Depends(require_user),
    site: Site = Depends(site_of),
) -> EventSourceResponse:
    """Server-sent events of a submission's page: `change` when what its reader may see changed
    (the page then fetches itself again), `end` once nothing more can change."""
    site.visible(user, submission_id)  # 404 before the stream starts

    async def stream() -> AsyncIterator[dict[str, str]]:
        last = since
        while not await request.is_disconnected():
            key, finished = await asyncio.to_thread(live_state, site, user, submission_id)
            if key != last:
                last = key
                yield {"event": "change", "data": key}
            if finished:
                yield {"event": "end", "data": key}
                return
            await asyncio.sleep(POLL_S)

    return EventSourceResponse(stream(), ping=15, send_timeout=30)


def explain(
    request: Request, submission_id: int, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> Response:
    found = site.visible(user, submission_id)
    record = site.record_for(found)
    back = f"/submissions/{submission_id}"
    # An example with the reference's answer, on an exam's problem: inside one's window and where
    # the exam allows it only (after the end, refused as a run is).
    at, assignment = site.clock(), site.assignment_of(found.problem)
    ended = examining.explain_refusal(site.course, site.exams, assignment, user.id, user.role, at)
    if ended is not None:
        raise WebError(ended.status, ended.message, back, "Back to the submission")
    if record is None or not site.explainable(record):
        raise WebError(
            400,
            "Only a judged submission that failed a case (WA, RE, TLE, MLE, OLE) can be explained.",
            back,
            "Back to the submission",
        )
    try:
        site.store.request_explanation(submission_id, found.student, site.settings.explains_per_hour)
    except PendingError as err:
        raise WebError(429, f"Not now: {err}.", back, "Back to the submission") from None
    # No fragment: Chromium does not run a meta refresh on a URL with one (the fallback of
    # the page's live updates where scripts are off).
    return RedirectResponse(f"{base(request)}/submissions/{submission_id}", status_code=303)


def routes(site: Site) -> APIRouter:
    router = APIRouter()
    router.add_api_route("/", problem_list, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/problems/{problem_id}", problem_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route(
        "/problems/{problem_id}/submit",
        submit,
        methods=["POST"],
        max_body_size=site.submit_bytes,
        route_class_override=door.RawRoute,  # the form's bytes kept: a source that is not UTF-8 is refused
    )
    router.add_api_route("/problems/{problem_id}/starter/{language}", starter_file, methods=["GET"])
    trying.add_routes(router, site, problem_view)
    router.add_api_route("/submissions", my_submissions, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/submissions/{submission_id}", submission_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/submissions/{submission_id}/events", events, methods=["GET"])
    router.add_api_route("/submissions/{submission_id}/explain", explain, methods=["POST"], max_body_size=FORM_BYTES)
    return router
