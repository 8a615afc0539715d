"""The problem spec: a strict model of `problems/<id>/problem.yaml`, and its loader.

pydantic checks types and ranges (strict: `"1"` is not a number, unknown keys are
errors); the loader then checks what needs the file system or the reference
registry (the statement exists, the generator is known), and reports every finding
as `problem.yaml:LINE: key.path: what is wrong`.

This module keeps what every problem has. Each kind of problem owns its part (its keys,
their checks and messages, what it makes of its own files) as the KindRules the loader
is handed: judge.kinds.table.load_problem is how the rest of the judge loads a problem.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import shlex
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Protocol, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from judge.errors import JudgeError
from judge.problem import refs
from judge.problem.checkers import BuiltinChecker, TokensChecker
from judge.problem.locate import SPEC_FILE
from judge.problem.yamlpos import Located, YamlError
from judge.problem.yamlpos import load as load_yaml
from judge.run import defaults, languages
from judge.run.programs import ToolLimits

TESTS_DIR = "tests"


def _known_language(value: str) -> str:
    ids = tuple(languages.load().languages)
    if value not in ids:
        raise PydanticCustomError("literal_error", "Input should be one of {ids}", {"ids": ", ".join(map(repr, ids))})
    return value


class _LanguageId:
    """A language id of languages.yaml, read when a spec is checked (not when this is imported:
    `judge solve` stays quick) and when the JSON schema is written."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: object, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_after_validator_function(_known_language, core_schema.str_schema())

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {"enum": list(languages.load().languages), "type": "string"}


Language = Annotated[str, _LanguageId]
# What a student may learn of the secret cases (judge/feedback.py applies it; docs/feedback.md).
FeedbackLevel = Literal["verdict", "groups", "cases"]
Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=64)]


def _tuple_from_list(value: Any) -> Any:
    # YAML gives lists; strict pydantic only takes tuples for tuple fields.
    return tuple(value) if isinstance(value, list) else value


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class ProgramLimits(_Strict):
    time_s: float = Field(default=30, gt=0, le=600, description="CPU time of one run, in seconds")
    memory_mib: int = Field(default=2048, gt=0, le=16384, description="Memory of one run, in MiB")
    output_mib: float = Field(default=64, gt=0, le=1024, description="Output of one run, in MiB")


class Limits(_Strict):
    time_s: float = Field(gt=0, le=60, description="CPU time limit per test file, in seconds")
    memory_mib: int = Field(gt=0, le=16384, description="Memory limit of the whole process tree, in MiB")
    output_mib: float = Field(default=16, gt=0, le=1024, description="Output limit per run, in MiB")
    time_multipliers: dict[Language, Annotated[float, Field(gt=0, le=20)]] = Field(
        default_factory=dict, description="Per-language factor on time_s, e.g. {python3: 5}"
    )
    compile_time_s: float = Field(
        default=defaults.COMPILE_TIME_S,
        gt=0,
        le=120,
        description="CPU time limit of one compilation of a submission, in seconds",
    )
    compile_memory_mib: int = Field(
        default=defaults.COMPILE_MEMORY_MIB,
        gt=0,
        le=16384,
        description="Memory limit of one compilation, in MiB: the compiler's processes and the files it writes in /tmp",
    )
    programs: ProgramLimits = Field(
        default_factory=lambda: ProgramLimits(),
        description="Limits of each run of the problem's own programs (reference, generators, validators, checker)",
    )

    def cpu_s_for(self, language: str, default_factor: float = 1.0) -> float:
        """The CPU time limit of a submission in `language`: the problem's multiplier for it,
        else the language's own factor (languages.yaml's time_factor)."""
        factor = next((m for lang, m in self.time_multipliers.items() if lang == language), default_factor)
        return self.time_s * factor


class CustomChecker(_Strict):
    """A program run as `program input answer feedback_dir < output` (exit 42 = AC, 43 = WA)."""

    type: Literal["custom"]
    program: str = Field(min_length=1, description="A file or folder, relative to the problem folder")
    args: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = Field(
        default=(), description="Extra arguments after the feedback folder (ICPC: validator_flags)"
    )


class Interactor(_Strict):
    """An interactive problem's judge program: `program input answer feedback_dir [args]`, its
    stdin the submission's stdout and its stdout the submission's stdin; exit 42 = AC, 43 = WA."""

    program: str = Field(min_length=1, description="A file or folder, relative to the problem folder")
    args: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = Field(
        default=(), description="Extra arguments after the feedback folder (ICPC: output_validator_flags)"
    )


# The built-in checkers (judge.problem.checkers, one table) or a program of the problem's.
Checker = Annotated[BuiltinChecker | CustomChecker, Field(discriminator="type")]


