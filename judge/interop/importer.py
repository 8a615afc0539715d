"""`judge import PACKAGE`: an ICPC/Kattis problem package (legacy, 2023-07-draft or 2025-09,
a folder or a .zip) becomes a problem folder the judge owns.

The package is unpacked into a staging folder first (judge.interop.unpack refuses what is
unsafe), mapped onto the judge's spec there, its programs built in the sandbox, its tests
made and, when the package states no time limit, its accepted submissions run to derive
one as the format says. Only then is the folder renamed into the problems folder: a bad
package writes nothing. What cannot be imported is named, one line each.
"""

from __future__ import annotations

import math
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Required, TypedDict, cast

import yaml

from judge.errors import JudgeError
from judge.interop.gradescope import autograder_in
from judge.interop.package import (
    DEFAULT_MEMORY_MIB,
    JUDGE_FOLDER,
    GroupConfig,
    JudgeExtras,
    Metadata,
    PackageLimits,
    parse_extras,
    parse_group_config,
    parse_metadata,
)
from judge.interop.unpack import PackageError, copy_folder, extract_zip, package_root
from judge.problem import checkers
from judge.run import languages, lifecycle, programs, sources

# A package's verdict folder -> the judge's. DOMjudge's example packages add two of its own:
# no output at all is a wrong answer here (DOMjudge tells it apart as NO-OUTPUT).
VERDICT_FOLDERS = {
    "accepted": "accepted",
    "wrong_answer": "wrong_answer",
    "time_limit_exceeded": "time_limit_exceeded",
    "run_time_error": "run_time_error",
    "output_limit": "output_limit_exceeded",
    "no_output": "wrong_answer",
}
REFERENCE_ORDER = ("cpp", "c", "java", "python3")  # the fastest reference is the one kept
SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
DERIVE_CPU_S = 60.0  # the accepted submissions run under this while the limit is derived

Notify = Callable[[str], None]
if TYPE_CHECKING:
    from judge.author.making import TestCase


@dataclass(frozen=True)
class Imported:
    directory: Path
    problem_id: str
    format: str
    groups: int
    cases: int
    solutions: int
    time_limit_s: float
    time_limit_from: str
    notes: tuple[str, ...]  # what was not imported, one line each


class GroupOut(TypedDict, total=False):
    """A group of the problem.yaml written (judge.problem.spec.Group's keys)."""

    name: Required[str]
    visibility: Required[str]
    points: float
    scoring: str
    on_reject: str
    files: str
    validator_args: list[str]


class CheckerOut(TypedDict, total=False):
    type: Required[str]
    program: str
    args: list[str]
    abs_tol: float
    rel_tol: float
    case_sensitive: bool


class InteractorOut(TypedDict, total=False):
    program: Required[str]
    args: list[str]


class ToolLimitsOut(TypedDict):
    time_s: float
    memory_mib: int
    output_mib: float


class LimitsOut(TypedDict, total=False):
    time_s: Required[float]
    memory_mib: int
    output_mib: float
    compile_time_s: float
    compile_memory_mib: int
    programs: ToolLimitsOut
    time_multipliers: dict[str, float]


class SpecOut(TypedDict, total=False):
    """The problem.yaml an import writes (judge.problem.spec.ProblemSpec's keys)."""

    id: Required[str]
    title: str
    source: str
    statement: str
    license: str
    rights_owner: str
    credits: dict[str, list[str]]
    verdict_folders: str
    limits: LimitsOut
    feedback: str
    checker: CheckerOut
    interactor: InteractorOut
    reference: str
    validators: list[str]
    groups: list[GroupOut]


@dataclass(frozen=True)
class _Data:
    groups: list[GroupOut]
    checker_args: list[str]
    notes: list[str]


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-_")
    return slug[:64] or "problem"


def problem_id_for(package: Path) -> str:
    name = package.name[: -len(".zip")] if package.name.lower().endswith(".zip") else package.name
    return _slug(name)


