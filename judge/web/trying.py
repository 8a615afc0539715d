"""A run judged by a worker (issue 59): the student's program on the problem's public cases,
or on their own input, by the engine of `judge grade` (the same sandbox, limits and kind),
never on a secret case: those are not even given to it. Whatever the program leaves behind
goes with its box, as a submission's does."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from judge.grade import judging, runner
from judge.problem import testdata
from judge.run import sandbox
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


def judge_run(run: RunClaim, submitted: judging.Submitted, stop: sandbox.Stop | None = None) -> TriedResult:
    """The run's result: each public case (or the student's input) with its verdict, output and
    time. `submitted`: the run's program as the workers read a claim (worker.submitted_of).
    `stop`, once set, ends its compile or case at once and the cases after it are not run: the
    worker is wanted for a submission, and the result is thrown away (worker.serve_run)."""
    problem = submitted.problem
    found = judging.unrunnable(submitted)
    if found is not None:
        return TriedResult("", found.error or "this program cannot be run", ())
    if submitted.sources is None:
        return TriedResult("", "only a program can be run; submit this to have it judged", ())
    if run.own_input is not None and problem.spec.signature is not None:  # a call of the function kind
        return own_call(submitted, run.own_input, stop)
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
        stopped = stop.is_set if stop is not None else None
        result = runner.judge_submission(
            problem, submitted.sources, cases, full=True, trace=True, pause=stopped, stop=stop
        )
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


_CALL = re.compile(r"^\s*(?:[A-Za-z_][A-Za-z_0-9]*\.)?([A-Za-z_][A-Za-z_0-9]*)\s*\((.*)\)\s*;?\s*$", re.DOTALL)


def _json_arguments(inner: str) -> list[object]:
    """A call's arguments, `[1, 2], 3`, as JSON (Python's True, False and None read as JSON's)."""
    for python, plain in (("True", "true"), ("False", "false"), ("None", "null")):
        inner = re.sub(rf"\b{python}\b", plain, inner)
    found = json.loads(f"[{inner}]")
    assert isinstance(found, list)
    return found


def arguments_of(text: str, name: str) -> object:
    """The student's call as JSON arguments: `[[1, 2], 3]`, or written as a call,
    `max_sum([1, 2], 3)` (Python's True, False and None read as JSON's); ValueError if neither."""
    written = text.strip()
    if written.startswith(name + "(") and written.endswith(")"):
        return _json_arguments(written[len(name) + 1 : -1])
    return json.loads(written)


def scenario_of(text: str) -> object:
    """A class's scenario as the student writes it: a call a line (`MinStack()`, `push(3)`, or
    `s.push(3)`), or the spec's JSON, `[["MinStack"], ["push", 3]]`; ValueError if neither."""
    written = text.strip()
    if written.startswith("["):
        return json.loads(written)
    steps: list[object] = []
    for line in written.splitlines():
        if not line.strip():
            continue
        call = _CALL.match(line)
        if call is None:
            raise ValueError(line)
        steps.append([call.group(1), *_json_arguments(call.group(2))])
    return steps


def call_of(signature: str, text: str) -> tuple[object, str]:
    """The student's own call (or a class's scenario) on `signature` as JSON arguments, and ""; or
    (None, why it is no call of it, in one line). Asked at the door, so a malformed call costs
    no run, and again by the worker."""
    from judge.kinds.functions import types
    from judge.kinds.functions.kind import api_of

    api = api_of(signature)
    try:
        args = arguments_of(text, api.name) if isinstance(api, types.Signature) else scenario_of(text)
    except (ValueError, RecursionError):  # json's errors are ValueErrors; a bracket too deep recurses
        if isinstance(api, types.Signature):
            return None, f"write the call as {api.name}(...) or its arguments as a JSON list"
        return None, f"write one call a line, {api.name}(...) first, then its methods' calls"
    try:
        issue = types.call_issue(api, args)
    except RecursionError:
        issue = "its values are nested too deep"
    if issue:
        return None, f"not a {'call' if isinstance(api, types.Signature) else 'scenario'} of {api.name}: {issue}"
    return args, ""


def own_call(submitted: judging.Submitted, text: str, stop: sandbox.Stop | None = None) -> TriedResult:
    """A function problem's Run on the student's own call: what their function returned (or
    raised), in the sandbox with the problem's limits, as a case's run is made."""
    from judge.kinds.base import CaseJob, CaseRun, run_on_stdin
    from judge.kinds.functions import calls, outcome, types
    from judge.kinds.functions.kind import api_of, family_of
    from judge.run import build, languages
    from judge.run.verdicts import judge_run

    problem, sources = submitted.problem, submitted.sources
    assert sources is not None and problem.spec.signature is not None
    api = api_of(problem.spec.signature)
    args, issue = call_of(problem.spec.signature, text)
    if issue:
        return TriedResult("", issue, ())
    family = family_of(sources.language.id)
    spelling = family.name if family is not None else ""
    with tempfile.TemporaryDirectory(prefix="judge-run-") as folder, build.box() as where:
        given = Path(folder) / "own.in"
        given.write_text(json.dumps(args), encoding="utf-8")
        answer = Path(folder) / "own.ans"
        answer.write_text("null", encoding="utf-8")
        made = runner.compile_for(problem, sources, where, stop)
        if not made.ok:
            return TriedResult("" if made.internal else made.message, made.message if made.internal else "", ())
        sandbox.seal_build(where)
        limits = runner.run_limits(problem, sources.language)
        job = CaseJob(problem, runner.launch_of(problem, sources), where, (given, answer), limits, None, stop)
        ran = run_on_stdin(job)
    if isinstance(api, types.Signature):
        shown_call = calls.call(api.name, args, spelling)
    else:  # a scenario: a call a line, each with what it returned
        assert isinstance(args, list)
        shown_call = "\n".join(calls.call(step[0], step[1:], spelling) for step in args)
    if isinstance(ran, CaseRun):
        return TriedResult("", ran.decided.message or "the run failed", ())
    failed = ran.exit_code != 0 or ran.limit_hit is not None or ran.memory_kib >= limits.memory_mib * 1024
    # Only a run that did not end well has a verdict here: there is no answer to compare with.
    verdict = judge_run(ran, limits.memory_mib * 1024, None, languages.memory_marks()) if failed else None
    said = outcome.result_of(ran.stdout)
    steps = said.get("steps") if isinstance(said, dict) else None
    if isinstance(steps, list):
        assert isinstance(args, list)
        output = "\n".join(
            f"{calls.call(step[0], step[1:], spelling)} → {_said(got, spelling)}"
            for step, got in zip(args, steps, strict=False)
        )
    else:
        output = _said(said, spelling)
    shown = verdict.verdict.value if verdict is not None and verdict.verdict is not Verdict.AC else ""
    message = verdict.message if verdict is not None and shown else ""
    case = TriedCase(OWN + "/1", shown, message, ran.cpu_s, shown_call, output, "", _text(ran.stderr))
    return TriedResult("", "", (case,))


def _said(said: object, spelling: str) -> str:
    """What a call came to, from the harness's result: its value, or what it raised."""
    from judge.kinds.functions import calls

    if isinstance(said, dict) and "returned" in said:
        return calls.literal(said["returned"], spelling)
    if isinstance(said, dict) and "raised" in said:
        return f"raised {said['raised']}" + (f": {said['message']}" if said.get("message") else "")
    return "returned nothing"
