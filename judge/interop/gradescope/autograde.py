"""`judge autograde`, what an autograder's `run_autograder` runs on Gradescope: find the
student's file in ROOT/submission, judge it on the problems in ROOT/source/problems, and write
ROOT/results/results.json. Whatever happens (no file, a compile error, a crash of the judge)
a valid results.json is written, since Gradescope shows nothing without one.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.grade import feedback, reports, results, runner
from judge.interop.gradescope import report
from judge.problem import testdata
from judge.problem.locate import problem_dirs
from judge.problem.spec import Problem, load_problem
from judge.run import build, languages, sandbox

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
    table = languages.load()
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        try:
            table.detect(path)
        except JudgeError:
            continue  # a README, a build artefact: not a source file
        found.append(path)
    return found


def pick(problem: Problem, sources: list[Path], only: bool) -> Path:
    """The student's file for a problem: the one whose name holds the problem's id, or the
    only source file when the autograder has only this problem."""
    named = [p for p in sources if problem.id.lower() in p.name.lower()]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        raise JudgeError(f"several files name {problem.id}: {', '.join(p.name for p in named)}; submit one")
    if only and len(sources) == 1:
        return sources[0]
    if not sources:
        raise JudgeError("no source file was submitted (.c, .cpp, .py or .java)")
    raise JudgeError(f"no file for {problem.id}: name it {problem.id}.<c|cpp|py|java>")


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
    problems = [load_problem(Path(d)) for d in problem_dirs(source / "problems")]
    chosen = [p for p in problems if p.id in config.problems]
    sources = _sources(root / "submission") if (root / "submission").is_dir() else []
    tests: list[report.Test] = []
    outputs: list[str] = []
    for problem in chosen:
        first = len(tests) + 1
        try:
            path = pick(problem, sources, len(chosen) == 1)
            submission = build.load_submission(path)
            result = runner.judge_submission(problem, submission, testdata.load_cases(problem))
        except JudgeError as err:
            why = str(err).replace(str(root / "submission") + "/", "")
            tests += report.missing(problem, why, config.secret_visibility, first)
            outputs.append(f"{problem.id}: not judged: {why}")
            continue
        shown = feedback.for_student(results.from_result(path.stem, "", result), problem)
        tests += report.tests_of(shown, config.secret_visibility, first)
        outputs.append(report.headline(result, problem))
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
