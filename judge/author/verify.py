"""`judge verify`: prove a problem sound before students see it.

Per problem, in order: the spec loads; tests/ is what the generators make now; every input
passes the validator; the reference reproduces every answer; and every solution under
`solutions/<verdict folder>/` gets the verdict of its folder (see judge.author.expectations),
with warnings where a time limit is close to deciding a verdict. The problem's kind may add
decoys of its own (a function returning a constant, in each language of the accepted
solutions), which the tests must not accept.

Solutions run in worker processes (each once, at the raised limit); the checks on the
data run in the calling process.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, replace
from pathlib import Path

from judge.author import expectations
from judge.author.expectations import Expectation, ExpectationError, GroupOutcome, Measured
from judge.errors import JudgeError
from judge.kinds import table as kinds
from judge.kinds.base import Decoy
from judge.kinds.table import load_problem
from judge.problem import testdata, variants
from judge.problem.spec import Problem
from judge.problem.testdata import CaseFiles
from judge.run import lifecycle, sandbox, sources
from judge.run.verdicts import Verdict, headline

SOLUTIONS_DIR = "solutions"


@dataclass(frozen=True)
class Check:
    """One check on a problem's data: what was checked and what is wrong (nothing when it holds)."""

    name: str
    failures: tuple[str, ...]
    detail: str = ""  # e.g. "78 files"


@dataclass(frozen=True)
class Solution:
    path: Path
    folder: str
    expected: Expectation
    # A decoy the judge wrote (Kind.decoys): its text and language; `path` names it only.
    decoy: Decoy | None = None

    @property
    def label(self) -> str:
        return f"decoy/{self.path.name}" if self.decoy is not None else f"{self.folder}/{self.path.name}"

    @property
    def shown(self) -> str:
        """Where to look: its file, or the decoy's name (it has no file)."""
        return f"the judge's decoy {self.path.name} ({self.decoy.language})" if self.decoy else str(self.path)


@dataclass(frozen=True)
class SolutionRun:
    """What running a solution once at the raised limit measured."""

    solution: Solution
    language: str
    limit_s: float  # the real CPU limit for its language
    compiled: bool
    error: str  # why it could not be run at all ("" when it ran)
    compiler_output: str
    cases: tuple[Measured, ...]
    skipped: str = ""  # not run, and not its fault: no toolchain for its language here


@dataclass(frozen=True)
class SolutionOutcome:
    run: SolutionRun
    verdict: Verdict  # headline at the real limit
    groups: tuple[GroupOutcome, ...]
    failures: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def max_cpu_s(self) -> float:
        return max((c.cpu_s for c in self.run.cases), default=0.0)


@dataclass(frozen=True)
class ProblemReport:
    name: str  # the problem id, or its folder's name when the spec does not load
    checks: tuple[Check, ...]
    groups: tuple[str, ...]
    solutions: tuple[SolutionOutcome, ...]
    notes: tuple[str, ...]  # warnings that are not about one solution
    skipped: tuple[
        str, ...
    ] = ()  # solutions not run, and why (a language the judge lacks): neither failures nor warnings

    @property
    def failures(self) -> list[str]:
        found = [f for c in self.checks for f in c.failures]
        return found + [f"{s.run.solution.label}: {f}" for s in self.solutions for f in s.failures]

    @property
    def warnings(self) -> list[str]:
        return list(self.notes) + [f"{s.run.solution.label}: {w}" for s in self.solutions for w in s.warnings]


# --- the data ----------------------------------------------------------------------------


