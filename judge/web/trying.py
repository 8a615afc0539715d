"""A run judged by a worker (issue 59): the student's program on the problem's public cases,
or on their own input, by the engine of `judge grade` (the same sandbox, limits and kind),
never on a secret case: those are not even given to it. Whatever the program leaves behind
goes with its box, as a submission's does."""

from __future__ import annotations

import tempfile
from pathlib import Path

from judge.grade import judging, runner
from judge.problem import testdata
from judge.run.verdicts import Verdict
from judge.web.state.runs import RunClaim, TriedCase, TriedResult

SHOWN = 16 * 1024  # characters of input, output and stderr a run's page shows per case
OWN = "your input"


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", errors="replace")[:SHOWN]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[:SHOWN]
    except OSError:
        return ""


def judge_run(run: RunClaim, submitted: judging.Submitted) -> TriedResult:
    """The run's result: each public case (or the student's input) with its verdict, output and
    time. `submitted`: the run's program as the workers read a claim (worker.submitted_of)."""
    problem = submitted.problem
    found = judging.unrunnable(submitted)
    if found is not None:
        return TriedResult("", found.error or "this program cannot be run", ())
    if submitted.sources is None:
        return TriedResult("", "only a program can be run; submit this to have it judged", ())
    public = [c for c in testdata.load_cases(problem) if c.public]
    with tempfile.TemporaryDirectory(prefix="judge-run-") as folder:
        if run.own_input is not None:
            given = Path(folder) / "own.in"
            given.write_text(run.own_input, encoding="utf-8")
            answer = Path(folder) / "own.ans"
            answer.write_text("", encoding="utf-8")
            cases = [testdata.CaseFiles(OWN, "1", given, answer, True)]
        else:
            cases = public
        if not cases:
            return TriedResult("", "this problem has no public cases to run on", ())
        # full: every public case is run, even after one fails (a group's break rule is for
        # the score, and a run has none).
        result = runner.judge_submission(problem, submitted.sources, cases, full=True, trace=True)
        if not result.build.ok:
            build = result.build
            return TriedResult("" if build.internal else build.message, build.message if build.internal else "", ())
        shown = tuple(_case(c, files, run.own_input is not None) for c, files in zip(result.cases, cases, strict=True))
    return TriedResult("", "", shown)


def _case(result: runner.CaseResult, files: testdata.CaseFiles, own: bool) -> TriedCase:
    output = result.output if result.output is not None else (result.trace[0] if result.trace else b"")
    stderr = result.trace[1] if result.trace else b""
    verdict = result.verdict.value
    if own and result.verdict in (Verdict.AC, Verdict.WA):
        verdict = ""  # no answer to compare with: what it printed is the result
    return TriedCase(
        result.name,
        verdict,
        "" if own else result.message,
        result.cpu_s,
        _read(files.input),
        _text(output),
        "" if own else _read(files.answer),
        _text(stderr),
    )
