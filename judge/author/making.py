"""Making a problem's tests: every case (input + reference answer), written to tests/ or
compared with what is there.

Generation is deterministic: the same spec and the same generators give byte-identical
files, so `judge gen --check` can tell committed tests from stale ones.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.author import parts
from judge.errors import JudgeError
from judge.kinds import table as kinds
from judge.problem import variants
from judge.problem.refs.base import InputIssue
from judge.problem.spec import Problem
from judge.problem.tables import TableSource
from judge.problem.testdata import ANSWER_SUFFIX, INPUT_SUFFIX
from judge.problem.yamlpos import YamlError
from judge.problem.yamlpos import load as load_yaml


@dataclass(frozen=True)
class TestCase:
    group: str
    name: str  # "01", "02", ... within the group
    input: str
    answer: str
    public: bool

    @property
    def id(self) -> str:
        return f"{self.group}/{self.name}"

    def path(self, tests_dir: Path, suffix: str) -> Path:
        return tests_dir / self.group / f"{self.name}{suffix}"


@dataclass(frozen=True)
class Difference:
    """A file of tests/ that does not match what the generator makes now."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def generate(
    problem: Problem,
    tables: TableSource | None = None,
    jobs: int = 1,
    notify: Callable[[str], None] | None = None,
    counter: parts.Counter | None = None,
) -> list[TestCase]:
    """Every test case of the problem, in spec order, answers from the reference (programs
    run `jobs` at a time; `counter` told as each run ends). JudgeError naming the group and
    case when a part fails."""
    if problem.spec.variants is not None and problem.variant is None:
        # tests/ of a problem of variants: the teacher's copy, with the parameters of seed 0.
        params = parts.variant_params(problem, variants.BASE_SEED, "tests/")
        spec = variants.variant_spec(problem.spec, None, params, str(problem.spec_path))
        problem = dataclasses.replace(problem, spec=spec)
    own = parts.load(problem, tables, jobs, counter)
    kind = kinds.of(problem)
    raw = parts.make_inputs(own, notify)
    where = problem.spec_path
    flat = [(gi, ci, case) for gi, cases in enumerate(raw) for ci, case in enumerate(cases)]
    groups = problem.spec.groups
    labels = [f"{where}: groups[{gi}] ({groups[gi].name}) case {case.name}" for gi, _, case in flat]
    if notify is not None and (own.validators or own.reference is not None):
        solving = " and solving" if kind.solves else ""
        notify(f"{problem.id}: validating{solving} {len(flat)} cases")
    issues = checked_inputs(problem, own, [(case.input, groups[gi].validator_args) for gi, _, case in flat])
    for label, found in zip(labels, issues, strict=True):
        if found:
            detail = "; ".join(f"input line {i.line}: {i.message}" if i.line else i.message for i in found)
            raise JudgeError(f"{label}: invalid input: {detail}")
    if not kind.solves:
        # The answer file is the spec's (or empty), kept as it is for the kind to use;
        # `judge verify` judges the reference on every case instead.
        answers = {i: case.answer or "" for i, (_, _, case) in enumerate(flat)}
    else:
        unsolved = [i for i, (_, _, case) in enumerate(flat) if case.answer is None or case.stated]
        solved = parts.solve(own, [flat[i][2].input for i in unsolved], [labels[i] for i in unsolved])
        answers = {i: kind.answer_text(answer, labels[i]) for i, answer in zip(unsolved, solved, strict=True)}
    cases: list[TestCase] = []
    for i, (gi, ci, case) in enumerate(flat):
        answer = answers.get(i, case.answer)
        assert answer is not None
        if case.stated and case.answer is not None and not kind.same_answer(problem, case.answer, answer):
            raise JudgeError(
                f"{_answer_place(problem, gi, ci)} case {case.name}: the spec's answer {case.answer.strip()!r} "
                f"differs from the reference's {answer.strip()!r}"
            )
        cases.append(TestCase(groups[gi].name, case.name, case.input, answer, groups[gi].visibility == "public"))
    return cases


def _answer_place(problem: Problem, group: int, case: int) -> str:
    """`problem.yaml:12: groups[0] (samples)`: where a stated answer is written, by its line."""
    name = problem.spec.groups[group].name
    try:
        line = load_yaml(problem.spec_path).line_of(("groups", group, "cases", case, "answer"))
    except YamlError:
        return f"{problem.spec_path}: groups[{group}] ({name})"
    return f"{problem.spec_path}:{line}: groups[{group}] ({name})"


def checked_inputs(
    problem: Problem, own: parts.Parts, items: list[tuple[str, tuple[str, ...]]]
) -> list[list[InputIssue]]:
    """Each input's issues: its kind's rules first (a function's call against its signature);
    the validators only see the inputs those rules let through."""
    kind = kinds.of(problem)
    found = [[InputIssue(0, message) for message in kind.input_issues(problem, text)] for text, _ in items]
    passing = [i for i, issues in enumerate(found) if not issues]
    for index, issues in zip(passing, parts.check_inputs(own, [items[i] for i in passing]), strict=True):
        found[index] = issues
    return found


def _expected_files(problem: Problem, cases: list[TestCase]) -> dict[Path, bytes]:
    files: dict[Path, bytes] = {}
    for case in cases:
        files[case.path(problem.tests_dir, INPUT_SUFFIX)] = case.input.encode()
        files[case.path(problem.tests_dir, ANSWER_SUFFIX)] = case.answer.encode()
    return files


def _existing_files(tests_dir: Path) -> set[Path]:
    if not tests_dir.is_dir():
        return set()
    return {p for p in tests_dir.rglob("*") if p.is_file() and p.suffix in (INPUT_SUFFIX, ANSWER_SUFFIX)}


def compare(problem: Problem, cases: list[TestCase]) -> list[Difference]:
    """What differs between tests/ on disk and the generated cases."""
    expected = _expected_files(problem, cases)
    found: list[Difference] = []
    for path, content in expected.items():
        try:
            if path.read_bytes() != content:
                found.append(Difference(path, "differs from what the generator makes now"))
        except FileNotFoundError:
            found.append(Difference(path, "missing"))
    for path in sorted(_existing_files(problem.tests_dir) - set(expected)):
        found.append(Difference(path, "not made by the generator (stale)"))
    return found


def write(problem: Problem, cases: list[TestCase], notify: Callable[[str], None] | None = None) -> int:
    """Bring tests/ in line with the cases; return how many files changed."""
    expected = _expected_files(problem, cases)
    changed = 0
    for path, content in expected.items():
        try:
            if path.read_bytes() == content:
                continue
        except FileNotFoundError:
            pass
        _write_atomic(path, content)
        changed += 1
    for path in sorted(_existing_files(problem.tests_dir) - set(expected)):
        if notify is not None:
            notify(f"removing stale {path}")
        path.unlink()
        changed += 1
        if path.parent != problem.tests_dir and not any(path.parent.iterdir()):
            path.parent.rmdir()
    return changed


def _write_atomic(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(content)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def prepare_data(
    problem: Problem, jobs: int = 1, progress: Callable[[int, int], None] | None = None
) -> tuple[Problem, str]:
    """What a problem whose submissions are data needs made before judging (a tests problem's
    mutants, once per machine), and the problem loaded again with it; "" when nothing."""
    kind = kinds.of(problem)
    under = kind.under_test(problem)
    if under is None:
        return problem, ""
    target = kinds.load_problem(under)
    said = kind.prepare_data(problem, target, kinds.of(target), jobs, progress)
    return (kinds.load_problem(problem.directory) if said else problem), said
