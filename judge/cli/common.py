"""What every command of the `judge` CLI shares: the two consoles, one-line errors, the
spinner, and the options that more than one command takes."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.text import Text

from judge.errors import JudgeError
from judge.problem.locate import find_problem, problem_dirs

if TYPE_CHECKING:
    from rich.progress import Progress

    from judge.cluster.address import Endpoint

# No console markup by default: what is printed from data (patterns, paths, student names,
# file contents) shows as it is, brackets included. The judge's own colours are marked
# explicitly (markup=True with the data escaped, or a styled Text).
out = Console(highlight=False, soft_wrap=True, markup=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)


def styled(markup: str) -> Text:
    """The judge's own console markup (never data) as a Text, for a table cell or a print."""
    return Text.from_markup(markup)


def say(message: str) -> None:
    err.print(Text(f"judge: {message}", style="dim"))


@contextmanager
def status(message: str) -> Iterator[None]:
    # A spinner on a terminal; nothing at all when piped, so logs stay clean.
    if err.is_terminal:
        with err.status(message):
            yield
    else:
        yield


def chosen_problems(ctx: click.Context, names: Sequence[str]) -> list[Path]:
    problems_dir: Path = ctx.obj["problems"]
    if names:
        return [Path(find_problem(n, problems_dir)) for n in names]
    found = [Path(p) for p in problem_dirs(problems_dir)]
    if not found:
        raise JudgeError(f"{problems_dir}: no problem folders (each needs a problem.yaml)")
    return found


def report_errors(error: JudgeError) -> None:
    for line in str(error).splitlines():
        err.print(Text.assemble(("judge: error:", "red"), " ", line))


def jobs_option(command: Callable[..., None]) -> Callable[..., None]:
    return click.option(
        "-j", "--jobs", type=click.IntRange(min=1, max=64), default=None, help="Parallel workers [default: cores]."
    )(command)


Decorator = Callable[[Callable[..., None]], Callable[..., None]]


def path_option(
    *decls: str,
    folder: bool = False,
    default: Path | None = None,
    help_text: str | None = None,
    envvar: str | None = None,
) -> Decorator:
    """An option naming a file (or, with `folder`, a folder) as a Path; --help shows its
    default where it has one."""
    return click.option(
        *decls,
        type=click.Path(file_okay=not folder, dir_okay=folder, path_type=Path),
        default=default,
        show_default=default is not None,
        envvar=envvar,
        help=help_text,
    )


def reports_option(help_text: str) -> Decorator:
    """-o/--output: the reports folder, shared by the commands that write into it."""
    return path_option("-o", "--output", "out_dir", folder=True, default=Path("reports"), help_text=help_text)


def _require_isolation(ctx: click.Context, param: click.Parameter, unsafe: bool) -> bool:
    """Before any submission runs: no filesystem and network isolation, no run, unless the
    user says --unsafe-no-sandbox (reports and pages then carry a red banner)."""
    import os

    from judge.run import sandbox

    if ctx.resilient_parsing:
        return unsafe
    problem = sandbox.isolation_problem(sandbox.detect())
    if problem and not unsafe:
        raise JudgeError(problem)
    if problem:
        os.environ[sandbox.UNSAFE_ENV] = "1"  # worker processes inherit the choice
        say(f"warning: running submissions WITHOUT isolation (--unsafe-no-sandbox): {sandbox.detect().mode}")
    return unsafe


def unsafe_option(command: Callable[..., None]) -> Callable[..., None]:
    return click.option(
        "--unsafe-no-sandbox",
        "unsafe",
        is_flag=True,
        envvar="JUDGE_UNSAFE",
        expose_value=False,
        callback=_require_isolation,
        help="Run submissions even where they cannot be isolated from the machine's files and network "
        "(or JUDGE_UNSAFE=1). Reports and pages then say so in red.",
    )(command)


def progress_bar(show: bool = True) -> Progress:
    """A bar on stderr: the task's description, done/total and its `note` field; nothing
    when stderr is not a terminal (logs stay clean) or when `show` is false."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn  # only where a bar is shown

    return Progress(
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[note]}", markup=False),  # a student's name, a path: as they are
        console=err,
        transient=True,
        disable=not (show and err.is_terminal),
    )


def tls_options(command: Callable[..., None]) -> Callable[..., None]:
    """--certs and --insecure-loopback: how to reach a cluster (every cluster command takes them)."""
    command = click.option(
        "--insecure-loopback",
        is_flag=True,
        help="Allow plain tcp:// on 127.0.0.1 only, without certificates (one machine, tests).",
    )(command)
    return path_option(
        "--certs",
        "certs_dir",
        folder=True,
        envvar="JUDGE_CLUSTER_CERTS",
        help_text="The cluster's certificate folder (judge cluster certs) [env: JUDGE_CLUSTER_CERTS].",
    )(command)


def cluster_options(command: Callable[..., None]) -> Callable[..., None]:
    """--scheduler, --certs and --insecure-loopback: where the cases run (judge hosts)."""
    return click.option(
        "--scheduler",
        "scheduler",
        metavar="tls://HOST:PORT",
        envvar="JUDGE_SCHEDULER",
        help="Run the cases on the judge hosts of this scheduler instead of local processes [env: JUDGE_SCHEDULER].",
    )(tls_options(command))


def cluster_endpoint(
    scheduler: str | None, certs_dir: Path | None, insecure_loopback: bool, role: str
) -> Endpoint | None:
    """The checked endpoint of --scheduler (None without it); JudgeError in one line."""
    if not scheduler:
        return None
    from judge.cluster import address

    return address.endpoint(scheduler, certs_dir, insecure_loopback, role)
