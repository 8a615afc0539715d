"""`judge teams`: an assignment's teams from the teacher's CSV file, as `judge roster import`
takes the class list; and a listing of them."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from judge.cli.common import err, path_option
from judge.cli.web import data_option, open_store
from judge.errors import JudgeError

if TYPE_CHECKING:
    from judge.course.spec import TeamRule


@click.group()
def teams() -> None:
    """The teams of an assignment that takes team submissions (course.yaml's `teams:`)."""


def _rule(ctx: click.Context, course_file: Path | None, assignment_id: str) -> TeamRule:
    from judge.kinds.table import load_problem
    from judge.problem.locate import problem_dirs
    from judge.web.routes.site import course_for

    problems_dir: Path = ctx.obj["problems"]
    problems = sorted(load_problem(Path(d)).id for d in problem_dirs(problems_dir))
    course = course_for(problems_dir, course_file, problems)
    assignment = course.assignment(assignment_id)
    if assignment is None:
        raise JudgeError(f"{course.path or 'the course'}: no assignment {assignment_id!r}")
    if assignment.teams is None:
        raise JudgeError(f"{course.path}: assignment {assignment_id!r} takes no teams (no `teams:` key)")
    return assignment.teams


@teams.command("import")
@click.argument("assignment")
@click.argument("csv_file", type=click.Path(dir_okay=False, path_type=Path))
@data_option
@path_option("--course", "course_file", help_text="The course file [default: course.yaml beside the problems].")
@click.pass_context
def teams_import(ctx: click.Context, assignment: str, csv_file: Path, data_dir: Path, course_file: Path | None) -> None:
    """Set ASSIGNMENT's teams from CSV_FILE, a row each: the team's name, then its members' ids
    (a first row starting `team` is a header). Checked whole before anything is written: an
    unknown student, a student in two teams or a size outside course.yaml's is one error naming
    the line. A student moved leaves their old team and keeps what it made while they were in it."""
    from judge.course.teams import read_file
    from judge.web.state.teams import TeamBook

    rule = _rule(ctx, course_file, assignment)
    try:
        data = csv_file.read_bytes()
    except OSError as error:
        raise JudgeError(f"{csv_file}: cannot read: {error.strerror}") from None
    store = open_store(data_dir)
    listed = read_file(data, str(csv_file), set(store.students()), rule)
    moved = TeamBook(store).replace(assignment, listed, time.time())
    err.print(f"judge: {len(listed)} team(s) of {assignment}; {moved} student(s) changed team")


@teams.command("list")
@click.argument("assignment")
@data_option
def teams_list(assignment: str, data_dir: Path) -> None:
    """Each team of ASSIGNMENT now: its name, then its members."""
    from judge.course.teams import members_of
    from judge.web.state.teams import TeamBook

    book = TeamBook(open_store(data_dir))
    found = book.teams()
    for team, name in sorted(book.names(assignment).items(), key=lambda pair: pair[1]):
        click.echo(",".join((name, *members_of(found, team))))
