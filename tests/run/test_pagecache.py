"""The page cache is one cache for the whole machine: what a secret case reads, a later run can
time (docs/sandbox.md, "The page cache"). tests/programs/pagecache/prober.c plays both sides:
a secret case that reads one page of a file under /usr per bit of its input (from one thread,
or from a thread on each CPU), or looks up missing names (the dentry cache), and a sample case
of a later submission that times a read of each page, or the look-ups, and prints the bits,
which its student sees. Where a run has a cgroup of its own, a secret case's reads are evicted
as it ends and the reader finds every page and name as it was before; elsewhere the bits cross,
as the docs say. The calls that would evict a page, or tell whether one is cached without a
clock, are refused in every sandbox (sandbox.filters)."""

from __future__ import annotations

import os
import platform
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.run import build, cgroups, sandbox
from judge.run.sandbox import filters
from tests import needs
from tests.conftest import REPO
from tests.run.conftest import needs_bwrap
from tests.run.test_cgroups import resident_bytes
from tests.test_cli import judge

PROGRAMS = REPO / "tests" / "programs" / "pagecache"
BITS = 128
SECRETS = ("ffff0000ffff0000aaaaaaaa55555555", "0000ffff0000ffff55555555aaaaaaaa")
LAYERS = sandbox.detect()
FORGETS = LAYERS.cgroup.active  # a secret case's reads are evicted through its cgroup
LIMITS = sandbox.RunLimits(cpu_s=2, wall_s=5, memory_mib=64, output_bytes=1 << 20)
pytestmark = needs_bwrap


