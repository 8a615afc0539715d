"""What a student learns of an invalid test: the validator's own reason, never the teacher's code."""

from __future__ import annotations

from pathlib import Path

from judge.kinds.tests import matrix
from judge.run.programs import Built
from judge.run.sandbox import RunResult

VALIDATOR = Built("validators/validate.py", Path("/nowhere"), ("python3", "main.py"), "python3", True, 0)
TRACEBACK = (
    b'Traceback (most recent call last):\n  File "/box/main.py", line 9\n    secret = table[n] + 17\nIndexError\n'
)


def ran(exit_code: int, stderr: bytes = b"") -> RunResult:
    return RunResult(exit_code, None, 0.01, 0.01, 1000, 0, None, False, b"", stderr)


def test_a_validator_saying_invalid_is_quoted() -> None:
    said = matrix.validator_issue(ran(43, b"line 1: n must be in 1..200000\n"), VALIDATOR)
    assert said == "rejected by the validator validate.py (line 1: n must be in 1..200000)"
    assert matrix.validator_issue(ran(42), VALIDATOR) == ""


def test_a_crash_of_the_validator_or_the_reference_quotes_none_of_its_code() -> None:
    said = matrix.validator_issue(ran(1, TRACEBACK), VALIDATOR)
    assert said == "the validator validate.py exited with code 1 on it"
    assert matrix.reference_issue(ran(1, TRACEBACK)) == "the reference exited with code 1 on it"
    assert matrix.reference_issue(ran(0, TRACEBACK)) == ""
