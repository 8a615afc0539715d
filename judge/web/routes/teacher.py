"""The teacher's routes: the dashboard, the gradebook (whole, per assignment, and as
grades.csv: one Gradebook, so they agree with each other and with each student's page), a
student's history, what a program printed on every case, ending a student's sessions, and
judging a problem's or an assignment's submissions again. (The list of every submission,
filtered, is insight.py's.)"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judge.course import gradebook
from judge.course.gradebook import Column, Counted, Gradebook
from judge.course.spec import Assignment
from judge.errors import JudgeError
from judge.grade import runner
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.problem.testdata import CaseFiles
from judge.run import sandbox
from judge.web import variants
from judge.web.routes.auth import require_grader, require_teacher
from judge.web.routes.site import FORM_BYTES, Site, WebError, base, site_of
from judge.web.state import queueing
from judge.web.state.accounts import User, valid_user_id

REFRESH_S = 10  # the gradebook is live: new verdicts appear without a reload


def dashboard(
    request: Request, message: str = "", user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    every = site.store.all()
    counts = {
        "queued": sum(s.status == "queued" for s in every),
        "judging": sum(s.status in ("compiling", "running") for s in every),
        "done": sum(s.status == "done" for s in every),
    }
    return site.page(
        request,
        "web/dashboard.html.j2",
        user=user,
        counts=counts,
        students=len(site.store.students()),
        problems=sorted(site.problems),
        assignments=[] if site.course.path is None else site.course.assignments,
        course_file=str(site.course.path) if site.course.path is not None else "",
        notes=site.notes(),
        sizes=site.store.sizes(),
        submission_kib=queueing.IO_PER_SUBMISSION // 1024,
        student_mib=queueing.IO_PER_STUDENT >> 20,
        sandbox=sandbox.detect().mode,
        message=message,
    )


@dataclass(frozen=True)
class _Shown:
    column: Column
    cell: Counted


@dataclass(frozen=True)
class _Line:
    student: str
    cells: tuple[_Shown, ...]
    totals: tuple[float, ...]
    total: float


def _matrix(
    request: Request,
    site: Site,
    user: User,
    book: Gradebook,
    only: str,
    heading: str,
    info: str = "",
    announcement: str = "",
    rejudge_action: str = "",
) -> HTMLResponse:
    keep = [i for i, c in enumerate(book.columns) if not only or c.assignment == only]
    shown = [a for a in book.assignments if not only or a.id == only]
    index = [book.assignments.index(a) for a in shown]
    lines = [
        _Line(
            r.student,
            tuple(_Shown(book.columns[i], r.cells[i]) for i in keep),
            tuple(r.totals[i] for i in index),
            r.total,
        )
        for r in book.rows
    ]
    teamed = site.course.assignment(only) if only else None  # its teams' page is linked
    return site.page(
        request,
        "web/gradebook.html.j2",
        user=user,
        heading=heading,
        teams_of=only if teamed is not None and teamed.teams is not None else "",
        columns=[book.columns[i] for i in keep],
        totals_of=shown,
        maxes={a.id: book.max_of(a.id) for a in shown},
        max_total=book.max_total,
        rows=lines,
        people=site.store.people(),
        only=only,
        refresh=REFRESH_S,
        info=info,
        announcement=announcement,
        rejudge_action=rejudge_action,
    )


def class_matrix(request: Request, user: User = Depends(require_grader), site: Site = Depends(site_of)) -> HTMLResponse:
    title = site.course.title or "the class"
    return _matrix(request, site, user, site.book(), "", f"Gradebook of {title}")


def _assignment_or_404(site: Site, assignment_id: str) -> Assignment:
    assignment = site.course.assignment(assignment_id)
    if assignment is None:
        raise WebError(404, f"There is no assignment {assignment_id!r}.", "/teacher", "Dashboard")
    return assignment


def assignment_matrix(
    request: Request, assignment_id: str, user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    assignment = _assignment_or_404(site, assignment_id)
    win = [
        f"opens {site.when(assignment.opens)}" if assignment.opens else "",
        f"due {site.when(assignment.due)}" if assignment.due else "no deadline",
        f"late until {site.when(assignment.late.until)} at -{assignment.late.penalty_per_day:g}% per started day"
        if assignment.late
        else "",
        f"keep {assignment.keep}",
        f"at most {assignment.max_submissions} submissions per problem" if assignment.max_submissions else "",
        f"scoreboard {assignment.scoreboard}",
        f"teams of {assignment.teams.least} to {assignment.teams.most}" if assignment.teams else "",
    ]
    return _matrix(
        request,
        site,
        user,
        site.book(),
        assignment.id,
        assignment.name,
        info="; ".join(w for w in win if w),
        announcement=assignment.announcement,
        rejudge_action=f"{base(request)}/teacher/assignments/{assignment.id}/rejudge" if user.can_manage else "",
    )


def grades(_: User = Depends(require_grader), site: Site = Depends(site_of)) -> Response:
    return Response(
        gradebook.judge_csv(site.book(), site.store.names()),
        media_type="text/csv",
        headers={"Content-Disposition": 'attachment; filename="grades.csv"'},
    )


def student_history(
    request: Request, student: str, user: User = Depends(require_grader), site: Site = Depends(site_of)
) -> HTMLResponse:
    if not valid_user_id(student) or site.store.user(student) is None:
        raise WebError(404, f"There is no {student!r} on the roster.", "/teacher/class", "Gradebook")
    theirs = site.store.of_student(student)
    person = site.store.people().get(student)
    heading = f"Every submission of {person.label if person is not None else student}"
    had = [f"{p} {site.variant_label(p, student)}" for p in sorted(site.problems) if site.problems[p].spec.variants]
    if had:  # which variant of each problem of variants they have (the same at every rejudge)
        heading += f" (variants: {', '.join(had)})"
    return site.submissions_page(request, user, theirs, heading, show_student=True, refresh_s=3)


@dataclass(frozen=True)
class _CaseIO:
    name: str
    verdict: str
    secret: bool
    stdout: tuple[tuple[str, bool], ...]  # each line, and whether it is the first that differs
    stderr: str
    expected: tuple[tuple[str, bool], ...]  # the answer file's lines, marked alike ((): no answer)
    difference: str  # where the output first differs, in words ("" when it does not)
    input: str = ""  # the case's input, its first TRACE_CAP bytes
    input_size: int = -1  # its whole size in bytes (-1: no input file to show)

    @property
    def failed(self) -> bool:
        return self.verdict != "AC"

    @property
    def input_cut(self) -> bool:
        return self.input_size > len(self.input.encode())


def first_difference(expected: str, received: str) -> int | None:
    """The first line (0-based) whose tokens differ, as the default checker reads them; None if none."""
    want, got = expected.rstrip("\n").split("\n"), received.rstrip("\n").split("\n")
    for index in range(max(len(want), len(got))):
        if index >= len(want) or index >= len(got) or want[index].split() != got[index].split():
            return index
    return None


def _head(path: Path | None) -> tuple[str, int]:
    """A case's input as the page shows it: its first TRACE_CAP bytes, and its whole size (-1
    when there is none to read: an interactive or function problem's case)."""
    if path is None:
        return "", -1
    with suppress(OSError), path.open("rb") as stream:
        return stream.read(runner.TRACE_CAP).decode("utf-8", "replace"), path.stat().st_size
    return "", -1