class Case(_Strict):
    input: str | None = Field(default=None, min_length=1, description="The input file, verbatim")
    call: list[Any] | None = Field(
        default=None, description="A function problem's call: its arguments in order (JSON values)"
    )
    calls: list[list[Any]] | None = Field(
        default=None,
        description="A class problem's scenario: the constructor and then each method call, a step each,"
        ' e.g. [["Counter", 5], ["add", 2], ["total"]]',
    )
    answer: Any = Field(
        default=None,
        description="Expected output as the statement gives it (a function problem: the returned value; a"
        " class problem: the list of each step's value, null for the constructor); the reference must agree",
    )

    @property
    def called(self) -> list[Any] | None:
        """A function's call or a class's scenario: what the case's input file holds as JSON."""
        return self.call if self.call is not None else self.calls

    @model_validator(mode="after")
    def _input_or_call(self) -> Case:
        if [self.input, self.call, self.calls].count(None) != 2:
            raise ValueError(
                "a case needs exactly one of `input` (a program's), `call` (a function's) or `calls` (a class's)"
            )
        if self.input is not None and self.answer is not None and not isinstance(self.answer, str):
            raise ValueError("the answer of an `input` case is the expected output, as text")
        return self


class Group(_Strict):
    name: Slug
    visibility: Literal["public", "secret"] = Field(
        default="secret", description="public: input, answer and output are shown to students"
    )
    points: float = Field(default=0, ge=0, le=1000)
    scoring: Literal["all", "per_case"] = Field(
        default="all", description="all: points only when every case passes; per_case: shared out per case"
    )
    on_reject: Literal["break", "continue"] | None = Field(
        default=None,
        description="break: the group ends at its first failing case (later cases are not judged, NJ, and earn"
        " nothing); continue: every case is judged and counts. Default: break for scoring all (the score is the"
        " same), continue for per_case",
    )
    give_up_after_tle: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="Stop judging a submission on this group after this many time limits exceeded in a row:"
        " its later cases are not judged (NJ) and earn nothing. For per_case groups of a slow-solution class,"
        " where every further case would most likely burn its whole time limit too",
    )
    give_up_after_mle: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="The same for memory limits exceeded in a row: a program whose memory does not depend on"
        " its input (a huge static array) fills the limit on every case, each time at a cost in page faults",
    )
    cases: Annotated[tuple[Case, ...], BeforeValidator(_tuple_from_list)] | None = Field(
        default=None, description="Inline cases (e.g. the statement's samples)"
    )
    generator: Slug | None = Field(default=None, description="A built-in generator of the problem's reference")
    generate: str | None = Field(
        default=None,
        min_length=1,
        description="A generator program in generators/ and its arguments, e.g. `gen.py --n 1000 --seed {seed}`;"
        " {seed} is a seed of its own per case, {case} the case's number (1, 2, ...)",
    )
    files: str | None = Field(
        default=None,
        min_length=1,
        description="A folder of hand-written `.in` files (and `.ans` files; the reference writes those missing)",
    )
    count: int | None = Field(default=None, ge=1, le=10000, description="Number of test files to generate")
    seed: int | None = Field(default=None, ge=0, description="Seed; the same spec makes the same files")
    args: dict[str, int] = Field(default_factory=dict, description="Built-in generator arguments")
    validator_args: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = Field(
        default=(),
        description="Extra arguments of the input validator programs on this group (ICPC: input_validator_flags)",
    )

    @property
    def breaks(self) -> bool:
        """Whether the group ends at its first failing case (ICPC's on_reject: break)."""
        return self.on_reject == "break" if self.on_reject is not None else self.scoring == "all"

    @property
    def gives_up(self) -> tuple[tuple[str, int], ...]:
        """(verdict, K) for each limit that ends the group when K of its cases in a row exceed it."""
        kinds = (("TLE", self.give_up_after_tle), ("MLE", self.give_up_after_mle))
        return tuple((verdict, k) for verdict, k in kinds if k)

    @property
    def source(self) -> str:
        """Which key makes the group's cases."""
        for key in SOURCES:
            if getattr(self, key) is not None:
                return key
        return ""

    @model_validator(mode="after")
    def _one_source(self) -> Group:
        given = [key for key in SOURCES if getattr(self, key) is not None]
        if len(given) != 1:
            raise ValueError(f"a group needs exactly one of {', '.join(f'`{k}`' for k in SOURCES)}")
        generated = self.generator is not None or self.generate is not None
        if generated and (self.count is None or self.seed is None):
            raise ValueError("a generated group needs `count` and `seed`")
        if not generated and (self.count is not None or self.seed is not None):
            raise ValueError("`count` and `seed` belong to generated groups only")
        if self.args and self.generator is None:
            raise ValueError("`args` belongs to built-in generators only (a program takes its arguments in `generate`)")
        if self.cases is not None and not self.cases:
            raise ValueError("`cases` is empty")
        return self