def check_data(problem: Problem, notify: Callable[[str], None] | None = None, jobs: int = 1) -> list[Check]:
    """Tests up to date, inputs valid, answers reproduced by the reference."""
    from judge.author import making, parts, validation
    from judge.problem import refs, testdata
    from judge.problem.tables import TableStore

    store = TableStore(notify=notify)
    if problem.builtin:
        store.ensure(refs.get(problem.spec.reference).tables)
    checks: list[Check] = []
    try:
        own = parts.load(problem, store, jobs)
        made = making.generate(problem, store, jobs)
    except JudgeError as err:
        return [Check("tests up to date", tuple(str(err).splitlines()))]
    stale = making.compare(problem, made)
    checks.append(
        Check("tests up to date", tuple(f"{d} (run `judge gen {problem.id}`)" for d in stale), f"{len(made)} cases")
    )

    report = validation.validate_problem(problem, jobs)
    checks.append(Check("inputs valid", tuple(str(i) for i in report.issues), f"{report.files} inputs"))

    wrong: list[str] = []
    invalid = {i.path for i in report.issues}
    kind = kinds.of(problem)
    if not kind.solves:  # the answers are not the reference's: it must be accepted instead
        return [
            *checks,
            _reference_accepted(problem, [c for c in testdata.load_cases(problem) if c.input not in invalid]),
        ]
    try:
        cases = [c for c in testdata.load_cases(problem) if c.input not in invalid]
        texts = [case.input.read_text(encoding="utf-8") for case in cases]
        answers = parts.solve(own, texts, [str(case.input) for case in cases])
    except JudgeError as err:
        return [*checks, Check("answers reproduced", (str(err),))]
    for case, answer in zip(cases, answers, strict=True):
        try:
            result = kind.check_answer(problem, (case.input, case.answer), answer.encode())
        except JudgeError as err:
            wrong.append(f"{case.answer}: the checker failed on the reference's output: {err}")
            continue
        if not result.accepted:
            wrong.append(f"{case.answer}:{result.line or 1}: the reference solver disagrees ({result.message})")
    checks.append(Check("answers reproduced", tuple(wrong), f"{len(cases)} answers"))
    return checks


def _reference_accepted(problem: Problem, cases: list[CaseFiles]) -> Check:
    """Where the answers are not the reference's output (an interaction's), the reference,
    judged as a submission is, must be accepted on every case."""
    from judge.grade import runner

    name = kinds.of(problem).reference_check
    try:
        submission = runner.load_for(problem, problem.directory / problem.spec.reference, own=True)
        judged = runner.judge_submission(problem, submission, cases, full=True)
    except JudgeError as err:
        return Check(name, (str(err),))
    if not judged.build.ok:
        return Check(name, (f"{problem.spec.reference}: does not compile: {judged.build.message.strip()[:300]}",))
    wrong = [f"{r.name}: {r.verdict.value} {r.message}".rstrip() for r in judged.cases if r.verdict is not Verdict.AC]
    return Check(name, tuple(wrong), f"{len(judged.cases)} cases")


def sampled(problem: Problem) -> list[variants.Chosen]:
    """The variants verify checks (the spec's verify_sample of them); none without variants."""
    return [] if problem.spec.variants is None else variants.sample(problem.spec.variants, problem.id)


def variant_checks(problem: Problem, jobs: int = 1) -> list[Check]:
    """Each sampled variant made whole (its inputs validated, its answers the reference's)
    and judged by every accepted solution, which must get its expected verdict there too."""
    from judge.author import variants as making_variants

    chosen = sampled(problem)
    if not chosen:
        return []
    solutions, _, _ = discover(problem.directory, problem.spec.verdict_folders == "icpc")
    accepted = [s for s in solutions if s.folder == "accepted"]
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="judge-variants-") as root:
        for choice in chosen:
            try:
                variant = making_variants.made(problem, choice, Path(root), jobs)
            except JudgeError as err:
                failures.append(f"variant {choice.label}: {err}")
                continue
            cases = testdata.load_cases(variant)
            groups = tuple((g.name, sum(1 for c in cases if c.group == g.name)) for g in variant.spec.groups)
            for solution in accepted:
                run = run_solution_of(variant, solution)
                if not run.skipped:
                    wrong = judge_outcome(run, groups).failures
                    failures += [f"variant {choice.label}: {solution.label}: {f}" for f in wrong]
    said = f"{len(chosen)} variants, {len(accepted)} accepted solutions"
    return [Check("variants sound", tuple(failures), said)]