def _case_io(name: str, verdict: str, secret: bool, kept: tuple[bytes, bytes], files: CaseFiles | None) -> _CaseIO:
    answer = files.answer if files is not None else None
    out = kept[0].decode("utf-8", "replace")
    expected = ""
    if answer is not None:
        with suppress(OSError), answer.open("rb") as stream:
            expected = stream.read(runner.TRACE_CAP + 1).decode("utf-8", "replace")
    # Only whole texts are compared: a tail (the output past the cap) has lost its first lines.
    whole = answer is not None and len(kept[0]) < runner.TRACE_CAP and len(expected) <= runner.TRACE_CAP
    line = first_difference(expected, out) if whole else None
    if not whole:
        difference = "" if answer is None else "Not compared: the output or the answer is longer than what is kept."
    else:
        difference = "" if line is None else f"The first difference is on line {line + 1}."
    return _CaseIO(
        name,
        verdict,
        secret,
        tuple((text, k == line) for k, text in enumerate(out.split("\n"))),
        kept[1].decode("utf-8", "replace"),
        tuple((text, k == line) for k, text in enumerate(expected.split("\n"))) if answer is not None else (),
        difference,
        *_head(files.input if files is not None else None),
    )


def case_output(
    request: Request,
    submission_id: int,
    failed: bool = False,
    user: User = Depends(require_grader),
    site: Site = Depends(site_of),
) -> HTMLResponse:
    found = site.visible(user, submission_id)
    record = site.record_for(found)
    kept = site.store.case_io(submission_id)
    problem = site.problems.get(found.problem)
    files: dict[str, CaseFiles] = {}
    if problem is not None:
        with suppress(JudgeError):  # the cases of the student's own variant, where it has one
            own = variants.of_student(problem, found.student, site.settings.data_dir)
            files = {c.id: c for c in testdata.load_cases(own)}
    cases = [
        _case_io(c.name, c.verdict, not c.public, kept[c.name], files.get(c.name))
        for c in (record.cases if record is not None else ())
        if c.name in kept
    ]
    # Collapsed, each case; the first that failed opens, and "failed only" leaves out the rest.
    first_failed = next((c.name for c in cases if c.failed), "")
    return site.page(
        request,
        "web/case_io.html.j2",
        user=user,
        s=found,
        cases=[c for c in cases if c.failed] if failed else cases,
        every=len(cases),
        failing=sum(c.failed for c in cases),
        failed_only=failed,
        first_failed=first_failed,
        cap_kib=runner.TRACE_CAP // 1024,
        cut=site.store.io_cut(submission_id),
        submission_kib=queueing.IO_PER_SUBMISSION // 1024,
        student_mib=queueing.IO_PER_STUDENT >> 20,
    )


