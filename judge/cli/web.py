"""`judge serve` and `judge roster`: the web judge and its class list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from judge.cli.common import (
    cluster_endpoint,
    cluster_options,
    err,
    out,
    path_option,
    unsafe_option,
)
from judge.errors import JudgeError

if TYPE_CHECKING:
    from judge.web.state.store import Store


DATA_DIR = Path("judge-data")
data_option = path_option("--data", "data_dir", folder=True, default=DATA_DIR, help_text="The web judge's data folder.")


@dataclass(frozen=True)
class Tuning:
    """A number of `judge serve` that goes as it is into the web judge's Settings `field`."""

    flag: str
    field: str
    kind: click.ParamType[Any]
    default: float
    help: str


# In the order --help shows them; a row each, as a table reads.
# fmt: off
SERVE_TUNING = (
    Tuning("--explain-budget", "explain_budget_s", click.FloatRange(min=2, max=600), 30.0, "Seconds of search when a student asks to explain a failed submission."),
    Tuning("--explains-per-hour", "explains_per_hour", click.IntRange(min=0, max=1000), 10, "Explanations a student may ask for in an hour (0: no explain button)."),
    Tuning("--result-step", "result_step_s", click.FloatRange(min=0, max=600), 5.0, "A student sees a result at the end of the step of this many seconds its judging ended in, so the time it took on secret cases says little (0: at once)."),
    Tuning("--per-minute", "per_minute", click.IntRange(min=0, max=1000), 10, "Submissions a student may make in a minute (0: no cap), beside the assignment's quota."),
    Tuning("--turn", "turn_s", click.FloatRange(min=1, max=3600), 10.0, "Seconds a worker judges one submission before it lets a classmate's waiting submission in (between two cases; the first resumes after)."),
    Tuning("--lms-retry", "lms_retry_s", click.FloatRange(min=0.1, max=3600), 15.0, "Seconds before a grade the LMS did not take is sent again (doubled each time, at most an hour)."),
)
# fmt: on


def tuning_options(rows: tuple[Tuning, ...]) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The options of `rows`, in their order; each reaches the command under its field's name."""

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        for row in reversed(rows):
            command = click.option(
                row.flag, row.field, type=row.kind, default=row.default, show_default=True, help=row.help
            )(command)
        return command

    return decorate


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@path_option(
    "--problems", "problems_dir", folder=True, help_text="Folder of problems [default: the global --problems]."
)
@path_option(
    "--data", "data_dir", folder=True, default=DATA_DIR, help_text="Where the SQLite database and the session key live."
)
@click.option("--workers", type=click.IntRange(min=1, max=64), default=None, help="Judging processes [default: cores].")
@click.option("--max-source-kib", type=click.IntRange(min=1, max=1024), default=64, show_default=True)
@click.option(
    "--behind-proxy", is_flag=True, help="Trust X-Forwarded-* from the proxy in front (see --forwarded-allow-ips)."
)
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, help="The proxy's addresses.")
@click.option("--root-path", default="", help="The path prefix the proxy serves the judge under (e.g. /judge).")
@click.option("--secure-cookies", is_flag=True, help="Send the session cookie over HTTPS only (behind a TLS proxy).")
@tuning_options(SERVE_TUNING[:3])
@path_option(
    "--course",
    "course_file",
    help_text="The course file: assignments, deadlines, late policy, quotas [default: course.yaml beside the"
    " problems folder, if there is one; else every problem is open with no deadline].",
)
@tuning_options(SERVE_TUNING[3:])
@cluster_options
@unsafe_option
@click.pass_context
def serve(
    ctx: click.Context,
    /,
    host: str,
    port: int,
    problems_dir: Path | None,
    data_dir: Path,
    workers: int | None,
    max_source_kib: int,
    behind_proxy: bool,
    forwarded_allow_ips: str,
    root_path: str,
    secure_cookies: bool,
    course_file: Path | None,
    scheduler: str | None,
    certs_dir: Path | None,
    insecure_loopback: bool,
    **tuning: Any,  # SERVE_TUNING's numbers (int or float, as their range), by field
) -> None:
    """Run the web judge: students log in, submit, and see verdicts; hidden data stays here.
    With --scheduler the cases run on the judge hosts (--workers submissions at a time)."""
    import dataclasses
    import logging
    import socket

    import uvicorn

    from judge.grade import grading
    from judge.web.serving.app import Settings, create_app
    from judge.web.serving.protocol import DeadlineH11Protocol

    given = Settings(
        problems_dir=problems_dir or ctx.obj["problems"],
        data_dir=data_dir,
        workers=workers or grading.default_jobs(),
        max_source_bytes=max_source_kib * 1024,
        secure_cookies=secure_cookies,
        cluster=cluster_endpoint(scheduler, certs_dir, insecure_loopback, "client"),
        course_file=course_file,
    )
    settings = dataclasses.replace(given, **tuning)
    # Say so plainly if the address is taken, before any worker starts.
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        raise JudgeError(
            f"cannot listen on {host}:{port}: {error.strerror} (another judge serve? try --port)"
        ) from None
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(message)s")  # uvicorn's look
    app = create_app(settings)
    err.print(
        f"judge: serving {settings.problems_dir} on http://{host}:{port}{root_path} "
        f"with {settings.workers} worker(s)"
        + (f" on the judge hosts of {settings.cluster.address}" if settings.cluster else "")
        + f"; data in {data_dir}"
    )
    store = app.state.site.store
    platforms = app.state.site.lti.platforms()
    if platforms:
        err.print(f"judge: an LTI tool of {len(platforms)} LMS(s): students sign in by the LMS's links", markup=False)
    elif not store.students():
        err.print(
            f"judge: warning: no student on the roster of {data_dir}, so no one can log in to submit: "
            f"add them with `judge roster add ID... --data {data_dir}` (or `judge roster import FILE --data {data_dir}`)",
            markup=False,
        )
    uvicorn.run(
        app,
        host=host,
        port=port,
        http=DeadlineH11Protocol,  # a request must arrive whole within 20 s (no slow loris)
        log_level="info",
        proxy_headers=behind_proxy,
        forwarded_allow_ips=forwarded_allow_ips if behind_proxy else None,
        root_path=root_path,
    )


