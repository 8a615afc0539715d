"""The terminal's case lines (judge.cli.render.columns)."""

from __future__ import annotations

import io

from rich.console import Console

from judge.cli.render import columns, verdict_style


def test_columns_align_under_the_header_and_keep_text_as_it_is() -> None:
    shown = columns(
        ("case", "verdict", "message"),
        [
            [("samples/01", ""), ("AC", verdict_style("AC")), ("", "")],
            [("hardest/10", ""), ("WA", verdict_style("WA")), ("got [red]x[/red] \u4e2d", "")],
        ],
    )
    assert shown.plain.splitlines() == [
        "case        verdict  message",
        "samples/01  AC",  # nothing after the last cell that says something
        "hardest/10  WA       got [red]x[/red] \u4e2d",  # a message is never read as markup
    ]
    styled = {shown.plain[span.start : span.end]: str(span.style) for span in shown.spans}
    assert styled["case"] == "bold" and styled["WA"] == "bold red" and styled["AC"] == "bold green"
    printed = io.StringIO()
    Console(file=printed, width=200, color_system=None).print(shown)
    assert printed.getvalue().splitlines() == shown.plain.splitlines()


def test_wide_characters_count_as_two_cells() -> None:
    shown = columns(("name", "verdict"), [[("\u4e2d\u6587", ""), ("AC", "")], [("abcdef", ""), ("WA", "")]])
    assert shown.plain.splitlines() == ["name    verdict", "\u4e2d\u6587    AC", "abcdef  WA"]