def end_sessions(
    request: Request, student: str = Form(...), _: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> Response:
    if site.store.user(student.strip()) is None:
        raise WebError(404, f"There is no {student.strip()!r} on the roster.", "/teacher", "Dashboard")
    count = site.store.end_sessions(student.strip())
    return RedirectResponse(
        f"{base(request)}/teacher?message=" + f"{count}+session(s)+of+{student.strip()}+ended", status_code=303
    )


def _reload(site: Site, problems: list[str]) -> None:
    for problem in problems:
        try:  # the fixed problem is what the pages show from now on
            site.problems[problem] = load_problem(site.problems[problem].directory)
        except JudgeError as err:
            raise WebError(
                400, f"The problem does not load, so nothing was queued: {err}", "/teacher", "Dashboard"
            ) from None


def rejudge(
    request: Request, problem: str = Form(...), _: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> Response:
    site.problem_or_404(problem)
    _reload(site, [problem])
    count = site.store.rejudge(problem)
    return RedirectResponse(
        f"{base(request)}/teacher?message=" + f"{count}+submission(s)+of+{problem}+queued+again", status_code=303
    )


def rejudge_assignment(
    request: Request, assignment_id: str, _: User = Depends(require_teacher), site: Site = Depends(site_of)
) -> Response:
    assignment = _assignment_or_404(site, assignment_id)
    _reload(site, list(assignment.problems))
    count = site.store.rejudge_all(list(assignment.problems))
    return RedirectResponse(
        f"{base(request)}/teacher?message=" + f"{count}+submission(s)+of+{assignment.id}+queued+again",
        status_code=303,
    )


def routes() -> APIRouter:
    router = APIRouter(prefix="/teacher")
    router.add_api_route("", dashboard, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/class", class_matrix, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route(
        "/assignments/{assignment_id}", assignment_matrix, methods=["GET"], response_class=HTMLResponse
    )
    router.add_api_route(
        "/assignments/{assignment_id}/rejudge", rejudge_assignment, methods=["POST"], max_body_size=FORM_BYTES
    )
    router.add_api_route("/grades.csv", grades, methods=["GET"])
    router.add_api_route("/submissions/{submission_id}/io", case_output, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/students/{student}", student_history, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/sessions", end_sessions, methods=["POST"], max_body_size=FORM_BYTES)
    router.add_api_route("/rejudge", rejudge, methods=["POST"], max_body_size=FORM_BYTES)
    return router