def _refuse_kinds(meta: Metadata) -> None:
    if meta.version == "legacy":
        return
    unsupported = set(meta.kinds) & {"multi-pass", "submit-answer"}
    if unsupported:
        raise PackageError(f"problem.yaml: a {'/'.join(sorted(unsupported))} problem cannot be imported")


def _interactive(meta: Metadata) -> bool:
    """An interactive problem: legacy `validation: custom interactive`, or `type: interactive`."""
    return "interactive" in (meta.validation if meta.version == "legacy" else meta.kinds)


def _name(meta: Metadata, root: Path, statement: Path | None) -> str:
    if meta.name is not None:
        return meta.name
    if statement is not None and statement.suffix == ".tex":
        found = re.search(r"\\problemname\{([^}]*)\}", statement.read_text(encoding="utf-8", errors="replace"))
        if found and found.group(1).strip():
            return found.group(1).strip()
    return root.name


def _statement(root: Path, notes: list[str]) -> tuple[Path | None, str]:
    """The statement file to keep (Markdown preferred) and its place in the problem folder."""
    for folder in ("statement", "problem_statement"):
        base = root / folder
        if not base.is_dir():
            continue
        for pattern in (
            "problem.en.md",
            "problem.md",
            "problem.*.md",
            "problem.en.tex",
            "problem.tex",
            "problem.*.tex",
        ):
            found = sorted(base.glob(pattern))
            if found:
                return found[0], f"{folder}/{found[0].name}"
        found = sorted(p for p in base.iterdir() if p.is_file() and p.name.startswith("problem."))
        if found:
            return found[0], f"{folder}/{found[0].name}"
    notes.append("no statement found (statement/ or problem_statement/): a placeholder statement.md is written")
    return None, "statement.md"


def _data(root: Path, meta: Metadata) -> _Data:
    data = root / "data"
    secret = data / "secret"
    scoring_problem = "scoring" in meta.kinds
    top = parse_group_config(data, root)
    groups: list[GroupOut] = []
    checker_sets: set[tuple[str, ...]] = set()
    sample_checker_sets: set[tuple[str, ...]] = set()
    notes: list[str] = []
    names: set[str] = set()

    def visit(folder: Path, config: GroupConfig, public: bool) -> None:
        inputs = sorted(p for p in folder.glob("*.in") if p.is_file())
        if inputs:
            relative = folder.relative_to(data).as_posix()
            name = _slug(relative.replace("/", "-"))
            while name in names:
                name += "-x"
            names.add(name)
            group: GroupOut = {"name": name, "visibility": "public" if public else "secret"}
            if public:
                group["points"] = 0
            else:
                points, scoring = config.points_and_scoring(len(inputs))
                group["points"] = points if scoring_problem else 0.0
                group["scoring"] = scoring
            # The format's default is break; the names before "legacy" map onto its two.
            given = config.on_reject or "break"
            on_reject = {"first_error": "break", "worst_error": "continue", "grade": "continue"}.get(given, given)
            if on_reject not in ("break", "continue"):
                raise PackageError(f"data/{relative}: on_reject: {on_reject!r} is neither break nor continue")
            if not public:
                group["on_reject"] = on_reject
            group["files"] = f"data/{relative}"
            if config.input_args:
                group["validator_args"] = list(config.input_args)
            # The checker's arguments are those of the secret data (the samples' where there is none).
            (checker_sets if not public else sample_checker_sets).add(config.output_args)
            groups.append(group)
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            visit(sub, config.under(parse_group_config(sub, root)), public)

    if (data / "sample").is_dir():
        visit(data / "sample", top.under(parse_group_config(data / "sample", root)), True)
    if secret.is_dir():
        visit(secret, top.under(parse_group_config(secret, root)), False)
    if not any(g["visibility"] == "secret" for g in groups):
        _samples_as_tests(groups, notes)
        checker_sets = sample_checker_sets
    elif not scoring_problem:
        secret_groups = [g for g in groups if g["visibility"] == "secret"]
        share = round(100 / len(secret_groups), 4)
        for g in secret_groups:
            g["points"] = share
            g["scoring"] = "all"
    for path in sorted(data.rglob("*")):
        if path.is_file() and path.suffix not in (".in", ".ans", ".yaml") and not path.name.startswith("."):
            notes.append(f"{path.relative_to(root)}: not imported (test data here is .in and .ans files)")
    if len(checker_sets) > 1:
        notes.append("the groups give different output validator arguments; the judge uses those of the first group")
    checker_args = list(next(iter(sorted(checker_sets)), ()))
    if meta.version == "legacy":
        checker_args = list(meta.validator_flags) + checker_args
    return _Data(groups, checker_args, notes)


