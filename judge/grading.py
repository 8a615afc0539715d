"""Grade a class: find the submissions, judge the ones that changed (in parallel), keep
one result file each, and apply the teacher's overrides.

Layouts accepted in the submissions folder:
- `<student>/<problem>.<ext>`  (a folder per student)
- `<student>_<problem>.<ext>`  (flat, as LMS exports often are; the problem id is the
  longest known id the name ends with)

A rerun judges only what changed: a result is kept when the hash of the source, its
language and the problem (spec and every test file) is the one stored with it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from judge import languages, lifecycle, results, sandbox
from judge.errors import JudgeError
from judge.spec import Problem
from judge.yamlpos import YamlError
from judge.yamlpos import load as load_yaml

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
    """Every file of the class, sorted, with its student and problem (or why it has none)."""
    if not submissions_dir.is_dir():
        raise JudgeError(f"{submissions_dir}: no such submissions folder")
    table = languages.load()
    entries: list[Entry] = []
    for path in sorted(submissions_dir.rglob("*")):
        relative = path.relative_to(submissions_dir)
        if not path.is_file() or any(part.startswith(".") for part in relative.parts):
            continue
        if relative.parts == (OVERRIDES_FILE,):
            continue
        if len(relative.parts) == 2:
            student, stem = relative.parts[0], path.stem
            problem = stem if stem in problem_ids else ""
        elif len(relative.parts) == 1:
            student, problem = _split_flat(path.stem, problem_ids)
        else:
            entries.append(Entry(path, relative.parts[0], "", "nested too deep (expected student/problem.ext)"))
            continue
        if not problem:
            known = ", ".join(problem_ids)
            entries.append(
                Entry(path, student, "", f"not a submission: no problem named {path.stem!r} (known: {known})")
            )
            continue
        try:
            table.detect(path)
        except JudgeError:
            entries.append(Entry(path, student, problem, f"not a submission: unknown language '{path.suffix}'"))
            continue
        entries.append(Entry(path, student, problem, ""))
    return entries


def _split_flat(stem: str, problem_ids: Sequence[str]) -> tuple[str, str]:
    for problem in sorted(problem_ids, key=len, reverse=True):
        if stem.endswith("_" + problem) and len(stem) > len(problem) + 1:
            return stem[: -len(problem) - 1], problem
    return stem.split("_", 1)[0], ""


def problem_hash(problem: Problem) -> str:
    """Changes whenever the spec, any test file or any of the problem's programs (the
    checker's, say) changes."""
    digest = hashlib.sha256(problem.spec_path.read_bytes())
    files = sorted(problem.tests_dir.rglob("*"))
    for program in problem.program_paths():
        files += sorted(program.rglob("*")) if program.is_dir() else [program]
    for path in files:
        if path.is_file():
            digest.update(str(path.relative_to(problem.directory)).encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def submission_hash(path: Path, language: str, problem_digest: str) -> str:
    return source_hash(path.read_bytes(), language, problem_digest)


def source_hash(source: bytes, language: str, problem_digest: str) -> str:
    digest = hashlib.sha256(source)
    digest.update(f"\0{language}\0{problem_digest}\0{results.SCHEMA}".encode())
    return digest.hexdigest()


def missing_toolchain(language: languages.Language) -> str:
    """Why this language cannot be run here ("" when it can): not the student's fault."""
    for argv in (language.compile, language.run):
        if argv and not argv[0].startswith(".") and shutil.which(argv[0], path=sandbox.SANDBOX_PATH) is None:
            return f"{argv[0]} not found on this machine (judge doctor)"
    return ""


def _grade_one(
    student: str, source: Path, problem: Problem, content_hash: str, results_dir: Path
) -> results.GradeRecord:
    """Worker: judge one submission and write its result file (so finished work survives)."""
    from judge import build, runner, testdata

    try:
        submission = build.load_submission(source)
    except JudgeError as err:
        record = results.failed(
            student, problem.id, str(source), "", content_hash, _max_score(problem), str(err), sandbox.detect().mode
        )
    else:
        why = missing_toolchain(submission.language)
        if why:
            record = results.failed(
                student,
                problem.id,
                str(source),
                submission.language.id,
                content_hash,
                _max_score(problem),
                why,
                sandbox.detect().mode,
            )
        else:
            result = runner.judge_submission(problem, submission, testdata.load_cases(problem))
            record = results.from_result(student, content_hash, result)
    results.write(results_dir, record)
    return record


def _max_score(problem: Problem) -> float:
    return sum(g.points for g in problem.spec.groups)


@dataclass(frozen=True)
class Task:
    entry: Entry
    problem: Problem
    content_hash: str


def plan(
    entries: Sequence[Entry], problems: dict[str, Problem], results_dir: Path, regrade: bool
) -> tuple[list[Task], int]:
    """(submissions to judge, how many are up to date and skipped)."""
    digests = {pid: problem_hash(p) for pid, p in problems.items()}
    table = languages.load()
    todo: list[Task] = []
    skipped = 0
    for entry in entries:
        if entry.problem_error or entry.problem not in problems:
            continue
        content_hash = submission_hash(entry.path, table.detect(entry.path).id, digests[entry.problem])
        stored = results.read(results.path_for(results_dir, entry.student, entry.problem))
        # A result judged without isolation is judged again once isolation is there.
        unsafe_before = stored is not None and not sandbox.isolated_mode(stored.sandbox) and sandbox.detect().isolated
        if not regrade and stored is not None and stored.hash == content_hash and not unsafe_before:
            skipped += 1
            continue
        todo.append(Task(entry, problems[entry.problem], content_hash))
    return todo, skipped


def run(
    tasks: Sequence[Task],
    results_dir: Path,
    jobs: int,
    on_done: Callable[[results.GradeRecord], None] | None = None,
) -> list[results.GradeRecord]:
    """Judge the tasks with `jobs` worker processes; each result is on disk as it finishes.

    Verdicts do not depend on `jobs`: the limits are on CPU time, which parallel runs do
    not steal from each other. Ctrl-C stops the pool; finished results stay.
    """
    done: list[results.GradeRecord] = []
    if not tasks:
        return done
    # Longest first: one slow submission started last would leave the other workers idle
    # at the end (its cases run in order, on one worker).
    ordered = sorted(tasks, key=lambda t: _expected_seconds(t, results_dir), reverse=True)
    with lifecycle.worker_pool(jobs) as pool:
        pending: set[Future[results.GradeRecord]] = {
            pool.submit(
                lifecycle.in_worker, _grade_one, t.entry.student, t.entry.path, t.problem, t.content_hash, results_dir
            )
            for t in ordered
        }
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    record = future.result()
                    done.append(record)
                    if on_done is not None:
                        on_done(record)
        except BaseException:
            lifecycle.stop_pool(pool)
            raise
    return done


def _expected_seconds(task: Task, results_dir: Path) -> float:
    """How long a submission will take: its last result's times, else every case at its limit."""
    previous = results.read(results.path_for(results_dir, task.entry.student, task.entry.problem))
    if previous is not None and previous.cases:
        return sum(c.wall_s for c in previous.cases)
    limits = task.problem.spec.limits
    language = languages.load().detect(task.entry.path).id
    multiplier = next((m for lang, m in limits.time_multipliers.items() if lang == language), 1.0)
    cases = sum(1 for _ in task.problem.tests_dir.rglob("*.in"))
    return cases * limits.time_s * multiplier


class _OverrideModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    student: str = Field(min_length=1)
    problem: str = Field(min_length=1)
    score: float = Field(ge=0)
    reason: str = Field(min_length=1)


def load_overrides(submissions_dir: Path, problems: dict[str, Problem]) -> dict[tuple[str, str], Override]:
    """The teacher's overrides.yaml (a list of student, problem, score, reason); {} if absent."""
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
        maximum = sum(g.points for g in problems[model.problem].spec.groups)
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
