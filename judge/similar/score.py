"""`judge similar`: for each problem, every pair of a class's submissions scored by how alike
their code is (judge.similar.fingerprints), the code the teacher handed out left out.

A score is a reason to look at two programs side by side, not a verdict: two students who
both write the textbook BFS get a fair score too.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.grade import grading
from judge.run import sources
from judge.similar import fingerprints


@dataclass(frozen=True)
class Fingerprinted:
    student: str
    problem: str
    path: Path
    language: str
    source: str
    tokens: fingerprints.Tokens
    print: fingerprints.Fingerprint


@dataclass(frozen=True)
class Pair:
    problem: str
    a: Fingerprinted
    b: Fingerprinted
    score: float
    a_shared: tuple[tuple[int, int], ...]  # the parts of a's source that b shares
    b_shared: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Similarity:
    pairs: tuple[Pair, ...]  # by problem, then highest score first
    programs: tuple[Fingerprinted, ...]
    skipped: tuple[tuple[Path, str], ...]  # files not compared, and why
    boilerplate: tuple[Path, ...]


def _fingerprint(path: Path, common: frozenset[int]) -> tuple[str, str, fingerprints.Tokens, fingerprints.Fingerprint]:
    # Read as a submission is: JudgeError (one line) when empty, binary, too big or not UTF-8.
    submission = sources.read(path, build_scripts="ignore")
    source = submission.joined()
    found = fingerprints.tokens(source, fingerprints.lexer_for(submission.language.id))
    return submission.language.id, source, found, fingerprints.without(fingerprints.fingerprint(found), common)


def boilerplate_hashes(paths: Sequence[Path]) -> frozenset[int]:
    """The fingerprints of the code handed out; JudgeError (one line) for a file unfit."""
    hashes: set[int] = set()
    for path in paths:
        _, _, _, print_ = _fingerprint(path, frozenset())
        hashes |= print_.hashes
    return frozenset(hashes)


def compare(
    submissions_dir: Path,
    problem_ids: Sequence[str],
    boilerplate: Sequence[Path] = (),
    together: Collection[frozenset[str]] = (),
) -> Similarity:
    """Every pair of submissions of each problem, scored; files that are not submissions, or
    cannot be read as source, are listed and left out. Two students of one set of `together`
    (a team's members) are no pair: their code is alike by design."""
    common = boilerplate_hashes(boilerplate)
    programs: list[Fingerprinted] = []
    skipped: list[tuple[Path, str]] = []
    for entry in grading.discover(submissions_dir, problem_ids):
        if entry.problem_error:
            skipped.append((entry.path, entry.problem_error))
            continue
        try:
            language, source, found, print_ = _fingerprint(entry.path, common)
        except JudgeError as error:
            skipped.append((entry.path, str(error).removeprefix(f"{entry.path}: ")))
            continue
        programs.append(Fingerprinted(entry.student, entry.problem, entry.path, language, source, found, print_))
    pairs: list[Pair] = []
    for problem in sorted({p.problem for p in programs}):
        mine = sorted((p for p in programs if p.problem == problem), key=lambda p: p.student)
        scored = [
            Pair(
                problem,
                a,
                b,
                round(fingerprints.score(a.print, b.print), 4),
                tuple(fingerprints.shared_spans(a.print, a.tokens, b.print)),
                tuple(fingerprints.shared_spans(b.print, b.tokens, a.print)),
            )
            for a, b in itertools.combinations(mine, 2)
            if not any(a.student in group and b.student in group for group in together)
        ]
        pairs += sorted(scored, key=lambda pair: (-pair.score, pair.a.student, pair.b.student))
    return Similarity(tuple(pairs), tuple(programs), tuple(skipped), tuple(boilerplate))
