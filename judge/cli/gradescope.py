"""`judge gradescope` (build an autograder zip) and `judge autograde` (what it runs)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge.cli.common import out, path_option, say
from judge.cli.reporting import load_problems


@click.command()
@click.argument("problem_names", metavar="PROBLEM...", nargs=-1, required=True)
@path_option("-o", "--output", "out_file", default=Path("autograder.zip"))
@click.option(
    "--secret-visibility",
    type=click.Choice(["hidden", "after_due_date", "after_published", "visible"]),
    default="after_published",
    show_default=True,
    help="When students see the tests of secret groups (verdicts and figures only, never the data).",
)
@click.option(
    "--python",
    "python_version",
    default=f"{sys.version_info.major}.{sys.version_info.minor}",
    show_default=True,
    help="The Python of the Gradescope image (the wheels are for it; setup.sh installs python<version>).",
)
@click.option(
    "--allow-unsandboxed",
    is_flag=True,
    help="Grade even where bubblewrap cannot run in Gradescope's container (the container is then the only wall).",
)
@click.pass_context
def gradescope(
    ctx: click.Context,
    problem_names: tuple[str, ...],
    out_file: Path,
    secret_visibility: str,
    python_version: str,
    allow_unsandboxed: bool,
) -> None:
    """Build a Gradescope autograder for PROBLEM...: setup.sh and run_autograder at the zip's
    root, the problems with their tests, and the wheels of the judge, so that setup.sh
    installs from the zip and Ubuntu's packages alone."""
    from judge.interop.gradescope import build

    problems = load_problems(ctx, problem_names)
    made = build.build(list(problems.values()), out_file, secret_visibility, python_version, allow_unsandboxed, say)
    size = made.stat().st_size / (1 << 20)
    out.print(f"wrote {made} ({size:.1f} MiB): upload it as the assignment's autograder (zip file)")


@click.command()
@path_option(
    "--root",
    folder=True,
    default=Path("/autograder"),
    envvar="AUTOGRADER_ROOT",
    help_text="Gradescope's folder: submission/, source/, results/ (or $AUTOGRADER_ROOT).",
)
def autograde(root: Path) -> None:
    """Grade the submission in ROOT/submission as a Gradescope autograder does, and write
    ROOT/results/results.json (always, also when the submission cannot be judged)."""
    from judge.interop.gradescope import autograde

    sys.exit(autograde.run(root))
