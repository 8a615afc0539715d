"""An ICPC/Kattis package's own files, parsed into typed records before anything is mapped:
problem.yaml (legacy, 2023-07-draft, 2025-09), the testdata.yaml / test_group.yaml of each
data folder, the time limit files other judges leave (.timelimit, domjudge-problem.ini),
and the judge.yaml this judge's own export writes. This is the one place that reads the
YAML's loose values (a word or a list, a number or a string); the importer maps records.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import yaml

from judge.interop.unpack import PackageError

FORMATS = ("legacy", "2023-07-draft", "2025-09")
# The format's defaults (problemtools' config) where the package says nothing.
DEFAULT_MEMORY_MIB = 1024
DEFAULT_OUTPUT_MIB = 8
LEGACY_MULTIPLIER = 5.0  # legacy: time_multiplier
NEW_MULTIPLIER = 2.0  # 2023-07 and later: time_multipliers.ac_to_time_limit


def load_yaml(path: Path, root: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise PackageError(f"{path.relative_to(root)}: cannot read: {err}") from None
    try:
        loaded: object = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise PackageError(f"{path.relative_to(root)}{line}: not valid YAML ({getattr(err, 'problem', err)})") from None
    return loaded


def words(value: object) -> tuple[str, ...]:
    """A list of words, given as a list or as one string (both are seen in packages)."""
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return tuple(str(value).split())


def mapping(value: object, where: str) -> dict[str, object]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PackageError(f"{where}: expected a mapping, got {type(value).__name__}")
    return {str(k): v for k, v in value.items()}


def _text(value: object) -> str | None:
    return str(value) if value else None


@dataclass(frozen=True)
class PackageLimits:
    """problem.yaml's limits, the format's defaults filled in; time_limit None when the
    package names none (the accepted submissions then set it)."""

    memory_mib: int
    output_mib: float
    compile_time_s: float
    compile_memory_mib: int
    tool_time_s: float  # validation_time: the validators' and checker's
    tool_memory_mib: int
    tool_output_mib: float
    multiplier: float  # the slowest accepted submission's time times this is the limit
    resolution: float  # the limit is rounded up to a multiple of this
    time_limit: float | None


@dataclass(frozen=True)
class Metadata:
    version: str  # one of FORMATS
    kinds: tuple[str, ...]  # type: pass-fail, scoring, interactive, ...
    validation: tuple[str, ...]  # legacy: default, custom, interactive, score
    validator_flags: tuple[str, ...]  # legacy: the default or custom validator's
    name: str | None  # the English name, else the first
    sources: tuple[str, ...]  # each source, its name and URL joined
    license: str | None
    rights_owner: str | None
    credits: tuple[tuple[str, tuple[str, ...]], ...]  # role -> people, in the package's order
    limits: PackageLimits


def _version(raw: dict[str, object]) -> str:
    version = str(raw.get("problem_format_version", "legacy"))
    if version in ("legacy", "legacy-icpc"):
        return "legacy"
    if version in FORMATS:
        return version
    raise PackageError(
        f"problem.yaml: problem_format_version {version!r} is not one the judge reads ({', '.join(FORMATS)})"
    )


def _name(value: object) -> str | None:
    """The English name, else the first one given (2023-07 names are per language)."""
    if isinstance(value, dict) and value:
        value = value.get("en", next(iter(value.values())))
    return value.strip() if isinstance(value, str) and value.strip() else None


def _sources(raw: dict[str, object]) -> tuple[str, ...]:
    source = raw.get("source")
    parts: list[str] = []
    for item in source if isinstance(source, list) else [source]:
        if isinstance(item, dict):
            text = " ".join(str(item[k]) for k in ("name", "url") if item.get(k))
        else:
            text = str(item) if item else ""
        if text:
            parts.append(text)
    if raw.get("source_url"):
        parts.append(str(raw["source_url"]))
    return tuple(parts)


def _credits(raw: dict[str, object]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    credits: dict[str, list[str]] = {}
    if raw.get("author"):
        credits["authors"] = [a.strip() for a in re.split(r",| and ", str(raw["author"])) if a.strip()]
    given = raw.get("credits")
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
    return tuple((role, tuple(names)) for role, names in credits.items() if names)


def _limits(raw: dict[str, object], root: Path, version: str) -> PackageLimits:
    given = mapping(raw.get("limits"), "problem.yaml: limits")

    def number(key: str, default: float) -> float:
        value = given.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise PackageError(f"problem.yaml: limits.{key}: expected a positive number, got {value!r}")
        return float(value)

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
        multipliers = mapping(given.get("time_multipliers"), "problem.yaml: limits.time_multipliers")
        multiplier = float(str(multipliers.get("ac_to_time_limit", NEW_MULTIPLIER)))
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
    return PackageLimits(
        memory_mib=int(number("memory", DEFAULT_MEMORY_MIB)),
        output_mib=number("output", DEFAULT_OUTPUT_MIB),
        compile_time_s=min(120.0, number("compilation_time", 60)),
        compile_memory_mib=int(number("compilation_memory", DEFAULT_MEMORY_MIB)),
        tool_time_s=min(600.0, number("validation_time", 60)),
        tool_memory_mib=int(number("validation_memory", DEFAULT_MEMORY_MIB)),
        tool_output_mib=min(1024.0, number("validation_output", DEFAULT_OUTPUT_MIB)),
        multiplier=multiplier,
        resolution=resolution,
        time_limit=fixed,
    )


def parse_metadata(root: Path) -> Metadata:
    raw = mapping(load_yaml(root / "problem.yaml", root), "problem.yaml")
    version = _version(raw)
    return Metadata(
        version=version,
        kinds=words(raw.get("type", "pass-fail")),
        validation=words(raw.get("validation", "default")),
        validator_flags=words(raw.get("validator_flags")),
        name=_name(raw.get("name")),
        sources=_sources(raw),
        license=_text(raw.get("license")),
        rights_owner=_text(raw.get("rights_owner")),
        credits=_credits(raw),
        limits=_limits(raw, root, version),
    )


def _score(value: object) -> float | None:
    if value is None:
        return None
    try:
        return float(str(value))
    except ValueError:
        return 1.0  # not a number: a case is worth one


@dataclass(frozen=True)
class GroupConfig:
    """A data folder's testdata.yaml (or test_group.yaml); None where it says nothing, so
    that the folders' configs merge from data/ down (the deepest one that says wins)."""

    on_reject: str | None = None
    grader_flags: tuple[str, ...] | None = None
    aggregation: str | None = None
    score: float | None = None
    accept_score: float | None = None
    range: tuple[str, ...] | None = None
    input_validator_args: tuple[str, ...] | None = None
    input_validator_flags: tuple[str, ...] | None = None
    output_validator_args: tuple[str, ...] | None = None
    output_validator_flags: tuple[str, ...] | None = None

    def under(self, deeper: GroupConfig) -> GroupConfig:
        """This folder's config with what a folder inside it says on top."""
        changes = {f.name: getattr(deeper, f.name) for f in fields(deeper) if getattr(deeper, f.name) is not None}
        return replace(self, **changes)

    @property
    def input_args(self) -> tuple[str, ...]:
        return self.input_validator_args if self.input_validator_args is not None else self.input_validator_flags or ()

    @property
    def output_args(self) -> tuple[str, ...]:
        if self.output_validator_args is not None:
            return self.output_validator_args
        return self.output_validator_flags or ()

    @property
    def per_case(self) -> float:
        """What a case is worth: score, else accept_score, else 1."""
        return self.score if self.score is not None else self.accept_score if self.accept_score is not None else 1.0

    def points_and_scoring(self, cases: int) -> tuple[float, str]:
        """The points of a group of `cases` cases, and the judge's scoring (all, per_case)."""
        flags = self.grader_flags or ()
        aggregation = self.aggregation or ("min" if "min" in flags else "sum")
        points = self.per_case if aggregation == "min" else self.per_case * cases
        bounds = self.range or ()
        if len(bounds) == 2:
            try:
                high = float(bounds[1])
                if math.isfinite(high):
                    points = min(points, high) if aggregation == "min" else high
            except ValueError:
                pass
        return round(max(points, 0.0), 4), "all" if aggregation == "min" else "per_case"


