"""What every kind of problem answers: how one case is run and decided, whether the reference's
output is each case's answer, and what `judge new` writes for it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from judge.errors import JudgeError, SandboxFailure
from judge.problem.checkers import FOR_TEXT
from judge.run import sandbox
from judge.run.checkers import CheckResult
from judge.run.languages import Language
from judge.run.sources import Launch, Sources
from judge.run.verdicts import CaseVerdict, Verdict

if TYPE_CHECKING:
    from collections.abc import Callable

    from judge.problem.spec import FeedbackLevel, Finding, Problem, ProblemSpec

    Progress = Callable[[int, int], None]  # (done, tried) as long work goes on
    from judge.problem.yamlpos import Located

STOPPED = "not judged: stopped, its group had ended"


@dataclass(frozen=True)
class CaseJob:
    """One case to run and decide: what grading hands a kind's judge_case."""

    problem: Problem
    launch: Launch  # the built program's command and language
    where: Path  # the box holding the build, the program's working folder
    case: tuple[Path, Path]  # its input and answer files
    limits: sandbox.RunLimits
    runner: sandbox.CaseRunner | None = None  # the submission's sandbox session, if it has one
    stop: sandbox.Stop | None = None  # once set, ends the run: its group has ended (NJ)


@dataclass(frozen=True)
class CaseRun:
    """One case run and decided, before the grading stage makes a record of it."""

    run: sandbox.RunResult | None  # None: the sandbox failed before the program ran (decided is IE)
    decided: CaseVerdict
    check: CheckResult | None = None  # the checker's result, when one compared an output
    # Whether run.stdout is the program's own output to show (a kind may send it elsewhere).
    own_output: bool = True


def run_on_stdin(job: CaseJob) -> sandbox.RunResult | CaseRun:
    """The built program run on the job's input file (in the submission's session, else a
    sandbox of its own): its RunResult, or the CaseRun already decided when the sandbox failed
    (IE) or the run was stopped because its group had ended (NJ)."""
    argv, given = list(job.launch.argv), job.case[0]
    try:
        if job.runner is not None:
            run = job.runner.run(argv, limits=job.limits, stdin=given, stop=job.stop)
        else:
            run = sandbox.run(argv, box=job.where, limits=job.limits, stdin=given, stop=job.stop)
    except SandboxFailure as err:
        return CaseRun(None, CaseVerdict(Verdict.IE, str(err)))
    if run.limit_hit is sandbox.Limit.STOPPED:
        return CaseRun(run, CaseVerdict(Verdict.NJ, STOPPED))
    return run


@dataclass(frozen=True)
class DataCase:
    """One case of a submission that is data, not a program (a student's tests), as its kind
    decided it: its group, its name, whether students see it, its verdict and message."""

    group: str
    case: str
    public: bool
    verdict: Verdict
    message: str


@dataclass(frozen=True)
class Starter:
    """What `judge new --kind K` writes: its default title and (template, path) of every file,
    templates relative to templates/new/; the reference is the fifth file."""

    title: str
    files: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Decoy:
    """A wrong solution the judge writes itself, which the tests must not accept (judge verify)."""

    language: str
    name: str  # its file name
    text: str
    what: str  # what it does, for the message when it is accepted


