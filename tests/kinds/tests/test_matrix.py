"""What a student learns of an invalid test: the validator's own reason, never the teacher's code."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from judge.author import making
from judge.kinds import table as kinds
from judge.kinds.tests import matrix
from judge.kinds.tests.suite import StudentTest
from judge.run import programs, sandbox
from judge.run.programs import Built
from judge.run.sandbox import RunResult, session
from tests import needs
from tests.kinds.tests import problems

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


ECHO = "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n"


@needs.mark("isolation", "python3")
def test_a_python_programs_runs_are_forks_of_one_zygote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each run a fork of a zygote that has the script compiled, not an interpreter's start per test.
    zygotes = sandbox.session_support().active and not sandbox.detect().rootless  # as root in a session
    channels: list[int] = []  # after each run, its session's zygote (0: none)
    run = session.Session.run

    def spy(self: session.Session, *args: Any, **kwargs: Any) -> RunResult:
        result = run(self, *args, **kwargs)
        channels.append(id(self.zygote[1]) if self.zygote is not None else 0)
        return result

    monkeypatch.setattr(session.Session, "run", spy)
    (tmp_path / "sum.py").write_text(ECHO)
    built = programs.load_and_build(tmp_path / "sum.py", 256)
    inputs = []
    for index, text in enumerate(("1 2\n", "3 4 5\n", "-7\n")):
        inputs.append(tmp_path / f"{index}.in")
        inputs[-1].write_text(text)
    limits = sandbox.RunLimits(cpu_s=2, wall_s=5, memory_mib=256, output_bytes=1 << 16)
    found = matrix.run_batch(built, tuple(inputs), limits)
    assert [r.stdout for r in found] == [b"3\n", b"12\n", b"-7\n"], found
    if zygotes:
        assert len(channels) == 3 and len(set(channels)) == 1 and channels[0], channels


@needs.mark("isolation", "python3")
def test_the_bugs_share_a_session_and_each_is_still_judged_on_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One worker (in this process): its bugs in one session, not one each (issue 60, item 5).
    problems.make(tmp_path)
    target = kinds.load_problem(tmp_path / "sums")
    making.write(target, making.generate(target, jobs=2))
    opened: list[Path] = []
    cases = sandbox.cases

    def spy(where: Path, *args: Any, **kwargs: Any) -> Any:
        opened.append(where)
        return cases(where, *args, **kwargs)

    monkeypatch.setattr(sandbox, "cases", spy)
    spec = kinds.load_problem(tmp_path / "sums-tests").spec.tests
    assert spec is not None
    bugs = matrix.bugs_of(target.directory, spec)
    tests = [StudentTest("neg", b"3\n-5 -1 -8\n", None), StudentTest("one", b"1\n1\n", None)]
    tests += [StudentTest("five", b"5\n1 2 3 4 5\n", None)]
    checked, runs = matrix.judge_tests(bugs, target, kinds.of(target), tests, jobs=1)
    assert [c.why for c in checked] == ["", "", ""]
    caught = {PurePosixPath(bug.path).stem: run.caught_by for bug, run in zip(bugs, runs, strict=True)}
    # Each bug caught by its own test: a crash, a loop, a wrong answer (none leaks into the next).
    assert caught == {"crash_on_one": "one", "forever_on_five": "five", "empty_part": "neg", "first_only": "neg"}
    assert len(opened) == len(target.spec.validators) + 2  # the validators', the reference's, the bugs' one