SOURCES = ("cases", "generator", "generate", "files")


class UnitTestLine(_Strict):
    points: float | None = Field(default=None, ge=0, le=1000)
    visibility: Literal["public", "secret"] | None = None


# The judge's own JUnit classes (kinds/unit/kit.py): a student's file may not take their names.
JUDGE_JAVA_CLASSES = ("JudgeRunner", "JudgeTests", "JudgeStudent", "JudgeStandIns", "JudgeWire")


class Unit(_Strict):
    """A unit-test problem's tests: the teacher's own files."""

    framework: Literal["pytest", "unittest", "junit5"] = Field(
        default="pytest",
        description="What the tests are written for: pytest or unittest files (pytest runs both), or JUnit 5"
        ' classes (Test*.java, *Test.java, *Tests.java; points from @Tag("points=N"))',
    )
    student_files: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = Field(
        min_length=1,
        description="The files a submission must contain, e.g. [stack.py]; a submission of one file may have any"
        " name when one is asked for",
    )
    tests: str = Field(
        default="unit",
        min_length=1,
        description="The folder of the teacher's test files: public/ below it shown to students in full, the rest"
        " secret (the problem's feedback level)",
    )
    per_test_time_s: float | None = Field(
        default=None,
        gt=0,
        le=60,
        description="CPU time of the student's code in one test: the problem's time limit (limits.time_s), which"
        " this replaces when given",
    )
    mode: Literal["apart", "together"] | None = Field(
        default=None,
        description="apart: the tests run in a process (and sandbox) of their own, which the student's code never"
        " shares; what they do with the student's module is sent over to it. together: the tests run in the"
        " student's process (tests that patch its module or start its file, or hand it lambdas), their results"
        " over a channel the judge checks; a determined student can read the tests and forge results there."
        " Default: apart",
    )
    isolate: Literal["file", "test"] = Field(
        default="file", description="file: one process pair per test file; test: one per test"
    )
    default_points: float = Field(default=1.0, ge=0, le=1000, description="A test's points when nothing else says")
    starter: str | None = Field(
        default=None,
        min_length=1,
        description="A file in the problem folder a student starts from (e.g. starter/stack.py): its name is one of"
        " student_files; `judge starter` writes it and the web editor holds it when empty",
    )
    per_test: dict[str, UnitTestLine] = Field(
        default_factory=dict,
        description="Points and visibility of single tests by id (public/test_stack.py::test_push), over the"
        " decorators (@weight, @points, @visibility) and the folder",
    )

    @property
    def runs(self) -> Literal["apart", "together"]:
        """The mode the tests run in: the spec's, else apart (the one a student cannot forge)."""
        return self.mode or "apart"

    @model_validator(mode="after")
    def _plain_names(self) -> Unit:
        java = self.framework == "junit5"
        for name in self.student_files:
            if java and ("/" in name or not name.endswith(".java") or name.removesuffix(".java") in JUDGE_JAVA_CLASSES):
                raise ValueError(
                    f"student_files: {name!r}: a Java file name at the top of the submission (not the judge's)"
                )
            if not java and ("/" in name or not name.endswith(".py") or name in ("main.py", "_judge_unit.py")):
                raise ValueError(
                    f"student_files: {name!r}: a Python file name at the top of the submission (not main.py)"
                )
        if self.starter is not None and self.starter.replace("\\", "/").rsplit("/", 1)[-1] not in self.student_files:
            # The starter is downloaded and submitted under its own name: it must be a file asked for.
            raise ValueError(f"starter: {self.starter!r}: its file name is none of student_files")
        return self


BUG_FOLDERS = ("wrong_answer", "time_limit_exceeded", "run_time_error")


class Bug(_Strict):
    """One known-buggy solution of the problem under test, which a student's tests should catch."""

    path: str = Field(min_length=1, description="A solution file or folder, relative to the problem under test")
    title: str | None = Field(default=None, min_length=1, description="Its name as students may learn it")
    hint: str | None = Field(default=None, min_length=1, description="Told a student whose tests miss it")


class Mutants(_Strict):
    """Bugs the judge makes from the reference of the problem under test (Python, C, C++): one
    small change each, kept only when some test of that problem's own data catches it."""

    operators: Annotated[
        tuple[Literal["compare", "constant", "negate", "drop"], ...], BeforeValidator(_tuple_from_list)
    ] = Field(
        default=("compare", "constant", "negate", "drop"),
        min_length=1,
        description="compare: < for <=, > for >=, == for != and back; constant: an integer literal +1 or -1;"
        " negate: an if's or while's condition; drop: an expression statement",
    )
    max: int = Field(default=10, ge=1, le=100, description="The most mutants kept, chosen deterministically")
    secret: bool = Field(
        default=False,
        description="true: a mutant's group is named mutant-N and secret, whatever `shows` says (a student learns"
        " how many mutants were caught, never which); false: at names and hints, its name (its line and change)",
    )