def suite_checks(problem: Problem) -> list[Check]:
    """A tests problem (its submissions are data): its reference suite valid and catching every
    bug; each example suite in solutions/ judged as a student's, accepted/ ones catching every
    bug, wrong_answer/ ones missing some (a suite that catches none is such an example)."""
    from judge.grade import judging

    def judged(path: Path) -> tuple[str, list[str]]:
        record = judging.judge(judging.identify(problem, path, path.name))
        if record.error:
            return record.verdict, [f"{path}: {record.error}"]
        said = [f"{path}: test {c.name.split('/')[-1]}: {c.message}" for c in record.cases if c.verdict == "NJ"]
        said += [f"{path}: {c.group}: {c.message}" for c in record.cases if c.verdict not in ("AC", "NJ")]
        return record.verdict, said

    verdict, wrong = judged(problem.directory / problem.spec.reference)
    checks = [Check(kinds.of(problem).reference_check, tuple(wrong), f"{len(problem.spec.groups) - 1} bugs")]
    examples: list[str] = []
    count = 0
    for folder, catches_all in (("accepted", True), ("wrong_answer", False)):
        where = problem.directory / SOLUTIONS_DIR / folder
        for path in sorted(where.iterdir()) if where.is_dir() else ():
            if path.name.startswith("."):
                continue
            count += 1
            verdict, wrong = judged(path)
            if catches_all and verdict != "AC":
                examples += wrong or [f"{path}: {verdict}, expected every bug caught"]
            elif not catches_all and verdict == "AC":
                examples.append(f"{path}: catches every bug, though in {folder}/")
    checks.append(Check("example suites", tuple(examples), f"{count} suites"))
    return checks


# --- the solutions -------------------------------------------------------------------------


def discover(problem_dir: Path, icpc: bool = False) -> tuple[list[Solution], list[str], list[str]]:
    """The solutions of a problem, what is wrong with the folder (unknown names, bad headers),
    and notes on files skipped (a language the judge does not have, as packages may bring)."""
    root = problem_dir / SOLUTIONS_DIR
    found: list[Solution] = []
    problems: list[str] = []
    skipped: list[str] = []
    if not root.is_dir():
        return found, problems, skipped
    for folder in sorted(p for p in root.iterdir() if not p.name.startswith(".")):
        if not folder.is_dir():
            problems.append(f"{folder}: not a verdict folder (expected one of: {', '.join(expectations.FOLDERS)})")
            continue
        if folder.name not in expectations.FOLDERS:
            problems.append(f"{folder}: unknown verdict folder (known: {', '.join(expectations.FOLDERS)})")
            continue
        for path in sorted(p for p in folder.iterdir() if not p.name.startswith(".")):
            # A file is a solution, and so is a folder (or an archive) of several files: its
            # header is looked for in its entry file.
            try:
                text = sources.read(path, build_scripts="ignore", guess_entry=True).head()
            except sources.NoLanguage:
                what = f"'{path.suffix}'" if path.is_file() and not sources.is_archive(path) else "its files"
                skipped.append(f"{path}: skipped, the judge has no language for {what}")
                continue
            except JudgeError as err:
                problems.append(str(err))
                continue
            try:
                found.append(
                    Solution(path, folder.name, expectations.expectation(folder.name, text.decode("utf-8"), icpc))
                )
            except UnicodeDecodeError:
                problems.append(f"{path}: not UTF-8 text")
            except ExpectationError as err:
                problems.append(f"{path}:{err.line}: {err}")
    return found, problems, skipped


def run_solution(problem_dir: Path, solution: Solution) -> SolutionRun:
    """Worker: compile and run a solution once at MARGIN x its CPU limit."""
    return run_solution_of(load_problem(problem_dir), solution)