def _evicted(path: Path) -> bool:
    """Evict `path` from the page cache (the test runs outside any sandbox); whether it is out.
    mincore tells the page cache only to whoever may write the file (to anyone else it says
    every page is there): without root, each test's reading of the bits before the defence
    shows the eviction worked."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return resident_bytes(path) == 0 if os.access(path, os.W_OK) else True


@pytest.fixture
def probed() -> Path:
    """A file under /usr of BITS pages or more that nothing maps (so it can be evicted), out of
    the page cache: the first such file in name order under /usr/share, then /usr/lib."""
    for top in ("/usr/share", "/usr/lib"):
        for folder, subfolders, names in os.walk(top):
            subfolders.sort()
            for name in sorted(names):
                path = Path(folder, name)
                if ".so" in name or path.is_symlink() or not path.is_file():
                    continue
                if path.stat().st_size >= BITS * os.sysconf("SC_PAGE_SIZE") and _evicted(path):
                    return path
    pytest.skip("no file under /usr/share or /usr/lib of 128 pages that can be evicted")


@pytest.fixture(scope="module")
def prober(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """prober.c built once (in the sandbox, as any submission)."""
    built = tmp_path_factory.mktemp("prober")
    with build.box() as where:
        compiled = build.compile_submission(build.load_submission(PROGRAMS / "prober.c"), where)
        assert compiled.ok, compiled.message
        shutil.copy2(where / "main", built / "main")
    return built / "main"


def _submission(prober: Path, stdin: Path, forget_reads: bool) -> str:
    """One submission's sandbox (a session where the machine has one, else one per case) with
    the prober in its box, run once on `stdin`; what it printed."""
    with build.box() as where:
        shutil.copy2(prober, where / "main")
        sandbox.seal_build(where)
        with sandbox.cases(where) as runner:
            run = runner.run(["./main"], limits=replace(LIMITS, forget_reads=forget_reads), stdin=stdin)
    assert run.ok, run
    return run.stdout.decode()


def _read_back(said: str) -> tuple[str, int]:
    """The bits a reader printed (hex) and how many pages it found cached."""
    bits, counts = said.splitlines()[:2]
    return bits, int(counts.split()[1])


def _across(prober: Path, tmp_path: Path, sides: tuple[str, str], forget_reads: bool) -> str:
    """A secret case plays `sides[0]` (its input), then another submission `sides[1]`; what the
    second printed."""
    (tmp_path / "secret.in").write_text(sides[0] + "\n")
    (tmp_path / "sample.in").write_text(sides[1] + "\n")
    assert _submission(prober, tmp_path / "secret.in", forget_reads) == "written\n"
    return _submission(prober, tmp_path / "sample.in", False)


def _agree(one: str, other: str) -> int:
    return BITS - bin(int(one, 16) ^ int(other, 16)).count("1")


@pytest.mark.parametrize("writer", ["w", "t"])
def test_a_secret_case_s_reads_reach_no_later_submission(
    prober: Path, probed: Path, tmp_path: Path, case_path: str, writer: str
) -> None:
    """The pages a secret case reads ("t": from a thread on each CPU, so that some wait in
    a CPU's batch on their way to the lists the kernel reclaims from as the case ends)."""
    for secret in SECRETS:
        sides = (f"{writer} {probed} {secret}", f"r {probed} {BITS}")
        # As it was: the reader reads the secret back (nearly) whole.
        assert _evicted(probed)
        bits, cached = _read_back(_across(prober, tmp_path, sides, forget_reads=False))
        assert _agree(bits, secret) >= BITS - 8, (bits, secret)
        # The defence: the secret case's reads are evicted as it ends, and the reader finds
        # no page cached, whatever the secret was; without a cgroup the bits still cross.
        assert _evicted(probed)
        bits, cached = _read_back(_across(prober, tmp_path, sides, forget_reads=True))
        if FORGETS:
            assert cached <= 2, (bits, secret)
        else:
            assert _agree(bits, secret) >= BITS - 8, (bits, secret)


def test_the_names_a_secret_case_looked_up_reach_no_later_submission(
    prober: Path, tmp_path: Path, case_path: str
) -> None:
    """The dentry cache: a secret case looks up 64 missing names per bit that is set, and a
    later run times the look-ups of each bit's names. The kernel charges those dentries to the
    case's cgroup too, and forgetting it drops them: the reader tells the bits at chance.
    Right after the drop the CPU's caches still hold the lines it touched, and one reading in
    a few tells part of the bits (docs/sandbox.md, "What is left"), so a forgotten case is
    judged by the median of five readings: the dentries themselves must be gone. Where nothing
    is forgotten the channel must show, in one reading of up to five (a busy machine's timing
    noise blurs a single one: 99 of 128 once in CI's pre-check)."""
    secret = SECRETS[0]
    for forget_reads in (False, True):
        forgotten = forget_reads and FORGETS
        agreed: list[int] = []
        while len(agreed) < 5 and (forgotten or not agreed or max(agreed) < BITS - 28):
            prefix = f"/usr/lib/judge-probe-{os.urandom(6).hex()}"  # names no one has looked up
            said = _across(prober, tmp_path, (f"d {prefix} {secret}", f"l {prefix} {BITS}"), forget_reads)
            agreed.append(_agree(said.split()[0], secret))
        if forgotten:
            assert sorted(agreed)[len(agreed) // 2] < BITS - 28, agreed  # chance is 64 of 128 (5.7 either way)
        else:
            assert max(agreed) >= BITS - 28, (agreed, said)


@pytest.mark.skipif(not FORGETS, reason=f"no cgroup: {LAYERS.cgroup.detail}")
@needs.mark("root", because="mincore tells the page cache of /usr's files to root only")
def test_a_group_forgets_what_its_run_brought_in_and_nothing_else(probed: Path, tmp_path: Path) -> None:
    """A run reads a file that was out of the page cache and one that was in it (read by the
    test, so charged to the test's cgroup). Forgetting its group evicts the first and leaves
    the second: the page cache is as it was before the run."""
    kept = tmp_path / "kept"
    kept.write_bytes(os.urandom(64 << 10))
    kept.read_bytes()
    group = cgroups.run_group(LAYERS.cgroup_version, 64 << 20, 16)
    try:
        reader = os.fork()
        if reader == 0:  # the run: joins the group, then reads both
            for join in group.join_files():
                with open(join, "w") as stream:
                    stream.write("0")
            probed.read_bytes()
            kept.read_bytes()
            os._exit(0)
        os.waitpid(reader, 0)
        assert resident_bytes(probed) > 0 and resident_bytes(kept) == 64 << 10
        assert group.forget()
        assert resident_bytes(probed) == 0, "what the run brought in is evicted"
        assert resident_bytes(kept) == 64 << 10, "what was cached before stays"
    finally:
        group.remove()


def _problem(problems: Path, name: str, cases: str) -> None:
    problem = problems / name
    (problem / "solutions").mkdir(parents=True)
    (problem / "statement.md").write_text("Print nothing.\n")
    (problem / "solutions" / "reference.py").write_text("print('nothing')\n")
    (problem / "problem.yaml").write_text(
        f"id: {name}\ntitle: {name}\nsource: the judge's tests\nreference: solutions/reference.py\n"
        f"limits: {{time_s: 2.0, memory_mib: 64}}\ngroups:\n{cases}"
    )


def test_grading_forgets_what_a_secret_case_read(probed: Path, tmp_path: Path) -> None:
    """Through the grading of two submissions: the first's secret case writes, the second's
    sample case (whose output its student sees) reads."""
    from judge.grade import runner

    problems = tmp_path / "problems"
    _problem(
        problems,
        "writes",
        '  - {name: sample, visibility: public, points: 1, cases: [{input: "nothing\\n"}]}\n'
        f'  - {{name: hidden, visibility: secret, points: 1, cases: [{{input: "w {probed} {SECRETS[0]}\\n"}}]}}\n',
    )
    _problem(
        problems,
        "reads",
        f'  - {{name: sample, visibility: public, points: 1, cases: [{{input: "r {probed} {BITS}\\n"}}]}}\n',
    )
    made = judge("--problems", str(problems), "gen")
    assert made.returncode == 0, made.stdout + made.stderr
    submission = build.load_submission(PROGRAMS / "prober.c")
    assert _evicted(probed)
    for name in ("writes", "reads"):
        problem = load_problem(problems / name)
        judged = runner.judge_submission(problem, submission, testdata.load_cases(problem), full=True)
    [sample] = judged.cases
    assert sample.output is not None  # a public case's output: its student sees it
    bits, cached = _read_back(sample.output.decode())
    if FORGETS:
        assert cached <= 2, bits
    else:
        assert _agree(bits, SECRETS[0]) >= BITS - 8, bits


def test_calls_that_evict_or_probe_the_page_cache_are_refused(case_path: str) -> None:
    if not filters.support().active:
        pytest.skip(filters.support().detail)
    with build.box() as where:
        compiled = build.compile_submission(build.load_submission(PROGRAMS / "evict.c"), where)
        assert compiled.ok, compiled.message
        with sandbox.cases(where) as runner:
            run = runner.run(["./main"], limits=LIMITS)
    assert run.ok, run
    said = dict(line.split() for line in run.stdout.decode().splitlines())
    eperm, unsupported = str(1), str(95)  # EPERM, EOPNOTSUPP
    refused = [
        "fadvise_dontneed",
        "fadvise_dontneed_high",
        "madvise_cold",
        "madvise_pageout",
        "madvise_pageout_high",
        "mincore",
        "cachestat",
        "io_uring_setup",
    ]
    assert {call: said[call] for call in refused} == dict.fromkeys(refused, eperm)
    assert said["preadv2_nowait"] == unsupported
    allowed = ["fadvise_sequential", "fadvise_willneed", "madvise_willneed", "madvise_dontneed", "preadv2", "readahead"]
    assert {call: said[call] for call in allowed} == dict.fromkeys(allowed, "0")
    if platform.machine() == "x86_64":  # the i386 ABI's fadvise64_64, through int 0x80
        assert said["i386_fadvise64_64"] == eperm


def test_doctor_says_whether_a_secret_case_s_reads_are_forgotten() -> None:
    shown = sandbox.page_cache_support(LAYERS)
    assert shown.name == "page cache" and shown.active == FORGETS
    assert ("is evicted as it ends" if FORGETS else "a later run can time it") in shown.detail
