"""A problem's parts (reference, generators, input validators), whichever kind they are:
built into the judge (the puzzles' exact solvers, run in this process) or programs of the
problem (run in the sandbox, many at once). The rest of the judge asks for inputs, issues
and answers in batches and never needs to know which kind it holds.
"""

from __future__ import annotations

import hashlib
import random
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from judge.kinds import table as kinds
from judge.problem import refs, variants
from judge.problem.refs.base import InputIssue, Reference
from judge.problem.spec import GENERATORS_DIR, Case, Group, Problem, split_generate
from judge.problem.tables import TableSource
from judge.run import programs
from judge.run.programs import Built, ProgramError, Task, ToolLimits
from judge.run.sandbox import Limit

VALID, INVALID = 42, 43  # the ICPC input validator's exit codes

Progress = Callable[[str], None]
# How far a stage of making the tests is: (stage, runs done, runs in it), e.g. ("generating", 7, 22).
Counter = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Parts:
    problem: Problem
    builtin: Reference | None
    tables: TableSource | None
    reference: Built | None
    validators: tuple[Built, ...]
    generators: tuple[tuple[str, Built], ...]  # (first word of `generate`, its build)
    limits: ToolLimits
    jobs: int
    counter: Counter | None = None

    def generator(self, name: str) -> Built:
        return dict(self.generators)[name]

    def counting(self, stage: str, total: int) -> Callable[[int], None] | None:
        """What run_all calls as each of a stage's `total` runs ends: the counter, told."""
        counter = self.counter
        if counter is None or total == 0:
            return None
        done = [0]
        counter(stage, 0, total)

        def tick(_: int) -> None:
            done[0] += 1  # run_all calls back from the waiting thread alone
            counter(stage, done[0], total)

        return tick


def load(problem: Problem, tables: TableSource | None = None, jobs: int = 1, counter: Counter | None = None) -> Parts:
    """Load and build (once, cached) every part of the problem; ProgramError on a bad program."""
    limits = problem.program_limits
    builtin = refs.get(problem.spec.reference) if problem.builtin else None
    directory = problem.directory
    reference = None
    # A tests problem's reference is a suite of tests (data), run by its kind, never built here.
    if not builtin and not kinds.of(problem).takes_data:  # as its kind runs it (a function: inside its harness)
        program = kinds.of(problem).program(problem, programs.load(directory / problem.spec.reference))
        reference = programs.build(program, limits.memory_mib)
    validators = tuple(programs.load_and_build(directory / v, limits.memory_mib) for v in problem.spec.validators)
    generators: dict[str, Built] = {}
    for group in problem.spec.groups:
        if group.generate is not None:
            name = split_generate(group.generate)[0]
            if name not in generators:
                generators[name] = programs.load_and_build(directory / GENERATORS_DIR / name, limits.memory_mib)
    return Parts(problem, builtin, tables, reference, validators, tuple(generators.items()), limits, jobs, counter)