def run_solution_of(problem: Problem, solution: Solution) -> SolutionRun:
    from judge.grade import runner
    from judge.grade.runner import CaseResult
    from judge.problem import testdata

    try:
        if solution.decoy is not None:
            data = solution.decoy.text.encode()
            submission = sources.from_upload(solution.decoy.name, data, language_id=solution.decoy.language)
        else:
            submission = runner.load_for(problem, solution.path, own=True)
    except JudgeError as err:
        return SolutionRun(solution, "", 0.0, False, str(err), "", ())
    real = runner.run_limits(problem, submission.language)
    why = submission.language.missing()
    if why:
        return SolutionRun(solution, submission.language.id, real.cpu_s, False, "", "", (), skipped=why)
    cpu = real.cpu_s * expectations.MARGIN
    raised = replace(real, cpu_s=cpu, wall_s=sandbox.wall_for(cpu))
    stops = expectations.failure_stops_group(solution.folder)

    def ends_group(case: CaseResult) -> bool:
        measured = Measured(case.group, case.verdict, case.cpu_s)
        return stops and expectations.at_limit(measured, real.cpu_s) is not Verdict.AC

    result = runner.judge_submission(
        problem, submission, testdata.load_cases(problem), limits=raised, ends_group=ends_group
    )
    measured = tuple(Measured(c.group, c.verdict, c.cpu_s) for c in result.cases)
    return SolutionRun(
        solution,
        submission.language.id,
        real.cpu_s,
        result.build.ok,
        "",
        "" if result.build.ok else result.build.message,
        measured,
    )


def judge_outcome(run: SolutionRun, groups: Sequence[tuple[str, int]]) -> SolutionOutcome:
    """Compare what a solution got at the real limit with what its folder (or header) expects."""
    solution = run.solution
    if run.error:
        # The file is named already; keep the line a message may carry.
        found = re.match(rf"{re.escape(str(solution.path))}(?::(\d+))?: (.*)", run.error, re.DOTALL)
        why = (f"line {found[1]}: {found[2]}" if found[1] else found[2]) if found else run.error
        return SolutionOutcome(run, Verdict.IE, (), (f"cannot be run: {why}",), ())
    outcomes = expectations.group_outcomes(groups, run.cases, run.limit_s, run.compiled)
    verdict = headline([expectations.at_limit(c, run.limit_s) for c in run.cases]) if run.compiled else Verdict.CE
    failures: list[str] = []
    allowed = solution.expected.verdicts
    if solution.decoy is not None and verdict not in allowed:
        failures.append(f"accepted, though {solution.decoy.what}: the tests cannot tell it from a solution")
    elif verdict not in allowed:
        want = " or ".join(sorted(v.value for v in allowed))
        where = next(
            (f" in group {g.name}" for g in outcomes if g.verdict is verdict and verdict is not Verdict.CE), ""
        )
        got = f"{verdict.value}{where}"
        if verdict is Verdict.CE:
            got += f" ({run.compiler_output.strip().splitlines()[0] if run.compiler_output.strip() else 'no output'})"
        failures.append(f"expected {want}, got {got}")
    warnings = expectations.time_warnings(solution.folder, run.cases, run.limit_s) if not failures else []
    return SolutionOutcome(run, verdict, outcomes, tuple(failures), tuple(warnings))


def _expected_cost(run: tuple[Path, Solution]) -> float:
    # Slow folders and slow languages first, so no worker is left alone with a long one at the end.
    _, solution = run
    cost = {"time_limit_exceeded": 4.0, "accepted": 2.0}.get(solution.folder, 1.0)
    return cost * {".py": 3.0, ".java": 2.0}.get(solution.path.suffix, 1.0)


def run_all(
    work: Sequence[tuple[Path, Solution]],
    jobs: int,
    on_done: Callable[[SolutionRun], None] | None = None,
) -> dict[Path, SolutionRun]:
    """Run every (problem dir, solution) with `jobs` worker processes; keyed by solution path."""
    done: dict[Path, SolutionRun] = {}
    if not work:
        return done
    ordered = sorted(work, key=_expected_cost, reverse=True)
    with lifecycle.worker_pool(jobs) as pool:
        pending: set[Future[SolutionRun]] = {pool.submit(lifecycle.in_worker, run_solution, d, s) for d, s in ordered}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    result = future.result()
                    done[result.solution.path] = result
                    if on_done is not None:
                        on_done(result)
        except BaseException:
            lifecycle.stop_pool(pool)
            raise
    return done