def _samples_as_tests(groups: list[GroupOut], notes: list[str]) -> None:
    """A package with no secret data (DOMjudge's own examples ship so): its samples are its
    tests, and carry its points; PackageError when it has no test data at all."""
    if not groups:
        raise PackageError("data/secret and data/sample: no .in files (a package needs test data)")
    share = round(100 / len(groups), 4)
    for group in groups:
        group["points"] = share
        group["scoring"] = "all"
    notes.append("data/secret: none in the package, so its samples are judged as its tests (as DOMjudge does)")


def _copy_program(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def _is_program(path: Path) -> str:
    """Why `path` is not a program the judge can build ("" when it is)."""
    table = languages.load()
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    known = [
        f for f in files if any(f.suffix.lower().lstrip(".") in lang.extensions for lang in table.languages.values())
    ]
    if not known:
        kinds = ", ".join(sorted({f.suffix or f.name for f in files})) or "no files"
        return f"not in a language the judge has ({kinds})"
    return ""


def _validators(root: Path, out: Path, notes: list[str]) -> list[str]:
    found: list[str] = []
    for folder in ("input_validators", "input_format_validators"):
        base = root / folder
        if not base.is_dir():
            continue
        for entry in sorted(base.iterdir()):
            if entry.name.startswith("."):
                continue
            relative = entry.relative_to(root)
            if entry.suffix in (".ctd", ".viva"):
                notes.append(f"{relative}: a {entry.suffix[1:]} validator, which the judge cannot run; not imported")
                continue
            why = _is_program(entry)
            if why:
                notes.append(f"{relative}: {why}; not imported")
                continue
            target = out / "validators" / entry.name
            _copy_program(entry, target)
            found.append(f"validators/{entry.name}")
    return found


def _output_validator(root: Path, out: Path, meta: Metadata) -> str | None:
    """The custom checker's place in the problem folder, or None for the default validator."""
    singular = root / "output_validator"
    entry: Path | None
    if singular.is_dir() and any(singular.iterdir()):
        entry = singular
    else:
        plural = root / "output_validators"
        entries = sorted(e for e in plural.iterdir() if not e.name.startswith(".")) if plural.is_dir() else []
        entry = entries[0] if entries else None
        if len(entries) > 1:
            raise PackageError("output_validators/: more than one output validator")
    interactive = _interactive(meta)
    custom = "custom" in meta.validation if meta.version == "legacy" else entry is not None
    if not custom and not interactive:
        return None
    if entry is None:
        what = "an interactive problem" if interactive else "validation: custom"
        raise PackageError(f"problem.yaml: {what}, but no output validator in output_validators/")
    why = _is_program(entry)
    if why:
        raise PackageError(f"{entry.relative_to(root)}: the output validator is {why}")
    # An interactive problem's output validator is its interactor.
    place = "interactor" if interactive else "checker"
    target = out / place / (entry.name if entry is not singular else "output_validator")
    _copy_program(entry, target)
    return target.relative_to(out).as_posix()


def _language_id(path: Path) -> str:
    """The language of a submission (a file or a folder of several), "" when the judge has none."""
    try:
        return sources.read(path, programs.PROGRAM_CAPS, build_scripts="ignore", guess_entry=True).language.id
    except JudgeError:
        return ""


def _submissions(root: Path, out: Path, notes: list[str]) -> list[tuple[str, Path]]:
    """Copy submissions/<verdict>/ into solutions/<verdict>/; (verdict, copied path) of each.
    A folder is one submission of several files, as in the package."""
    base = root / "submissions"
    copied: list[tuple[str, Path]] = []
    if not base.is_dir():
        return copied
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        if folder.name not in VERDICT_FOLDERS:
            for item in sorted(folder.iterdir()):
                notes.append(
                    f"{item.relative_to(root)}: the verdict folder {folder.name}/ has no judge equivalent; not imported"
                )
            continue
        if VERDICT_FOLDERS[folder.name] != folder.name:
            notes.append(f"submissions/{folder.name}/: DOMjudge's folder, imported as {VERDICT_FOLDERS[folder.name]}/")
        for item in sorted(folder.iterdir()):
            if item.name.startswith("."):
                continue
            relative = item.relative_to(root)
            try:
                program: sources.Sources | None = sources.read(
                    item, programs.PROGRAM_CAPS, build_scripts="ignore", guess_entry=True
                )
            except sources.NoLanguage:
                what = "its files" if item.is_dir() else f"'{item.suffix}'"
                notes.append(f"{relative}: no language for {what} here; copied, and verify skips it")
                program = None
            except JudgeError as err:
                notes.append(f"{str(err).replace(str(root) + '/', '')}; not imported")
                continue
            target = out / "solutions" / VERDICT_FOLDERS[folder.name] / item.name
            if target.exists():
                notes.append(f"{relative}: {target.relative_to(out)} is already taken by another; not imported")
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if item.is_dir():
                shutil.copytree(item, target)
            else:
                shutil.copyfile(item, target)
            missing = program.language.missing() if program is not None else ""
            if missing:
                notes.append(f"{relative}: skipped: {missing}; copied, and verify skips it")
            elif program is not None:
                # ICPC has no compile-error folder: what does not compile here (Python 2, a
                # compiler extension) is left out, said so, rather than failing verify.
                try:
                    programs.load_and_build(target, DEFAULT_MEMORY_MIB)
                except JudgeError as err:
                    shutil.rmtree(target) if target.is_dir() else target.unlink()
                    why = str(err).split(": does not compile: ", 1)[-1]
                    notes.append(f"{relative}: does not compile here ({why[:120]}); not imported")
                    continue
            copied.append((VERDICT_FOLDERS[folder.name], target))
    return copied


def _reference(copied: list[tuple[str, Path]]) -> Path:
    accepted = []
    for verdict, path in copied:
        language = _language_id(path)
        if verdict != "accepted" or not language or languages.load().by_id(language).missing():
            continue
        accepted.append((REFERENCE_ORDER.index(language) if language in REFERENCE_ORDER else 99, path.name, path))
    if not accepted:
        raise PackageError("submissions/accepted: no accepted submission in a language the judge has (the reference)")
    return min(accepted)[2]


def import_package(
    package: Path,
    problems_dir: Path,
    problem_id: str | None = None,
    jobs: int = 1,
    notify: Notify | None = None,
    reference: Path | None = None,
) -> Imported:
    """A problem made of an ICPC/Kattis package, or of a Gradescope autograder (`reference`:
    the solution a student would submit, which an autograder does not hold)."""
    if not package.exists():
        raise PackageError(f"{package}: no such package (a folder or a .zip)")
    problem_id = problem_id or problem_id_for(package)
    if not SLUG.match(problem_id) or len(problem_id) > 64:
        raise PackageError(f"{problem_id!r}: not a problem id (lower-case letters, digits, '-', '_'); pass --id")
    if not problems_dir.is_dir():
        raise PackageError(f"{problems_dir}: no such problems folder")
    final = problems_dir / problem_id
    if final.exists():
        raise PackageError(f"{final}: already exists; pass --id to choose another id")
    # Held by this process (its lock in the temporary folder), so that a later import clears
    # what a killed one left and never what a running one is staging.
    lifecycle.remove_stale(problems_dir, locks=Path(tempfile.gettempdir()))
    staging = lifecycle.make_temp_dir("import", problems_dir)
    try:
        unpacked = staging / "package"
        unpacked.mkdir()
        if package.is_dir():
            copy_folder(package, unpacked)
        elif package.suffix.lower() == ".zip":
            extract_zip(package, unpacked)
        else:
            raise PackageError(f"{package}: a package is a folder or a .zip file")
        out = staging / problem_id
        out.mkdir()
        grader = autograder_in.autograder_root(unpacked)
        if grader is not None:
            imported = _map_autograder(grader, out, package, problem_id, reference, jobs, notify)
        elif reference is not None:
            raise PackageError("--reference is for a Gradescope autograder (a package has its own solutions)")
        else:
            imported = _map(package_root(unpacked), out, package, problem_id, jobs, notify)
        out.rename(final)
        return replace(imported, directory=final)
    except PackageError as err:
        raise PackageError(f"{package}: {err}" if not str(err).startswith(str(package)) else str(err)) from None
    finally:
        lifecycle.remove_dir(staging)


AUTOGRADER_TIME_S = 5.0  # a test's CPU time: an autograder states none of its own


def _map_autograder(
    root: Path, out: Path, package: Path, problem_id: str, reference: Path | None, jobs: int, notify: Notify | None
) -> Imported:
    """A Gradescope autograder as a unit-test problem: its tests, the files students submit,
    and the solution given beside it."""
    notes: list[str] = []
    files = autograder_in.student_files(root)
    if reference is None:
        raise PackageError("a Gradescope autograder holds no solution: pass --reference FILE (what a student submits)")
    if not reference.exists():
        raise PackageError(f"--reference {reference}: no such file or folder")
    if not autograder_in.copy_tests(root, out, notes):
        raise PackageError(f"no test files (test*.py) in {autograder_in.tests_folder(root).name}/")
    autograder_in.left_out(root, notes)
    accepted = out / "solutions" / "accepted"
    accepted.mkdir(parents=True)
    if reference.is_dir():
        shutil.copytree(reference, accepted / reference.name)
        target = accepted / reference.name
    else:
        target = accepted / (files[0] if len(files) == 1 else reference.name)
        shutil.copyfile(reference, target)
    (out / "statement.md").write_text(
        f"# {problem_id}\n\nImported from a Gradescope autograder: write {', '.join(files)}.\n", encoding="utf-8"
    )
    spec = {
        "id": problem_id,
        "title": problem_id,
        "source": f"imported from the Gradescope autograder {package.name}",
        "kind": "unit",
        "unit": {
            "framework": "unittest",
            "student_files": files,
            "tests": "unit",
            "per_test_time_s": AUTOGRADER_TIME_S,
            "default_points": autograder_in.UNWEIGHTED_POINTS,
        },
        "reference": target.relative_to(out).as_posix(),
        "limits": {"time_s": AUTOGRADER_TIME_S, "memory_mib": 512},
    }
    header = (
        "# yaml-language-server: $schema=../problem.schema.json\n"
        f"# Imported by `judge import` from the Gradescope autograder {package.name}.\n"
    )
    body = yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=120)
    (out / "problem.yaml").write_text(header + body, encoding="utf-8")
    cases = _make_tests(out, jobs, notify)
    said = "the judge's default for an autograder, which states none"
    return Imported(out, problem_id, "Gradescope", len(cases), len(cases), 1, AUTOGRADER_TIME_S, said, tuple(notes))


