"""The terminal's case lines (judge.cli.render.columns)."""

from __future__ import annotations

import io

import pytest
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


def test_verify_in_80_columns_cuts_no_name_or_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from judge.cli import render
    from judge.run.verdicts import Verdict

    groups = ("samples", "edge", "random", "bulk", "hardest")

    def outcome(label: str, verdict: Verdict) -> SimpleNamespace:
        solution = SimpleNamespace(label=label, decoy=None, expected=SimpleNamespace(verdicts={verdict}))
        ran = [SimpleNamespace(verdict=verdict, run=3, total=3, max_cpu_s=0.031) for _ in groups]
        return SimpleNamespace(
            groups=ran,
            run=SimpleNamespace(solution=solution, language="python3", limit_s=1.0, cases=[1]),
            max_cpu_s=0.031,
            failures=(),
            warnings=(),
        )

    report = SimpleNamespace(
        name="maxsum",
        checks=(),
        groups=groups,
        solutions=[
            outcome("wrong_answer/off_by_one_in_the_last_row.py", Verdict.WA),
            outcome("accepted/ref.c", Verdict.AC),
        ],
        notes=(),
        skipped=(),
    )
    for width in (80, 200):
        printed = io.StringIO()
        monkeypatch.setattr(render, "out", Console(file=printed, width=width, color_system=None, force_terminal=True))
        render.print_verification(report)  # type: ignore[arg-type]
        text = printed.getvalue()
        assert "\u2026" not in text and max(len(line) for line in text.splitlines()) <= width
        for whole in ("wrong_answer/off_by_one_in_the_last_row.py", "0.03s / 1s", "accepted/ref.c"):
            assert whole in text, (width, whole)
        assert text.count("WA 0.03s") == 5 and text.count("AC 0.03s") == 5, text


def test_control_characters_of_data_reach_no_terminal_as_such() -> None:
    from judge.cli.render import inert

    fake = "\x1b[2K\r\x1b[32mAC\x1b[0m \x1b]0;title\x07 \x1b]52;c;ZWNobw==\x1b\\ \x9b2J\ttab"
    shown = columns(("case", "message"), [[("01", ""), (fake, "")]])
    assert "\x1b" not in shown.plain and "\x07" not in shown.plain and "\x9b" not in shown.plain
    assert "\\x1b[32mAC" in shown.plain and "\ttab" in shown.plain  # written out, tab kept
    assert inert("line one\nline two [x]") == "line one\nline two [x]"
