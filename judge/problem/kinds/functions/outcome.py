"""What a call or a scenario came to (pure): the harness's result line read, checked against the
signature and compared with the answer, all outside the sandbox.

A function's result is one outcome ({"returned": v}, {"raised": T, "message": m} or
{"unserializable": T}); a class's is {"steps": [outcome, ...]}, one per step of the scenario.
Either may instead say the module failed ({"import": ...}) or has no such name ({"missing": n}).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from judge.problem.kinds.functions import types, values
from judge.run.checkers import CheckResult
from judge.run.verdicts import CaseVerdict, Verdict

MARK = b"\x1ejudge-result\x1e "  # harness_python.MARK: what starts the result line
_ACCEPTED = (CaseVerdict(Verdict.AC, ""), CheckResult(True, ""))
Decided = tuple[CaseVerdict, CheckResult | None]
# A problem's own checker, on what a call (or a whole scenario) returned, against the case's
# files: a program's verdict, run by the caller (this module does no I/O).
Custom = Callable[[object], CheckResult]


def _any(_value: object) -> CheckResult:
    return CheckResult(True, "")


def result_of(output: bytes) -> dict[str, object] | None:
    """The harness's result (the last marked line), or None when the program wrote none."""
    at = output.rfind(MARK)
    if at < 0:
        return None
    try:
        found = json.loads(output[at + len(MARK) :].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return found if type(found) is dict else None


def step_text(step: list[object]) -> str:
    """A scenario's step as a call: `add(2)`."""
    text = f"{step[0]}({', '.join(values.canonical(a) for a in step[1:])})"
    return text if len(text) <= values.QUOTE_CAP else text[: values.QUOTE_CAP - 4] + "...)"


def decide(
    api: types.Api,
    rule: values.Tolerance,
    result: dict[str, object] | None,
    call: object,
    answer: object,
    required: str | None = None,
    custom: Custom | None = None,
) -> Decided:
    """The verdict of one case from what the harness said, the call and its answer. `required`:
    the exception the submission's language must raise where the answer is one (None: any).
    `custom`: the problem's checker, which compares the value instead (a scenario's: the list
    of every step's, once each step's type and exceptions are as they should be)."""
    what = "class" if isinstance(api, types.ClassSignature) else "function"
    if result is None:
        return CaseVerdict(Verdict.WA, f"{api.name} returned nothing (the program ended before it returned)"), None
    if "missing" in result:
        return CaseVerdict(Verdict.RE, f"no {what} {api.name} in the module"), None
    if "import" in result:
        said = result["import"]
        kind = said.get("raised", "") if isinstance(said, dict) else ""
        return CaseVerdict(Verdict.RE, f"the module raised {kind} when imported"), None
    if isinstance(api, types.Signature):
        return _one(api.returns, rule, result, answer, "", required, custom)
    steps = result.get("steps")
    assert isinstance(call, list) and isinstance(answer, list)  # checked against the signature before
    for number, (step, expected) in enumerate(zip(call, answer, strict=False), start=1):
        got = steps[number - 1] if isinstance(steps, list) and number <= len(steps) else None
        where = f"step {number}, {step_text(step)}: "
        if type(got) is not dict:
            return CaseVerdict(Verdict.WA, f"{where}returned nothing (the scenario ended before it)"), None
        called = types.step_signature(api, number, step[0])
        assert called is not None
        decided = _one(called.returns, rule, got, expected, where, required, None if custom is None else _any)
        if decided[0].verdict is not Verdict.AC:
            return decided
    if custom is not None:
        check = custom(answer_of(result))
        return CaseVerdict(Verdict.AC if check.accepted else Verdict.WA, "" if check.accepted else check.message), check
    return _ACCEPTED


def _one(
    returns: types.Type,
    rule: values.Tolerance,
    got: dict[str, object],
    answer: object,
    where: str,
    required: str | None = None,
    custom: Custom | None = None,
) -> Decided:
    """One call's outcome against its answer; `where` names the step of a scenario."""
    expected_raise = values.raised(answer)
    if "unserializable" in got:
        return CaseVerdict(
            Verdict.WA, f"{where}returned a value of type {got['unserializable']}, expected {returns}"
        ), None
    if "raised" in got:
        if expected_raise is not None and required and got["raised"] != required:
            return CaseVerdict(Verdict.WA, f"{where}raised {got['raised']}, expected {required}"), None
        if expected_raise is not None:
            return _ACCEPTED
        message = str(got.get("message", ""))
        return CaseVerdict(Verdict.RE, f"{where}raised {got['raised']}" + (f": {message}" if message else "")), None
    if "returned" not in got:
        return CaseVerdict(Verdict.WA, f"{where}returned nothing"), None
    returned = got["returned"]
    if expected_raise is not None:
        said = f"{where}returned {values.quote(returned)}, expected an exception ({expected_raise})"
        return CaseVerdict(Verdict.WA, said), None
    wrong_type = types.issue(returned, returns)
    if wrong_type:
        return CaseVerdict(Verdict.WA, f"{where}returned {types.kind_of(returned)}: {wrong_type}"), None
    check = values.compare(returned, answer, rule) if custom is None else custom(returned)
    if check.accepted:
        return CaseVerdict(Verdict.AC, ""), check
    said = where + check.message.removeprefix("the value: ") if where else check.message
    return CaseVerdict(Verdict.WA, said), CheckResult(False, said)


def answer_of(result: dict[str, object] | None) -> object:
    """The answer a reference's result makes (its value, or {"$raised": T} per call or step);
    ValueError saying what it gave instead when it gave none."""
    steps = result.get("steps") if result is not None else None
    if isinstance(steps, list):
        return [_step_answer(step) for step in steps]
    return _step_answer(result)


def _step_answer(result: object) -> object:
    if isinstance(result, dict) and "returned" in result:
        return result["returned"]
    if isinstance(result, dict) and "raised" in result:
        return {values.RAISED: result["raised"]}
    said = "nothing" if not isinstance(result, dict) else next(iter(result), "nothing")
    raise ValueError(said)