def _map(root: Path, out: Path, package: Path, problem_id: str, jobs: int, notify: Notify | None) -> Imported:
    from judge.grade.feedback import LEVELS

    meta = parse_metadata(root)
    _refuse_kinds(meta)
    extras = parse_extras(root, tuple(languages.load().languages), LEVELS)
    if extras.spec is not None:
        return _map_own(root, out, problem_id, meta, extras, jobs, notify)
    notes: list[str] = []
    data = _data(root, meta)
    notes += data.notes
    shutil.copytree(root / "data", out / "data", ignore=shutil.ignore_patterns("*.yaml"))
    validators = _validators(root, out, notes)
    if not validators:
        notes.append("no input validator the judge can run: the inputs are checked by nothing but the tests' own files")
    checker_path = _output_validator(root, out, meta)
    checker: CheckerOut
    interactor: InteractorOut | None = None
    if checker_path is not None and _interactive(meta):
        interactor = {"program": checker_path}
        if data.checker_args:
            interactor["args"] = data.checker_args
        checker = {"type": "tokens"}
    elif checker_path is not None:
        checker = {"type": "custom", "program": checker_path}
        if data.checker_args:
            checker["args"] = data.checker_args
    else:
        builtin, flag_notes = checkers.from_package_flags(data.checker_args)
        checker = cast(CheckerOut, builtin.model_dump())
        notes += flag_notes
    copied = _submissions(root, out, notes)
    reference = _reference(copied)
    statement_file, statement_place = _statement(root, notes)
    if statement_file is not None:
        shutil.copytree(statement_file.parent, out / Path(statement_place).parent)
    else:
        (out / "statement.md").write_text(f"# {problem_id}\n\n(The package had no statement.)\n", encoding="utf-8")
    for item in ("attachments", "include", "graders", "static_validator", "input_visualizer", "output_visualizer"):
        if (root / item).exists():
            notes.append(f"{item}/: not imported (the judge has no use for it)")
    spec: SpecOut = {
        "id": problem_id,
        "title": _name(meta, root, statement_file),
        "source": "; ".join(meta.sources) or f"imported from the package {package.name}",
        "statement": statement_place,
    }
    if meta.license:
        spec["license"] = meta.license
    if meta.rights_owner:
        spec["rights_owner"] = meta.rights_owner
    if meta.credits:
        spec["credits"] = {role: list(people) for role, people in meta.credits}
    spec["verdict_folders"] = "icpc"
    spec["limits"] = _limits_out(meta.limits, extras)
    if extras.feedback is not None:
        spec["feedback"] = extras.feedback
    if interactor is not None:
        spec["interactor"] = interactor
    else:
        spec["checker"] = checker
    spec["reference"] = reference.relative_to(out).as_posix()
    if validators:
        spec["validators"] = validators
    spec["groups"] = data.groups
    _write_spec(out, spec, meta.version, package.name)
    cases = _make_tests(out, jobs, notify)
    limits = meta.limits
    if limits.time_limit is not None:
        time_limit, origin = limits.time_limit, "the package"
    else:
        slowest = _slowest_accepted(out, copied, jobs, notify)
        exact = slowest * limits.multiplier
        resolution = limits.resolution
        time_limit = max(1.0, math.ceil(exact / resolution - 1e-9)) * resolution if resolution else exact
        if time_limit > 60:
            raise PackageError(
                f"the slowest accepted submission needs {slowest:.2f} s: a limit of {time_limit:g} s, over 60"
            )
        origin = f"the accepted submissions (slowest {slowest:.2f} s x {limits.multiplier:g}, rounded up to {resolution:g} s)"
        spec["limits"]["time_s"] = time_limit
        _write_spec(out, spec, meta.version, package.name)
    return Imported(
        out, problem_id, meta.version, len(data.groups), len(cases), len(copied), time_limit, origin, tuple(notes)
    )


