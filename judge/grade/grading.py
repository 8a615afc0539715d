"""Grade a class: find the submissions, judge the ones that changed (in parallel), keep
one result file each, and apply the teacher's overrides.

Layouts accepted in the submissions folder:
- `<student>/<problem>.<ext>`  (a folder per student)
- `<student>_<problem>.<ext>`  (flat, as LMS exports often are; the problem id is the
  longest known id the name ends with)
A submission of several files is a folder `<student>/<problem>/` or an archive
`<student>/<problem>.zip` (`.tar.gz`), or flat `<student>_<problem>.zip`.

A rerun judges only what changed: a result is kept when the hash of the source, its
language and the problem (spec and every test file) is the one stored with it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from judge.errors import JudgeError
from judge.grade import judging, results
from judge.grade.engines import Compiled, Engine, LocalEngine, QueuedCase
from judge.grade.judging import Submitted, language_of
from judge.problem.spec import Problem
from judge.problem.yamlpos import YamlError
from judge.problem.yamlpos import load as load_yaml
from judge.run import languages, sandbox
from judge.run import sources as sources_of

if TYPE_CHECKING:
    from judge.grade.runner import CaseResult, GroupEnds
    from judge.problem.testdata import CaseFiles
    from judge.run.sources import Launch, Sources

OVERRIDES_FILE = "overrides.yaml"
RESULTS_DIR = "results"


@dataclass(frozen=True)
class Entry:
    """A file of the submissions folder and what it is."""

    path: Path
    student: str
    problem: str  # "" when no known problem matches
    problem_error: str  # why the file is not graded ("" when it is)


@dataclass(frozen=True)
class Override:
    student: str
    problem: str
    score: float
    reason: str


def discover(submissions_dir: Path, problem_ids: Sequence[str]) -> list[Entry]:
    """Every submission of the class, sorted, with its student and problem (or why it has
    none). A submission is a source file, a folder of files or a .zip/.tar.gz of them."""
    if not submissions_dir.is_dir():
        raise JudgeError(f"{submissions_dir}: no such submissions folder")
    entries: list[Entry] = []
    for path in sorted(submissions_dir.iterdir()):
        if path.name.startswith(".") or path.name == OVERRIDES_FILE:
            continue
        if path.is_file():
            student, problem = _split_flat(_stem(path), problem_ids)
            entries.append(_entry(path, student, problem, problem_ids))
            continue
        if not path.is_dir():
            continue
        for item in sorted(path.iterdir()):
            if item.name.startswith(".") or not (item.is_file() or item.is_dir()):
                continue
            stem = _stem(item)
            entries.append(_entry(item, path.name, stem if stem in problem_ids else "", problem_ids))
    # A file of an unknown language that names a problem is that problem's submission, not
    # graded (NG, its reason in every report), unless the student has a source for it too.
    known = {e.path: bool(language_of(e.path)) for e in entries if not e.problem_error}  # looked at once
    sources = {(e.student, e.problem) for e in entries if known.get(e.path)}
    entries = [
        replace(e, problem_error=f"not a submission: unknown language '{e.path.suffix}'")
        if not e.problem_error and not known[e.path] and (e.student, e.problem) in sources
        else e
        for e in entries
    ]
    # Two submissions of one problem (lanqiao.py beside lanqiao/, say): the first by name is
    # graded, the other listed, as one result file holds one submission.
    graded: dict[tuple[str, str], Entry] = {}
    for index, e in enumerate(entries):
        if e.problem_error:
            continue
        first = graded.setdefault((e.student, e.problem), e)
        if first is not e:
            why = f"not a submission: {e.student} has another for {e.problem}, {first.path.name}, which is graded"
            entries[index] = replace(e, problem_error=why)
    return entries


def _stem(path: Path) -> str:
    """The name a submission goes by: a file's or an archive's without its extension(s), a folder's."""
    if path.is_dir():
        return path.name
    lower = path.name.lower()
    for suffix in sources_of.ARCHIVE_SUFFIXES:
        if lower.endswith(suffix):
            return path.name[: -len(suffix)]
    return path.stem


def _entry(path: Path, student: str, problem: str, problem_ids: Sequence[str]) -> Entry:
    if problem:
        return Entry(path, student, problem, "")
    known = ", ".join(problem_ids)
    return Entry(path, student, "", f"not a submission: no problem named {_stem(path)!r} (known: {known})")


