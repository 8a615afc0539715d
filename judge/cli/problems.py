"""Commands that make problems: `judge new`."""

from __future__ import annotations

import click

from judge.cli.common import out


@click.command()
@click.argument("problem_id")
@click.option(
    "--lang",
    "language",
    type=click.Choice(["cpp", "python3"]),
    default="cpp",
    show_default=True,
    help="Language of the reference solution.",
)
@click.option("--title", default="", help="The problem's title [default: the example's].")
@click.pass_context
def new(ctx: click.Context, problem_id: str, language: str, title: str) -> None:
    """Create PROBLEM_ID: a complete small problem (statement, samples, reference, generator,
    validator, an accepted and a wrong solution) that passes `judge verify` as made."""
    from judge import scaffold

    made = scaffold.create(ctx.obj["problems"], problem_id, language, title)
    out.print(f"created {made.directory}:")
    for path in made.files:
        out.print(f"  {path}")
    out.print(f"next: judge gen {problem_id} && judge verify {problem_id}")