def _map_own(
    root: Path, out: Path, problem_id: str, meta: Metadata, extras: JudgeExtras, jobs: int, notify: Notify | None
) -> Imported:
    """A package this judge exported: the spec whole from judge.yaml (groups, their names, order,
    points and scoring, generators, limits), the problem's own files from judge/, the solutions
    from submissions/ back in their own folders; the tests made again by the spec."""
    from judge.author.expectations import FOLDERS

    assert extras.spec is not None
    notes: list[str] = []
    own = root / JUDGE_FOLDER
    if own.is_dir():
        shutil.copytree(own, out, dirs_exist_ok=True)
    copied = _submissions(root, out, notes)
    for where, folder in extras.solutions.items():
        moved = out / "solutions" / where
        if folder in FOLDERS and moved.exists():
            (out / "solutions" / folder).mkdir(parents=True, exist_ok=True)
            moved.rename(out / "solutions" / folder / moved.name)
    header = (
        "# yaml-language-server: $schema=../problem.schema.json\n"
        f"# Imported by `judge import` from a package this judge exported ({meta.version} format).\n"
    )
    spec = {**extras.spec, "id": problem_id}
    (out / "problem.yaml").write_text(
        header + yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8"
    )
    cases = _make_tests(out, jobs, notify)
    from judge.kinds.table import load_problem

    loaded = load_problem(out)
    notes.append("the judge's own spec, files and solution folders came back from judge.yaml and judge/")
    return Imported(
        out,
        problem_id,
        meta.version,
        len(loaded.spec.groups),
        len(cases),
        len(copied),
        loaded.spec.limits.time_s,
        "the judge's own spec (judge.yaml)",
        tuple(notes),
    )


