"""The `judge` command line: the group, its commands (a module per group of them, their
terminal look in render) and the one place where errors become exit codes.

Every command reports bad input as `judge: error: ...` lines and a non-zero exit code
(see judge.errors); a traceback means a bug in the judge, not in the user's files.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge import __version__
from judge.cli import cluster, data, explain, gradescope, grading, lti, problems, rejudge, run, similar, teams, web
from judge.cli.common import err, path_option, report_errors
from judge.errors import EXIT_INTERRUPTED, EXIT_USAGE, JudgeError
from judge.paths import PROBLEMS_ENV

# Where the group's help says how many languages there are: counted from languages.yaml as the
# help is shown, so the number cannot drift from the table (and no other command pays for it).
LANGUAGE_COUNT = "{language_count}"


class _Counted(click.Group):
    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.help and LANGUAGE_COUNT in self.help:
            from judge.run import languages

            self.help = self.help.replace(LANGUAGE_COUNT, str(len(languages.load().languages)))
        super().format_help_text(ctx, formatter)


@click.group(cls=_Counted, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="judge")
@path_option(
    "--problems",
    "problems",
    folder=True,
    default=Path("problems"),
    envvar=PROBLEMS_ENV,
    help_text=f"Folder of problem folders (or ${PROBLEMS_ENV}).",
)
@click.pass_context
def cli(ctx: click.Context, problems: Path) -> None:
    """An online-judge style grading harness: any problem (your own, or an ICPC/Kattis
    package), submissions in {language_count} languages (C, C++, Java, Python, Go, Rust, JavaScript, ...:
    `judge doctor` lists them) run in a sandbox; three 3x3 puzzles ship with it."""
    ctx.obj = {"problems": problems}


for command in (
    data.gen,
    data.validate,
    data.solve,
    data.schema,
    data.tables,
    run.run_command,
    run.doctor,
    grading.grade,
    grading.report,
    grading.verify,
    web.serve,
    web.roster,
    teams.teams,
    lti.lti,
    web.gradebook,
    web.submissions,
    rejudge.rejudge,
    problems.new,
    problems.starter,
    problems.import_command,
    problems.export,
    cluster.cluster,
    cluster.scheduler,
    cluster.worker,
    explain.explain,
    similar.similar,
    gradescope.gradescope,
    gradescope.autograde,
):
    cli.add_command(command)


def main() -> None:
    from judge.run import cgroups, lifecycle

    lifecycle.handle_sigterm()  # a stopped judge kills its runs and removes its boxes
    lifecycle.remove_stale()  # what judges killed outright (SIGKILL) left in the temporary directory
    cgroups.remove_stale()  # ...and in the cgroup hierarchy
    try:
        cli.main(standalone_mode=False)
    except JudgeError as error:
        report_errors(error)
        sys.exit(error.exit_code)
    except click.exceptions.Abort:
        err.print("judge: interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code if error.exit_code else EXIT_USAGE)
    except KeyboardInterrupt:
        err.print("judge: interrupted")
        sys.exit(EXIT_INTERRUPTED)