def _split_flat(stem: str, problem_ids: Sequence[str]) -> tuple[str, str]:
    for problem in sorted(problem_ids, key=len, reverse=True):
        if stem.endswith("_" + problem) and len(stem) > len(problem) + 1:
            return stem[: -len(problem) - 1], problem
    return stem.split("_", 1)[0], ""


# A student's own problem: their variant where the problem has variants (made above grading,
# by judge.author.variants), else the problem itself.
VariantOf = Callable[[Problem, str], Problem]


def plan(
    entries: Sequence[Entry],
    problems: dict[str, Problem],
    results_dir: Path,
    regrade: bool,
    full: bool = False,
    variant_of: VariantOf | None = None,
) -> tuple[list[Submitted], int]:
    """(submissions to judge, each identified once; how many are up to date and skipped). A
    result judged in the other mode (--full or lazy groups) is judged again. With `variant_of`
    each student is judged on their own variant (its digest is in the hash: a new variant
    judges again)."""
    todo: list[Submitted] = []
    skipped = 0
    for entry in entries:
        if entry.problem_error or entry.problem not in problems:
            continue
        problem = problems[entry.problem]
        if variant_of is not None:
            problem = variant_of(problem, entry.student)
        submitted = judging.identify(problem, entry.path, entry.student, full=full)
        stored = results.read(results.path_for(results_dir, entry.student, entry.problem))
        # A result judged without isolation is judged again once isolation is there (a file
        # that could not be judged at all, NG, ran nothing: it stays as it is).
        unsafe_before = (
            stored is not None
            and stored.verdict != "NG"
            and not results.isolated_mode(stored.sandbox)
            and sandbox.detect().isolated
        )
        if not regrade and stored is not None and stored.hash == submitted.content_hash and not unsafe_before:
            skipped += 1
            continue
        todo.append(submitted)
    return todo, skipped


def languages_of(todo: Sequence[Submitted]) -> set[str]:
    """The languages of the submissions to judge (those a judge host must have)."""
    return {submitted.language for submitted in todo if submitted.language}


@dataclass
class _Judging:
    """A submission between its compile and its last case (mutable: the parent's own book)."""

    submitted: Submitted
    submission: Sources
    limits: sandbox.RunLimits
    cases: list[CaseFiles]
    full: bool = False  # every case judged: no group ends early
    order: int = 0  # the submission's place in the run (longest first)
    compiled: Compiled | None = None
    found: dict[int, CaseResult] = field(default_factory=dict)
    tickets: dict[int, Hashable] = field(default_factory=dict)
    finished: bool = False

    def resolved(self) -> list[CaseResult] | None:
        """Every case's result in case order, once each is judged or known not to be judged
        (its group ended earlier: runner.GroupEnds); None while one is still awaited. The same
        cases are judged whatever order the workers finish in."""
        from judge.grade.runner import GroupEnds

        ordered: list[CaseResult] = []
        ends = GroupEnds(self.submitted.problem, self.full)
        for index, case in enumerate(self.cases):
            if case.group in ends.ended:
                ordered.append(ends.not_judged(case))
                continue
            result = self.found.get(index)
            if result is None:
                return None
            ordered.append(result)
            ends.add(result)
        return ordered

    def ends(self) -> GroupEnds:
        """The groups ended by the results known so far, each group's read in case order up to
        its first case still awaited."""
        from judge.grade.runner import GroupEnds

        ends = GroupEnds(self.submitted.problem, self.full)
        waiting: set[str] = set()
        for index, case in enumerate(self.cases):
            if case.group in waiting or case.group in ends.ended:
                continue
            result = self.found.get(index)
            if result is None:
                waiting.add(case.group)
                continue
            ends.add(result)
        return ends

    @cached_property
    def launch(self) -> Launch:
        """How each of its cases starts (made once: a function's is its harness's command)."""
        from judge.grade import runner

        return runner.launch_of(self.submitted.problem, self.submission)


