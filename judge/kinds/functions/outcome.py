"""What a call or a scenario came to (pure): the harness's result line read, checked against the
signature and compared with the answer, all outside the sandbox.

A function's result is one outcome ({"returned": v}, {"raised": T, "message": m} or
{"unserializable": T}); a class's is {"steps": [outcome, ...]}, one per step of the scenario.
Either may instead say the module failed ({"import": ...}) or has no such name ({"missing": n}).

The line is the student's process's output, read with bounds (judge.run.bounded): a returned
value nested deeper than MAX_DEPTH levels, over MAX_RESULT_BYTES as JSON, not Unicode text or
not JSON (NaN, 1e999 included) is Unreadable, a WA saying which, never an exception; what the
line names (an exception's type and message) is quoted in a verdict cut to NAME_CAP and
MESSAGE_CAP characters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.kinds.functions import types
from judge.run import bounded, values
from judge.run.checkers import CheckResult
from judge.run.verdicts import CaseVerdict, Verdict

MARK = b"\x1ejudge-result\x1e "  # harness_python.MARK: what starts the result line
MAX_DEPTH = bounded.MAX_DEPTH  # levels of lists and dicts in a returned value
MAX_RESULT_BYTES = bounded.MAX_BYTES  # the result line, the returned value's JSON in it
_AROUND = 3  # levels around a returned value on the line: {"steps": [{"returned": v}]}
NAME_CAP, MESSAGE_CAP = 100, 500  # characters of an exception's type name and message in a verdict
_ACCEPTED = (CaseVerdict(Verdict.AC, ""), CheckResult(True, ""))
Decided = tuple[CaseVerdict, CheckResult | None]
# A problem's own checker, on what a call (or a whole scenario) returned, against the case's
# files: a program's verdict, run by the caller (this module does no I/O).
Custom = Callable[[object], CheckResult]


def _any(_value: object) -> CheckResult:
    return CheckResult(True, "")


@dataclass(frozen=True)
class Unreadable:
    """A result line that cannot be read within the bounds: the student's WA, saying why."""

    said: str


Result = dict[str, object] | Unreadable | None


def result_of(output: bytes) -> Result:
    """The harness's result (the last marked line), Unreadable when it breaks a bound, or None
    when the program wrote none (or a JSON value that is no object)."""
    at = output.rfind(MARK)
    if at < 0:
        return None
    line = output[at + len(MARK) :]
    try:
        found = bounded.loads(line, MAX_RESULT_BYTES, MAX_DEPTH + _AROUND)
    except bounded.OutOfBounds as err:
        if err.bound == "depth":
            return Unreadable(f"the returned value is nested deeper than {MAX_DEPTH} levels")
        if err.bound == "size":
            return Unreadable(f"the returned value is over {MAX_RESULT_BYTES >> 20} MiB as JSON")
        return Unreadable(f"the result line is {err}")  # not UTF-8, not Unicode, not JSON: said as it is
    if type(found) is not dict:
        return None
    if "steps" not in found and bounded.nested_deeper(line, MAX_DEPTH + 1):  # {"returned": v}: one level around
        return Unreadable(f"the returned value is nested deeper than {MAX_DEPTH} levels")
    return found


def _cut(value: object, cap: int) -> str:
    """What the result line says (a type's name, a message) as text for a verdict, at most `cap` characters."""
    text = value if type(value) is str else values.quote(value)
    return text if len(text) <= cap else text[: cap - 3] + "..."


def step_text(step: list[object]) -> str:
    """A scenario's step as a call: `add(2)`."""
    text = f"{step[0]}({', '.join(values.canonical(a) for a in step[1:])})"
    return text if len(text) <= values.QUOTE_CAP else text[: values.QUOTE_CAP - 4] + "...)"


def decide(
    api: types.Api,
    rule: values.Tolerance,
    result: Result,
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
    if isinstance(result, Unreadable):
        return CaseVerdict(Verdict.WA, result.said), None
    if "missing" in result:
        return CaseVerdict(Verdict.RE, f"no {what} {api.name} in the module"), None
    if "import" in result:
        said = result["import"]
        kind = _cut(said.get("raised", ""), NAME_CAP) if isinstance(said, dict) else ""
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
        assert isinstance(steps, list)  # each step compared was one of its dicts
        check = custom(answer_of({"steps": steps[: min(len(call), len(answer))]}))
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
        kind = _cut(got["unserializable"], NAME_CAP)
        return CaseVerdict(Verdict.WA, f"{where}returned a value of type {kind}, expected {returns}"), None
    if "raised" in got:
        name = _cut(got["raised"], NAME_CAP)
        if expected_raise is not None and required and got["raised"] != required:
            return CaseVerdict(Verdict.WA, f"{where}raised {name}, expected {required}"), None
        if expected_raise is not None:
            return _ACCEPTED
        message = _cut(got.get("message", ""), MESSAGE_CAP)
        return CaseVerdict(Verdict.RE, f"{where}raised {name}" + (f": {message}" if message else "")), None
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


def answer_of(result: Result) -> object:
    """The answer a reference's result makes (its value, or {"$raised": T} per call or step);
    ValueError saying what it gave instead when it gave none."""
    if isinstance(result, Unreadable):
        raise ValueError(result.said)
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
