"""Run (issue 59): the problem page's code tried on the public samples, or on the student's own
input, before it is submitted. A run is judged by the workers like a submission (the same
sandbox and limits) but only on public cases, is in no quota and no gradebook, and is kept
apart from submissions (state/runs.py). One at a time per student, and at most the course's
`runs_per_minute`."""

from __future__ import annotations

import math
from collections.abc import Callable

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judge.kinds import table as kinds
from judge.problem.spec import Problem
from judge.run import sources
from judge.web import examining
from judge.web import trying as tried
from judge.web.routes import door
from judge.web.routes.auth import require_user
from judge.web.routes.site import Site, WebError, base, site_of
from judge.web.state.accounts import User
from judge.web.state.queueing import PendingError, RateError
from judge.web.state.runs import RunOffError

OWN_INPUT_BYTES = 16 * 1024  # the most a student's own input may hold
# Kinds where one's own input means something: a program's stdin, a function's call.
OWN_INPUT_KINDS = ("stdio", "functions")


def own_input_allowed(kind: str) -> bool:
    return kind in OWN_INPUT_KINDS


def own_scenario(problem: Problem) -> tuple[str, str]:
    """(the class, a method of it) whose scenario one's own input is on a class-shaped function
    problem; ("", "") on any other problem."""
    from judge.kinds.functions import types

    if problem.spec.signature is None:  # only the function kind has a signature
        return "", ""
    try:
        api = types.parse_api(problem.spec.signature)
    except ValueError:
        return "", ""
    if not isinstance(api, types.ClassSignature):
        return "", ""
    return api.name, api.methods[0].name if api.methods else "method"


# The problem page drawn again (routes/student.py's problem_view, handed to add_routes: that
# module imports this one): status, error, source, language, and Run's own input with its refusal.
ProblemView = Callable[..., HTMLResponse]
TEXT_FIELDS = ("source", "own_input")  # a form's text the program reads: UTF-8, or refused


def own_input_refusal(problem: Problem, given: str, not_utf8: frozenset[str]) -> str:
    """Why the student's own input cannot be run, in one line ("" when it can): its bytes are not
    UTF-8 (Starlette would have read them as Latin-1), or on a function problem it is no call of
    the signature. Asked before the run is counted, so a malformed call costs none. `not_utf8`:
    the form's fields that are not UTF-8 (door.not_utf8)."""
    if "own_input" in not_utf8:
        return "Your input is not UTF-8 text: save it as UTF-8 (a run reads text), then paste it again."
    if problem.spec.signature is not None:
        _, issue = tried.call_of(problem.spec.signature, given)
        return f"{issue[:1].upper()}{issue[1:]}." if issue else ""
    return ""


def run_route(view: ProblemView) -> Callable[..., Response]:
    """The endpoint that queues a run of the form's code; its page follows it. A refusal about
    the student's own input shows the problem page again, the reason beside the input box."""

    def start_run(
        request: Request,
        problem_id: str,
        language: str = Form("auto"),
        source: str = Form(""),
        own_input: str = Form(""),
        on: str = Form("samples"),
        file: UploadFile | None = File(None),
        user: User = Depends(require_user),
        site: Site = Depends(site_of),
    ) -> Response:
        problem, assignment = site.open_problem(user, problem_id)
        back = f"/problems/{problem.id}#submit"
        # A run after one's end would go on trying the exam's problem: refused as a submission is.
        ended = examining.ended_for(site.course, site.exams, assignment, user.id, user.role, site.clock())
        if ended is not None:
            raise WebError(ended.status, ended.message, back, "Back")
        if kinds.of(problem).takes_data:  # a student's tests are data, judged whole against the bugs
            raise WebError(400, "A tests problem has no Run: submit your tests to have them judged.", back, "Back")
        wrong = door.not_utf8(request.headers.get("content-type", ""), door.raw_body(request), TEXT_FIELDS)
        if "source" in wrong:
            raise WebError(400, "The source is not UTF-8 text: save it as UTF-8 and send it again.", back, "Back")
        given: str | None = None
        if on == "input":
            if not own_input_allowed(kinds.of(problem).name):
                raise WebError(400, "This problem's program reads no input: Run it on the samples.", back, "Back")
            given = own_input.replace("\r\n", "\n")
            if len(given.encode("utf-8")) > OWN_INPUT_BYTES:
                raise WebError(413, f"Your input is over the {OWN_INPUT_BYTES // 1024} KiB a run takes.", back, "Back")
            refused = own_input_refusal(problem, given, wrong)
            if refused:
                kept = source if len(source) <= 2 * site.settings.max_source_bytes else ""
                return view(request, site, user, problem, assignment, 400, "", kept, language, given, refused)
        name, data = door.read_upload(site, file, source, back)
        program = door.program_of(site, problem, language, name, data, back, door.default_language(site, user, problem))
        record = (program.language.id, name, data, sources.as_record(program))
        # A teacher may try as much as they like; a student by the course's cap.
        cap = site.course.runs_per_minute if user.role == "student" else max(site.course.runs_per_minute, 1000)
        try:
            held = 0.0 if user.can_grade else site.settings.result_step_s  # until the result is shown
            run_id = site.runs.ask(user.id, problem.id, record, given, cap, held_s=held)
        except RunOffError:
            raise WebError(403, "This course has no Run: submit to have your code judged.", back, "Back") from None
        except PendingError:
            raise WebError(429, "Your last run is still running: wait for its result.", back, "Back") from None
        except RateError as err:
            raise WebError(
                429,
                f"{err.count} runs in the last minute is the most allowed; try again in {math.ceil(err.wait_s)} s.",
                back,
                "Back",
            ) from None
        return RedirectResponse(f"{base(request)}/runs/{run_id}", status_code=303)

    return start_run


def run_page(
    request: Request, run_id: int, user: User = Depends(require_user), site: Site = Depends(site_of)
) -> HTMLResponse:
    found = site.runs.get(run_id)
    # Another's run does not exist for a student, as another's submission does not.
    if found is None or (found.student != user.id and not user.can_grade):
        raise WebError(404, f"There is no run {run_id}.")
    pending = found.status != "done"
    language = site.table.languages.get(found.language)
    return site.page(
        request,
        "web/run.html.j2",
        user=user,
        run=found,
        language=language.name if language is not None else found.language,
        pending=pending,
        refresh=1 if pending else 0,
    )


def add_routes(router: APIRouter, site: Site, view: ProblemView) -> None:
    # The body of a submission, and the student's own input beside it, its bytes kept (RawRoute).
    router.add_api_route(
        "/problems/{problem_id}/run",
        run_route(view),
        methods=["POST"],
        max_body_size=site.submit_bytes + OWN_INPUT_BYTES,
        route_class_override=door.RawRoute,
    )
    router.add_api_route("/runs/{run_id}", run_page, methods=["GET"], response_class=HTMLResponse)