class Suite(_Strict):
    """A tests problem's part (kind: tests): the problem whose bugs a student's tests must catch."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, populate_by_name=False)

    of: Slug = Field(alias="for", description="The id of the problem under test (a folder beside this one)")
    bugs: Annotated[tuple[Bug, ...], BeforeValidator(_tuple_from_list)] = Field(
        default=(),
        description="The bugs; default: every solution in the problem's wrong_answer/, time_limit_exceeded/"
        " and run_time_error/ folders",
    )
    mutants: Mutants | None = Field(
        default=None, description="Bugs made from the reference besides these (judge gen and verify make them)"
    )
    scoring: Literal["per_bug", "fraction"] = Field(
        default="per_bug", description="per_bug: points_per_bug for each bug caught; fraction: points shared out"
    )
    points_per_bug: float = Field(default=10, ge=0, le=1000)
    points: float = Field(default=100, ge=0, le=1000, description="scoring: fraction: the whole, for every bug")
    max_tests: int = Field(default=20, ge=1, le=200, description="The most tests a submission may hold")
    max_test_bytes: int = Field(default=65536, ge=1, le=16 << 20, description="The largest test input or answer")
    time_cap_s: float | None = Field(
        default=None,
        gt=0,
        le=86400,
        description="Of a unit problem's tests: the wall time one submission's whole judging may take from its"
        " start (the reference's runs and every bug's); a bug whose runs it leaves undone is not caught."
        " Default: what a validity run may take (its files' starts as measured, 10 s of the tests' own time"
        " and a test's deadline) for each run the judging may make (3, and 6 a bug)",
    )
    shows: Literal["count", "names", "hints"] = Field(
        default="names",
        description="What a student learns: count (how many bugs caught), names (each bug's title or file"
        " name, caught or not), hints (names, and the teacher's hint of each bug missed). Never a bug's code",
    )


class Variants(_Strict):
    """Each student gets a variant of the problem: a seed of their own feeds the generators and
    the statement's parameters (judge.problem.variants, judge.author.variants)."""

    count: int | None = Field(
        default=None, ge=2, le=10000, description="So many variants, each student given one (v1, v2, ...)"
    )
    per_student: bool = Field(default=False, description="true: a variant per student, from their own seed")
    params: str | None = Field(
        default=None,
        min_length=1,
        description="A program in generators/ and its arguments, e.g. `params.py {seed}`: prints one JSON object"
        " of the variant's parameters (names of lower-case letters, digits and _; numbers, strings, booleans),"
        " shown by the statement as {{ name }} and given to `generate` commands as {name}",
    )
    verify_sample: int = Field(
        default=3, ge=1, le=100, description="How many variants `judge verify` makes and checks whole"
    )

    @model_validator(mode="after")
    def _count_or_per_student(self) -> Variants:
        if (self.count is None) == (not self.per_student):
            raise ValueError("variants need exactly one of `count: N` or `per_student: true`")
        return self


