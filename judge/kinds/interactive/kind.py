"""The interactive kind: an interactor program of the problem's talks with the submission
through two pipes and decides (ICPC: exit 42 accepted, 43 wrong answer). The case's answer file
is the spec's, handed to the interactor as it is; the reference is not asked for answers."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from judge.errors import JudgeError, SandboxFailure
from judge.kinds.base import CaseJob, CaseRun, Kind, Starter
from judge.kinds.interactive.rules import judge_interaction
from judge.problem import refs
from judge.problem.spec import Finding, ProblemSpec, program_issues
from judge.run import exchange, languages, programs
from judge.run.programs import ProgramError
from judge.run.verdicts import CaseVerdict, Verdict


@lru_cache(maxsize=8)
def built_interactor(program: Path, memory_mib: int) -> programs.Built:
    """The interactor, compiled once (the program cache keeps it across processes)."""
    try:
        return programs.load_and_build(program, memory_mib)
    except JudgeError as err:
        raise programs.ProgramError(f"the interactor: {err}") from None


class Interactive(Kind):
    name = "interactive"
    summary = "a program talks with the problem's `interactor`, which decides"
    solves = False
    explains = False  # an interaction has no expected output to show beside an input
    own_sandboxes = True
    reference_check = "reference accepted by the interactor"
    spec_keys = ("interactor",)
    named_by_keys = True

    def spec_issues(self, directory: Path, spec: ProblemSpec) -> list[Finding]:
        """Its interactor, a program of the problem that decides (so no checker), and a
        program reference to talk to it."""
        if spec.interactor is None:
            return [(("kind",), "an interactive problem needs an `interactor` (its program)")]
        found = program_issues(directory, ("interactor", "program"), spec.interactor.program)
        if "checker" in spec.model_fields_set:
            found.append((("checker",), "an interactive problem has no checker: its interactor decides"))
        if spec.reference in refs.NAMES:
            found.append(
                (("reference",), "an interactive problem's reference is a program that talks to the interactor")
            )
        return found

    def judge_case(self, job: CaseJob) -> CaseRun:
        """Both programs run at once, each in a sandbox of its own (not the submission's
        session, whose one run at a time cannot hold the dialogue)."""
        problem, limits = job.problem, job.limits
        spec = problem.spec.interactor
        assert spec is not None
        tool = problem.program_limits
        given, answer = job.case
        try:
            built = built_interactor(problem.directory / spec.program, tool.memory_mib)
            task = programs.Task(
                built,
                ("input", "answer", f"{exchange.FEEDBACK}/", *spec.args),
                None,
                exchange.partner_limits(tool.sandbox_limits(built), limits),
                files=(("input", given), ("answer", answer)),
                keep=exchange.FEEDBACK,
            )
            done = exchange.interact(list(job.launch.argv), job.where, limits, task, called="the interactor")
        except (SandboxFailure, ProgramError) as err:
            return CaseRun(None, CaseVerdict(Verdict.IE, str(err)))
        decided = judge_interaction(done.submission, done.partner, limits.memory_mib * 1024, languages.memory_marks())
        return CaseRun(done.submission, decided, None, own_output=False)

    def starter(self, own: str, other: str, shape: str = "") -> Starter:
        return Starter(
            "Guess the Number",
            (
                ("interactive/problem.yaml.j2", "problem.yaml"),
                ("interactive/statement.md.j2", "statement.md"),
                ("interactive/gen.py.j2", "generators/gen.py"),
                ("interactive/validate.py.j2", "validators/validate.py"),
                (f"interactive/ref.{own}.j2", f"solutions/accepted/bisect.{own}"),
                (f"interactive/ref.{other}.j2", f"solutions/accepted/halves.{other}"),
                (f"interactive/wrong.{own}.j2", f"solutions/wrong_answer/count_up.{own}"),
                ("interactive/slow.py.j2", "solutions/time_limit_exceeded/slow_thinker.py"),
                ("interactive/interactor.py.j2", "interactor.py"),
            ),
        )