def run(
    todo: Sequence[Submitted],
    results_dir: Path,
    jobs: int,
    on_done: Callable[[results.GradeRecord], None] | None = None,
    full: bool = False,
    engine: Engine | None = None,
    on_case: Callable[[Submitted, int, int], None] | None = None,
) -> list[results.GradeRecord]:
    """Judge the submissions with `jobs` worker processes (or on `engine`: judge hosts); each
    result is on disk as it finishes.

    A submission is compiled once (a task), then each of its cases is a task of its own, so
    one slow submission is spread over every worker instead of holding one; the results
    are put back in case order, and the verdict is that of the first failing case, as when
    the cases run one after another. Verdicts do not depend on `jobs` or on the worker a case
    ran on: the limits are on CPU time. A group that breaks (on_reject) ends at its first
    failing case: its later cases are not judged (NJ), and those not started are cancelled;
    `full` judges every case. Ctrl-C stops the pool; finished results stay. `on_case` hears
    (submission, cases judged, cases) after the compile and after each case.
    """
    from judge.grade import runner
    from judge.problem import testdata

    done: list[results.GradeRecord] = []

    def finish(record: results.GradeRecord) -> None:
        results.write(results_dir, record)
        done.append(record)
        if on_done is not None:
            on_done(record)

    # Longest first: the cases of a slow submission are queued before the others'.
    ordered = sorted(todo, key=lambda s: _expected_seconds(s, results_dir), reverse=True)
    states: list[_Judging] = []
    for submitted in ordered:
        record = judging.unrunnable(submitted, here=engine is None)
        if record is not None:
            finish(record)
            continue
        if submitted.data is not None:  # a student's tests: judged whole, here, by its kind
            finish(judging.judge(submitted))
            continue
        assert submitted.sources is not None
        limits = runner.run_limits(submitted.problem, submitted.sources.language)
        cases = testdata.load_cases(submitted.problem)
        states.append(_Judging(submitted, submitted.sources, limits, cases, full, order=len(states)))
    if not states:
        return done
    with engine or LocalEngine(jobs) as pool:
        compiling = {pool.compile(s.submitted.problem, s.submission, s.order): s for s in states}
        running: dict[Hashable, tuple[_Judging, int]] = {}
        while finished := pool.finished():
            for ticket in finished:
                if ticket in compiling:
                    state = compiling.pop(ticket)
                    state.compiled = pool.compiled(ticket)
                    if not state.compiled.build.ok or not state.cases:
                        finish(_record(state))
                        continue
                    if on_case is not None:
                        on_case(state.submitted, 0, len(state.cases))
                    _queue_cases(pool, state, running)
                    continue
                if ticket not in running:
                    continue  # cancelled
                state, index = running.pop(ticket)
                if state.finished:
                    continue  # a case that was no longer needed (its build may be gone)
                result = pool.result(ticket)
                state.found[index] = result
                if on_case is not None:
                    on_case(state.submitted, len(state.found), len(state.cases))
                if result.group in state.ends().ended:
                    # The rest of the group will not be judged: drop what has not started.
                    for later, case in enumerate(state.cases[index + 1 :], start=index + 1):
                        queued = state.tickets.get(later)
                        if case.group == result.group and queued is not None and pool.cancel(queued):
                            running.pop(queued, None)
                complete = state.resolved()
                if complete is not None:
                    state.finished = True
                    finish(_record(state, complete))
                    if state.compiled is not None:
                        pool.release(state.compiled.where)
    return done


def _queue_cases(pool: Engine, state: _Judging, running: dict[Hashable, tuple[_Judging, int]]) -> None:
    """Queue every case of a compiled submission. Rank: the submission's place (longest first),
    then the case's place in its group. A submission's cases go one after another, so a worker
    keeps its box and sandbox for the next (runner.run_case_from); within it every group's
    first cases go before any group's later ones, so few cases run that an earlier failure
    makes useless."""
    assert state.compiled is not None
    within: dict[str, int] = {}
    for i, case in enumerate(state.cases):
        place = within[case.group] = within.get(case.group, -1) + 1
        rank = (state.order, place)
        problem = state.submitted.problem
        queued = pool.case(
            QueuedCase.of(problem, state.compiled.where, state.launch, case, state.limits, rank, state.full)
        )
        running[queued] = (state, i)
        state.tickets[i] = queued


def _record(state: _Judging, ordered: list[CaseResult] | None = None) -> results.GradeRecord:
    from judge.grade import runner

    assert state.compiled is not None
    ordered = ordered or []
    result = runner.summarise(
        state.submitted.problem,
        state.submission,
        state.compiled.build,
        ordered,
        state.limits,
        state.compiled.sandbox_mode,
    )
    variant = state.submitted.problem.variant or ""
    return results.from_result(state.submitted.student, state.submitted.content_hash, result, variant)


def _expected_seconds(submitted: Submitted, results_dir: Path) -> float:
    """How long a submission will take: its last result's times, else every case at its limit."""
    previous = results.read(results.path_for(results_dir, submitted.student, submitted.problem.id))
    if previous is not None and previous.cases:
        return sum(c.wall_s for c in previous.cases)
    limits = submitted.problem.spec.limits
    language = submitted.language
    cases = sum(1 for _ in submitted.problem.tests_dir.rglob("*.in"))
    return cases * limits.cpu_s_for(language, languages.time_factor_of(language))