def parse_group_config(folder: Path, root: Path) -> GroupConfig:
    for name in ("test_group.yaml", "testdata.yaml"):
        path = folder / name
        if path.is_file():
            raw = mapping(load_yaml(path, root), str(path.relative_to(root)))

            def listed(key: str, given: dict[str, object] = raw) -> tuple[str, ...] | None:
                return words(given[key]) if key in given else None

            return GroupConfig(
                on_reject=str(raw["on_reject"]) if "on_reject" in raw else None,
                grader_flags=listed("grader_flags"),
                aggregation=str(raw["aggregation"]) if "aggregation" in raw else None,
                score=_score(raw.get("score")),
                accept_score=_score(raw.get("accept_score")),
                range=listed("range"),
                input_validator_args=listed("input_validator_args"),
                input_validator_flags=listed("input_validator_flags"),
                output_validator_args=listed("output_validator_args"),
                output_validator_flags=listed("output_validator_flags"),
            )
    return GroupConfig()


JUDGE_FILE = "judge.yaml"  # what this judge's export keeps that the format has no key for
JUDGE_TIME_MULTIPLIERS = "time_multipliers"
JUDGE_FEEDBACK = "feedback"
JUDGE_SPEC = "spec"  # the problem's own problem.yaml, whole
JUDGE_SOLUTIONS = "solutions"  # package path under submissions/ -> the judge's own verdict folder
JUDGE_FOLDER = "judge"  # the problem's own files, which the spec names