@click.command()
@data_option
@path_option(
    "--course",
    "course_file",
    help_text="The course file [default: course.yaml beside the problems folder, if there is one].",
)
@click.option(
    "--format",
    "layout",
    type=click.Choice(["csv", "canvas", "moodle"]),
    default="csv",
    show_default=True,
    help="csv: student, name, email, ASSIGNMENT:PROBLEM..., ASSIGNMENT..., total; canvas and moodle: their imports.",
)
@path_option("-o", "--output", help_text="[default: stdout]")
@click.pass_context
def gradebook(ctx: click.Context, data_dir: Path, course_file: Path | None, layout: str, output: Path | None) -> None:
    """Write the web judge's gradebook offline: every roster student and assignment problem,
    the counted score after the course's policy (the numbers of /teacher/grades.csv)."""
    from judge.course.gradebook import FORMATS
    from judge.course.teams import check_kept
    from judge.kinds.table import load_problem
    from judge.problem.locate import problem_dirs
    from judge.web.routes.site import class_book, course_for
    from judge.web.state.teams import TeamBook

    if not (data_dir / "judge.sqlite3").is_file():
        raise JudgeError(f"{data_dir}: no web judge data here (judge.sqlite3 is missing)")
    problems_dir: Path = ctx.obj["problems"]
    problems = {p.id: p for p in (load_problem(Path(d)) for d in problem_dirs(problems_dir))}
    course = course_for(problems_dir, course_file, sorted(problems))
    store = open_store(data_dir)
    check_kept(course, TeamBook(store).teams())
    text = FORMATS[layout](class_book(course, store, problems), store.names())
    if output is None:
        click.echo(text, nl=False)
        return
    from judge.grade.reports import write_atomic

    write_atomic(output, text)
    book_rows = text.count("\n") - (2 if layout == "canvas" else 1)
    err.print(f"judge: {book_rows} student(s) written to {output} ({layout})")