class ProblemSpec(_Strict):
    """problem.yaml"""

    model_config = ConfigDict(title="Problem spec of the judge", json_schema_extra={"$id": "problem.schema.json"})

    id: Slug = Field(description="Must equal the problem's folder name")
    title: str = Field(min_length=1)
    source: str = Field(min_length=1, description="Where the problem comes from (credit)")
    statement: str = Field(
        default="statement.md",
        min_length=1,
        description="The statement: a Markdown file in the problem folder (or, imported, the package's own file)",
    )
    license: str | None = Field(default=None, min_length=1, description="e.g. `cc by-sa` (kept from a package)")
    rights_owner: str | None = Field(default=None, min_length=1, description="Who holds the rights")
    credits: dict[str, Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)]] = Field(
        default_factory=dict, description="Role -> names, e.g. {authors: [Ada Lovelace], testers: [...]}"
    )
    verdict_folders: Literal["judge", "icpc"] = Field(
        default="judge",
        description="icpc: solution folders mean what they mean in ICPC packages, which have no MLE verdict:"
        " a solution in run_time_error/ may also get MLE",
    )
    limits: Limits
    feedback: FeedbackLevel = Field(
        default="groups",
        description="What students learn of the secret cases: verdict (the submission's verdict and score only),"
        " groups (each secret group's verdict and points, its figures as a quarter of the limit), cases (each"
        " secret case's verdict too). Never a secret case's input, output, message or exact figures",
    )
    kind: str | None = Field(
        default=None,
        min_length=1,
        description="The kind of problem: a name of judge.kinds.table (the schema lists them)",
    )
    unit: Unit | None = Field(default=None, description="A unit-test problem's tests (kind: unit)")
    tests: Suite | None = Field(
        default=None, description="A tests problem's problem under test and its bugs (kind: tests)"
    )
    signature: str | None = Field(
        default=None,
        min_length=1,
        description="A function problem's function: `name(a: T, ...) -> R`, types int, long, float, bool, str,"
        " list[T], dict[str, T] and T | None; or a class: `class Name:` and its constructor and methods, a line each",
    )
    raises: dict[Language, str] = Field(
        default_factory=dict,
        description="A function problem: where the reference raised, the exception a student's code must raise,"
        " per language id (python3: ValueError, java: IllegalArgumentException, cpp: std::invalid_argument);"
        " a language not named takes the one named for its family in languages.yaml (pypy3 python3's, cpp20 cpp's);"
        " a language of no named family may raise any exception",
    )
    checker: Checker = Field(default_factory=lambda: TokensChecker(type="tokens"))
    interactor: Interactor | None = Field(
        default=None,
        description="An interactive problem: this program talks with each submission and decides (then no"
        " checker: the interactor is the checker); a case's answer file is handed to it as it is",
    )
    reference: str = Field(
        min_length=1,
        description=f"Reference solver: a built-in one ({', '.join(refs.NAMES)}) or a program (a file or folder"
        " relative to the problem folder, e.g. solutions/accepted/ref.cpp) whose output becomes each answer",
    )
    validators: Annotated[tuple[str, ...], BeforeValidator(_tuple_from_list)] = Field(
        default=(),
        description="Input validator programs (files or folders): input on stdin, exit 42 = valid (ICPC)",
    )
    groups: Annotated[tuple[Group, ...], BeforeValidator(_tuple_from_list)] = Field(
        default=(), description="The test groups (a unit-test problem has none here: a group per test is made)"
    )
    variants: Variants | None = Field(
        default=None,
        description="Each student gets a variant: their own tests and statement, made from a seed of theirs",
    )
    build_script: bool = Field(
        default=False,
        description="true: a submission of several files may bring a `build` script (run with sh under the"
        " compile limits instead of its language's compiler) and a `run` script (how it starts);"
        " false: such a submission is refused",
    )


@dataclass(frozen=True)
class Problem:
    """A loaded, checked problem and where it lives."""

    directory: Path
    spec: ProblemSpec
    # A student's variant (judge.author.variants): its own tests and statement, made in a cache.
    variant: str | None = None
    tests_root: Path | None = None
    statement_file: Path | None = None

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def spec_path(self) -> Path:
        return self.directory / SPEC_FILE

    @property
    def statement_path(self) -> Path:
        return self.statement_file or self.directory / self.spec.statement

    @property
    def tests_dir(self) -> Path:
        return self.tests_root or self.directory / TESTS_DIR

    @cached_property
    def digest(self) -> str:
        """A hash that changes whenever the spec, any test file or any of the problem's programs
        (its checker's, say) changes: taken once per load, then kept with the problem."""
        digest = hashlib.sha256(self.spec_path.read_bytes())
        if self.variant is not None:
            digest.update(f"variant {self.variant}\0".encode())
        # A variant's tests live outside the folder: named as tests/ would name them.
        files = [(Path(TESTS_DIR) / p.relative_to(self.tests_dir), p) for p in sorted(self.tests_dir.rglob("*"))]
        for program in self.program_paths():
            found = sorted(program.rglob("*")) if program.is_dir() else [program]
            files += [(p.relative_to(self.directory), p) for p in found]
        for name, path in files:
            if path.is_file():
                digest.update(str(name).encode() + b"\0")
                digest.update(path.read_bytes())
        return digest.hexdigest()

    @property
    def program_limits(self) -> ToolLimits:
        """The limits of each run of the problem's own programs (reference, generators, checker...)."""
        own = self.spec.limits.programs
        return ToolLimits(own.time_s, own.memory_mib, int(own.output_mib * 1024 * 1024))

    @property
    def kind(self) -> str:
        """Its kind's name in judge.kinds.table, as the loader chose it (the spec's, else the default)."""
        assert self.spec.kind is not None, "a loaded spec names its kind"
        return self.spec.kind

    @property
    def max_score(self) -> float:
        """The most a submission can score: every group's points (a group of 0 points counts none)."""
        return float(sum(g.points for g in self.spec.groups))

    @property
    def builtin(self) -> bool:
        """Whether the reference is one of the judge's own solvers (else a program)."""
        return self.spec.reference in refs.NAMES

    def program_paths(self) -> list[Path]:
        """Every program of the problem (reference, validators, generators, checker, a unit
        problem's folder of tests)."""
        paths = [] if self.builtin else [self.directory / self.spec.reference]
        paths += [self.directory / v for v in self.spec.validators]
        for group in self.spec.groups:
            if group.generate is not None:
                paths.append(self.directory / GENERATORS_DIR / split_generate(group.generate)[0])
        if isinstance(self.spec.checker, CustomChecker):
            paths.append(self.directory / self.spec.checker.program)
        if self.spec.interactor is not None:
            paths.append(self.directory / self.spec.interactor.program)
        if self.spec.unit is not None:  # the teacher's tests: programs that judge, shipped and hashed as such
            paths.append(self.directory / self.spec.unit.tests)
        return list(dict.fromkeys(paths))


