"""The classic kind: the program reads the case's input on stdin and its output, on stdout, is
compared with the answer by the problem's checker (built in, or a program of its own)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from judge.kinds.base import CaseJob, CaseRun, Kind, Starter, run_on_stdin
from judge.run import custom_checker, languages
from judge.run.checkers import CheckResult
from judge.run.custom_checker import CheckerError
from judge.run.verdicts import CaseVerdict, Verdict, judge_run

if TYPE_CHECKING:
    from judge.problem.spec import Problem


def check_output(problem: Problem, case: tuple[Path, Path], output: bytes) -> CheckResult:
    """The problem's checker on one output of the case (input, answer). CheckerError when a
    checker program fails."""
    from judge.problem.spec import CustomChecker

    checker = problem.spec.checker
    given, answer = case
    if isinstance(checker, CustomChecker):
        return custom_checker.check(
            problem.directory / checker.program, given, answer, output, problem.program_limits, checker.args
        )
    return checker.compare(output, answer.read_bytes())


class Stdio(Kind):
    name = "stdio"
    summary = "a program reads each case on stdin and writes its answer on stdout"
    solves = True
    samples_are_cases = True

    def judge_case(self, job: CaseJob) -> CaseRun:
        memory_limit_kib = job.limits.memory_mib * 1024
        run = run_on_stdin(job)
        if isinstance(run, CaseRun):
            return run
        check = None
        checker_failure = ""
        clean = run.exit_code == 0 and run.limit_hit is None
        if clean and run.memory_kib < memory_limit_kib:  # no checker after a failed run
            try:
                check = check_output(job.problem, job.case, run.stdout)
            except CheckerError as err:
                checker_failure = str(err)
        decided = judge_run(run, memory_limit_kib, check, languages.memory_marks())
        if checker_failure and decided.verdict is Verdict.IE:
            decided = CaseVerdict(Verdict.IE, checker_failure)
        return CaseRun(run, decided, check)

    def check_answer(self, problem: Problem, case: tuple[Path, Path], output: bytes) -> CheckResult:
        return check_output(problem, case, output)

    def starter(self, own: str, other: str, shape: str = "") -> Starter:
        return Starter(
            "Largest Sum of a Part",
            (
                ("problem.yaml.j2", "problem.yaml"),
                ("statement.md.j2", "statement.md"),
                ("gen.py.j2", "generators/gen.py"),
                ("validate.py.j2", "validators/validate.py"),
                (f"ref.{own}.j2", f"solutions/accepted/ref.{own}"),
                (f"ref.{other}.j2", f"solutions/accepted/kadane.{other}"),
                (f"wrong.{own}.j2", f"solutions/wrong_answer/empty_part.{own}"),
            ),
        )