@dataclass(frozen=True)
class JudgeExtras:
    """What a package exported by this judge keeps in judge.yaml."""

    time_multipliers: dict[str, float] = field(default_factory=dict)  # language -> factor on the time limit
    feedback: str | None = None
    spec: dict[str, object] | None = None  # the problem.yaml it was exported from (checked when loaded)
    solutions: dict[str, str] = field(default_factory=dict)  # submissions/ path -> the judge's folder


def parse_extras(root: Path, language_ids: tuple[str, ...], levels: tuple[str, ...]) -> JudgeExtras:
    path = root / JUDGE_FILE
    if not path.is_file():
        return JudgeExtras()
    raw = mapping(load_yaml(path, root), JUDGE_FILE)
    factors = mapping(raw.get(JUDGE_TIME_MULTIPLIERS), f"{JUDGE_FILE}: {JUDGE_TIME_MULTIPLIERS}")
    for language, factor in factors.items():
        if language not in language_ids or isinstance(factor, bool) or not isinstance(factor, int | float):
            raise PackageError(
                f"{JUDGE_FILE}: {JUDGE_TIME_MULTIPLIERS}: {language}: {factor!r} is not a factor of a known language"
            )
    level = raw.get(JUDGE_FEEDBACK)
    if level is not None and level not in levels:
        raise PackageError(f"{JUDGE_FILE}: {JUDGE_FEEDBACK}: {level!r} is not one of {', '.join(levels)}")
    spec = raw.get(JUDGE_SPEC)
    if spec is not None and not isinstance(spec, dict):
        raise PackageError(f"{JUDGE_FILE}: {JUDGE_SPEC}: expected the mapping of a problem.yaml")
    moved = mapping(raw.get(JUDGE_SOLUTIONS), f"{JUDGE_FILE}: {JUDGE_SOLUTIONS}")
    for where, folder in moved.items():
        if not isinstance(folder, str) or "/" in folder or ".." in where.split("/"):
            raise PackageError(f"{JUDGE_FILE}: {JUDGE_SOLUTIONS}: {where}: {folder!r} is not a verdict folder")
    return JudgeExtras(
        {k: float(v) for k, v in factors.items() if isinstance(v, int | float)},
        str(level) if level is not None else None,
        {str(k): v for k, v in spec.items()} if spec is not None else None,
        {k: str(v) for k, v in moved.items()},
    )
