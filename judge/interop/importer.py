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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from judge.errors import JudgeError
from judge.interop.unpack import PackageError, copy_folder, extract_zip, package_root
from judge.run import languages, lifecycle, programs

FORMATS = ("legacy", "2023-07-draft", "2025-09")
VERDICT_FOLDERS = ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error")
REFERENCE_ORDER = ("cpp", "c", "java", "python3")  # the fastest reference is the one kept
SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# The format's defaults (problemtools' config) where the package says nothing.
DEFAULT_MEMORY_MIB = 1024
DEFAULT_OUTPUT_MIB = 8
LEGACY_MULTIPLIER = 5.0  # legacy: time_multiplier
NEW_MULTIPLIER = 2.0  # 2023-07 and later: time_multipliers.ac_to_time_limit
DERIVE_CPU_S = 60.0  # the accepted submissions run under this while the limit is derived

Notify = Callable[[str], None]


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


@dataclass(frozen=True)
class _Data:
    groups: list[dict[str, Any]]
    checker_args: list[str]
    notes: list[str]


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-_")
    return slug[:64] or "problem"


def problem_id_for(package: Path) -> str:
    name = package.name[: -len(".zip")] if package.name.lower().endswith(".zip") else package.name
    return _slug(name)


def _load_yaml(path: Path, root: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise PackageError(f"{path.relative_to(root)}: cannot read: {err}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise PackageError(f"{path.relative_to(root)}{line}: not valid YAML ({getattr(err, 'problem', err)})") from None


def _words(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value]
    return str(value).split()


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PackageError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value


def _format_of(meta: Mapping[str, Any]) -> str:
    version = str(meta.get("problem_format_version", "legacy"))
    if version in ("legacy", "legacy-icpc"):
        return "legacy"
    if version in FORMATS:
        return version
    raise PackageError(
        f"problem.yaml: problem_format_version {version!r} is not one the judge reads ({', '.join(FORMATS)})"
    )


def _refuse_kinds(meta: Mapping[str, Any], version: str) -> None:
    if version == "legacy":
        validation = str(meta.get("validation", "default"))
        if "interactive" in validation.split():
            raise PackageError(
                "problem.yaml: an interactive problem (validation: custom interactive) cannot be imported"
            )
        return
    kinds = set(_words(meta.get("type", "pass-fail")))
    unsupported = kinds & {"interactive", "multi-pass", "submit-answer"}
    if unsupported:
        raise PackageError(f"problem.yaml: a {'/'.join(sorted(unsupported))} problem cannot be imported")


def _name(meta: Mapping[str, Any], root: Path, statement: Path | None) -> str:
    name = meta.get("name")
    if isinstance(name, dict) and name:
        name = name.get("en", next(iter(name.values())))
    if isinstance(name, str) and name.strip():
        return name.strip()
    if statement is not None and statement.suffix == ".tex":
        found = re.search(r"\\problemname\{([^}]*)\}", statement.read_text(encoding="utf-8", errors="replace"))
        if found and found.group(1).strip():
            return found.group(1).strip()
    return root.name


def _source(meta: Mapping[str, Any], package_name: str) -> str:
    source = meta.get("source")
    parts: list[str] = []
    for item in source if isinstance(source, list) else [source]:
        if isinstance(item, dict):
            text = " ".join(str(item[k]) for k in ("name", "url") if item.get(k))
        else:
            text = str(item) if item else ""
        if text:
            parts.append(text)
    if meta.get("source_url"):
        parts.append(str(meta["source_url"]))
    return "; ".join(parts) or f"imported from the package {package_name}"


def _credits(meta: Mapping[str, Any]) -> dict[str, list[str]]:
    credits: dict[str, list[str]] = {}
    if meta.get("author"):
        credits["authors"] = [a.strip() for a in re.split(r",| and ", str(meta["author"])) if a.strip()]
    given = meta.get("credits")
    if isinstance(given, str):
        credits["authors"] = [given]
    elif isinstance(given, dict):
        for role, people in given.items():
            if isinstance(people, dict):  # translators: language -> people
                people = [p for group in people.values() for p in (group if isinstance(group, list) else [group])]
            names = []
            for person in people if isinstance(people, list) else [people]:
                names.append(str(person.get("name", "")) if isinstance(person, dict) else str(person))
            credits[str(role)] = [n for n in names if n]
    return {role: names for role, names in credits.items() if names}


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


def _group_config(chain: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for config in chain:
        merged.update(config)
    return merged


def _config_at(folder: Path, root: Path) -> dict[str, Any]:
    for name in ("test_group.yaml", "testdata.yaml"):
        path = folder / name
        if path.is_file():
            return _mapping(_load_yaml(path, root), str(path.relative_to(root)))
    return {}


def _scored_group(config: Mapping[str, Any], cases: int, scoring_problem: bool) -> dict[str, Any]:
    """points and scoring of a group from testdata.yaml / test_group.yaml."""
    flags = _words(config.get("grader_flags"))
    aggregation = str(config.get("aggregation", "")) or ("min" if "min" in flags else "sum")
    score = config.get("score", config.get("accept_score", 1))
    try:
        per_case = float(score)
    except (TypeError, ValueError):
        per_case = 1.0
    points = per_case if aggregation == "min" else per_case * cases
    bounds = _words(config.get("range"))
    if len(bounds) == 2:
        try:
            high = float(bounds[1])
            if math.isfinite(high):
                points = min(points, high) if aggregation == "min" else high
        except ValueError:
            pass
    if not scoring_problem:
        points = 0.0
    return {"points": round(max(points, 0.0), 4), "scoring": "all" if aggregation == "min" else "per_case"}


def _data(root: Path, meta: Mapping[str, Any], version: str) -> _Data:
    data = root / "data"
    secret = data / "secret"
    if not secret.is_dir():
        raise PackageError("data/secret: missing (a package needs its secret test data)")
    scoring_problem = "scoring" in _words(meta.get("type", "pass-fail"))
    top = _config_at(data, root)
    groups: list[dict[str, Any]] = []
    checker_sets: set[tuple[str, ...]] = set()
    notes: list[str] = []
    names: set[str] = set()

    def visit(folder: Path, chain: list[dict[str, Any]], public: bool) -> None:
        config = _group_config(chain)
        inputs = sorted(p for p in folder.glob("*.in") if p.is_file())
        if inputs:
            relative = folder.relative_to(data).as_posix()
            name = _slug(relative.replace("/", "-"))
            while name in names:
                name += "-x"
            names.add(name)
            group: dict[str, Any] = {"name": name, "visibility": "public" if public else "secret"}
            if public:
                group["points"] = 0
            else:
                group.update(_scored_group(config, len(inputs), scoring_problem))
            # The format's default is break; the names before "legacy" map onto its two.
            on_reject = {"first_error": "break", "worst_error": "continue", "grade": "continue"}.get(
                str(config.get("on_reject", "break")), str(config.get("on_reject", "break"))
            )
            if on_reject not in ("break", "continue"):
                raise PackageError(f"data/{relative}: on_reject: {on_reject!r} is neither break nor continue")
            if not public:
                group["on_reject"] = on_reject
            group["files"] = f"data/{relative}"
            args = config.get("input_validator_args", config.get("input_validator_flags"))
            if _words(args):
                group["validator_args"] = _words(args)
            out_args = config.get("output_validator_args", config.get("output_validator_flags"))
            if not public:  # the checker's arguments are those of the secret data
                checker_sets.add(tuple(_words(out_args)))
            groups.append(group)
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            visit(sub, [*chain, _config_at(sub, root)], public)

    if (data / "sample").is_dir():
        visit(data / "sample", [top, _config_at(data / "sample", root)], True)
    visit(secret, [top, _config_at(secret, root)], False)
    if not any(g["visibility"] == "secret" for g in groups):
        raise PackageError("data/secret: no .in files (a package needs its secret test data)")
    if not scoring_problem:
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
    if version == "legacy":
        checker_args = _words(meta.get("validator_flags")) + checker_args
    return _Data(groups, checker_args, notes)


def _builtin_checker(flags: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The default output validator's flags as one of the judge's checkers."""
    notes: list[str] = []
    case_sensitive = "case_sensitive" in flags
    absolute = relative = None
    i = 0
    while i < len(flags):
        flag = flags[i]
        if flag in ("float_tolerance", "float_absolute_tolerance", "float_relative_tolerance") and i + 1 < len(flags):
            try:
                value = float(flags[i + 1])
            except ValueError:
                notes.append(f"validator flag {flag} {flags[i + 1]}: not a number, ignored")
                i += 2
                continue
            if flag in ("float_tolerance", "float_absolute_tolerance"):
                absolute = value
            if flag in ("float_tolerance", "float_relative_tolerance"):
                relative = value
            i += 2
            continue
        if flag not in ("case_sensitive", "space_change_sensitive"):
            notes.append(f"default validator flag {flag!r}: not known, ignored")
        i += 1
    if absolute is not None or relative is not None:
        if "space_change_sensitive" in flags:
            notes.append("space_change_sensitive with a float tolerance: whitespace is not checked")
        return {
            "type": "float",
            "abs_tol": absolute or 0.0,
            "rel_tol": relative or 0.0,
            "case_sensitive": case_sensitive,
        }, notes
    if "space_change_sensitive" in flags:
        if not case_sensitive:
            notes.append("space_change_sensitive without case_sensitive: compared exactly, case included")
        return {"type": "exact"}, notes
    return {"type": "tokens", "case_sensitive": case_sensitive}, notes


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


def _output_validator(root: Path, out: Path, meta: Mapping[str, Any], version: str) -> str | None:
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
    custom = "custom" in _words(meta.get("validation", "default")) if version == "legacy" else entry is not None
    if not custom:
        return None
    if entry is None:
        raise PackageError("problem.yaml: validation: custom, but no output validator in output_validators/")
    why = _is_program(entry)
    if why:
        raise PackageError(f"{entry.relative_to(root)}: the output validator is {why}")
    target = out / "checker" / (entry.name if entry is not singular else "output_validator")
    _copy_program(entry, target)
    return target.relative_to(out).as_posix()


def _submissions(root: Path, out: Path, notes: list[str]) -> list[tuple[str, Path]]:
    """Copy submissions/<verdict>/ into solutions/<verdict>/; (verdict, copied path) of each."""
    base = root / "submissions"
    copied: list[tuple[str, Path]] = []
    if not base.is_dir():
        return copied
    table = languages.load()
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        if folder.name not in VERDICT_FOLDERS:
            for item in sorted(folder.iterdir()):
                notes.append(
                    f"{item.relative_to(root)}: the verdict folder {folder.name}/ has no judge equivalent; not imported"
                )
            continue
        for item in sorted(folder.iterdir()):
            if item.name.startswith("."):
                continue
            relative = item.relative_to(root)
            source = item
            if item.is_dir():
                files = [p for p in item.rglob("*") if p.is_file()]
                if len(files) != 1:
                    notes.append(f"{relative}: a submission of {len(files)} files; the judge runs one-file submissions")
                    continue
                source = files[0]
            target = out / "solutions" / folder.name / source.name
            if target.exists():
                target = target.with_name(f"{item.name}-{source.name}")
            try:
                table.detect(source)
            except JudgeError:
                notes.append(f"{relative}: no language for '{source.suffix}' here; copied, and verify skips it")
                known = False
            else:
                known = True
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            if known:
                # ICPC has no compile-error folder: what does not compile here (Python 2, a
                # compiler extension) is left out, said so, rather than failing verify.
                try:
                    programs.load_and_build(target, DEFAULT_MEMORY_MIB)
                except JudgeError as err:
                    target.unlink()
                    why = str(err).split(": does not compile: ", 1)[-1]
                    notes.append(f"{relative}: does not compile here ({why[:120]}); not imported")
                    continue
            copied.append((folder.name, target))
    return copied


def _reference(copied: list[tuple[str, Path]]) -> Path:
    table = languages.load()
    accepted = []
    for verdict, path in copied:
        if verdict != "accepted":
            continue
        try:
            language = table.detect(path).id
        except JudgeError:
            continue
        accepted.append((REFERENCE_ORDER.index(language) if language in REFERENCE_ORDER else 99, path.name, path))
    if not accepted:
        raise PackageError("submissions/accepted: no accepted submission in a language the judge has (the reference)")
    return min(accepted)[2]


def _limits(meta: Mapping[str, Any], root: Path, version: str) -> tuple[dict[str, Any], float | None, float, float]:
    given = _mapping(meta.get("limits"), "problem.yaml: limits")

    def number(key: str, default: float) -> float:
        value = given.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise PackageError(f"problem.yaml: limits.{key}: expected a positive number, got {value!r}")
        return float(value)

    limits: dict[str, Any] = {
        "memory_mib": int(number("memory", DEFAULT_MEMORY_MIB)),
        "output_mib": number("output", DEFAULT_OUTPUT_MIB),
        "compile_time_s": min(120.0, number("compilation_time", 60)),
        "compile_memory_mib": int(number("compilation_memory", DEFAULT_MEMORY_MIB)),
        "programs": {
            "time_s": min(600.0, number("validation_time", 60)),
            "memory_mib": int(number("validation_memory", DEFAULT_MEMORY_MIB)),
            "output_mib": min(1024.0, number("validation_output", DEFAULT_OUTPUT_MIB)),
        },
    }
    fixed: float | None = None
    if version == "legacy":
        multiplier = number("time_multiplier", LEGACY_MULTIPLIER)
        resolution = 1.0
        dot = root / ".timelimit"  # DOMjudge's and Kattis' file beside problem.yaml
        if dot.is_file():
            try:
                fixed = float(dot.read_text().strip())
            except ValueError:
                raise PackageError(f".timelimit: not a number: {dot.read_text()[:20]!r}") from None
    else:
        multipliers = _mapping(given.get("time_multipliers"), "problem.yaml: limits.time_multipliers")
        multiplier = float(multipliers.get("ac_to_time_limit", NEW_MULTIPLIER))
        resolution = number("time_resolution", 1.0)
        if "time_limit" in given:
            fixed = number("time_limit", 1)
    ini = root / "domjudge-problem.ini"  # DOMjudge's own export names its limit here
    if fixed is None and ini.is_file():
        found = re.search(r"^\s*timelimit\s*=\s*['\"]?([0-9.]+)", ini.read_text(errors="replace"), re.MULTILINE)
        if found:
            fixed = float(found.group(1))
    if fixed is not None and not 0 < fixed <= 60:
        raise PackageError(f"problem.yaml: a time limit of {fixed:g} s; the judge takes up to 60 s")
    return limits, fixed, multiplier, resolution


def import_package(
    package: Path,
    problems_dir: Path,
    problem_id: str | None = None,
    jobs: int = 1,
    notify: Notify | None = None,
) -> Imported:
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
        root = package_root(unpacked)
        out = staging / problem_id
        out.mkdir()
        imported = _map(root, out, package, problem_id, jobs, notify)
        out.rename(final)
        return replace(imported, directory=final)
    except PackageError as err:
        raise PackageError(f"{package}: {err}" if not str(err).startswith(str(package)) else str(err)) from None
    finally:
        lifecycle.remove_dir(staging)


def _map(root: Path, out: Path, package: Path, problem_id: str, jobs: int, notify: Notify | None) -> Imported:
    meta = _load_yaml(root / "problem.yaml", root)
    meta = _mapping(meta, "problem.yaml")
    version = _format_of(meta)
    _refuse_kinds(meta, version)
    notes: list[str] = []
    data = _data(root, meta, version)
    notes += data.notes
    shutil.copytree(root / "data", out / "data", ignore=shutil.ignore_patterns("*.yaml"))
    validators = _validators(root, out, notes)
    if not validators:
        notes.append("no input validator the judge can run: the inputs are checked by nothing but the tests' own files")
    checker_path = _output_validator(root, out, meta, version)
    if checker_path is not None:
        checker: dict[str, Any] = {"type": "custom", "program": checker_path}
        if data.checker_args:
            checker["args"] = data.checker_args
    else:
        checker, flag_notes = _builtin_checker(data.checker_args)
        notes += flag_notes
    copied = _submissions(root, out, notes)
    reference = _reference(copied)
    statement_file, statement_place = _statement(root, notes)
    if statement_file is not None:
        shutil.copytree(statement_file.parent, out / Path(statement_place).parent)
    else:
        (out / "statement.md").write_text(f"# {problem_id}\n\n(The package had no statement.)\n", encoding="utf-8")
    limits, fixed, multiplier, resolution = _limits(meta, root, version)
    for item in ("attachments", "include", "graders", "static_validator", "input_visualizer", "output_visualizer"):
        if (root / item).exists():
            notes.append(f"{item}/: not imported (the judge has no use for it)")
    spec: dict[str, Any] = {
        "id": problem_id,
        "title": _name(meta, root, statement_file),
        "source": _source(meta, package.name),
        "statement": statement_place,
    }
    if meta.get("license"):
        spec["license"] = str(meta["license"])
    if meta.get("rights_owner"):
        spec["rights_owner"] = str(meta["rights_owner"])
    credits = _credits(meta)
    if credits:
        spec["credits"] = credits
    spec["verdict_folders"] = "icpc"
    extras = _own_extras(root)
    spec["limits"] = {"time_s": fixed if fixed is not None else DERIVE_CPU_S, **limits, **extras["limits"]}
    if "feedback" in extras:
        spec["feedback"] = extras["feedback"]
    spec["checker"] = checker
    spec["reference"] = reference.relative_to(out).as_posix()
    if validators:
        spec["validators"] = validators
    spec["groups"] = data.groups
    _write_spec(out, spec, version, package.name)
    cases = _make_tests(out, jobs, notify)
    if fixed is not None:
        time_limit, origin = fixed, "the package"
    else:
        slowest = _slowest_accepted(out, copied, jobs, notify)
        exact = slowest * multiplier
        time_limit = max(1.0, math.ceil(exact / resolution - 1e-9)) * resolution if resolution else exact
        if time_limit > 60:
            raise PackageError(
                f"the slowest accepted submission needs {slowest:.2f} s: a limit of {time_limit:g} s, over 60"
            )
        origin = f"the accepted submissions (slowest {slowest:.2f} s x {multiplier:g}, rounded up to {resolution:g} s)"
        spec["limits"]["time_s"] = time_limit
        _write_spec(out, spec, version, package.name)
    return Imported(
        out, problem_id, version, len(data.groups), len(cases), len(copied), time_limit, origin, tuple(notes)
    )


def _own_extras(root: Path) -> dict[str, Any]:
    """What a package exported by this judge keeps in judge.yaml: per-language time factors
    (under "limits") and the feedback level."""
    from judge.grade.feedback import LEVELS
    from judge.interop.exporter import JUDGE_FEEDBACK, JUDGE_FILE, JUDGE_TIME_MULTIPLIERS

    path = root / JUDGE_FILE
    if not path.is_file():
        return {"limits": {}}
    extras = _mapping(_load_yaml(path, root), JUDGE_FILE)
    factors = _mapping(extras.get(JUDGE_TIME_MULTIPLIERS), f"{JUDGE_FILE}: {JUDGE_TIME_MULTIPLIERS}")
    known = languages.load().languages
    for language, factor in factors.items():
        if language not in known or isinstance(factor, bool) or not isinstance(factor, int | float):
            raise PackageError(
                f"{JUDGE_FILE}: {JUDGE_TIME_MULTIPLIERS}: {language}: {factor!r} is not a factor of a known language"
            )
    found: dict[str, Any] = {
        "limits": {"time_multipliers": {k: float(v) for k, v in factors.items()}} if factors else {}
    }
    level = extras.get(JUDGE_FEEDBACK)
    if level is not None:
        if level not in LEVELS:
            raise PackageError(f"{JUDGE_FILE}: {JUDGE_FEEDBACK}: {level!r} is not one of {', '.join(LEVELS)}")
        found["feedback"] = level
    return found


def _write_spec(out: Path, spec: Mapping[str, Any], version: str, package_name: str) -> None:
    header = (
        "# yaml-language-server: $schema=../problem.schema.json\n"
        f"# Imported by `judge import` from {package_name} ({version} format).\n"
    )
    body = yaml.safe_dump(dict(spec), sort_keys=False, allow_unicode=True, width=120)
    (out / "problem.yaml").write_text(header + body, encoding="utf-8")


def _make_tests(out: Path, jobs: int, notify: Notify | None) -> list[Any]:
    from judge.problem import testdata
    from judge.problem.spec import SpecError, load_problem

    try:
        problem = load_problem(out)
    except SpecError as err:
        first = str(err).splitlines()[0].replace(str(out) + "/", "")
        raise PackageError(f"the package maps to a spec the judge refuses: {first}") from None
    try:
        cases = testdata.generate(problem, None, jobs, notify)
    except JudgeError as err:
        raise PackageError(str(err).replace(str(out) + "/", "")) from None
    testdata.write(problem, cases)
    return cases


def _slowest_accepted(out: Path, copied: list[tuple[str, Path]], jobs: int, notify: Notify | None) -> float:
    """The most CPU time any accepted submission needs on any case: each runs once, `jobs`
    at a time, as verify runs solutions (the spec holds the 60 s ceiling meanwhile)."""
    from judge.grade import verify
    from judge.problem.expectations import Expectation
    from judge.run.verdicts import Verdict

    table = languages.load()
    accepted = []
    for folder, path in copied:
        try:
            table.detect(path)
        except JudgeError:
            continue  # a language the judge lacks: named already
        if folder == "accepted":
            accepted.append(verify.Solution(path, folder, Expectation(frozenset({Verdict.AC}), 0)))
    if notify is not None:
        notify(f"running {len(accepted)} accepted submission(s) to derive the time limit")
    runs = verify.run_all([(out, solution) for solution in accepted], jobs)
    slowest = 0.0
    for solution in accepted:
        run = runs[solution.path]
        if run.error:
            continue  # no toolchain for it here
        failed = next((c for c in run.cases if c.verdict is not Verdict.AC), None)
        if not run.compiled or failed is not None:
            got = failed.verdict.value if failed is not None else "CE"
            raise PackageError(
                f"submissions/accepted/{solution.path.name}: gets {got} on the package's own data"
                " (so no time limit can be derived from it)"
            )
        slowest = max([slowest, *(c.cpu_s for c in run.cases)])
    return slowest
