"""`judge new ID`: a complete small problem that passes `judge verify` as made, so a teacher
edits a working problem instead of starting from a blank page.

The files come from `templates/new/`; the problem is written into a temporary folder
beside its place and renamed into it, so a failure leaves nothing half made.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import jinja2

from judge import paths
from judge.errors import JudgeError
from judge.kinds import table as kinds
from judge.kinds.table import json_schema
from judge.problem.spec import Problem

TEMPLATES = Path(paths.TEMPLATES) / "new"
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
EXTENSIONS = {"cpp": "cpp", "python3": "py", "java": "java"}
JAVA_KINDS = ("unit",)  # the kinds whose example is written in Java too


@dataclass(frozen=True)
class Scaffold:
    directory: Path
    files: tuple[Path, ...]


def _yaml_text(value: str) -> str:
    # A double-quoted YAML scalar: safe for any title.
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def create(
    problems_dir: Path,
    problem_id: str,
    reference_language: str = "cpp",
    title: str = "",
    kind: str = "stdio",
    shape: str = "",
    subject: str = "",
) -> Scaffold:
    """Write problems_dir/problem_id: a working problem of `kind` (and `shape`, one of the kind's
    shapes) with its reference in `reference_language`; a kind whose students submit tests
    tests `subject`, a problem beside it, its suite made of that problem's public inputs.
    JudgeError (one line) for a bad id, language, kind or shape, or a taken place."""
    if not ID_PATTERN.match(problem_id):
        raise JudgeError(
            f"{problem_id!r}: not a problem id (lower-case letters, digits, '-' and '_', starting with a letter or digit)"
        )
    if reference_language not in EXTENSIONS:
        raise JudgeError(f"{reference_language!r}: the reference of a new problem is in cpp or python3 (java: --unit)")
    if reference_language == "java" and kind not in JAVA_KINDS:
        raise JudgeError("--lang java makes a unit-test problem (--unit) only; the others take cpp or python3")
    if kind not in kinds.KINDS:
        raise JudgeError(f"{kind!r}: not a kind of problem (known: {', '.join(kinds.KINDS)})")
    if shape and shape not in kinds.KINDS[kind].shapes:
        made = [f"--{s} with --kind {k.name}" for k in kinds.KINDS.values() for s in k.shapes]
        raise JudgeError(f"--{shape} is not a shape of a {kind} problem (there are: {', '.join(made)})")
    suite = _suite_of(problems_dir, kind, subject)
    target = problems_dir / problem_id
    if target.exists():
        raise JudgeError(f"{target}: already exists; choose another id or remove it")
    if not problems_dir.is_dir():
        if problems_dir.exists() or not problems_dir.parent.is_dir():
            raise JudgeError(
                f"{problems_dir}: no such problems folder (make it with `mkdir -p {problems_dir}`, "
                "or name another with --problems DIR)"
            )
        # A first problem in an empty folder: its problems folder comes with it, with the
        # schema its problem.yaml names for editors.
        problems_dir.mkdir()
        (problems_dir / "problem.schema.json").write_text(json_schema(), encoding="utf-8")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,  # source code and YAML, not HTML
    )
    own = EXTENSIONS[reference_language]
    starter = kinds.KINDS[kind].starter(own, "py" if own == "cpp" else "cpp", shape)
    plan, default_title = starter.files, starter.title
    values = {
        "id": problem_id,
        "title": _yaml_text(title or default_title),
        "heading": title or default_title,
        "source": _yaml_text("made by `judge new`: replace with the problem's origin"),
        "reference": Path(plan[4][1]).name if len(plan) > 4 else "",
        "subject": subject,
        # Of a unit problem under test: its framework, which says what a student's tests are.
        "framework": _framework_of(problems_dir, subject),
    }
    staging = Path(tempfile.mkdtemp(prefix=f".{problem_id}.", dir=problems_dir))
    try:
        written: list[Path] = []
        for template, relative in plan:
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(env.get_template(template).render(values), encoding="utf-8")
            written.append(target / relative)
        for relative, data in suite:
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            (staging / relative).write_bytes(data)
            written.append(target / relative)
        os.chmod(staging, 0o755)
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Scaffold(target, tuple(written))


def _framework_of(problems_dir: Path, subject: str) -> str:
    """The unit framework of the problem under test (pytest, unittest, junit5), "" if none."""
    from judge.kinds.tests import unit_suite

    return (unit_suite.framework_of(problems_dir / subject) or "") if subject else ""


def _unit_suite_of(tested: Problem) -> list[tuple[str, bytes]]:
    """A unit problem's public test files (pytest files or JUnit classes, the top of its tests'
    public/), as suite/'s first."""
    from judge.kinds.unit import found, listing

    unit = tested.spec.unit
    assert unit is not None
    public = tested.directory / unit.tests / found.PUBLIC_FOLDER
    files = [path for path in listing.files_with_tests(public, unit.framework) if path.parent == public]
    if not files:
        raise JudgeError(f"--for {tested.id}: no public test files in {public} to start the suite from")
    return [(f"suite/{path.name}", path.read_bytes()) for path in files]


def _suite_of(problems_dir: Path, kind: str, subject: str) -> list[tuple[str, bytes]]:
    """(path, content) of a tests problem's first suite: the public cases of the problem under
    test, which the teacher extends until it catches every bug; none for other kinds."""
    from judge.kinds.tests.matrix import refusal
    from judge.problem import testdata

    testing = [k.name for k in kinds.KINDS.values() if k.takes_data]
    if not kinds.KINDS[kind].takes_data:
        if subject:
            raise JudgeError(
                f"--for names the problem under test of a {' or '.join(testing)} problem, not a {kind} one"
            )
        return []
    if not subject:
        raise JudgeError(f"--kind {kind} needs --for PROBLEM: the problem whose bugs its students' tests must catch")
    if not (problems_dir / subject).is_dir():
        raise JudgeError(f"--for {subject}: no problem {subject!r} in {problems_dir}")
    tested = kinds.load_problem(problems_dir / subject)
    if tested.spec.unit is not None:  # a student's own pytest files: the public ones to start from
        return _unit_suite_of(tested)
    if not kinds.of(tested).solves:
        raise JudgeError(f"--for {subject}: {refusal(kinds.of(tested).name)}")
    public = [case for case in testdata.load_cases(tested) if case.public]
    if not public:
        raise JudgeError(f"--for {subject}: it has no public cases to start the suite from (run `judge gen {subject}`)")
    return [
        (f"suite/{index:02d}{suffix}", path.read_bytes())
        for index, case in enumerate(public, start=1)
        for suffix, path in ((".in", case.input), (".ans", case.answer))
    ]
