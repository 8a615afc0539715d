"""`judge export ID -o FILE.zip [--format 2023-07|legacy]`: a problem as an ICPC problem
package, as Kattis problemtools (`verifyproblem`) and DOMjudge read it; 2023-07 by default.

Package layout written (under one top folder named after the problem, [a-z0-9] only, as
problemtools wants a short name):
  problem.yaml                name, source, license, rights_owner, credits, limits; 2023-07: type
                              scoring when groups have points; legacy: validation
  (no time limit)             the referee's own from the accepted solutions (TIME_RULE): 2023-07
                              limits.time_multipliers, legacy limits.time_multiplier
  statement/problem.en.md     2023-07: the Markdown statement as it is
  problem_statement/problem.en.tex   legacy: the statement, its Markdown converted to LaTeX
  data/sample/*.in|.ans       the public groups
  data/secret/<group>/        each secret group under its own name, with a testdata.yaml: its
                              points (2023-07: grader_flags min or sum, accept_score, range),
                              on_reject, input_validator_flags
  generators/                 2023-07: the generator programs and generators.yaml, the command of
                              every case with its own seed (in BAPCtools' style)
  input_validators/           the validator programs, and for a built-in reference a
                              standalone validator of its format
  output_validator/ (2023-07), output_validators/checker/ (legacy)   a custom checker
  submissions/<verdict>/      the solutions (memory_limit_exceeded goes to run_time_error:
                              ICPC has no MLE verdict)
  judge.yaml, judge/          this judge's own: its spec whole (groups, names, order, points,
                              scoring, generators, limits, per-language factors, feedback),
                              the problem's own files, the solutions' own folders; an import
                              by the judge gives back the same problem

What the format cannot say is named in the notes.
"""

from __future__ import annotations

import math
import re
import shutil
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from judge.errors import JudgeError
from judge.interop.package import (
    JUDGE_FEEDBACK,
    JUDGE_FILE,
    JUDGE_FOLDER,
    JUDGE_SOLUTIONS,
    JUDGE_SPEC,
    JUDGE_TIME_MULTIPLIERS,
)
from judge.interop.zipped import write_zip
from judge.kinds import table as kinds
from judge.problem import statement
from judge.problem.spec import CustomChecker, Problem
from judge.run import sources

VALIDATORS = Path(__file__).parent / "validators"
SHARED_VALIDATION = "ascii_input"  # the module there that every puzzle's validator imports
FORMATS = ("2023-07", "legacy")
DEFAULT_FORMAT = "2023-07"
# Of the problem's folder, what the package holds elsewhere or nobody needs.
_NOT_OWN = ("tests", "solutions", "__pycache__")
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


def _checker(problem: Problem, package: Path, notes: list[str], version: str) -> tuple[dict[str, Any], list[str]]:
    """(problem.yaml's fields of the checker, the output validator's flags). Legacy names the
    validation in problem.yaml; 2023-07 has a custom validator's folder say it, and its flags
    in data/testdata.yaml."""
    checker = problem.spec.checker
    interactor = problem.spec.interactor
    # An interactor is the package's output validator too, run the interactive way.
    own = interactor if interactor is not None else checker if isinstance(checker, CustomChecker) else None
    if own is not None:
        kind = "interactor" if interactor is not None else "checker"
        target = package / (f"output_validators/{kind}" if version == "legacy" else "output_validator")
        _copy_program(problem.directory / own.program, target)
        flags = list(own.args)
        if version == "legacy":
            validation = "custom interactive" if interactor is not None else "custom"
            return {"validation": validation, **({"validator_flags": " ".join(flags)} if flags else {})}, []
        return {}, flags
    assert not isinstance(checker, CustomChecker)  # a custom checker is `own` above
    found, note = checker.package_flags()
    flags = list(found)
    if note:
        notes.append(note)
    if version == "legacy":
        return {"validation": "default", **({"validator_flags": " ".join(flags)} if flags else {})}, []
    return {}, flags


