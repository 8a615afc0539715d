"""What runs on a judge worker. A worker never sees the teacher's folders: a problem's
spec, tests and programs arrive as one archive named by its content hash and are unpacked
once per machine into the cache; a submission arrives as its bytes, is compiled on one
worker, and its build travels (by dask, worker to worker) to the others, unpacked once per
worker. What goes back is a CaseResult for each case: for a secret case, its verdict and figures only."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import tempfile
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from judge import paths
from judge.author.verify import Solution, SolutionRun
from judge.cluster import needs, untar
from judge.grade.runner import CaseResult
from judge.problem.spec import TESTS_DIR, Problem, ProblemSpec
from judge.problem.testdata import ANSWER_SUFFIX, INPUT_SUFFIX, CaseFiles
from judge.run import lifecycle, sandbox
from judge.run.build import Build
from judge.run.sources import Launch, Sources

BUILDS_KEPT = 64  # unpacked builds a worker keeps (the class's recent submissions)


@dataclass(frozen=True)
class ProblemData:
    """A problem as it travels: the spec, and an archive of what judging reads."""

    digest: str  # Problem.digest: spec, tests and programs
    spec: ProblemSpec
    archive: bytes


@dataclass(frozen=True)
class CaseRef:
    group: str
    name: str
    public: bool


@dataclass(frozen=True)
class RemoteCompiled:
    """A submission built on a worker; `archive` (the box after compiling) is empty on CE."""

    build: Build
    digest: str
    archive: bytes
    sandbox_mode: str


@dataclass(frozen=True)
class RemoteBuild:
    """What the client is told of a build: not the build itself, which stays on the cluster."""

    build: Build
    sandbox_mode: str


def _tar(root: Path, paths: list[Path], dereference: bool = False, named: dict[Path, str] | None = None) -> bytes:
    """The files as an uncompressed tar. A build is archived as it is (a link in a box stays a
    link, and unpacking refuses one that leads out); a problem's files by their content.
    `named`: files outside `root` and the names they take in the archive."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", dereference=dereference) as archive:
        for path in sorted(set(paths)):
            # Fixed metadata: the same files make the same bytes.
            name = (named or {}).get(path) or str(path.relative_to(root))
            info = archive.gettarinfo(str(path), arcname=name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if info.isfile():
                with path.open("rb") as stream:
                    archive.addfile(info, stream)
            else:
                archive.addfile(info)
    return buffer.getvalue()


def pack_problem(problem: Problem, digest: str) -> ProblemData:
    """Client side: the spec file, every test file and every program of the problem. A
    student's variant goes as its own tests/ and spec: the host judges it as any problem,
    never told the salt it was drawn with."""
    tests = [p for p in problem.tests_dir.rglob("*") if p.is_file()]
    named = {p: str(Path(TESTS_DIR) / p.relative_to(problem.tests_dir)) for p in tests}
    files = [problem.spec_path, *tests]
    for program in problem.program_paths():
        files += [program, *program.rglob("*")] if program.is_dir() else [program]
    kept = [p for p in files if p.is_file()]
    return ProblemData(digest, problem.spec, _tar(problem.directory, kept, dereference=True, named=named))


def _unpack(archive: bytes, target: Path) -> None:
    """Unpack into `target` atomically: a folder named after a hash is whole or absent."""
    if target.is_dir():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        untar.extract(archive, staging)
        try:
            os.rename(staging, target)
        except OSError:
            if not target.is_dir():  # another worker of this machine won the race otherwise
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


_problems: dict[str, Problem] = {}


def problem_here(data: ProblemData) -> Problem:
    """The problem in this machine's cache (unpacked by the first worker that needs it)."""
    found = _problems.get(data.digest)
    if found is None or not found.directory.is_dir():  # a cleared cache is filled again
        # Named by the hash of what arrived, not of what the client says it sent.
        name = hashlib.sha256(data.archive).hexdigest()
        folder = Path(paths.cache_dir()) / "cluster" / "problems" / name
        _unpack(data.archive, folder)
        found = _problems[data.digest] = Problem(folder, data.spec)
    return found


class _Builds:
    """The builds unpacked in this worker process, the most recent BUILDS_KEPT of them."""

    def __init__(self) -> None:
        self.root: Path | None = None
        self.kept: OrderedDict[str, Path] = OrderedDict()

    def get(self, compiled: RemoteCompiled) -> Path:
        if self.root is None:
            self.root = lifecycle.make_temp_dir("builds")
            lifecycle.remove_at_exit(self.root)
        folder = self.kept.get(compiled.digest)
        if folder is None or not folder.is_dir():
            folder = self.root / compiled.digest
            _unpack(compiled.archive, folder)
            self.kept[compiled.digest] = folder
        self.kept.move_to_end(compiled.digest)
        while len(self.kept) > BUILDS_KEPT:
            _, old = self.kept.popitem(last=False)
            lifecycle.remove_tree(old)
        return folder


_builds = _Builds()


def compile_remote(data: ProblemData, submission: Sources) -> RemoteCompiled:
    """Compile a submission (its files, identified by the client) here; its box after
    compiling, archived, is the build."""
    from judge.grade import runner
    from judge.run import build

    problem = problem_here(data)
    with build.box() as where:
        made = runner.compile_for(problem, submission, where)
        archive = _tar(where, list(where.rglob("*"))) if made.ok else b""
    digest = hashlib.sha256(archive).hexdigest()
    return RemoteCompiled(made, digest, archive, sandbox.detect().mode)


def told(compiled: RemoteCompiled) -> RemoteBuild:
    return RemoteBuild(compiled.build, compiled.sandbox_mode)


def cases_remote(
    data: ProblemData,
    compiled: RemoteCompiled,
    launch: Launch,
    cases: tuple[CaseRef, ...],
    limits: sandbox.RunLimits,
    full: bool = False,
) -> list[CaseResult]:
    """Run cases of a compiled submission here, one after another (a batch of grading's:
    runner.run_cases_from)."""
    from judge.grade import runner

    problem = problem_here(data)
    files: list[tuple[CaseFiles, sandbox.Stop | None]] = []
    for case in cases:
        folder = problem.tests_dir / case.group
        input_file, answer = folder / f"{case.name}{INPUT_SUFFIX}", folder / f"{case.name}{ANSWER_SUFFIX}"
        files.append((CaseFiles(case.group, case.name, input_file, answer, case.public), None))
    return runner.run_cases_from(problem, launch, _builds.get(compiled), files, limits, full)


def verify_solution(data: ProblemData, solution: Solution, filename: str, source: bytes) -> SolutionRun:
    """Run one of a problem's solutions here as `judge verify` does; the result names the
    client's file, not the copy made here."""
    from judge.author import verify

    problem = problem_here(data)
    with tempfile.TemporaryDirectory(prefix="judge-source-") as folder:
        path = Path(folder) / Path(filename).name
        path.write_bytes(source)
        run = verify.run_solution_of(problem, replace(solution, path=path))
    here, there = str(path), str(solution.path)
    return replace(
        run,
        solution=solution,
        error=run.error.replace(here, there),
        compiler_output=run.compiler_output.replace(here, there),
    )


OFFER_ENV = "JUDGE_WORKER_OFFER"  # what `judge worker` found at start, for its worker processes


@lru_cache(maxsize=1)
def offer() -> needs.Offer:
    """What this worker has (for the client's one line on a worker it cannot use): what
    `judge worker` probed at start, else probed now."""
    given = os.environ.get(OFFER_ENV)
    if given:
        return needs.Offer.from_json(given)
    return needs.local_offer()
