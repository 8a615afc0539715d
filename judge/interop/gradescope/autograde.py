"""`judge autograde`, what an autograder's `run_autograder` runs on Gradescope: find the
student's file in ROOT/submission, judge it on the problems in ROOT/source/problems, and write
ROOT/results/results.json. Whatever happens (no file, a compile error, a crash of the judge)
a valid results.json is written, since Gradescope shows nothing without one.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.grade import feedback, judging, reports
from judge.interop.gradescope import report
from judge.kinds.table import load_problem
from judge.problem.locate import problem_dirs
from judge.problem.spec import Problem
from judge.run import languages, sandbox, sources

UPLOAD = "submission"  # ROOT/submission: what the student handed in
CONFIG = "gradescope.json"  # in ROOT/source: the teacher's choices when the zip was built


@dataclass(frozen=True)
class Config:
    problems: tuple[str, ...]
    secret_visibility: str


def read_config(source: Path) -> Config:
    try:
        data = json.loads((source / CONFIG).read_text(encoding="utf-8"))
        config = Config(tuple(data["problems"]), str(data["secret_visibility"]))
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise JudgeError(f"{source / CONFIG}: unreadable ({err})") from None
    if config.secret_visibility not in report.VISIBILITIES:
        raise JudgeError(f"{source / CONFIG}: secret_visibility {config.secret_visibility!r} is not one of the four")
    return config


def _sources(folder: Path) -> list[Path]:
    """What the student handed in that could be a submission: every source file (at any depth,
    as an uploaded zip of a folder puts them), and the folders and archives at the top."""
    table = languages.load()
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if sources.is_archive(path) and path.parent == folder:
            found.append(path)
            continue
        try:
            table.detect(path)
        except JudgeError:
            continue  # a README, a build artefact: not a source file
        found.append(path)
    return found + sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def _stem(path: Path) -> str:
    lower = path.name.lower()
    return next((lower[: -len(s)] for s in sources.ARCHIVE_SUFFIXES if lower.endswith(s)), lower.split(".")[0])


def pick(problem: Problem, found: list[Path], only: bool, folder: Path | None = None) -> Path:
    """The student's submission for a problem: a folder or archive named after the problem's id,
    else the one file whose name holds it; with one problem, the only source file, or the whole
    upload (`folder`) as one submission of several files."""
    bundles = [p for p in found if (p.is_dir() or sources.is_archive(p)) and _stem(p) == problem.id.lower()]
    if len(bundles) == 1:
        return bundles[0]
    files = [p for p in found if p.is_file() and not sources.is_archive(p)]
    named = [p for p in files if problem.id.lower() in p.name.lower()]
    if len(named) == 1 and not bundles:
        return named[0]
    if len(named) + len(bundles) > 1:
        several = ", ".join(p.name for p in bundles + named)
        raise JudgeError(f"several files name {problem.id}: {several}; submit one")
    archives = [p for p in found if sources.is_archive(p)]
    if only and len(files) == 1:
        return files[0]
    if only and len(files) > 1 and folder is not None:
        return folder  # several source files: one program
    if only and not files and len(archives) == 1:
        return archives[0]
    if not files and not archives:
        raise JudgeError("no source file was submitted (a source file, or a folder or .zip of several)")
    raise JudgeError(f"no file for {problem.id}: name it {problem.id}.<ext>, or a folder or {problem.id}.zip")


def grade(root: Path) -> report.Results:
    began = time.monotonic()
    source = root / "source"
    config = read_config(source)
    why = sandbox.isolation_problem(sandbox.detect())
    if why and os.environ.get(sandbox.UNSAFE_ENV) != "1":
        raise JudgeError(
            f"this machine cannot isolate the programs ({why}); the teacher may rebuild the autograder "
            "with --allow-unsandboxed to rely on Gradescope's container alone"
        )
    problems = [load_problem(Path(d).resolve(), judging_only=True) for d in problem_dirs(source / "problems")]
    chosen = [p for p in problems if p.id in config.problems]
    tests: list[report.Test] = []
    outputs: list[str] = []
    # The student's files are named as the student sees them, `submission/...`, in every
    # message: the judging runs beside that folder.
    with contextlib.chdir(root):
        upload = Path(UPLOAD)
        found = _sources(upload) if upload.is_dir() else []
        for problem in chosen:
            first = len(tests) + 1
            try:
                path = pick(problem, found, len(chosen) == 1, upload)
            except JudgeError as err:
                tests += report.missing(problem, str(err), config.secret_visibility, first)
                outputs.append(f"{problem.id}: not judged: {err}")
                continue
            submitted = judging.identify(problem, path, path.stem)
            if submitted.sources is None:
                tests += report.missing(problem, submitted.error, config.secret_visibility, first)
                outputs.append(f"{problem.id}: not judged: {submitted.error}")
                continue
            record = judging.judge(submitted)
            tests += report.tests_of(feedback.for_student(record, problem), config.secret_visibility, first)
            outputs.append(report.headline(record, problem))
    return report.results(tests, "\n\n".join(outputs), time.monotonic() - began)


def run(root: Path) -> int:
    """Grade and write results.json (atomically); 0 when it was written from a judging."""
    target = root / "results" / "results.json"
    try:
        found = grade(root)
        code = 0
    except JudgeError as err:
        found, code = report.results([], f"The autograder could not grade this submission: {err}", 0.0), 1
    except Exception as err:  # a bug of the judge: the student still gets a results.json saying so
        traceback.print_exc()
        found = report.results([], f"Internal error of the autograder (not your fault): {err}", 0.0)
        code = 1
    reports.write_atomic(target, json.dumps(report.to_json(found), indent=1) + "\n")
    return code