def _limits_out(limits: PackageLimits, extras: JudgeExtras) -> LimitsOut:
    found: LimitsOut = {
        "time_s": limits.time_limit if limits.time_limit is not None else DERIVE_CPU_S,
        "memory_mib": limits.memory_mib,
        "output_mib": limits.output_mib,
        "compile_time_s": limits.compile_time_s,
        "compile_memory_mib": limits.compile_memory_mib,
        "programs": {
            "time_s": limits.tool_time_s,
            "memory_mib": limits.tool_memory_mib,
            "output_mib": limits.tool_output_mib,
        },
    }
    if extras.time_multipliers:
        found["time_multipliers"] = dict(extras.time_multipliers)
    return found


def _write_spec(out: Path, spec: SpecOut, version: str, package_name: str) -> None:
    header = (
        "# yaml-language-server: $schema=../problem.schema.json\n"
        f"# Imported by `judge import` from {package_name} ({version} format).\n"
    )
    body = yaml.safe_dump(dict(spec), sort_keys=False, allow_unicode=True, width=120)
    (out / "problem.yaml").write_text(header + body, encoding="utf-8")


def _make_tests(out: Path, jobs: int, notify: Notify | None) -> list[TestCase]:
    from judge.author import making
    from judge.kinds.table import load_problem
    from judge.problem.spec import SpecError

    try:
        problem = load_problem(out)
    except SpecError as err:
        first = str(err).splitlines()[0].replace(str(out) + "/", "")
        raise PackageError(f"the package maps to a spec the judge refuses: {first}") from None
    try:
        from judge.problem.tables import TableStore

        # A built-in reference (a judge's own export of a puzzle) needs its distance tables.
        store = TableStore(notify=notify) if problem.builtin else None
        cases = making.generate(problem, store, jobs, notify)
    except JudgeError as err:
        raise PackageError(str(err).replace(str(out) + "/", "")) from None
    making.write(problem, cases)
    return cases