# --- a whole problem -----------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """A problem after the data checks, with the solutions it still has to run."""

    directory: Path
    name: str
    checks: tuple[Check, ...]
    groups: tuple[tuple[str, int], ...]
    solutions: tuple[Solution, ...]
    notes: tuple[str, ...]
    skipped: tuple[str, ...] = ()


def prepare(problem_dir: Path, notify: Callable[[str], None] | None = None, jobs: int = 1) -> Prepared:
    """Load the spec and check the data; find the solutions (not run yet)."""
    from judge.author import validation
    from judge.problem import testdata

    try:
        problem = load_problem(problem_dir)
    except JudgeError as err:
        return Prepared(problem_dir, problem_dir.name, (Check("spec valid", tuple(str(err).splitlines())),), (), (), ())
    checks = [Check("spec valid", (), str(problem.spec_path.name))]
    if kinds.of(problem).takes_data:  # its submissions are tests: no cases, no programs to run
        from judge.author import making

        try:  # a tests problem's mutants: made (or read from the cache) before its suites are judged
            problem, made = making.prepare_data(problem, jobs)
        except JudgeError as err:
            checks.append(Check("bugs made", (str(err),)))
        else:
            checks += [Check("bugs made", (), made)] if made else []
        return Prepared(problem_dir, problem.id, (*checks, *suite_checks(problem)), (), (), ())
    checks += check_data(problem, notify, jobs)
    if not any(c.failures for c in checks):
        checks += variant_checks(problem, jobs)
    try:
        cases = testdata.load_cases(problem)
    except JudgeError:
        cases = []
    groups = tuple((g.name, sum(1 for c in cases if c.group == g.name)) for g in problem.spec.groups)
    # Solutions only mean something on sound data: a broken test would fail them all.
    data_broken = any(c.failures for c in checks)
    solutions, folder_problems, skipped = discover(problem_dir, problem.spec.verdict_folders == "icpc")
    checks.append(Check("solutions folder", tuple(folder_problems), f"{len(solutions)} solutions"))
    notes: list[str] = validation.duplicate_inputs(problem) + validation.statement_samples(problem)
    notes += kinds.of(problem).verify_notes(problem)
    if not any(s.folder == "accepted" for s in solutions):
        notes.append(
            f"{problem_dir / SOLUTIONS_DIR / 'accepted'}: no accepted solution, so nothing shows the tests can be passed"
        )
    solutions += decoys_of(problem, solutions)
    if data_broken and solutions:
        notes.append("solutions not run: fix the data first")
        solutions = []
    return Prepared(problem_dir, problem.id, tuple(checks), groups, tuple(solutions), tuple(notes), tuple(skipped))


def decoys_of(problem: Problem, solutions: Sequence[Solution]) -> list[Solution]:
    """The kind's decoys in the languages of the accepted solutions, each expected to fail."""
    languages = []
    for solution in solutions:
        if solution.folder == "accepted":
            try:
                languages.append(sources.read(solution.path, build_scripts="ignore", guess_entry=True).language.id)
            except JudgeError:
                continue  # said by discover already
    failing = Expectation(frozenset(v for v in Verdict if v not in (Verdict.AC, Verdict.NJ)), 0)
    where = problem.directory / SOLUTIONS_DIR
    return [
        Solution(where / decoy.name, "wrong_answer", failing, decoy)
        for decoy in kinds.of(problem).decoys(problem, tuple(languages))
    ]


def finish(prepared: Prepared, runs: dict[Path, SolutionRun]) -> ProblemReport:
    ran = [runs[s.path] for s in prepared.solutions]
    outcomes = tuple(judge_outcome(run, prepared.groups) for run in ran if not run.skipped)
    skipped = [f"{run.solution.path}: skipped: {run.skipped}" for run in ran if run.skipped]
    return ProblemReport(
        prepared.name,
        prepared.checks,
        tuple(g for g, _ in prepared.groups),
        outcomes,
        prepared.notes,
        (*prepared.skipped, *skipped),
    )