def _copy_program(source: Path, target: Path) -> None:
    """A program of the problem as a package folder: a folder as it is, a file inside one."""
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        target.mkdir(parents=True)
        shutil.copyfile(source, target / source.name)


def _scoring(problem: Problem) -> bool:
    return any(g.points for g in problem.spec.groups)


def _kinds(problem: Problem) -> str | list[str]:
    """2023-07's type: pass-fail or scoring, and interactive beside it."""
    kinds = ["scoring" if _scoring(problem) else "pass-fail"]
    if problem.spec.interactor is not None:
        kinds = ["interactive"] if kinds == ["pass-fail"] else [*kinds, "interactive"]
    return kinds[0] if len(kinds) == 1 else kinds


# The address space PyPy needs, which Kattis and problemtools run Python 3 with (problemtools
# limits a run's address space to the memory limit). Measured with PyPy 7.3.11 under ulimit -v:
# any program aborts below 512 MiB ("cannot allocate nursery"), and sicily-rotations'
# level_sets.py (a dict of all 9! frames) needs 704 MiB where CPython holds in 256.
PYPY_MEMORY_MIB = 768


def _memory_for_pypy(problem: Problem, notes: list[str]) -> int:
    """The package's memory limit: the problem's, raised to PYPY_MEMORY_MIB (with a note) when
    its solutions include Python, so that they hold where the referee's Python is PyPy."""
    memory = problem.spec.limits.memory_mib
    solutions = problem.directory / "solutions"
    python = solutions.is_dir() and any(p.suffix == ".py" for p in solutions.rglob("*") if p.is_file())
    if not python or memory >= PYPY_MEMORY_MIB:
        return memory
    notes.append(
        f"memory: {PYPY_MEMORY_MIB} MiB in the package, not the judge's {memory} MiB: Kattis and problemtools "
        f"run Python 3 on PyPy, which needs that much address space (the judge verified its Python with CPython "
        f"at {memory} MiB)"
    )
    return PYPY_MEMORY_MIB


# The package's time rule: no fixed time limit, but the referee's own from the accepted
# solutions it runs (the slowest times ac_to_time_limit, or time_multiplier in legacy; a TLE
# solution must still fail at that times time_limit_to_tle / time_safety_margin). The judge's
# one limit and its per-language factors (Python x4, say) cannot be said in a package, and a
# fixed limit holds an accepted Python solution only on a machine as fast as the judge's; one
# computed on the referee's machine holds on any. Written out as the format's defaults.
TIME_RULE: dict[str, dict[str, Any]] = {
    "2023-07": {"time_multipliers": {"ac_to_time_limit": 2.0, "time_limit_to_tle": 1.5}},
    "legacy": {"time_multiplier": 5.0, "time_safety_margin": 2.0},
}


def _time_note(problem: Problem, version: str) -> str:
    """The export's one line on its time limit: what the package says, and what stays behind."""
    limits = problem.spec.limits
    factors = ", ".join(f"{k} x{v:g}" for k, v in limits.time_multipliers.items())
    judges = f"{limits.time_s:g} s" + (f" ({factors})" if factors else "")
    rule = TIME_RULE[version]
    name, times = (
        ("time_multiplier", rule["time_multiplier"])
        if version == "legacy"
        else ("ac_to_time_limit", rule["time_multipliers"]["ac_to_time_limit"])
    )
    return (
        f"time limit: none fixed in the package; the referee sets it from the accepted solutions it runs "
        f"(the slowest x {times:g}, {name}), so each passes on its machine whatever its speed; "
        f"the judge's {judges} is kept in judge.yaml"
    )


