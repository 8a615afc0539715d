"""Run a problem's strict input validator over every test input on disk."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from judge.author import parts
from judge.author.making import checked_inputs
from judge.errors import JudgeError
from judge.problem.spec import Problem
from judge.problem.testdata import ANSWER_SUFFIX, INPUT_SUFFIX


@dataclass(frozen=True)
class FileIssue:
    path: Path
    line: int  # 1-based; 0 when the issue is about the file as a whole
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"


@dataclass(frozen=True)
class ValidationReport:
    problem: str
    files: int
    issues: tuple[FileIssue, ...]

    @property
    def ok(self) -> bool:
        return not self.issues


def read_text(path: Path) -> tuple[str | None, FileIssue | None]:
    """The file as text, or the reason it is not readable UTF-8 text."""
    try:
        data = path.read_bytes()
    except OSError as err:
        return None, FileIssue(path, 0, f"cannot read: {err.strerror}")
    if b"\0" in data:
        return None, FileIssue(path, data[: data.index(b"\0")].count(b"\n") + 1, "binary data (NUL byte)")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as err:
        return None, FileIssue(path, data[: err.start].count(b"\n") + 1, "not UTF-8 text")


def duplicate_inputs(problem: Problem) -> list[str]:
    """Warnings for test inputs that are byte for byte another one's (a generator that ignores
    its seed, say): each names both files. Not an error: a problem may mean it. A sample
    repeated among the secret cases is no warning: packages do that on purpose, so that the
    secret verdict covers the samples too."""
    tests_dir = problem.tests_dir
    public = {group.name for group in problem.spec.groups if group.visibility == "public"}
    first: dict[tuple[bool, bytes], Path] = {}
    found = []
    for path in sorted(tests_dir.rglob(f"*{INPUT_SUFFIX}")) if tests_dir.is_dir() else []:
        try:
            digest = hashlib.sha256(path.read_bytes()).digest()
        except OSError:
            continue  # validate_problem names an unreadable file
        key = (path.relative_to(tests_dir).parts[0] in public, digest)
        if key in first:
            found.append(f"{path}: the same input as {first[key]}")
        else:
            first[key] = path
    return found


def statement_samples(problem: Problem) -> list[str]:
    """Warnings for samples of a Markdown statement that the spec's public cases do not hold:
    an input no public case has, or an output that is not that case's answer (compared token by
    token, as the default checker does). Students copy the statement's samples; a test that
    says otherwise is a bug of the statement or of the spec."""
    from judge.kinds import table as kinds
    from judge.problem import markup
    from judge.problem.testdata import load_cases

    path = problem.statement_path
    if path.suffix.lower() == ".md" and problem.spec.signature is not None:  # a function problem's calls
        return statement_calls(problem)
    if path.suffix.lower() != ".md" or not kinds.of(problem).samples_are_cases:
        return []  # an interactive problem's samples are a dialogue
    try:
        text = path.read_text(encoding="utf-8")
        cases = [c for c in load_cases(problem) if c.public]
        by_tokens = {tuple(c.input.read_text(encoding="utf-8", errors="replace").split()): c for c in cases}
    except (OSError, UnicodeDecodeError, JudgeError):
        return []  # the spec and data checks name these
    found, problem_text = markup.samples(text)
    if problem_text:
        return [f"{path}: {problem_text}"]
    notes = []
    for sample in found:
        case = by_tokens.get(tuple(sample.input.split()))
        if case is None:
            notes.append(f"{path}:{sample.line}: the statement's sample input is not the input of any public case")
        elif case.answer.read_text(encoding="utf-8", errors="replace").split() != sample.output.split():
            notes.append(f"{path}:{sample.line}: the statement's sample output differs from {case.answer}")
    return notes


_CALL_ROW = re.compile(r"^\|\s*`([A-Za-z_][A-Za-z0-9_]*\(.*\))`\s*\|(.*)\|\s*$")


def _plain(text: str) -> str:
    return "".join(text.replace("`", "").split())


def statement_calls(problem: Problem) -> list[str]:
    """Warnings for a function statement's sample table (`| `f(1)` | `2` |` rows) that the
    spec's public cases do not hold: a call no public case makes, or another value (issue 59:
    a wrong value in the table went unnoticed while the page showed the spec's)."""
    from judge.kinds import table as kinds
    from judge.problem.testdata import load_cases

    path = problem.statement_path
    kind = kinds.of(problem)
    try:
        text = path.read_text(encoding="utf-8")
        cases = [c for c in load_cases(problem) if c.public]
        read = [(c.input.read_text(encoding="utf-8"), c.answer.read_text(encoding="utf-8")) for c in cases]
    except (OSError, UnicodeDecodeError, JudgeError):
        return []  # the spec and data checks name these
    spec: dict[str, str] = {}
    for given, answer in read:
        made = kind.sample_call(problem, given, answer, "python3")
        if made is not None:
            spec[_plain(made[0])] = made[1]
    notes = []
    for number, line in enumerate(text.splitlines(), start=1):
        row = _CALL_ROW.match(line)
        if row is None:
            continue
        call, stated = row.group(1), row.group(2)
        if _plain(call) not in spec:
            notes.append(f"{path}:{number}: the statement's sample {call} is no public case's call")
        elif _plain(stated) != _plain(spec[_plain(call)]):
            notes.append(
                f"{path}:{number}: the statement says {call} gives {stated.strip()}, the public case {spec[_plain(call)]}"
            )
    return notes


def validate_problem(problem: Problem, jobs: int = 1) -> ValidationReport:
    """Every input under tests/ against the built-in validator and the validator programs
    (with its group's arguments); a validator that does not build is one issue."""
    tests_dir = problem.tests_dir
    inputs = sorted(tests_dir.rglob(f"*{INPUT_SUFFIX}")) if tests_dir.is_dir() else []
    issues: list[FileIssue] = []
    if not inputs:
        issues.append(FileIssue(tests_dir, 0, "no test inputs (run `judge gen`)"))
    try:
        own = parts.load(problem, None, jobs)
    except JudgeError as err:
        return ValidationReport(problem.id, len(inputs), (*issues, FileIssue(problem.spec_path, 0, str(err))))
    args = {group.name: group.validator_args for group in problem.spec.groups}
    readable: list[tuple[Path, str]] = []
    for path in inputs:
        if not path.with_suffix(ANSWER_SUFFIX).is_file():
            issues.append(FileIssue(path, 0, f"no answer file {path.with_suffix(ANSWER_SUFFIX).name}"))
        text, problem_reading = read_text(path)
        if problem_reading is not None:
            issues.append(problem_reading)
            continue
        assert text is not None
        readable.append((path, text))
    found = checked_inputs(problem, own, [(text, args.get(path.parent.name, ())) for path, text in readable])
    for (path, _), mine in zip(readable, found, strict=True):
        issues += [FileIssue(path, i.line, i.message) for i in mine]
    return ValidationReport(problem.id, len(inputs), tuple(issues))