class _OverrideModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    student: str = Field(min_length=1)
    problem: str = Field(min_length=1)
    score: float = Field(ge=0)
    reason: str = Field(min_length=1)


def load_overrides(
    submissions_dir: Path, problems: dict[str, Problem], students: AbstractSet[str]
) -> dict[tuple[str, str], Override]:
    """The teacher's overrides.yaml (a list of student, problem, score, reason) of a class of
    `students`; {} if absent. JudgeError naming every line that does not hold."""
    path = submissions_dir / OVERRIDES_FILE
    if not path.is_file():
        return {}
    try:
        located = load_yaml(path)
    except YamlError as err:
        raise JudgeError(str(err)) from None
    if not isinstance(located.data, list):
        raise JudgeError(f"{path}:1: expected a list of overrides (student, problem, score, reason)")
    found: dict[tuple[str, str], Override] = {}
    problems_issues: list[str] = []
    for index, item in enumerate(located.data):
        try:
            model = _OverrideModel.model_validate(item)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise JudgeError(
                f"{path}:{located.line_of((index, *first['loc']))}: [{index}].{where}: {first['msg']}"
            ) from None
        if model.problem not in problems:
            problems_issues.append(f"{path}:{located.line_of((index, 'problem'))}: unknown problem {model.problem!r}")
            continue
        if model.student not in students:  # a typo would otherwise be listed as applied
            problems_issues.append(
                f"{path}:{located.line_of((index, 'student'))}: no student {model.student!r} in {submissions_dir}"
            )
            continue
        maximum = problems[model.problem].max_score
        if model.score > maximum:
            problems_issues.append(
                f"{path}:{located.line_of((index, 'score'))}: score {model.score:g} over the maximum {maximum:g}"
            )
            continue
        found[(model.student, model.problem)] = Override(model.student, model.problem, model.score, model.reason)
    if problems_issues:
        raise JudgeError("\n".join(problems_issues))
    return found


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@dataclass(frozen=True)
class ClassFolder:
    """A class's submissions folder, read once per command: what is in it and what the teacher
    overrode. Every step of `judge grade` and `judge report` works from this one reading."""

    directory: Path
    problems: dict[str, Problem]
    entries: tuple[Entry, ...]
    overrides: dict[tuple[str, str], Override]

    def present(self) -> set[tuple[str, str]]:
        """(student, problem) of every submission that is there and graded."""
        return {(e.student, e.problem) for e in self.entries if not e.problem_error}


def read_class(submissions_dir: Path, problems: dict[str, Problem]) -> ClassFolder:
    """Find the class's submissions and check its overrides (a bad overrides.yaml stops the
    command before any work)."""
    entries = tuple(discover(submissions_dir, list(problems)))
    overrides = load_overrides(submissions_dir, problems, {e.student for e in entries})
    return ClassFolder(submissions_dir, problems, entries, overrides)


def saved_records(folder: ClassFolder, results_dir: Path) -> list[results.GradeRecord]:
    """The saved results of the submissions present now."""
    present = folder.present()
    return [r for r in results.read_all(results_dir) if (r.student, r.problem) in present]


@dataclass(frozen=True)
class Graded:
    judged: int  # submissions judged now
    skipped: int  # unchanged since their saved result


def grade_class(
    folder: ClassFolder,
    results_dir: Path,
    jobs: int,
    regrade: bool = False,
    full: bool = False,
    engine_for: Callable[[set[str]], Engine] | None = None,
    on_done: Callable[[results.GradeRecord], None] | None = None,
    on_plan: Callable[[int], None] | None = None,
    variant_of: VariantOf | None = None,
) -> Graded:
    """Judge what changed in the class (all with `regrade`) with `jobs` workers, or on the
    engine `engine_for` makes for the languages to judge (judge hosts); results on disk as
    each finishes. `variant_of`: each student's own variant of a problem that has them."""
    todo, skipped = plan(folder.entries, folder.problems, results_dir, regrade, full, variant_of)
    if on_plan is not None:
        on_plan(len(todo))  # how many will be judged: a progress bar's length
    engine = engine_for(languages_of(todo)) if engine_for is not None and todo else None
    run(todo, results_dir, jobs, on_done, full, engine)
    return Graded(len(todo), skipped)