class Kind(ABC):
    """One kind of problem. A subclass is a row of kinds.table."""

    name: ClassVar[str]
    summary: ClassVar[str]  # what a problem of the kind is, in a line (the spec's schema says it)
    # Each case's answer is the reference's output on its input (judge gen makes it, judge verify
    # reproduces it, judge explain compares with it); else the answer file is the spec's, as it is,
    # and verify instead judges the reference on every case.
    solves: ClassVar[bool]
    # `judge explain` searches its problems for a smallest failing input (a kind that solves).
    explains: ClassVar[bool] = True
    # Its cases run in sandboxes of their own (two at once), never in the submission's session.
    own_sandboxes: ClassVar[bool] = False
    # The name of verify's check of a kind that does not solve: the reference judged on every case.
    reference_check: ClassVar[str] = "reference accepted on every case"
    # A statement's samples are public cases as they are (an input, then its answer): the spec's
    # may stand in for the statement's own, and the statement's are checked against the spec's.
    # Not so for a function's samples (calls) or an interaction's (a dialogue).
    samples_are_cases: ClassVar[bool] = False
    # The ICPC/Kattis package format has problems of this kind (`judge export` writes them).
    in_packages: ClassVar[bool] = True
    # Its part of problem.yaml (the spec's loader asks, judge.problem.spec.KindRules): the keys
    # only its problems may set, at the top and in a case; the built-in checkers it can use,
    # and whose they are, for the message naming one it cannot.
    spec_keys: ClassVar[tuple[str, ...]] = ()
    # A spec that names no kind but sets one of its spec_keys is of this kind (as ICPC packages
    # make a problem with its own dialogue program interactive).
    named_by_keys: ClassVar[bool] = False
    case_keys: ClassVar[tuple[str, ...]] = ()
    checkers: ClassVar[tuple[str, ...]] = FOR_TEXT
    whose: ClassVar[str] = "a program's"

    # A submission is data (a student's tests), not a program: nothing compiles it; read_data
    # checks and fingerprints it, judge_data decides it whole against the problem under_test.
    takes_data: ClassVar[bool] = False

    def under_test(self, problem: Problem) -> Path | None:
        """The folder of the problem a submission of this one is about (its tests' subject)."""
        return None

    def read_data(self, problem: Problem, given: Path | tuple[str, bytes]) -> bytes:
        """A data submission's fingerprint; JudgeError (one line, naming the file) when refused."""
        raise JudgeError(f"{problem.spec_path}: a {self.name} problem takes programs, not data")

    def judge_data(
        self, problem: Problem, target: Problem, kind: Kind, given: Path | tuple[str, bytes]
    ) -> tuple[DataCase, ...]:
        """A data submission judged against `target` (of `kind`): each case decided."""
        raise JudgeError(f"{problem.spec_path}: a {self.name} problem takes programs, not data")

    def prepare_data(
        self, problem: Problem, target: Problem, kind: Kind, jobs: int, progress: Progress | None = None
    ) -> str:
        """What judging a data submission needs made first, once per machine (a tests problem's
        mutants), made by judge gen and verify; a line saying what, "" for nothing. Load the
        problem again after: what was made may add groups."""
        return ""

    def spec_issues(self, directory: Path, spec: ProblemSpec) -> list[Finding]:
        """What the kind requires of the rest of its problem's spec, each with its key path."""
        return []

    def complete_spec(self, directory: Path, spec: ProblemSpec, located: Located) -> ProblemSpec:
        """The spec with what the kind makes of its own files (a unit problem's groups)."""
        return spec

    @abstractmethod
    def judge_case(self, job: CaseJob) -> CaseRun:
        """Run the built program on the job's case and decide."""

    def case_reads(self, problem: Problem, language: str) -> tuple[str, ...]:
        """Folders of the judge's that the cases of a submission in `language` read, shown
        read-only at their own paths in its sandbox (a kit made once per machine)."""
        return ()

    def program(self, problem: Problem, sources: Sources) -> Sources:
        """The program the sandbox builds and runs of a submission (or the reference): the
        submission itself, or wrapped (a function's harness beside it)."""
        return sources

    def compile_check(self, problem: Problem, sources: Sources) -> str:
        """Why the submission cannot be built for this problem (a compile error, "" if none),
        found before any compiler runs."""
        return ""

    def public_files(self, problem: Problem) -> list[tuple[str, str]]:
        """(name, text) of files students are shown whole in place of the public cases (a unit
        problem's public tests); none where the cases speak for themselves."""
        return []

    def verify_notes(self, problem: Problem) -> list[str]:
        """What `judge verify` says of the problem's own files beyond its checks (a unit
        problem's tests that the teacher skipped, which are no case)."""
        return []

    def input_issues(self, problem: Problem, text: str) -> list[str]:
        """What the kind itself requires of every test input (checked before any validator)."""
        return []

    def answer_text(self, output: str, label: str) -> str:
        """A case's answer file made of the reference's output on it (`label` names the case)."""
        return output

    def check_answer(self, problem: Problem, case: tuple[Path, Path], output: bytes) -> CheckResult:
        """The problem's checker on an output made for the case (input, answer): how `judge
        verify` sees that the reference still gives the answers, in a kind that `solves`."""
        raise NotImplementedError(f"a problem of kind {self.name} has no answers to reproduce")

    def same_answer(self, problem: Problem, stated: str, made: str) -> bool:
        """Whether the answer the spec states for a case is the one the reference made (`judge
        gen` refuses the case otherwise): the same tokens."""
        return stated.split() == made.split()

    def decoys(self, problem: Problem, languages: tuple[str, ...]) -> tuple[Decoy, ...]:
        """Wrong solutions in these languages (those of the accepted ones) that the tests must
        fail; none where the kind has no such thing."""
        return ()

    def test_titles(self, problem: Problem) -> dict[str, str]:
        """Group name -> the title a reader knows its test by, in the order to show them (a unit
        test's @number and @name); empty where groups are shown by their names."""
        return {}

    def sample_call(self, problem: Problem, given: str, answer: str, language: str) -> tuple[str, str] | None:
        """A public case as the student would write it (a function's call and its value), in
        `language` (an id, or "" for none); None where the kind's cases are not calls."""
        return None

    def most_shown(self, problem: Problem) -> FeedbackLevel | None:
        """The most a course may show a student of this problem's secret groups, whatever its
        assignment's level (None: no cap of the kind's own)."""
        return None

    def starter_languages(self, problem: Problem) -> tuple[str, ...]:
        """The languages `starter_file` writes in (none: the kind has no starter file)."""
        return ()

    def starter_file(self, problem: Problem, language: str) -> tuple[str, str]:
        """(file name, text) of what a student starts from (`judge starter`), where the kind has one."""
        raise JudgeError(f"{problem.spec_path}: a {self.name} problem has no starter file (a function problem has)")

    shapes: tuple[str, ...] = ()  # what else `judge new` can make of this kind (a function's: "class")

    @abstractmethod
    def starter(self, own: str, other: str, shape: str = "") -> Starter:
        """`judge new`'s files, with the reference in `own` (an extension) and a second
        accepted solution in `other`; `shape` one of `shapes`, or "" for the kind's example."""


def run_limits(problem: Problem, language: Language) -> sandbox.RunLimits:
    """A submission's limits on each case of `problem` in `language` (its time factor, a JVM's
    allowance): what every kind runs a case under, and a tests problem runs each bug under."""
    spec = problem.spec.limits
    cpu = spec.cpu_s_for(language.id, language.time_factor)
    return sandbox.RunLimits(
        cpu_s=cpu,
        wall_s=sandbox.wall_for(cpu),
        memory_mib=spec.memory_mib + language.jvm_allowance_mib,
        output_bytes=int(spec.output_mib * 1024 * 1024),
        address_space=language.address_space_limit,
    )
