"""Custom checkers, by the ICPC package protocol: `checker input answer feedback_dir [args] < output`.

Exit 42 means accepted, 43 wrong answer, anything else a judge error (IE), never a
verdict against the student. The checker is one of the problem's programs (a file or a
folder, built once into the program cache) and runs in the sandbox: it reads untrusted
output.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from judge.errors import JudgeError
from judge.run import programs
from judge.run.checkers import CheckResult
from judge.run.programs import ToolLimits

ACCEPTED, WRONG = 42, 43
FEEDBACK = "feedback"


class CheckerError(JudgeError):
    """The checker itself failed: the case is IE, not WA."""


@lru_cache(maxsize=8)
def _built(program: Path, memory_mib: int) -> programs.Built:
    try:
        return programs.load_and_build(program, memory_mib)
    except JudgeError as err:
        raise CheckerError(f"the checker: {err}") from None


def check(
    program: Path,
    input_file: Path,
    answer_file: Path,
    output: bytes,
    limits: ToolLimits,
    args: tuple[str, ...] = (),
) -> CheckResult:
    built = _built(program, limits.memory_mib)
    task = programs.Task(
        built,
        ("input", "answer", f"{FEEDBACK}/", *args),
        output,  # the program's output on stdin, as the protocol says
        limits.sandbox_limits(built),
        files=(("input", input_file), ("answer", answer_file)),
        keep=FEEDBACK,
    )
    outcome = programs.run_keeping(task)
    result = outcome.run
    feedback = dict(outcome.kept).get("judgemessage.txt", b"")
    lines = feedback.decode("utf-8", errors="replace").strip().splitlines()
    message = lines[0][:200] if lines else ""
    if result.exit_code == ACCEPTED and result.limit_hit is None:
        return CheckResult(True, "")
    if result.exit_code == WRONG and result.limit_hit is None:
        return CheckResult(False, message or "wrong answer (custom checker)")
    how = f"exit code {result.exit_code}" if result.signal is None else f"signal {result.signal}"
    limit = f", {result.limit_hit} limit" if result.limit_hit else ""
    raise CheckerError(f"{program.name}: the checker ended with {how}{limit}; expected exit 42 or 43")
