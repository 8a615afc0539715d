"""The function kind: a student writes a function of a typed signature (each case is one call)
or a class of methods (each case is a scenario of calls on one object).

The program the sandbox runs is the harness of the language's family (families.py) beside the
student's module: it reads the case's call, makes it and writes what came of it after a mark,
as the last line of its output. The judge reads that line outside the sandbox, checks the value against the
signature and compares it with the answer there (outcome.py): the expected value never enters
the box.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from judge.errors import JudgeError
from judge.kinds.base import CaseJob, CaseRun, Decoy, Kind, Starter, run_on_stdin
from judge.kinds.functions import calls, families, jvm_kit, outcome, spec_part, starters, types
from judge.problem.checkers import FOR_VALUES
from judge.run import custom_checker, languages, values
from judge.run.checkers import CheckResult
from judge.run.sources import Sources
from judge.run.verdicts import CaseVerdict, Verdict, judge_run

if TYPE_CHECKING:
    from judge.problem.spec import Finding, Problem, ProblemSpec


@lru_cache(maxsize=64)
def api_of(text: str) -> types.Api:
    return types.parse_api(text)


def _api(problem: Problem) -> types.Api:
    assert problem.spec.signature is not None  # the spec's loader requires it of this kind
    return api_of(problem.spec.signature)


def rule_of(problem: Problem) -> values.Tolerance:
    """How the problem compares values: exactly (value), a tolerance (float), in any order (unordered)."""
    checker = problem.spec.checker
    if checker.type == "float":
        return values.Tolerance(checker.abs_tol, checker.rel_tol)
    return values.Tolerance(unordered=checker.type == "unordered")


def _json(path: Path, what: str) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        raise JudgeError(f"{path}: not a JSON {what} ({err})") from None


def required_raise(problem: Problem, language: str) -> str | None:
    """The exception a submission in `language` must raise where the reference raised (None:
    any). A language the problem does not name takes the name of its family's first that it
    does (pypy3 python3's, cpp20 cpp's)."""
    named = problem.spec.raises
    return next((named[kin] for kin in families.kin(languages.load(), language) if kin in named), None)


def family_of(language_id: str) -> families.Family | None:
    """The family of a language of languages.yaml, where the kind has a record of it."""
    found = languages.load().languages.get(language_id)
    return families.of(found) if found is not None else None


def _custom(problem: Problem, case: tuple[Path, Path]) -> outcome.Custom | None:
    """The problem's checker program, if it has one: the call's arguments (the .in), the
    expected value (the .ans) and the returned value (on its stdin) as JSON, by the 42/43
    protocol of every checker. CheckerError when it fails."""
    from judge.problem.spec import CustomChecker

    checker = problem.spec.checker
    if not isinstance(checker, CustomChecker):
        return None

    def check(returned: object) -> CheckResult:
        written = (values.canonical(returned) + "\n").encode()
        program = problem.directory / checker.program
        return custom_checker.check(program, case[0], case[1], written, problem.program_limits, checker.args)

    return check


def decide_case(problem: Problem, case: tuple[Path, Path], output: bytes, language: str = "") -> outcome.Decided:
    """The verdict of one case from the program's output, its call and its answer."""
    call, answer = _json(case[0], "call"), _json(case[1], "answer")
    required = required_raise(problem, language) if language else None
    result = outcome.result_of(output)
    api = _api(problem)
    decided, check = outcome.decide(api, rule_of(problem), result, call, answer, required, _custom(problem, case))
    said = decided.message
    # A failed call names itself (issue 59): "max_sum([1, 2]): expected 3, got 0", not "the value: ...".
    if isinstance(api, types.Signature) and said.startswith(_NAMED_FAILURES):
        family = family_of(language) if language else None
        named = calls.cut(calls.call(api.name, call, family.name if family is not None else ""))
        decided = CaseVerdict(decided.verdict, f"{named}: {said.removeprefix('the value: ')}")
    return decided, check


_NAMED_FAILURES = ("the value: ", "returned", "raised")


