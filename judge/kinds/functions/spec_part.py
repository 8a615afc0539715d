"""The function kind's part of problem.yaml: a signature, the exceptions a student's code must
raise, and cases that are calls of that signature with answers of its return type."""

from __future__ import annotations

import re
from pathlib import Path

from judge.kinds.functions import types
from judge.problem import refs
from judge.problem.spec import Finding, ProblemSpec

EXCEPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9.:$]*")


def issues(directory: Path, spec: ProblemSpec) -> list[Finding]:
    """What a function problem asks of its spec: a signature that parses, exception names,
    a program reference, and every case a call (or a class's scenario) of the signature."""
    found: list[Finding] = []
    for language, name in spec.raises.items():
        if not EXCEPTION_NAME.fullmatch(name):
            found.append((("raises", language), f"{name!r} is not the name of an exception"))
    if spec.reference in refs.NAMES:
        found.append((("reference",), "a function problem's reference is a function in a program file"))
    if spec.signature is None:
        return [*found, (("kind",), "a function problem needs a `signature`, e.g. moves(start: str, goal: str) -> int")]
    try:
        api = types.parse_api(spec.signature)
    except types.SignatureError as err:
        return [*found, (("signature",), f"not a signature: {err}")]
    return found + _case_issues(spec, api)


def _case_issues(spec: ProblemSpec, api: types.Api) -> list[Finding]:
    one_class = isinstance(api, types.ClassSignature)
    field = "calls" if one_class else "call"
    found: list[Finding] = []
    for i, group in enumerate(spec.groups):
        for j, case in enumerate(group.cases or ()):
            where: tuple[str | int, ...] = ("groups", i, "cases", j)
            if (case.calls if one_class else case.call) is None:
                said = (
                    "a class problem's case is `calls` (a scenario)"
                    if one_class
                    else "a function problem's case is a `call` (its arguments)"
                )
                found.append(((*where, "input" if case.input is not None else field), said))
                continue
            wrong = types.call_issue(api, case.called)
            if wrong:
                found.append(((*where, field), wrong))
            elif case.answer is not None:
                wrong = types.answer_issue(api, case.called, case.answer)
                found += [((*where, "answer"), wrong)] if wrong else []
    return found