def _metadata(problem: Problem, notes: list[str], version: str) -> dict[str, Any]:
    spec = problem.spec
    # A stable uuid: the same problem exports the same package (problemtools asks for one).
    stable = str(uuid.uuid5(uuid.NAMESPACE_URL, f"judge-problem:{spec.id}"))
    if version == "legacy":
        meta: dict[str, Any] = {"name": spec.title, "uuid": stable, "source": spec.source}
    else:
        meta = {
            "problem_format_version": "2023-07-draft",
            "name": {"en": spec.title},
            "uuid": stable,
            "type": _kinds(problem),
            "source": spec.source,
        }
    if spec.license:
        meta["license"] = spec.license
    if spec.rights_owner:
        meta["rights_owner"] = spec.rights_owner
    if version == "legacy":
        authors = spec.credits.get("authors")
        if authors:
            meta["author"] = ", ".join(authors)
        other = sorted(set(spec.credits) - {"authors"})
        if other:
            notes.append(f"credits other than authors ({', '.join(other)}) have no place in the legacy format")
    else:
        known = ("authors", "contributors", "testers", "packagers", "acknowledgements")
        credits = {role: list(people) for role, people in spec.credits.items() if role in known}
        if credits:
            meta["credits"] = credits
        other = sorted(set(spec.credits) - set(known))
        if other:
            notes.append(f"credits {', '.join(other)}: no such role in the format (kept in judge.yaml)")
    limits = spec.limits
    meta["limits"] = {
        **TIME_RULE[version],
        "memory": _memory_for_pypy(problem, notes),
        "output": max(1, math.ceil(limits.output_mib)),
    }
    notes.append(_time_note(problem, version))
    if version != "legacy":
        meta["limits"] = {
            **meta["limits"],
            "compilation_time": max(1, math.ceil(limits.compile_time_s)),
            "compilation_memory": limits.compile_memory_mib,
            "validation_time": max(1, math.ceil(limits.programs.time_s)),
            "validation_memory": limits.programs.memory_mib,
            "validation_output": max(1, math.ceil(limits.programs.output_mib)),
        }
    giving_up = [f"{g.name} after {k} {kind}" for g in problem.spec.groups for kind, k in g.gives_up]
    if giving_up:
        notes.append(
            f"giving up after limits exceeded in a row ({', '.join(giving_up)}) has no place in a package:"
            " kept in judge.yaml"
        )
    return meta


def _statement(problem: Problem, package: Path, version: str) -> None:
    text = problem.statement_path.read_text(encoding="utf-8", errors="replace")
    if version != "legacy":
        # 2023-07 reads Markdown (and LaTeX): the statement goes as it is.
        suffix = problem.statement_path.suffix.lower() if problem.statement_path.suffix.lower() == ".tex" else ".md"
        folder = package / "statement"
        folder.mkdir()
        (folder / f"problem.en{suffix}").write_text(text, encoding="utf-8")
        return
    # The legacy format reads LaTeX statements only: the Markdown as LaTeX, under the
    # problem's name, which problemtools' \problemname takes.
    title = "".join(statement.LATEX_SPECIAL.get(c, c) for c in problem.spec.title)
    body = text if problem.statement_path.suffix.lower() == ".tex" else statement.to_latex(text)
    if "\\problemname" not in body:
        body = "\\problemname{" + title + "}\n\n" + body
    folder = package / "problem_statement"
    folder.mkdir()
    (folder / "problem.en.tex").write_text(body, encoding="utf-8")


