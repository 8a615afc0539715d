"""`judge export ID -o FILE.zip`: a problem as an ICPC problem package in the legacy format,
as Kattis problemtools (`verifyproblem`) and DOMjudge read it.

Package layout written (under one top folder named after the problem, [a-z0-9] only, as
problemtools wants a short name):
  problem.yaml                name, source, license, rights_owner, author, limits, validation
  .timelimit                  the CPU time limit in seconds (DOMjudge reads it; problemtools derives its own)
  judge.yaml                  what only this judge reads back: the per-language time factors
  problem_statement/problem.en.tex
  data/sample/*.in|.ans       the public groups
  data/secret[/<group>]/*.in|.ans
  input_validators/           the validator programs, and for a built-in reference a
                              standalone validator of its format
  output_validators/checker/  a custom checker
  submissions/<verdict>/      the solutions (memory_limit_exceeded goes to run_time_error:
                              ICPC has no MLE verdict)

What the format cannot say (points, per-language time factors) is named in the notes.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
import uuid
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from judge.errors import JudgeError
from judge.interop.package import JUDGE_FEEDBACK, JUDGE_FILE, JUDGE_TIME_MULTIPLIERS
from judge.problem.spec import CustomChecker, ExactChecker, FloatChecker, LinesChecker, Problem, TokensChecker
from judge.run import sources

VALIDATORS = Path(__file__).parent / "validators"
FOLDER_MAP = {
    "accepted": "accepted",
    "wrong_answer": "wrong_answer",
    "time_limit_exceeded": "time_limit_exceeded",
    "run_time_error": "run_time_error",
    "memory_limit_exceeded": "run_time_error",
}


@dataclass(frozen=True)
class Exported:
    path: Path
    cases: int
    submissions: int
    notes: tuple[str, ...]


def shortname(problem_id: str) -> str:
    return re.sub(r"[^a-z0-9]", "", problem_id) or "problem"


def _checker(problem: Problem, package: Path, notes: list[str]) -> dict[str, Any]:
    checker = problem.spec.checker
    if isinstance(checker, CustomChecker):
        source = problem.directory / checker.program
        target = package / "output_validators" / "checker"
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            target.mkdir(parents=True)
            shutil.copyfile(source, target / source.name)
        fields: dict[str, Any] = {"validation": "custom"}
        if checker.args:
            fields["validator_flags"] = " ".join(checker.args)
        return fields
    flags: list[str] = []
    if isinstance(checker, TokensChecker):
        if checker.case_sensitive:
            flags.append("case_sensitive")
    elif isinstance(checker, ExactChecker | LinesChecker):
        flags += ["case_sensitive", "space_change_sensitive"]
        if isinstance(checker, LinesChecker):
            notes.append("checker lines: exported as space_change_sensitive, which also counts trailing spaces")
    elif isinstance(checker, FloatChecker):
        if checker.case_sensitive:
            flags.append("case_sensitive")
        flags += ["float_absolute_tolerance", repr(checker.abs_tol), "float_relative_tolerance", repr(checker.rel_tol)]
    return {"validation": "default", **({"validator_flags": " ".join(flags)} if flags else {})}


def _metadata(problem: Problem, notes: list[str]) -> dict[str, Any]:
    spec = problem.spec
    # A stable uuid: the same problem exports the same package (problemtools asks for one).
    meta: dict[str, Any] = {
        "name": spec.title,
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"judge-problem:{spec.id}")),
        "source": spec.source,
    }
    if spec.license:
        meta["license"] = spec.license
    if spec.rights_owner:
        meta["rights_owner"] = spec.rights_owner
    authors = spec.credits.get("authors")
    if authors:
        meta["author"] = ", ".join(authors)
    other = sorted(set(spec.credits) - {"authors"})
    if other:
        notes.append(f"credits other than authors ({', '.join(other)}) have no place in the legacy format")
    meta["limits"] = {
        "memory": spec.limits.memory_mib,
        "output": max(1, math.ceil(spec.limits.output_mib)),
    }
    if spec.limits.time_multipliers:
        factors = ", ".join(f"{k} x{v:g}" for k, v in spec.limits.time_multipliers.items())
        notes.append(
            f"per-language time factors ({factors}) have no place in a package: .timelimit holds the base limit"
        )
    return meta


def _statement(problem: Problem, package: Path) -> None:
    # The legacy format reads LaTeX statements only: the Markdown goes in verbatim, under
    # the problem's name, which problemtools' \problemname takes.
    text = problem.statement_path.read_text(encoding="utf-8", errors="replace")
    title = re.sub(r"([\\{}$&#^_%~])", r"\\\1", problem.spec.title)
    body = text.replace("\\end{verbatim}", "")
    folder = package / "problem_statement"
    folder.mkdir()
    (folder / "problem.en.tex").write_text(
        "\\problemname{" + title + "}\n\n\\begin{verbatim}\n" + body + "\n\\end{verbatim}\n", encoding="utf-8"
    )


def _data(problem: Problem, package: Path) -> int:
    from judge.problem import testdata

    cases = testdata.load_cases(problem)
    public = [g.name for g in problem.spec.groups if g.visibility == "public"]
    secret = [g.name for g in problem.spec.groups if g.visibility == "secret"]
    for case in cases:
        if case.public:
            folder = package / "data" / "sample"
            stem = case.name if len(public) == 1 else f"{case.group}-{case.name}"
        else:
            folder = package / "data" / "secret" / (case.group if len(secret) > 1 else "")
            stem = case.name
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(case.input, folder / f"{stem}.in")
        shutil.copyfile(case.answer, folder / f"{stem}.ans")
    for group in problem.spec.groups:
        if group.validator_args:
            where = package / "data" / ("sample" if group.visibility == "public" else "secret")
            if group.visibility == "secret" and len(secret) > 1:
                where = where / group.name
            flags = {"input_validator_flags": " ".join(group.validator_args)}
            (where / "testdata.yaml").write_text(yaml.safe_dump(flags), encoding="utf-8")
    return len(cases)


def _validators(problem: Problem, package: Path) -> None:
    base = package / "input_validators"
    if problem.builtin:
        own = VALIDATORS / f"{problem.spec.reference}.py"
        (base / "format").mkdir(parents=True)
        shutil.copyfile(own, base / "format" / "validate.py")
    for index, relative in enumerate(problem.spec.validators, start=1):
        source = problem.directory / relative
        target = base / f"v{index}-{shortname(Path(relative).stem)}"
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            target.mkdir(parents=True)
            shutil.copyfile(source, target / source.name)


def _submissions(problem: Problem, package: Path, notes: list[str]) -> int:
    from judge.grade import verify

    root = problem.directory / verify.SOLUTIONS_DIR
    count = 0
    if not root.is_dir():
        return 0
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        target = FOLDER_MAP.get(folder.name)
        # A file is a solution; a folder (or an archive) is one of several files, which the
        # package keeps as a folder.
        entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
        if target is None:
            notes.extend(
                f"{f.relative_to(problem.directory)}: {folder.name}/ has no ICPC verdict; not exported" for f in entries
            )
            continue
        if folder.name == "memory_limit_exceeded" and entries:
            notes.append("memory_limit_exceeded/ solutions go to run_time_error/ (ICPC has no MLE verdict)")
        for path in entries:
            destination = package / "submissions" / target / path.name
            destination.parent.mkdir(parents=True, exist_ok=True)
            if path.is_dir() or sources.is_archive(path):
                folder_name = path.name if path.is_dir() else path.name.split(".")[0]
                for name, content in sources.read_files(path, sources.SUBMISSION_CAPS):
                    written = destination.with_name(folder_name) / name
                    written.parent.mkdir(parents=True, exist_ok=True)
                    written.write_bytes(content)
            elif path.is_file():
                shutil.copyfile(path, destination)
            count += 1
    return count


def export_problem(problem: Problem, output: Path) -> Exported:
    """Write the package as a .zip at `output` (atomically: a temporary file renamed)."""
    if output.suffix.lower() != ".zip":
        raise JudgeError(f"{output}: the package is written as a .zip file")
    if not output.parent.is_dir():
        raise JudgeError(f"{output.parent}: no such folder")
    notes: list[str] = []
    if any(g.points for g in problem.spec.groups):
        notes.append("points and per-case scoring are not exported: the package is pass-fail")
    with tempfile.TemporaryDirectory(prefix="judge-export-") as work:
        package = Path(work) / shortname(problem.id)
        package.mkdir()
        meta = _metadata(problem, notes)
        meta.update(_checker(problem, package, notes))
        (package / "problem.yaml").write_text(
            f"# Exported by `judge export` from the problem {problem.id}.\n"
            + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True),
            encoding="utf-8",
        )
        (package / ".timelimit").write_text(f"{problem.spec.limits.time_s:g}\n", encoding="utf-8")
        extra: dict[str, object] = {}
        if problem.spec.limits.time_multipliers:
            extra[JUDGE_TIME_MULTIPLIERS] = dict(problem.spec.limits.time_multipliers)
        if problem.spec.feedback != "groups":  # what students see of the secret cases
            extra[JUDGE_FEEDBACK] = problem.spec.feedback
        if extra:
            (package / JUDGE_FILE).write_text(yaml.safe_dump(extra), encoding="utf-8")
        _statement(problem, package)
        cases = _data(problem, package)
        _validators(problem, package)
        submissions = _submissions(problem, package, notes)
        fd, temporary = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent)
        os.close(fd)
        try:
            with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
                for path in sorted(package.rglob("*")):
                    if path.is_file():
                        archive.write(path, path.relative_to(package.parent).as_posix())
            os.replace(temporary, output)
        except BaseException:
            os.unlink(temporary)
            raise
    return Exported(output, cases, submissions, tuple(notes))
