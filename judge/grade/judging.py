"""One way to judge a submission, whoever asks: `judge grade` and `judge run`, the web judge's
workers and the Gradescope autograder. A submission is identified once (its files read, its
language and entry found), keeps the name its student gave it in every message and record,
and is judged by the runner; what cannot be judged gets its NG or IE record here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from judge.errors import JudgeError
from judge.grade import results
from judge.kinds import table as kinds
from judge.problem.spec import Problem
from judge.run import languages, sandbox, sources
from judge.run.sources import Sources

if TYPE_CHECKING:
    from judge.grade.runner import CaseResult


@dataclass(frozen=True)
class Submitted:
    """A submission identified once: whose, for which problem, the name it goes by, its files."""

    student: str
    problem: Problem
    shown: str  # the name reports give it: its path in the class folder, or the uploaded file's name
    sources: Sources | None  # None: it cannot be judged, `error` says why (NG: the student's to fix)
    error: str
    language: str  # its language's id, "" when none is known
    content_hash: str  # the source, its language and the problem: a result is kept while it holds
    # A submission of a kind that takes data (a student's tests): what it was given, read and
    # checked already; judged whole by its kind (Kind.judge_data), never compiled.
    data: Path | tuple[str, bytes] | None = None


def source_hash(source: bytes, language: str, problem_digest: str) -> str:
    digest = hashlib.sha256(source)
    digest.update(f"\0{language}\0{problem_digest}\0{results.SCHEMA}".encode())
    return digest.hexdigest()


def language_of(path: Path) -> str:
    """The language id of a submission on disk, or "" when the judge knows none for it (an
    unknown extension; a folder or an archive it cannot read)."""
    try:
        if path.is_dir() or sources.is_archive(path):
            return sources.read(path, build_scripts="ignore").language.id
        return languages.load().detect(path).id
    except JudgeError:
        return ""


def identify(
    problem: Problem,
    given: Path | tuple[str, bytes],
    student: str,
    language_id: str | None = None,
    full: bool = False,
) -> Submitted:
    """Read and identify a submission: a file, folder or archive on disk, or (name, bytes) as
    uploaded (nothing written to disk, every message naming the student's file). `full`: it is
    judged in full (no group ends early), which its hash keeps apart from a lazy judging."""
    build_scripts: sources.BuildScripts = "use" if problem.spec.build_script else "refuse"
    digest = problem.digest + ("+full" if full else "")
    if kinds.of(problem).takes_data:
        return _identify_data(problem, given, student, digest)
    try:
        if isinstance(given, Path):
            found = sources.read(given, sources.SUBMISSION_CAPS, language_id, build_scripts)
        else:
            found = sources.from_upload(given[0], given[1], sources.SUBMISSION_CAPS, language_id, build_scripts)
        error = ""
    except JudgeError as err:  # empty, binary, an unknown language: the file's fault, not the judge's
        found, error = None, str(err)
    if isinstance(given, Path):
        # One file's fingerprint is its bytes, read already; a folder's covers every file in it.
        read = found.files[0][1] if found is not None and found.single else None
        shown, fingerprint = str(given), read if read is not None else sources.fingerprint(given)
        language = found.language.id if found is not None else language_id or language_of(given)
    else:
        shown, fingerprint = str(found.path) if found is not None else Path(given[0]).name, given[1]
        language = found.language.id if found is not None else language_id or ""
    return Submitted(student, problem, shown, found, error, language, source_hash(fingerprint, language, digest))


def _identify_data(problem: Problem, given: Path | tuple[str, bytes], student: str, digest: str) -> Submitted:
    """A submission that is data (a student's tests): read and checked by its kind; its hash
    covers the problem under test too (a bug added there judges it again)."""
    kind = kinds.of(problem)
    shown = str(given) if isinstance(given, Path) else Path(given[0]).name
    under = kind.under_test(problem)
    try:
        fingerprint, error = kind.read_data(problem, given), ""
        if under is not None:
            digest += kinds.load_problem(under).digest
    except JudgeError as err:
        fingerprint, error = b"", str(err)
    data = given if not error else None
    return Submitted(student, problem, shown, None, error, kind.name, source_hash(fingerprint, kind.name, digest), data)


def identified(problem: Problem, record: bytes, upload: tuple[str, bytes], student: str, language_id: str) -> Submitted:
    """An upload the web judge identified at its door and kept (sources.as_record): judged as
    identified there, no rule applied again; its hash is the one `identify` gives the upload."""
    try:
        found, error = sources.from_record(record), ""
    except JudgeError as err:  # its language left languages.yaml since: the file's state, said
        found, error = None, str(err)
    shown = str(found.path) if found is not None else Path(upload[0]).name
    language = found.language.id if found is not None else language_id
    return Submitted(student, problem, shown, found, error, language, source_hash(upload[1], language, problem.digest))


def unrunnable(submitted: Submitted, here: bool = True) -> results.GradeRecord | None:
    """The record of a submission that cannot be judged at all (NG: unreadable, empty, binary;
    IE: its language's toolchain is not on this machine), else None. The toolchain is looked
    for only when the cases run `here` (judge hosts have their own)."""
    problem = submitted.problem
    # Who and what, as either record names them.
    named = (
        submitted.student,
        problem.id,
        submitted.shown,
        submitted.language,
        submitted.content_hash,
        problem.max_score,
    )
    if submitted.data is not None:
        return None
    if submitted.sources is None:
        return results.not_graded(*named, submitted.error)
    why = submitted.sources.language.missing() if here else ""
    if why:
        return results.failed(*named, why, sandbox.detect().mode)
    return None


def judge(
    submitted: Submitted,
    on_case: Callable[[int, CaseResult], None] | None = None,
    on_compiled: Callable[[], None] | None = None,
    full: bool = False,
    trace: bool = False,
    done: tuple[CaseResult, ...] = (),
    pause: Callable[[], bool] | None = None,
) -> results.GradeRecord:
    """Judge it here, case after case, into its record (unrunnable's when it cannot be judged).
    runner.Paused when `pause` asked for the turn between two cases."""
    from judge.grade import runner  # the sandbox's machinery: loaded by those who judge here
    from judge.problem import testdata

    found = unrunnable(submitted)
    if found is not None:
        return found
    if submitted.data is not None:
        return _judge_data(submitted, submitted.data)
    assert submitted.sources is not None
    problem = submitted.problem
    result = runner.judge_submission(
        problem,
        submitted.sources,
        testdata.load_cases(problem),
        on_case=on_case,
        on_compiled=on_compiled,
        full=full,
        trace=trace,
        done=done,
        pause=pause,
    )
    return results.from_result(submitted.student, submitted.content_hash, result, problem.variant or "")


def _judge_data(submitted: Submitted, given: Path | tuple[str, bytes]) -> results.GradeRecord:
    """A data submission judged whole by its kind against the problem under test; IE when the
    judge could not (the problem under test or its programs broken: never the student's)."""
    from judge.grade import runner

    problem = submitted.problem
    try:
        result = runner.judge_data(problem, submitted.shown, given)
    except JudgeError as err:
        named = (submitted.student, problem.id, submitted.shown, submitted.language, submitted.content_hash)
        return results.failed(*named, problem.max_score, str(err), sandbox.detect().mode)
    return results.from_result(submitted.student, submitted.content_hash, result, problem.variant or "")
