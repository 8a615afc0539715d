"""The terminal's look of verdicts, differences and verification reports (rich markup)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from judge.cli.common import (
    out,
)

if TYPE_CHECKING:
    from judge.author.verify import ProblemReport


def figures(cpu_s: float, wall_s: float, memory_kib: int) -> tuple[str, str, str]:
    return f"{cpu_s:.2f}", f"{wall_s:.2f}", f"{memory_kib / 1024:.1f}"


COLOURS = {
    "AC": "green",
    "WA": "red",
    "TLE": "yellow",
    "MLE": "magenta",
    "RE": "red",
    "OLE": "yellow",
    "CE": "cyan",
    "NJ": "dim",
}


def verdict_markup(verdict: str) -> str:
    return f"[bold {COLOURS.get(verdict, 'white')}]{verdict}[/]"


def verdict_style(verdict: str) -> str:
    return f"bold {COLOURS.get(verdict, 'white')}"


Cell = tuple[str, str]  # its text (never read as markup) and its rich style ("" for none)


# Control characters but tab and newline: in text from data (a program's message or output)
# they would drive the reader's terminal (erase lines, set the title, write the clipboard).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def inert(text: str) -> str:
    """Text from data as it is, its control characters written out (`\\x1b`) so that none
    reaches the terminal as one."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def columns(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> Text:
    """Rows in aligned columns under a bold header, as one Text: what a rich Table without
    borders shows, at a fraction of its cost (a Table measures every cell: 0.5-0.7 ms a row,
    most of what `judge run` spent on a trivial case beyond the run itself). Cells are data:
    their control characters are written out (inert)."""
    rows = [[(inert(text), style) for text, style in row] for row in rows]
    widths = [max([cell_len(name), *(cell_len(row[i][0]) for row in rows)]) for i, name in enumerate(header)]
    shown = Text(no_wrap=False)
    for row in [[(name, "bold") for name in header], *rows]:
        last = max((i for i, (text, _) in enumerate(row) if text), default=0)  # no trailing blanks
        for i, (text, style) in enumerate(row[: last + 1]):
            shown.append(text, style=style or None)
            if i < last:
                shown.append(" " * (widths[i] - cell_len(text) + 2))
        shown.append("\n")
    shown.rstrip()
    return shown


def first_difference(answer: bytes, output: bytes, line: int) -> list[str]:
    """The first differing line of a public case, whitespace made visible."""

    def visible(text: str) -> str:
        return text.replace(" ", "\u00b7").replace("\t", "\u2192") or "(empty)"

    want = answer.decode(errors="replace").replace("\r\n", "\n").split("\n")
    got = output.decode(errors="replace").replace("\r\n", "\n").split("\n")
    at = max(line, 1) - 1
    expected = visible(want[at]) if at < len(want) else "(end of answer)"
    received = visible(got[at]) if at < len(got) else "(end of output)"
    return [f"line {at + 1}", f"  expected: {expected}", f"  received: {received}"]


def solutions_table(report: ProblemReport) -> Table:
    """Each solution's row: its groups' verdicts and times, what it was expected to get."""
    table = Table("solution", "lang", "expected", *report.groups, "max CPU", "result", box=None, pad_edge=False)
    for outcome in report.solutions:
        cells = []
        for group in outcome.groups:
            text = verdict_markup(group.verdict.value)
            if group.run:
                text += f" {group.max_cpu_s:.2f}s"
            if group.run < group.total:
                text += f" [dim]{group.run}/{group.total}[/dim]"
            cells.append(Text.from_markup(text))
        if not outcome.groups:
            cells = [Text("-")] * len(report.groups)
        expected = outcome.run.solution.expected.verdicts
        want = "not AC" if outcome.run.solution.decoy is not None else "|".join(sorted(v.value for v in expected))
        result = (
            Text("FAIL", style="red")
            if outcome.failures
            else (Text("warn", style="yellow") if outcome.warnings else Text("ok", style="green"))
        )
        table.add_row(
            outcome.run.solution.label,
            outcome.run.language,
            want,
            *cells,
            f"{outcome.max_cpu_s:.2f}s / {outcome.run.limit_s:g}s" if outcome.run.cases else "-",
            result,
        )
    return table


def solution_lines(report: ProblemReport) -> list[Text]:
    """The table's rows as lines that wrap whole, for a terminal too narrow for the table:
    `ok  accepted/ref.c (python3, expected AC): max CPU 0.03s / 1s`, then each group's verdict."""
    lines = []
    for outcome in report.solutions:
        mark = ("FAIL", "red") if outcome.failures else (("warn", "yellow") if outcome.warnings else ("  ok", "green"))
        expected = outcome.run.solution.expected.verdicts
        want = "not AC" if outcome.run.solution.decoy is not None else "|".join(sorted(v.value for v in expected))
        cpu = f"{outcome.max_cpu_s:.2f}s / {outcome.run.limit_s:g}s" if outcome.run.cases else "-"
        lines.append(
            Text.assemble(
                mark, f"  {outcome.run.solution.label} ({outcome.run.language}, expected {want}): max CPU {cpu}"
            )
        )
        groups = Text("      ")
        for name, group in zip(report.groups, outcome.groups, strict=False):
            groups.append(f"{name} ")
            groups.append(group.verdict.value, style=verdict_style(group.verdict.value))
            ran = f" {group.max_cpu_s:.2f}s" if group.run else ""
            groups.append(ran + (f" {group.run}/{group.total}" if group.run < group.total else "") + "  ")
        lines.append(groups)
    return lines


def print_verification(report: ProblemReport) -> None:
    out.print()
    out.print(Text(report.name, style="bold"))
    for check in report.checks:
        mark = ("FAIL", "red") if check.failures else ("  ok", "green")
        out.print(Text.assemble("  ", mark, f" {check.name}" + (f" ({check.detail})" if check.detail else "")))
        for failure in check.failures:
            out.print(Text(f"       {failure}", style="red"))
    if report.solutions:
        table = solutions_table(report)
        # Piped output (CI logs) is not cut to 80 columns: the table is the point.
        shown = out if out.is_terminal else Console(highlight=False, width=max(out.width, 200))
        if Measurement.get(shown, shown.options.update_width(10**6), table).maximum <= shown.width:
            shown.print(table)
        else:  # a narrow terminal: a table would cut names and figures, so a block per solution
            for line in solution_lines(report):
                shown.print(line)
    for outcome in report.solutions:
        for failure in outcome.failures:
            out.print(f"  [red]FAIL[/red] {escape(outcome.run.solution.shown)}: {escape(failure)}", markup=True)
        for warning in outcome.warnings:
            out.print(f"  [yellow]warn[/yellow] {escape(outcome.run.solution.shown)}: {escape(warning)}", markup=True)
    for note in report.notes:
        out.print(f"  [yellow]warn[/yellow] {escape(note)}", markup=True)
    for note in report.skipped:
        out.print(f"  [dim]skip[/dim] {escape(note)}", markup=True)
