"""A judged submission as Gradescope's autograder results (pure): `results.json` with one test
per group. Public groups show their cases' details; secret ones show each case's verdict and
figures only, with the visibility the teacher chose.

The format is Gradescope's "Autograder Specifications" (results/results.json): top-level
`score`, `execution_time`, `output` and `tests`; each test `name`, `number`, `score`,
`max_score`, `status` ("passed" or "failed"), `output` and `visibility` ("hidden",
"after_due_date", "after_published" or "visible").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from judge.runner import SubmissionResult
from judge.spec import Problem
from judge.verdicts import Verdict

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


def _case_line(name: str, verdict: str, cpu_s: float, memory_kib: int, message: str) -> str:
    return f"{name}: {verdict}, {cpu_s:.2f} s CPU, {memory_kib / 1024:.1f} MiB" + (f" ({message})" if message else "")


def tests_of(result: SubmissionResult, problem: Problem, secret_visibility: str, first: int = 1) -> list[Test]:
    """A test per group of the problem, numbered from `first`."""
    tests: list[Test] = []
    for index, (group, score) in enumerate(zip(problem.spec.groups, result.groups, strict=True)):
        public = group.visibility == "public"
        lines = []
        mine = [c for c in result.cases if c.group == group.name]
        for case in mine:
            if case.verdict is Verdict.NJ:
                continue
            # A secret case's message never quotes data (the runner made it so): the verdict,
            # the signal, the limit. Its input, answer and output are not in the result at all.
            lines.append(_case_line(case.name, case.verdict.value, case.cpu_s, case.memory_kib, case.message))
        skipped = [c.name for c in mine if c.verdict is Verdict.NJ]
        if skipped:
            span = skipped[0] if len(skipped) == 1 else f"{skipped[0]} to {skipped[-1]}"
            lines.append(f"{span}: not judged (the group failed earlier)")
        if not result.build.ok:
            lines = ["not run: the program does not compile"]
        output = "\n".join(lines)
        if len(output) > OUTPUT_CAP:
            output = output[:OUTPUT_CAP] + "\n[... cut]"
        tests.append(
            Test(
                name=f"{problem.id}: {group.name}" + ("" if public else " (secret)"),
                number=str(first + index),
                score=score.earned,
                max_score=score.points,
                status="passed" if result.build.ok and score.passed == score.total and score.total else "failed",
                output=output,
                visibility="visible" if public else secret_visibility,
            )
        )
    return tests


def headline(result: SubmissionResult, problem: Problem) -> str:
    text = f"{problem.id}: {result.verdict.value} ({result.verdict.long_name}), {result.score:g}/{result.max_score:g}"
    if not result.build.ok:
        text += "\n\nCompiler output:\n" + result.build.message
    return text


def missing(problem: Problem, why: str, secret_visibility: str, first: int = 1) -> list[Test]:
    """The tests of a problem that could not be judged: each failed, with the reason."""
    return [
        Test(
            name=f"{problem.id}: {group.name}" + ("" if group.visibility == "public" else " (secret)"),
            number=str(first + index),
            score=0.0,
            max_score=group.points,
            status="failed",
            output=why,
            visibility="visible" if group.visibility == "public" else secret_visibility,
        )
        for index, group in enumerate(problem.spec.groups)
    ]


def results(tests: list[Test], output: str, elapsed_s: float) -> Results:
    return Results(round(sum(t.score for t in tests), 4), round(elapsed_s, 2), output, tuple(tests))


def to_json(found: Results) -> dict[str, object]:
    return asdict(found)
