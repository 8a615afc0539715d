"""The routes every logged-in user has: the problems, submitting, and their own submissions
(a teacher sees anyone's), each cut to what its reader may see (Site.shown_to)."""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markdown_it import MarkdownIt
from markupsafe import Markup

from judge.errors import JudgeError
from judge.explain import render, stored
from judge.grade import feedback, reports
from judge.problem import testdata
from judge.problem.spec import Problem
from judge.web.auth import require_user
from judge.web.site import FORM_BYTES, Site, WebError, base, site_of
from judge.web.store import PendingError, SubmissionRow, User


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


def problem_list(request: Request, user: User = Depends(require_user), site: Site = Depends(site_of)) -> HTMLResponse:
    best: dict[str, SubmissionRow] = {}
    for s in (site.seen_by(user, found) for found in site.store.of_student(user.id)):
        if not s.pending and (s.problem not in best or (s.score or 0.0) > (best[s.problem].score or 0.0)):
            best[s.problem] = s
    rows = [
        {"id": p.id, "title": p.spec.title, "points": sum(g.points for g in p.spec.groups), "best": best.get(p.id)}
        for p in site.problems.values()
    ]
    return site.page(request, "web/problems.html.j2", user=user, problems=rows)


def problem_page(
    request: Request, problem_id: str, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    problem = site.problem_or_404(problem_id)
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
    return site.page(
        request,
        "web/problem.html.j2",
        user=user,
        problem=problem,
        statement=statement_html(problem, site.markdown),
        samples=samples,
        languages=list(site.table.languages.values()),
        max_kib=site.settings.max_source_bytes // 1024,
        limits=text,
        feedback_note=feedback.describe(problem.spec.feedback),
    )


def _upload(site: Site, file: UploadFile | None, source: str, back: str) -> tuple[str, bytes]:
    """The submitted file's name and bytes (or the pasted text's), refused in one sentence
    when it is a path, too large, empty, binary or not UTF-8."""
    limit = site.settings.max_source_bytes
    if file is not None and file.filename:
        name = file.filename
        if any(bad in name for bad in ("/", "\\", "\0")) or name.startswith(".") or ".." in name or len(name) > 128:
            raise WebError(
                400,
                f"The file name {name!r} looks like a path; upload a plain file name such as main.cpp.",
                back,
                "Back to the form",
            )
        data = file.file.read(limit + 1)
    else:
        name = "pasted"
        data = source.replace("\r\n", "\n").encode("utf-8")
    if len(data) > limit:
        raise WebError(413, f"The source is over the {limit // 1024} KiB limit.", back, "Back to the form")
    if not data.strip():
        raise WebError(400, "The submission is empty.", back, "Back to the form")
    if b"\0" in data:
        raise WebError(400, "This is a binary file, not source code.", back, "Back to the form")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise WebError(400, "The source is not UTF-8 text.", back, "Back to the form") from None
    return name, data


def _language(site: Site, language: str, name: str, back: str) -> str:
    known = ", ".join(site.table.languages)
    if language == "auto":
        if name == "pasted":
            raise WebError(400, f"Choose the language of pasted source ({known}).", back, "Back to the form")
        try:
            return site.table.detect(Path(name)).id
        except JudgeError:
            raise WebError(
                400, f"Unknown language for {name!r}: choose one of {known}.", back, "Back to the form"
            ) from None
    if language in site.table.languages:
        return language
    raise WebError(400, f"Unknown language {language!r}: choose one of {known}.", back, "Back to the form")


def submit(
    request: Request,
    problem_id: str,
    language: str = Form("auto"),
    source: str = Form(""),
    file: UploadFile | None = File(None),
    user: User = Depends(require_user),
    site: Site = Depends(site_of),
) -> Response:
    problem = site.problem_or_404(problem_id)
    back = f"/problems/{problem.id}#submit"
    name, data = _upload(site, file, source, back)
    chosen = _language(site, language, name, back)
    try:
        submission_id = site.store.submit(user.id, problem.id, chosen, name, data)
    except PendingError as err:
        raise WebError(
            429, f"Wait for your last submission to be judged ({err}).", "/submissions", "My submissions"
        ) from None
    return RedirectResponse(f"{base(request)}/submissions/{submission_id}", status_code=303)


def my_submissions(request: Request, user: User = Depends(require_user), site: Site = Depends(site_of)) -> HTMLResponse:
    mine = [site.seen_by(user, s) for s in site.store.of_student(user.id)]
    return site.page(
        request,
        "web/submissions.html.j2",
        user=user,
        submissions=mine,
        show_student=False,
        heading="My submissions",
        refresh=2 if any(s.pending for s in mine) else 0,
    )


def submission_page(
    request: Request, submission_id: int, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    found = site.visible(user, submission_id)
    record = site.record_for(found)
    if record is None:
        return site.page(
            request, "web/pending.html.j2", user=user, s=found, status=site.status_for(user, found), refresh=1
        )
    source = site.store.source(submission_id).decode("utf-8", errors="replace").splitlines()
    asked = site.store.explanation(submission_id)
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
            f"(up to {site.settings.explain_budget_s:g} s once a worker is free; this page refreshes itself)."
        )
        refresh = 3
    elif site.explainable(record):
        action = f"{base(request)}/submissions/{submission_id}/explain"
    page = reports.submission_html(
        site.shown_to(user, record),
        site.problems.get(record.problem),
        {},
        f"{base(request)}/submissions",
        source,
        back_label="my submissions",
        explanation=Markup(section),
        explain_action=action,
        explain_note=note,
        refresh=refresh,
    )
    return HTMLResponse(page)


def explain(
    request: Request, submission_id: int, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> Response:
    found = site.visible(user, submission_id)
    record = site.record_for(found)
    back = f"/submissions/{submission_id}"
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
    return RedirectResponse(f"{base(request)}/submissions/{submission_id}#explain-note", status_code=303)


def routes(site: Site) -> APIRouter:
    router = APIRouter()
    router.add_api_route("/", problem_list, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/problems/{problem_id}", problem_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/problems/{problem_id}/submit", submit, methods=["POST"], max_body_size=site.submit_bytes)
    router.add_api_route("/submissions", my_submissions, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/submissions/{submission_id}", submission_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/submissions/{submission_id}/explain", explain, methods=["POST"], max_body_size=FORM_BYTES)
    return router