@dataclass(frozen=True)
class SpecIssue:
    file: Path
    line: int
    where: str
    message: str

    def __str__(self) -> str:
        where = f" {self.where}:" if self.where else ""
        return f"{self.file}:{self.line}:{where} {self.message}"


class SpecError(JudgeError):
    def __init__(self, issues: Sequence[SpecIssue]) -> None:
        super().__init__("\n".join(str(i) for i in issues))
        self.issues = tuple(issues)


def render_path(loc: Sequence[str | int], located: Located) -> str:
    """`groups[1].points` from ('groups', 1, 'points'), leaving out union tags."""
    parts: list[str] = []
    node: Any = located.data
    for i, part in enumerate(loc):
        if part == "[key]":
            continue  # pydantic's marker for "the key itself is wrong"
        found = (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        )
        if found:
            node = node[part]
        elif i < len(loc) - 1:
            continue  # a tag pydantic adds for a union member, not a key of the file
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models a field's type holds (in a list, a union, Annotated...)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]


def keys_at(model: type[BaseModel], loc: Sequence[str | int]) -> list[str]:
    """The keys a mapping at `loc` of a file read as `model` may hold, for "did you mean"."""
    current = [model]
    for part in loc:
        if isinstance(part, int) or part == "[key]":
            continue
        found = [
            inner
            for m in current
            for name, field in m.model_fields.items()
            if part in (name, field.alias)
            for inner in _models_in(field.annotation)
        ]
        # Not a key: pydantic's tag of a union member, which names its model.
        current = found or [inner for m in current for inner in _models_in_tree(m) if inner.__name__ == part] or current
    return sorted({field.alias or name for m in current for name, field in m.model_fields.items()})


def _models_in_tree(model: type[BaseModel]) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    pending = [model]
    while pending:
        m = pending.pop()
        if m in found:
            continue
        found.append(m)
        pending += [inner for field in m.model_fields.values() for inner in _models_in(field.annotation)]
    return found


def error_message(error: Any, model: type[BaseModel] | None = None) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        loc = tuple(error["loc"])
        known = keys_at(model, loc[:-1]) if model is not None and loc else []
        close = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6) if loc else []
        return f"unknown key; did you mean '{close[0]}'?" if close else "unknown key"
    if kind == "missing":
        return "required key is missing"
    message = str(error["msg"])
    if kind.endswith("_type") or kind in ("literal_error", "union_tag_invalid", "string_pattern_mismatch"):
        message += f" (got {error['input']!r})"
    return message.removeprefix("Value error, ")


Finding = tuple[tuple[str | int, ...], str]  # where in the spec (a key path), and what is wrong


class KindRules(Protocol):
    """What one kind of problem adds to the loading of its spec. Each kind of judge.kinds is
    one; the loader asks it, never its name, so a new kind needs no line here."""

    name: ClassVar[str]
    summary: ClassVar[str]
    # The top-level keys only this kind's problems may set, and the keys of a case.
    spec_keys: ClassVar[tuple[str, ...]]
    case_keys: ClassVar[tuple[str, ...]]
    checkers: ClassVar[tuple[str, ...]]  # the built-in checkers a problem of the kind may name
    whose: ClassVar[str]  # "a program's", for the message naming a checker it may not

    def spec_issues(self, directory: Path, spec: ProblemSpec) -> list[Finding]:
        """What the kind requires of the rest of the spec (its keys, the cases, the reference)."""
        ...

    def complete_spec(self, directory: Path, spec: ProblemSpec, located: Located) -> ProblemSpec:
        """The spec with what the kind makes of its own files (a unit problem's group per test);
        SpecError naming the file and line of one it cannot read."""
        ...


class KindTable(Protocol):
    """The kinds a spec may name (judge.kinds.table): the loader's only way to them."""

    def all(self) -> Sequence[KindRules]:
        """Every kind, in the table's order."""
        ...

    def chosen(self, spec: ProblemSpec) -> KindRules | None:
        """The kind a spec is of (its own `kind`, or the default); None when it names none known."""
        ...

    def unnamed(self) -> str:
        """In words, the kind of a spec that names none."""
        ...