def _slowest_accepted(out: Path, copied: list[tuple[str, Path]], jobs: int, notify: Notify | None) -> float:
    """The most CPU time any accepted submission needs on any case: each runs once, `jobs`
    at a time, as verify runs solutions (the spec holds the 60 s ceiling meanwhile)."""
    from judge.author import verify
    from judge.author.expectations import Expectation
    from judge.run.verdicts import Verdict

    accepted = []
    for folder, path in copied:
        if not _language_id(path):
            continue  # a language the judge lacks: named already
        if folder == "accepted":
            accepted.append(verify.Solution(path, folder, Expectation(frozenset({Verdict.AC}), 0)))
    if notify is not None:
        notify(f"running {len(accepted)} accepted submission(s) to derive the time limit")
    runs = verify.run_all([(out, solution) for solution in accepted], jobs)
    slowest = 0.0
    for solution in accepted:
        run = runs[solution.path]
        if run.error or run.skipped:
            continue  # no toolchain for it here: named already
        failed = next((c for c in run.cases if c.verdict is not Verdict.AC), None)
        if not run.compiled or failed is not None:
            got = failed.verdict.value if failed is not None else "CE"
            raise PackageError(
                f"submissions/accepted/{solution.path.name}: gets {got} on the package's own data"
                " (so no time limit can be derived from it)"
            )
        slowest = max([slowest, *(c.cpu_s for c in run.cases)])
    return slowest
