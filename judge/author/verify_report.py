"""`judge verify --junit FILE`: the verification as JUnit XML, for CI dashboards.

A testsuite per problem; a testcase per data check and per solution. With `strict`,
warnings are failures here as they are in the exit code.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from judge.author.verify import ProblemReport
from judge.grade.reports import write_atomic, xml_text


def _case(
    classname: str, name: str, seconds: float, failures: Sequence[str], warnings: Sequence[str], strict: bool
) -> list[str]:
    lines = [
        f'    <testcase classname={quoteattr(xml_text(classname))} name={quoteattr(xml_text(name))} time="{seconds:.3f}">'
    ]
    for failure in [*failures, *(warnings if strict else [])]:
        lines.append(f"      <failure message={quoteattr(xml_text(failure))}/>")
    if warnings and not strict:
        lines.append(
            f"      <system-out>{xml_escape(xml_text(chr(10).join('warning: ' + w for w in warnings)))}</system-out>"
        )
    lines.append("    </testcase>")
    return lines


def junit(reports: Sequence[ProblemReport], strict: bool) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>"]
    for report in reports:
        cases: list[str] = []
        count = failed = 0
        for check in report.checks:
            cases += _case(report.name, check.name, 0.0, check.failures, (), strict)
            count += 1
            failed += bool(check.failures)
        for note in report.notes:
            cases += _case(report.name, "problem", 0.0, (), (note,), strict)
            count += 1
            failed += strict
        for note in report.skipped:
            cases.append(
                f"    <testcase classname={quoteattr(xml_text(report.name))} name={quoteattr(xml_text(note.split(': ')[0]))}"
                f' time="0"><skipped message={quoteattr(xml_text(note))}/></testcase>'
            )
            count += 1
        for outcome in report.solutions:
            seconds = sum(c.cpu_s for c in outcome.run.cases)
            cases += _case(report.name, outcome.run.solution.label, seconds, outcome.failures, outcome.warnings, strict)
            count += 1
            failed += bool(outcome.failures or (strict and outcome.warnings))
        lines.append(
            f'  <testsuite name={quoteattr(xml_text(report.name))} tests="{count}" failures="{failed}" errors="0">'
        )
        lines += cases
        lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"


def write_junit(path: Path, reports: Sequence[ProblemReport], strict: bool) -> None:
    write_atomic(path, junit(reports, strict))