def read_problem(directory: Path, kinds: KindTable, judging_only: bool = False) -> Problem:
    """Load and check `directory/problem.yaml`, each kind's part by that kind's rules; raise
    SpecError listing every issue found. `judging_only`: a copy made to judge with
    (Gradescope's autograder), which has the tests but not the solutions, so not a program
    reference either. Callers above the kinds use judge.kinds.table.load_problem."""
    spec_path = directory / SPEC_FILE
    try:
        located = load_yaml(spec_path)
    except YamlError as err:
        raise SpecError([SpecIssue(err.path, err.line, "", err.message)]) from None
    if not isinstance(located.data, dict):
        raise SpecError([SpecIssue(spec_path, 1, "", "the spec must be a mapping of keys to values")])
    try:
        spec = ProblemSpec.model_validate(located.data)
    except ValidationError as err:
        issues = [
            SpecIssue(
                spec_path, located.line_of(e["loc"]), render_path(e["loc"], located), error_message(e, ProblemSpec)
            )
            for e in err.errors()
        ]
        raise SpecError(issues) from None
    kind = kinds.chosen(spec)
    if kind is None:
        known = ", ".join(k.name for k in kinds.all())
        found: list[Finding] = [(("kind",), f"unknown kind {spec.kind!r} (known: {known})")]
    else:
        spec = spec.model_copy(update={"kind": kind.name})
        found = _semantic_issues(directory, spec, judging_only)
        found += _kind_issues(directory, spec, kind, kinds.all())
    issues = [SpecIssue(spec_path, located.line_of(loc), render_path(loc, located), message) for loc, message in found]
    if issues:
        raise SpecError(issues)
    assert kind is not None
    spec = kind.complete_spec(directory, spec, located)
    if not spec.groups:
        raise SpecError([SpecIssue(spec_path, 1, "groups:", "a problem needs at least one group of tests")])
    return Problem(directory, spec)


def _kind_issues(directory: Path, spec: ProblemSpec, kind: KindRules, every: Sequence[KindRules]) -> list[Finding]:
    """Keys another kind owns, a checker the kind cannot use, then the kind's own rules."""
    found: list[Finding] = []
    for other in every:
        if other is kind:
            continue
        owned = f"belongs to `kind: {other.name}` problems"
        found += [((key,), f"`{key}` {owned}") for key in other.spec_keys if key in spec.model_fields_set]
        for i, group in enumerate(spec.groups):
            for j, case in enumerate(group.cases or ()):
                for key in other.case_keys:
                    if key in case.model_fields_set and key not in kind.case_keys:
                        found.append((("groups", i, "cases", j, key), f"a `{key}` {owned}"))
    if "checker" in spec.model_fields_set and not isinstance(spec.checker, CustomChecker):
        if spec.checker.type not in kind.checkers:
            allowed = ", ".join(kind.checkers)
            found.append((("checker", "type"), f"{spec.checker.type!r} is not {kind.whose} checker ({allowed})"))
    return found + kind.spec_issues(directory, spec)


def inside(directory: Path, relative: str) -> bool:
    """Whether `relative` stays inside the problem folder (no `..` or link out of it)."""
    target = (directory / relative).resolve()
    return target.is_relative_to(directory.resolve())