def _kit_of(language: str) -> jvm_kit.JvmKit | None:
    family = family_of(language)
    return jvm_kit.kit(family.name) if family is not None else None


def _from_kit(job: CaseJob) -> CaseJob:
    """A Java or Kotlin call started from its family's kit (the harness's jar and the archive
    of the classes a call loads: jvm_kit), where the call's sandbox shows the kit's folder."""
    made = _kit_of(job.launch.language)
    if made is None:
        return job
    folder, limits = str(made.folder), job.limits
    if job.runner is None:
        limits = replace(limits, read_only=(*limits.read_only, folder))
    elif folder not in job.runner.shown:
        return job  # a session started without it: the call starts as before
    return replace(job, launch=replace(job.launch, argv=tuple(made.argv(job.launch.argv))), limits=limits)


class Functions(Kind):
    name = "functions"
    summary = "a function (or class) of `signature` is called once per case"
    solves = True
    explains = True
    spec_keys = ("signature", "raises")
    case_keys = ("call", "calls")
    checkers = FOR_VALUES
    whose = "a function problem's"
    in_packages = False  # no function problems in ICPC packages

    def spec_issues(self, directory: Path, spec: ProblemSpec) -> list[Finding]:
        return spec_part.issues(directory, spec)

    def program(self, problem: Problem, sources: Sources) -> Sources:
        """The harness as the entry beside the student's file (and what it needs of the signature)."""
        family = families.of(sources.language)
        if family is None:
            return sources  # compile_check says why it cannot be judged
        own = dict(sources.files)
        module = own.pop(sources.main or sources.files[0][0])
        entry, files = family.program(_api(problem), module)
        return Sources(
            sources.path, sources.language, tuple(sorted({**own, **files}.items())), entry, "Main", single=False
        )

    def compile_check(self, problem: Problem, sources: Sources) -> str:
        """A language of no family the kind has a record of, or a module with no such function:
        a CE, before any case."""
        family = families.of(sources.language)
        if family is None:
            offered = ", ".join(families.offered(languages.load()))
            return f"function problems take {offered} for now; {sources.language.name} is not offered yet"
        module = dict(sources.files).get(sources.main or sources.files[0][0], b"")
        return family.check(_api(problem), module, sources.path.name)

    def input_issues(self, problem: Problem, text: str) -> list[str]:
        try:
            call = json.loads(text)
        except (ValueError, RecursionError) as err:
            return [f"not a JSON array of arguments ({err})"]
        found = types.call_issue(_api(problem), call)
        return [found] if found else []

    def answer_text(self, output: str, label: str) -> str:
        try:
            return values.canonical(outcome.answer_of(outcome.result_of(output.encode("utf-8")))) + "\n"
        except ValueError as err:
            raise JudgeError(f"{label}: the reference's function gave no value ({err})") from None

    def case_reads(self, problem: Problem, language: str) -> tuple[str, ...]:
        made = _kit_of(language)
        return (str(made.folder),) if made is not None else ()

    def judge_case(self, job: CaseJob) -> CaseRun:
        family = family_of(job.launch.language)
        if job.runner is not None and family is not None and family.forks:
            job = replace(job, runner=job.runner.forking())
        job = _from_kit(job)
        run = run_on_stdin(job)
        if isinstance(run, CaseRun):
            return run
        problem, launch = job.problem, job.launch
        memory_limit_kib = job.limits.memory_mib * 1024
        if run.exit_code != 0 or run.limit_hit is not None or run.memory_kib >= memory_limit_kib:
            decided = judge_run(run, memory_limit_kib, None, languages.memory_marks())
            # Where the reference raised, a program that ended in failure of its own (an abort,
            # a nonzero exit: C's only way) did not return either; a limit is still its verdict.
            # Not where the problem names the exception the language must raise.
            expected = values.raised(_json(job.case[1], "answer"))
            if decided.verdict is Verdict.RE and expected is not None and not required_raise(problem, launch.language):
                decided = CaseVerdict(Verdict.AC, "")
            return CaseRun(run, decided)
        try:
            decided, check = decide_case(problem, job.case, run.stdout, launch.language)
        except custom_checker.CheckerError as err:
            return CaseRun(run, CaseVerdict(Verdict.IE, str(err)), own_output=False)
        return CaseRun(run, decided, check, own_output=False)

    def check_answer(self, problem: Problem, case: tuple[Path, Path], output: bytes) -> CheckResult:
        decided, _ = decide_case(problem, case, output)
        return CheckResult(decided.verdict is Verdict.AC, decided.message)

    def starter_languages(self, problem: Problem) -> tuple[str, ...]:
        return families.offered(languages.load())

    def sample_call(self, problem: Problem, given: str, answer: str, language: str) -> tuple[str, str] | None:
        """A sample as a call and what it returns, in `language`'s spelling (a class's
        scenario: None, shown as its JSON)."""
        api = _api(problem)
        if not isinstance(api, types.Signature):
            return None
        try:
            args, expected = json.loads(given), json.loads(answer)
        except ValueError:
            return None
        family = family_of(language) if language else None
        name = family.name if family is not None else ""
        return calls.call(api.name, args, name), calls.returned(expected, name)

    def same_answer(self, problem: Problem, stated: str, made: str) -> bool:
        """The same value; an exception stated is any the reference raised (its name is its
        language's: ValueError in the statement, std::invalid_argument from a C++ reference)."""
        try:
            return values.agree(json.loads(stated), json.loads(made))
        except (ValueError, RecursionError):
            return False

    def decoys(self, problem: Problem, languages: tuple[str, ...]) -> tuple[Decoy, ...]:
        """Per language, a function (or class) whose every call returns a constant: 0, "", []."""
        made = []
        for language in dict.fromkeys(languages):
            family = family_of(language)
            if family is None:
                continue
            try:
                name, text = family.decoy(_api(problem))
            except starters.Unoffered:  # C and a class: no student can write it either
                continue
            made.append(Decoy(language, name, text, 'every call returns a constant (0, "", an empty list)'))
        return tuple(made)

    def starter_file(self, problem: Problem, language: str) -> tuple[str, str]:
        """(file name, text) of what a student starts from: the signature, an empty body."""
        family = family_of(language)
        if family is None:
            offered = ", ".join(families.offered(languages.load()))
            raise JudgeError(f"{language!r}: function problems take {offered} for now")
        try:
            return family.starter(_api(problem), problem.spec.title)
        except starters.Unoffered as err:
            raise JudgeError(f"{problem.spec_path}: {err}") from None

    shapes = ("class",)

    def starter(self, own: str, other: str, shape: str = "") -> Starter:
        """The reference in `own` (C++ or Python), the Python one beside it as a second accepted
        solution when the reference is C++."""
        folder, name, title = (
            ("classes", "min_stack", "A Stack That Knows Its Smallest")
            if shape == "class"
            else ("functions", "max_sum", "Largest Sum of a Part, as a Function")
        )
        references = [(f"{folder}/ref.{own}.j2", f"solutions/accepted/{name}.{own}")]
        if own != "py":
            references.append((f"{folder}/ref.py.j2", f"solutions/accepted/{name}.py"))
        mistakes = (
            (
                ("classes/wrong.py.j2", "solutions/wrong_answer/smallest_ever.py"),
                ("classes/slow.py.j2", "solutions/time_limit_exceeded/scans.py"),
            )
            if shape == "class"
            else (
                ("functions/wrong.py.j2", "solutions/wrong_answer/off_by_one.py"),
                ("functions/raises.py.j2", "solutions/run_time_error/raises.py"),
            )
        )
        common = (
            (f"{folder}/problem.yaml.j2", "problem.yaml"),
            (f"{folder}/statement.md.j2", "statement.md"),
            (f"{folder}/gen.py.j2", "generators/gen.py"),
            (f"{folder}/validate.py.j2", "validators/validate.py"),
        )
        return Starter(title, (*common, *references, *mistakes))