@click.command("submissions")
@data_option
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--all", "every", is_flag=True, help="Every submission (each in STUDENT+ID/), not only the newest.")
@click.option("-p", "--problem", "problem_names", multiple=True, help="Only these problems (repeatable).")
@click.option("--force", is_flag=True, help="Replace FOLDER if it holds anything else.")
def submissions(data_dir: Path, folder: Path, every: bool, problem_names: tuple[str, ...], force: bool) -> None:
    """Write the web judge's submissions to FOLDER as `judge grade` and `judge similar` read
    it: FOLDER/STUDENT/PROBLEM/FILE (an archive as FOLDER/STUDENT/PROBLEM.zip), each student's
    newest per problem. Written whole or not at all; a FOLDER holding other files is left
    alone unless --force."""
    from judge.web import exporting

    if not (data_dir / "judge.sqlite3").is_file():
        raise JudgeError(f"{data_dir}: no web judge data here (judge.sqlite3 is missing)")
    store = open_store(data_dir)
    rows = exporting.chosen(store.all(), every, problem_names)
    done = exporting.export(store, rows, every, folder, force)
    said = "already up to date" if done.unchanged else "written"
    err.print(f"judge: {done.submissions} submission(s) {said} in {folder}")


@click.group()
def roster() -> None:
    """The class list of the web judge: ids and their login tokens (only hashes are stored)."""


def open_store(data_dir: Path) -> Store:
    """The web judge's store, saying what it fixed on the way in (loose permissions)."""
    from judge.web.state.store import Store

    store = Store(data_dir)
    for note in store.notes:
        err.print(f"judge: {note}")
    return store


@roster.command("add")
@click.argument("user_ids", metavar="ID...", nargs=-1, required=True)
@click.option("--teacher", is_flag=True, help="Give these ids the teacher's dashboard.")
@click.option("--ta", is_flag=True, help="Make these ids teaching assistants: the teacher's view, no changes.")
@data_option
def roster_add(user_ids: tuple[str, ...], teacher: bool, ta: bool, data_dir: Path) -> None:
    """Add ids (or give them new tokens); prints `id,token` once: hand each token out."""
    if teacher and ta:
        raise JudgeError("--teacher and --ta: one role per id")
    store = open_store(data_dir)
    for user_id in user_ids:
        click.echo(f"{user_id},{store.add_user(user_id, 'teacher' if teacher else 'ta' if ta else 'student')}")


@roster.command("import")
@click.argument("csv_file", type=click.Path(dir_okay=False, path_type=Path))
@data_option
def roster_import(csv_file: Path, data_dir: Path) -> None:
    """Add every id in the first column of CSV_FILE; a header row (`id` or `student` first) may
    name columns name, email, section and role (student or ta), kept for the teacher's pages.
    Prints `id,token` for each, to hand out or mail-merge."""
    from judge.web.state.roster import read_roster

    entries = read_roster(csv_file)
    store = open_store(data_dir)
    for entry in entries:
        click.echo(f"{entry.id},{store.add_user(entry.id, entry.role)}")
        store.set_details(entry.id, entry.name, entry.email, entry.section)
    err.print(f"judge: {len(entries)} id(s) added to {data_dir}")


@roster.command("logout")
@click.argument("user_ids", metavar="ID...", nargs=-1, required=True)
@data_option
def roster_logout(user_ids: tuple[str, ...], data_dir: Path) -> None:
    """End every session of these ids now (a cookie that may have been copied); their tokens stay."""
    store = open_store(data_dir)
    for user_id in user_ids:
        if store.user(user_id) is None:
            raise JudgeError(f"{user_id!r} is not on the roster of {data_dir}")
        click.echo(f"{user_id}: {store.end_sessions(user_id)} session(s) ended")


@roster.command("list")
@data_option
def roster_list(data_dir: Path) -> None:
    """Every id on the roster, its role, name, section and number of submissions."""
    table = Table("id", "role", "name", "section", "submissions", box=None, pad_edge=False)
    store = open_store(data_dir)
    people = store.people()
    for user, count in store.users():
        person = people.get(user.id)
        name, section = (person.name, person.section) if person is not None else ("", "")
        table.add_row(user.id, user.role, name, section, str(count))
    out.print(table)