def _semantic_issues(directory: Path, spec: ProblemSpec, judging_only: bool = False) -> list[Finding]:
    found: list[Finding] = []
    if spec.id != directory.name:
        found.append((("id",), f"{spec.id!r} differs from the folder name {directory.name!r}"))
    if not inside(directory, spec.statement):
        found.append((("statement",), f"{spec.statement!r} points outside the problem folder"))
    elif not (directory / spec.statement).is_file():
        found.append((("statement",), f"file not found: {spec.statement}"))
    if isinstance(spec.checker, CustomChecker):
        found += program_issues(directory, ("checker", "program"), spec.checker.program)
    reference = None
    if spec.reference in refs.NAMES:
        reference = refs.get(spec.reference)
    elif not inside(directory, spec.reference):
        found.append((("reference",), f"{spec.reference!r} points outside the problem folder"))
    elif not (directory / spec.reference).exists() and not judging_only:
        found.append(
            (
                ("reference",),
                f"{spec.reference!r} is neither a built-in reference ({', '.join(refs.NAMES)})"
                " nor a program file or folder of the problem",
            )
        )
    for i, program in enumerate(spec.validators):
        found += program_issues(directory, ("validators", i), program)
    found += _variants_issues(directory, spec)
    seen: set[str] = set()
    for i, group in enumerate(spec.groups):
        if group.name in seen:
            found.append((("groups", i, "name"), f"duplicate group name {group.name!r}"))
        seen.add(group.name)
        if group.generate is not None:
            issues = _generate_issues(directory, group.generate, group.count, spec.variants is not None)
            found += [(("groups", i, "generate"), m) for m in issues]
        if group.files is not None:
            if not inside(directory, group.files):
                found.append((("groups", i, "files"), f"{group.files!r} points outside the problem folder"))
            elif not (directory / group.files).is_dir():
                found.append((("groups", i, "files"), f"folder not found: {group.files}"))
            elif not any((directory / group.files).glob("*.in")):
                found.append((("groups", i, "files"), f"no .in files in {group.files}"))
        if group.generator is None:
            continue
        if reference is None:
            if (directory / spec.reference).exists() and inside(directory, spec.reference):
                found.append(
                    (
                        ("groups", i, "generator"),
                        "built-in generators belong to built-in references; a program generator goes in `generate`",
                    )
                )
            continue
        generator = reference.generators.get(group.generator)
        if generator is None:
            known = ", ".join(reference.generators)
            found.append((("groups", i, "generator"), f"unknown generator {group.generator!r} (known: {known})"))
            continue
        for key in group.args:
            if key not in generator.args:
                known = ", ".join(generator.args) or "none"
                found.append((("groups", i, "args", key), f"unknown argument {key!r} (known: {known})"))
        for key, value in group.args.items():
            if key in generator.args and value < 0:
                found.append((("groups", i, "args", key), "must be >= 0"))
    return found


def program_issues(directory: Path, loc: tuple[str | int, ...], relative: str) -> list[Finding]:
    """A program of the problem (a file or folder) that is missing or points outside it."""
    if not inside(directory, relative):
        return [(loc, f"{relative!r} points outside the problem folder")]
    if not (directory / relative).exists():
        return [(loc, f"file or folder not found: {relative}")]
    return []


GENERATORS_DIR = "generators"
GENERATE_PLACEHOLDERS = frozenset({"seed", "case"})
PARAM_NAME = r"[a-z][a-z0-9_]{0,31}"  # a variant's parameter: `{{ n }}` in the statement, {n} in `generate`


def split_generate(command: str) -> list[str]:
    """The words of a `generate` command (shell quoting rules, no shell)."""
    return shlex.split(command)


def _variants_issues(directory: Path, spec: ProblemSpec) -> list[Finding]:
    """A variant needs something of its own: a generated group, or parameters."""
    variants = spec.variants
    if variants is None:
        return []
    found: list[Finding] = []
    if variants.params is not None:
        found += [(("variants", "params"), m) for m in _generate_issues(directory, variants.params, 1)]
    if variants.params is None and not any(g.generate or g.generator for g in spec.groups):
        found.append((("variants",), "every variant would be the same: no group is generated and no `params`"))
    return found


def _generate_issues(directory: Path, command: str, count: int | None, params: bool = False) -> list[str]:
    try:
        words = split_generate(command)
    except ValueError as err:
        return [f"cannot split the command: {err}"]
    if not words:
        return ["an empty command"]
    issues: list[str] = []
    used: set[str] = set()
    for word in words[1:]:
        try:
            fields = {f for _, f, _, _ in string.Formatter().parse(word) if f is not None}
        except ValueError as err:
            issues.append(f"{word!r}: {err}")
            continue
        unknown = fields - GENERATE_PLACEHOLDERS
        if params:  # a variant's parameters by name, checked when a variant is made
            unknown = {f for f in unknown if not re.fullmatch(PARAM_NAME, f)}
        if unknown:
            issues.append(f"unknown placeholder {{{sorted(unknown)[0]}}} (known: {{case}}, {{seed}})")
        used |= fields
    if (count or 0) > 1 and not used:
        issues.append("every case would be the same: give the program {seed} or {case}")
    program = Path(GENERATORS_DIR) / words[0]
    if not inside(directory / GENERATORS_DIR, words[0]):
        issues.append(f"{words[0]!r} points outside {GENERATORS_DIR}/")
    elif not (directory / program).exists():
        issues.append(f"no generator {program} in the problem folder")
    return issues


def json_schema(kinds: KindTable) -> str:
    """The JSON schema of problem.yaml, as written to problems/problem.schema.json: `kind` one
    of the table's names."""
    schema = ProblemSpec.model_json_schema()
    named = next(branch for branch in schema["properties"]["kind"]["anyOf"] if branch.get("type") == "string")
    named["enum"] = [kind.name for kind in kinds.all()]
    said = "; ".join(f"{kind.name}: {kind.summary}" for kind in kinds.all())
    schema["properties"]["kind"]["description"] = f"{said}. None named: {kinds.unnamed()}"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
