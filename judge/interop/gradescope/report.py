"""A judged submission as Gradescope's autograder results (pure): `results.json` with one test
per group. Public groups show their cases' details; secret ones what the problem's feedback
level allows (judge.grade.feedback), with the Gradescope visibility the teacher chose.

The format is Gradescope's "Autograder Specifications" (results/results.json): top-level
`score`, `execution_time`, `output` and `tests`; each test `name`, `number`, `score`,
`max_score`, `status` ("passed" or "failed"), `output` and `visibility` ("hidden",
"after_due_date", "after_published" or "visible").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from judge.grade import feedback
from judge.grade.feedback import Shown, ShownCase, ShownGroup
from judge.grade.results import GradeRecord
from judge.problem.spec import Problem
from judge.run.verdicts import Verdict

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
OUTPUT_CAP = 8000  # characters of one test's output (Gradescope shows it whole)


@dataclass(frozen=True)
class Test:
    name: str
    number: str
    score: float
    max_score: float
    status: str
    output: str
    visibility: str


@dataclass(frozen=True)
class Results:
    score: float
    execution_time: float
    output: str
    tests: tuple[Test, ...]
    visibility: str = "visible"
    stdout_visibility: str = "hidden"  # the judge's own log is for the teacher


def _case_line(case: ShownCase) -> str:
    if case.cpu_s is None or case.memory_kib is None:
        return f"{case.name}: {case.verdict}"  # a secret case: its verdict alone, at the level `cases`
    return f"{case.name}: {case.verdict}, {case.cpu_s:.2f} s CPU, {case.memory_kib / 1024:.1f} MiB" + (
        f" ({case.message})" if case.message else ""
    )


def _group_line(group: ShownGroup) -> str:
    parts = [f"verdict {group.verdict}"] if group.verdict else []
    parts += [f"slowest CPU time {group.cpu}"] if group.cpu else []
    parts += [f"most memory {group.memory}"] if group.memory else []
    return "; ".join(parts)


def tests_of(shown: Shown, secret_visibility: str, first: int = 1) -> list[Test]:
    """A test per group of what the student may see (judge.grade.feedback cut it to the problem's
    level), numbered from `first`. At the level `verdict` the secret groups are one test."""
    tests: list[Test] = []
    compiled = shown.verdict != Verdict.CE.value
    for index, group in enumerate(shown.groups):
        lines = []
        mine = [c for c in shown.cases if c.group == group.name]
        if not group.public and group.name != feedback.SECRET_TOTAL:
            lines.append(_group_line(group))
        lines += [_case_line(c) for c in mine if c.verdict != Verdict.NJ.value]
        skipped = [c.name for c in mine if c.verdict == Verdict.NJ.value]
        if skipped:
            span = skipped[0] if len(skipped) == 1 else f"{skipped[0]} to {skipped[-1]}"
            lines.append(f"{span}: not judged (the group failed earlier)")
        if not compiled:
            lines = ["not run: the program does not compile"]
        output = "\n".join(line for line in lines if line)
        if len(output) > OUTPUT_CAP:
            output = output[:OUTPUT_CAP] + "\n[... cut]"
        name = "secret groups" if group.name == feedback.SECRET_TOTAL else group.name
        tests.append(
            Test(
                name=f"{shown.problem}: {name}" + ("" if group.public else " (secret)"),
                number=str(first + index),
                score=group.earned,
                max_score=group.points,
                status="passed" if compiled and group.ok else "failed",
                output=output,
                visibility="visible" if group.public else secret_visibility,
            )
        )
    return tests


def headline(record: GradeRecord, problem: Problem) -> str:
    verdict = Verdict(record.verdict)
    text = f"{problem.id}: {verdict.value} ({verdict.long_name}), {record.score:g}/{record.max_score:g}"
    said = record.compile_output or record.error
    if said:
        text += ("\n\nCompiler output:\n" if record.compile_output else "\n\n") + said
    return text


def missing(problem: Problem, why: str, secret_visibility: str, first: int = 1) -> list[Test]:
    """The tests of a problem that could not be judged: each failed, with the reason (the
    secret groups as one test at the level `verdict`, as when judged)."""
    groups = [(g.name, g.points, g.visibility == "public") for g in problem.spec.groups]
    if problem.spec.feedback == "verdict":
        secret = [points for _, points, public in groups if not public]
        groups = [g for g in groups if g[2]] + ([("secret groups", sum(secret), False)] if secret else [])
    return [
        Test(
            name=f"{problem.id}: {name}" + ("" if public else " (secret)"),
            number=str(first + index),
            score=0.0,
            max_score=points,
            status="failed",
            output=why,
            visibility="visible" if public else secret_visibility,
        )
        for index, (name, points, public) in enumerate(groups)
    ]


def results(tests: list[Test], output: str, elapsed_s: float) -> Results:
    return Results(round(sum(t.score for t in tests), 4), round(elapsed_s, 2), output, tuple(tests))


def to_json(found: Results) -> dict[str, object]:
    return asdict(found)
