"""`judge rejudge`: after a test or checker fix, the web judge's submissions of some problems
judged again in this process (--dry-run: nothing written to them), the students whose counted
score would move listed with why; then, without --dry-run, exactly those results stored."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from judge.cli.common import err, path_option
from judge.cli.web import data_option, open_store
from judge.errors import JudgeError

if TYPE_CHECKING:
    from judge.course.moved import ScoreMove


def _moves_lines(moves: tuple[ScoreMove, ...]) -> list[str]:
    """A line per move, tab-separated (a pipe reads it whole): student, problem, old -> new, why."""
    from judge.course.moved import reason, score_text

    return [
        "\t".join(
            (
                move.student,
                move.key,
                f"{score_text(move.old)} -> {score_text(move.new)}",
                " | ".join(reason(w) for w in move.why) or "another submission counts",
            )
        )
        for move in moves
    ]


@click.command()
@click.argument("problem_ids", metavar="[PROBLEM]...", nargs=-1)
@click.option("--assignment", "assignment_id", help="Every problem of this assignment of the course file.")
@click.option(
    "--dry-run", is_flag=True, help="Judge again and list whose score moves; keep the results for a commit, write none."
)
@data_option
@path_option(
    "--course",
    "course_file",
    help_text="The course file [default: course.yaml beside the problems folder, if there is one].",
)
@click.pass_context
def rejudge(
    ctx: click.Context,
    problem_ids: tuple[str, ...],
    assignment_id: str | None,
    dry_run: bool,
    data_dir: Path,
    course_file: Path | None,
) -> None:
    """Judge the web judge's submissions of PROBLEMs (or --assignment) again after a fix to
    their tests: --dry-run lists each student whose counted score would change (old -> new, and
    which cases changed verdict) and keeps the results; without it, the kept results are stored
    (the LMS gets only the scores that changed)."""
    from judge.course.teams import check_kept
    from judge.kinds.table import load_problem
    from judge.problem.locate import problem_dirs
    from judge.web import rejudging
    from judge.web.routes.site import course_for
    from judge.web.state import proposal
    from judge.web.state.teams import TeamBook

    if not (data_dir / "judge.sqlite3").is_file():
        raise JudgeError(f"{data_dir}: no web judge data here (judge.sqlite3 is missing)")
    problems_dir: Path = ctx.obj["problems"]
    problems = {p.id: p for p in (load_problem(Path(d)) for d in problem_dirs(problems_dir))}
    course = course_for(problems_dir, course_file, sorted(problems))
    wanted = list(dict.fromkeys(problem_ids))
    if assignment_id is not None:
        assignment = course.assignment(assignment_id)
        if assignment is None:
            raise JudgeError(f"{course.path or 'the course'}: no assignment {assignment_id!r}")
        wanted += [p for p in assignment.problems if p not in wanted]
    unknown = [p for p in wanted if p not in problems]
    if unknown:
        raise JudgeError(f"{problems_dir}: no problem {', '.join(map(repr, unknown))}")
    store = open_store(data_dir)
    check_kept(course, TeamBook(store).teams())
    maxima = {p.id: p.max_score for p in problems.values()}
    if dry_run:
        if not wanted:
            raise click.UsageError("name the problems to judge again, or --assignment")
        rejudging.another_running(data_dir)
        proposal.discard(data_dir)
        # Its progress is kept as the page's dry run keeps it: the teacher's page shows it too.
        plan = rejudging.run_and_keep(
            data_dir, problems_dir, wanted, lambda judged, total: err.print(f"judge: judged {judged} of {total}")
        )
    else:
        held = proposal.load(data_dir)
        if held is None:
            raise JudgeError(f"{data_dir}: no dry run to commit: run `judge rejudge --dry-run PROBLEM...` first")
        if wanted and set(wanted) != set(held.problems):
            raise JudgeError(f"{data_dir}: the dry run waiting is of {', '.join(held.problems)}, not of these problems")
        plan = held
    moves = rejudging.moved(store, course, maxima, plan)
    for line in _moves_lines(moves):
        click.echo(line)
    for unjudged in (j for j in plan.judged if j.unjudged):
        err.print(f"judge: submission {unjudged.id} could not be judged: {unjudged.unjudged} (left as it is)")
    students = len({m.student for m in moves})
    if dry_run:
        err.print(
            f"judge: {len(plan.judged)} submission(s) judged again; {students} student(s) whose score would change; "
            f"nothing written (`judge rejudge --data {data_dir}` stores these results)"
        )
        return
    done = rejudging.commit(store, problems_dir)
    left = f"; {done.left} judged again since the dry run, left as they are" if done.left else ""
    err.print(f"judge: {done.written} result(s) stored; {students} student(s) whose score changed{left}")
