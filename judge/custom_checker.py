"""Custom checkers, by the ICPC package protocol: `checker input answer feedback_dir < output`.

Exit 42 means accepted, 43 wrong answer, anything else a judge error (IE), never a
verdict against the student. The checker runs in the sandbox too: it reads untrusted
output. It is compiled once per process, by the language of its file name.
"""

from __future__ import annotations

import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

from judge import build, lifecycle, sandbox
from judge.checkers import CheckResult
from judge.errors import JudgeError

ACCEPTED, WRONG = 42, 43
CHECKER_LIMITS = sandbox.Limits(cpu_s=10, wall_s=20, memory_mib=1024, output_bytes=1 << 20)


class CheckerError(JudgeError):
    """The checker itself failed: the case is IE, not WA."""


@lru_cache(maxsize=8)
def _built(program: Path) -> tuple[Path, tuple[str, ...]]:
    submission = build.load_submission(program)
    directory = lifecycle.make_temp_dir("checker")
    lifecycle.remove_at_exit(directory)  # built once per process, removed with it
    sandbox.prepare_box(directory)
    compiled = build.compile_submission(submission, directory)
    if not compiled.ok:
        raise CheckerError(f"{program}: the checker does not compile:\n{compiled.message}")
    return directory, tuple(submission.language.run_argv(CHECKER_LIMITS.memory_mib, submission.mainclass))


def check(program: Path, input_file: Path, answer_file: Path, output: bytes) -> CheckResult:
    directory, argv = _built(program)
    work = Path(tempfile.mkdtemp(prefix="judge-check-", dir=directory))
    try:
        sandbox.prepare_box(work)
        shutil.copyfile(input_file, work / "input")
        shutil.copyfile(answer_file, work / "answer")
        (work / "output").write_bytes(output)
        feedback = work / "feedback"
        sandbox.prepare_box(feedback)
        # The checker runs in its own folder; the case's files are in a subfolder of it.
        result = sandbox.run(
            [*argv, f"{work.name}/input", f"{work.name}/answer", f"{work.name}/feedback/"],
            box=directory,
            limits=CHECKER_LIMITS,
            stdin=work / "output",
        )
        judge_message = feedback / "judgemessage.txt"
        lines = judge_message.read_text(errors="replace").strip().splitlines() if judge_message.is_file() else []
        message = lines[0][:200] if lines else ""
        if result.exit_code == ACCEPTED:
            return CheckResult(True, "")
        if result.exit_code == WRONG:
            return CheckResult(False, message or "wrong answer (custom checker)")
        how = f"exit code {result.exit_code}" if result.signal is None else f"signal {result.signal}"
        limit = f", {result.limit_hit} limit" if result.limit_hit else ""
        raise CheckerError(f"{program.name}: the checker ended with {how}{limit}; expected exit 42 or 43")
    finally:
        shutil.rmtree(work, ignore_errors=True)