def case_seed(group_seed: int, case: int) -> int:
    """The {seed} of one case: its own, stable, and unrelated to the neighbours' (not seed + 1)."""
    digest = hashlib.sha256(f"judge-case-seed {group_seed} {case}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def generate_args(command: str, seed: int, case: int) -> tuple[str, ...]:
    values = {"seed": str(case_seed(seed, case)), "case": str(case)}
    return tuple(string.Formatter().vformat(word, (), values) for word in split_generate(command)[1:])


@dataclass(frozen=True)
class RawCase:
    """One case of a group as its source gives it: input, and an answer when one is given."""

    name: str
    input: str
    answer: str | None  # a hand-written .ans, or an inline case's stated answer
    stated: bool  # the answer is an inline statement to check, not a file to keep


def decode(data: bytes, label: str) -> str:
    if b"\0" in data:
        raise ProgramError(f"{label}: binary data (NUL byte), not a text test file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ProgramError(f"{label}:{line}: not UTF-8 text") from None


def group_label(problem: Problem, index: int, group: Group) -> str:
    return f"{problem.spec_path}: groups[{index}] ({group.name})"


def _case_texts(case: Case) -> tuple[str, str | None]:
    """An inline case's input and stated answer as file texts: a call's arguments as one JSON
    array, its answer as JSON, in the one form answers are written in (values.canonical)."""
    if case.input is not None:
        return case.input, case.answer
    from judge.run.values import canonical

    answer = None if case.answer is None else canonical(case.answer) + "\n"
    return canonical(case.called) + "\n", answer


def make_inputs(parts: Parts, notify: Progress | None = None) -> list[list[RawCase]]:
    """The raw cases of every group, in spec order; the program generators run in parallel."""
    problem = parts.problem
    made: list[list[RawCase]] = []
    tasks: list[Task] = []
    owners: list[tuple[int, int]] = []  # (group, case) of each task
    for gi, group in enumerate(problem.spec.groups):
        if group.cases is not None:
            width = max(2, len(str(len(group.cases))))
            made.append(
                [
                    RawCase(f"{ci + 1:0{width}d}", *_case_texts(c), c.answer is not None)
                    for ci, c in enumerate(group.cases)
                ]
            )
        elif group.generator is not None:
            assert parts.builtin is not None and parts.tables is not None
            assert group.count is not None and group.seed is not None
            generator = parts.builtin.generators[group.generator]
            texts = generator.make(
                random.Random(group.seed), group.count, parts.tables, {**generator.args, **group.args}
            )
            width = max(2, len(str(len(texts))))
            made.append([RawCase(f"{ci + 1:0{width}d}", t, None, False) for ci, t in enumerate(texts)])
        elif group.files is not None:
            made.append(_hand_written(problem.directory / group.files))
        else:
            assert group.generate is not None and group.count is not None and group.seed is not None
            built = parts.generator(split_generate(group.generate)[0])
            made.append([])
            for case in range(1, group.count + 1):
                args = generate_args(group.generate, group.seed, case)
                tasks.append(Task(built, args, None, parts.limits.sandbox_limits(built)))
                owners.append((gi, case))
    if tasks:
        if notify is not None:
            notify(f"{problem.id}: running generators on {len(tasks)} cases")
        results = programs.run_all(tasks, parts.jobs, parts.counting("generating", len(tasks)))
        for (gi, case), task, result in zip(owners, tasks, results, strict=True):
            group = problem.spec.groups[gi]
            assert group.count is not None
            width = max(2, len(str(group.count)))
            label = f"{group_label(problem, gi, group)} case {case:0{width}d}"
            why = programs.failure(result, task.built)
            if result.limit_hit == Limit.OUTPUT:
                why = f"printed more than the {parts.limits.output_bytes >> 20} MiB output limit"
            if why:
                command = " ".join([split_generate(group.generate or "")[0], *task.args])
                raise ProgramError(f"{label}: the generator `{command}` {why}")
            text = decode(result.stdout, f"{label}: the generator's output")
            if not text:
                raise ProgramError(f"{label}: the generator printed nothing")
            made[gi].append(RawCase(f"{case:0{width}d}", text, None, False))
    return made


def _hand_written(folder: Path) -> list[RawCase]:
    cases: list[RawCase] = []
    for path in sorted(folder.glob("*.in")):
        if not path.is_file():
            continue
        text = decode(_read(path), str(path))
        answer_path = path.with_suffix(".ans")
        answer = decode(_read(answer_path), str(answer_path)) if answer_path.is_file() else None
        cases.append(RawCase(path.stem, text, answer, False))
    return cases


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise ProgramError(f"{path}: cannot read: {err.strerror}") from None


def check_inputs(parts: Parts, items: Sequence[tuple[str, tuple[str, ...]]]) -> list[list[InputIssue]]:
    """The issues of each input (text, validator arguments): the built-in validator's, then
    each validator program's (exit 42 = valid; anything else invalid, its stderr shown)."""
    found: list[list[InputIssue]] = [[] for _ in items]
    if parts.builtin is not None:
        for index, (text, _) in enumerate(items):
            found[index] += parts.builtin.validate(text)
    tasks: list[Task] = []
    owners: list[tuple[int, Built]] = []
    for index, (text, args) in enumerate(items):
        for built in parts.validators:
            tasks.append(Task(built, args, text.encode(), parts.limits.sandbox_limits(built)))
            owners.append((index, built))
    ran = programs.run_all(tasks, parts.jobs, parts.counting("validating", len(tasks)))
    for (index, built), result in zip(owners, ran, strict=True):
        if result.exit_code == VALID and result.limit_hit is None:
            continue
        name = Path(built.label).name
        if result.exit_code == INVALID or (result.exit_code is not None and result.limit_hit is None):
            code = "" if result.exit_code == INVALID else f" (exit code {result.exit_code}, not 42)"
            # Validators tell why on stderr by convention; some write to stdout.
            tail = (
                programs.stderr_tail(result.stderr, built)
                or programs.stderr_tail(result.stdout, built)
                or " (no message)"
            )
            found[index].append(InputIssue(0, f"rejected by {name}{code}{tail}"))
        else:
            found[index].append(InputIssue(0, f"validator {name} {programs.failure(result, built)}"))
    return found


def solve(parts: Parts, texts: Sequence[str], labels: Sequence[str]) -> list[str]:
    """The reference's answer to each input; ProgramError naming the case when it fails."""
    if parts.builtin is not None:
        assert parts.tables is not None
        return [parts.builtin.solve(text, parts.tables) for text in texts]
    built = parts.reference
    assert built is not None
    tasks = [Task(built, (), text.encode(), parts.limits.sandbox_limits(built)) for text in texts]
    answers: list[str] = []
    for label, result in zip(
        labels, programs.run_all(tasks, parts.jobs, parts.counting("solving", len(tasks))), strict=True
    ):
        why = programs.failure(result, built)
        if why:
            raise ProgramError(f"{label}: the reference {Path(built.label).name} {why}")
        answers.append(decode(result.stdout, f"{label}: the reference's output"))
    return answers


def variant_params(problem: Problem, seed: int, label: str) -> dict[str, variants.Value]:
    """A variant's parameters, as the params program prints them for the variant's seed (none
    without a params program); JudgeError naming the spec and the variant when it fails."""
    assert problem.spec.variants is not None
    command = problem.spec.variants.params
    if command is None:
        return {}
    where = f"{problem.spec_path}: variants.params ({label})"
    words = split_generate(command)
    limits = problem.program_limits
    built = programs.load_and_build(problem.directory / GENERATORS_DIR / words[0], limits.memory_mib)
    args = tuple(word.format(seed=seed, case=1) for word in words[1:])
    [result] = programs.run_all([Task(built, args, None, limits.sandbox_limits(built))], 1)
    why = programs.failure(result, built)
    if why:
        raise ProgramError(f"{where}: `{' '.join([words[0], *args])}` {why}")
    return variants.parse_params(decode(result.stdout, where), where)