def _data(problem: Problem, package: Path, version: str, checker_flags: list[str]) -> int:
    """The test files, each secret group in a folder of its own name, and the testdata.yaml
    of each folder: what the format can say of the group (points and scoring in 2023-07)."""
    from judge.problem import testdata

    cases = testdata.load_cases(problem)
    public = [g.name for g in problem.spec.groups if g.visibility == "public"]
    # One secret group named secret (a package whose secret data was flat, imported): flat again.
    flat = [g.name for g in problem.spec.groups if g.visibility != "public"] == ["secret"]

    def secret_folder(group: str) -> Path:
        return package / "data" / "secret" / ("" if flat else group)

    for case in cases:
        if case.public:
            folder = package / "data" / "sample"
            stem = case.name if len(public) == 1 else f"{case.group}-{case.name}"
        else:
            folder = secret_folder(case.group)
            stem = case.name
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(case.input, folder / f"{stem}.in")
        shutil.copyfile(case.answer, folder / f"{stem}.ans")
    scoring = version != "legacy" and _scoring(problem)
    total = problem.max_score
    configs: dict[Path, dict[str, Any]] = {}
    if checker_flags:
        configs.setdefault(package / "data", {})["output_validator_flags"] = " ".join(checker_flags)
    if scoring:
        configs.setdefault(package / "data", {})["range"] = f"0 {total:g}"
        configs.setdefault(package / "data" / "secret", {})["range"] = f"0 {total:g}"
        if public:
            configs.setdefault(package / "data" / "sample", {}).update({"accept_score": 0, "range": "0 0"})
    for group in problem.spec.groups:
        if group.visibility == "public":
            where = package / "data" / "sample"
            if group.validator_args:
                configs.setdefault(where, {})["input_validator_flags"] = " ".join(group.validator_args)
            continue
        config = configs.setdefault(secret_folder(group.name), {})
        config["on_reject"] = "break" if group.breaks else "continue"
        if group.validator_args:
            config["input_validator_flags"] = " ".join(group.validator_args)
        if scoring:
            count = sum(1 for c in cases if c.group == group.name)
            worth = group.points if group.scoring == "all" else group.points / max(1, count)
            config.update({"grader_flags": "min" if group.scoring == "all" else "sum", "accept_score": worth})
            config["range"] = f"0 {group.points:g}"
    for where, config in configs.items():
        where.mkdir(parents=True, exist_ok=True)
        (where / "testdata.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return len(cases)


def _generators(problem: Problem, package: Path) -> None:
    """2023-07's generators/: the generator programs, and generators.yaml with the command of
    every generated case, its own seed written out (in the style of BAPCtools' manifest)."""
    from judge.author import parts
    from judge.problem import testdata
    from judge.problem.spec import GENERATORS_DIR, split_generate

    groups = [g for g in problem.spec.groups if g.generate is not None]
    if not groups:
        return
    folder = package / "generators"
    folder.mkdir()
    cases = testdata.load_cases(problem)
    manifest: dict[str, Any] = {}
    for group in groups:
        assert group.generate is not None and group.seed is not None
        program = split_generate(group.generate)[0]
        source = problem.directory / GENERATORS_DIR / program
        if not (folder / program).exists():
            if source.is_dir():
                shutil.copytree(source, folder / program)
            else:
                (folder / program).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, folder / program)
        names = [c.name for c in cases if c.group == group.name]
        commands = {
            name: " ".join([program, *parts.generate_args(group.generate, group.seed, index)])
            for index, name in enumerate(names, start=1)
        }
        where = "sample" if group.visibility == "public" else "secret"
        section = manifest.setdefault(where, {"data": {}})["data"]
        section[group.name] = {"data": commands}
    text = (
        "# The command of every generated case, its seed written out, as `judge export` made them\n"
        "# (BAPCtools' generators.yaml style); run in this folder, stdout is the case's input.\n"
    )
    (folder / "generators.yaml").write_text(
        text + yaml.safe_dump({"data": manifest}, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )


def builtin_validator(reference: str) -> str:
    """A built-in puzzle's validator as one program: its shared part written in place of the
    import of it."""
    shared = (VALIDATORS / f"{SHARED_VALIDATION}.py").read_text(encoding="utf-8")
    own = (VALIDATORS / f"{reference}.py").read_text(encoding="utf-8")
    lines = own.splitlines(keepends=True)
    return "".join(shared if line.startswith(f"from {SHARED_VALIDATION} import ") else line for line in lines)


def _validators(problem: Problem, package: Path) -> None:
    base = package / "input_validators"
    if problem.builtin:
        (base / "format").mkdir(parents=True)
        (base / "format" / "validate.py").write_text(builtin_validator(problem.spec.reference), encoding="utf-8")
    for index, relative in enumerate(problem.spec.validators, start=1):
        source = problem.directory / relative
        _copy_program(source, base / f"v{index}-{shortname(Path(relative).stem)}")


def _submissions(problem: Problem, package: Path, notes: list[str]) -> tuple[int, dict[str, str]]:
    """Copy the solutions; (how many, {package path: the judge's own folder} where the two
    differ: an MLE solution, which ICPC files under run_time_error)."""
    from judge.author import verify

    root = problem.directory / verify.SOLUTIONS_DIR
    count = 0
    moved: dict[str, str] = {}
    if not root.is_dir():
        return 0, moved
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
                destination = destination.with_name(path.name if path.is_dir() else path.name.split(".")[0])
                for name, content in sources.read_files(path, sources.SUBMISSION_CAPS):
                    written = destination / name
                    written.parent.mkdir(parents=True, exist_ok=True)
                    written.write_bytes(content)
            elif path.is_file():
                shutil.copyfile(path, destination)
            else:
                continue
            if target != folder.name:
                moved[f"{target}/{destination.name}"] = folder.name
            count += 1
    return count, moved


def _own_files(problem: Problem, package: Path) -> None:
    """The problem's own files (statement, generators, validators, checker, hand-written
    cases), as they are, under judge/: what the spec in judge.yaml names."""
    target = package / JUDGE_FOLDER
    for path in sorted(problem.directory.iterdir()):
        if path.name.startswith(".") or path.name in _NOT_OWN or path == problem.spec_path:
            continue
        if path.is_dir():
            shutil.copytree(path, target / path.name, ignore=shutil.ignore_patterns(".*", "__pycache__"))
        elif path.is_file():
            target.mkdir(exist_ok=True)
            shutil.copyfile(path, target / path.name)


def export_problem(problem: Problem, output: Path, version: str = DEFAULT_FORMAT) -> Exported:
    """Write the package as a .zip at `output` (atomically: a temporary file renamed), in
    `version` (2023-07 or legacy)."""
    if version not in FORMATS:
        raise JudgeError(f"unknown package format {version!r} (known: {', '.join(FORMATS)})")
    if not kinds.of(problem).in_packages:
        raise JudgeError(
            f"{problem.spec_path}: the ICPC package format has no problems of kind {problem.kind}; nothing exported"
        )
    if output.suffix.lower() != ".zip":
        raise JudgeError(f"{output}: the package is written as a .zip file")
    if not output.parent.is_dir():
        raise JudgeError(f"{output.parent}: no such folder")
    notes: list[str] = []
    if version == "legacy" and _scoring(problem):
        notes.append(
            "points and per-case scoring are not in the legacy package, which is pass-fail: kept in judge.yaml"
        )
    with tempfile.TemporaryDirectory(prefix="judge-export-") as work:
        package = Path(work) / shortname(problem.id)
        package.mkdir()
        meta = _metadata(problem, notes, version)
        checker_fields, checker_flags = _checker(problem, package, notes, version)
        meta.update(checker_fields)
        (package / "problem.yaml").write_text(
            f"# Exported by `judge export` from the problem {problem.id}.\n"
            + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True),
            encoding="utf-8",
        )
        _statement(problem, package, version)
        cases = _data(problem, package, version, checker_flags)
        _validators(problem, package)
        if version != "legacy":
            _generators(problem, package)
        submissions, moved = _submissions(problem, package, notes)
        # What only this judge reads back: its spec whole, the problem's own files, the
        # solutions' own folders; and, for judges of before the spec was kept, the factors
        # and the feedback level on their own.
        extra: dict[str, object] = {}
        if problem.spec.limits.time_multipliers:
            extra[JUDGE_TIME_MULTIPLIERS] = dict(problem.spec.limits.time_multipliers)
        if problem.spec.feedback != "groups":  # what students see of the secret cases
            extra[JUDGE_FEEDBACK] = problem.spec.feedback
        extra[JUDGE_SPEC] = yaml.safe_load(problem.spec_path.read_text(encoding="utf-8"))
        if moved:
            extra[JUDGE_SOLUTIONS] = moved
        (package / JUDGE_FILE).write_text(
            "# This judge's own: an import by it gives back the same problem.\n"
            + yaml.safe_dump(extra, sort_keys=False, allow_unicode=True),
            encoding="utf-8",
        )
        _own_files(problem, package)
        write_zip(output, package, package.parent)
    return Exported(output, cases, submissions, tuple(notes))
