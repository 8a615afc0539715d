"""Nothing a case leaves in the kernel reaches another case or another student: SysV message
queues, shared memory and semaphores, POSIX message queues, the user keyring (sandbox.filters)
and abstract sockets. Hostile programs in C and Python (tests/programs/leftovers/) look for what
an earlier run left, print what they found, then leave all of it behind; a problem whose answer
is always "nothing" turns a crossing into a WA. Memory held in shared memory counts against the
case that holds it."""

from __future__ import annotations

import json
import platform
from pathlib import Path

import pytest

from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.run import build, sandbox
from judge.run.sandbox import filters
from tests.conftest import REPO
from tests.run.conftest import needs_bwrap
from tests.test_cli import judge

PROGRAMS = REPO / "tests" / "programs" / "leftovers"


def marks_problem(root: Path) -> Path:
    """A problems folder in `root` with `marks`: two groups of three cases, each answer "nothing"."""
    problems = root / "problems"
    problem = problems / "marks"
    (problem / "solutions").mkdir(parents=True)
    (problem / "statement.md").write_text("Print what earlier runs left: nothing.\n")
    (problem / "solutions" / "reference.py").write_text("print('nothing')\n")
    cases = ", ".join(f'{{input: "{n}\\n"}}' for n in range(3))
    (problem / "problem.yaml").write_text(
        "id: marks\ntitle: Marks\nsource: the judge's tests\nreference: solutions/reference.py\n"
        "limits: {time_s: 2.0, memory_mib: 256}\ngroups:\n"
        f"  - {{name: first, visibility: public, points: 1, cases: [{cases}]}}\n"
        f"  - {{name: second, visibility: secret, points: 1, cases: [{cases}]}}\n"
    )
    made = judge("--problems", str(problems), "gen")
    assert made.returncode == 0, made.stdout + made.stderr
    return problems


@pytest.fixture(scope="module")
def problems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return marks_problem(tmp_path_factory.mktemp("leftovers"))


@needs_bwrap
@pytest.mark.parametrize("program", ["leaver.c", "leaver.py"])
def test_no_kernel_object_of_a_case_reaches_the_next(problems: Path, case_path: str, program: str) -> None:
    from judge.grade import runner

    problem = load_problem(problems / "marks")
    submission = build.load_submission(PROGRAMS / program)
    judged = runner.judge_submission(problem, submission, testdata.load_cases(problem), full=True, trace=True)
    said = [case.trace[0].decode().strip() if case.trace else case.verdict for case in judged.cases]
    assert said == ["nothing"] * 6, said
    assert [case.verdict for case in judged.cases] == ["AC"] * 6


@needs_bwrap
def test_two_students_in_one_worker_share_nothing(problems: Path, tmp_path: Path) -> None:
    """`judge grade -j 1`: both students' programs run in the same worker (and its session),
    one after the other; each finds nothing of the other's."""
    klass = tmp_path / "class"
    for student, program in (("ann", "leaver.c"), ("bo", "leaver.py"), ("cy", "leaver.c")):
        (klass / student).mkdir(parents=True)
        (klass / student / f"marks{Path(program).suffix}").write_bytes((PROGRAMS / program).read_bytes())
    out = tmp_path / "reports"
    graded = judge("--problems", str(problems), "grade", str(klass), "-j", "1", "-o", str(out), "--full")
    assert graded.returncode == 0, graded.stderr
    records = json.loads((out / "results.json").read_text())["submissions"]
    verdicts = {record["student"]: [case["verdict"] for case in record["cases"]] for record in records}
    assert verdicts == {student: ["AC"] * 6 for student in ("ann", "bo", "cy")}


@needs_bwrap
def test_memory_held_in_shared_memory_counts_against_the_case(problems: Path, case_path: str) -> None:
    from judge.grade import runner

    if not sandbox.detect().cgroup.active:
        pytest.skip("no cgroup: shared memory is not a process's own, and only a cgroup counts it")
    problem = load_problem(problems / "marks")
    cases = testdata.load_cases(problem)[:2]
    judged = runner.judge_submission(problem, build.load_submission(PROGRAMS / "shm_hog.c"), cases, full=True)
    assert [case.verdict for case in judged.cases] == ["MLE", "MLE"]


@needs_bwrap
def test_keyring_calls_are_refused_in_every_run(tmp_path: Path) -> None:
    if not filters.support().active:
        pytest.skip(filters.support().detail)
    source = tmp_path / "main.py"
    source.write_text(
        "import ctypes, platform\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "add_key = {'x86_64': 248, 'aarch64': 217}[platform.machine()]\n"
        "print(libc.syscall(add_key, b'user', b'k', b'v', 1, -4), ctypes.get_errno())\n"
    )
    (tmp_path / "empty.in").write_text("")
    ran = judge("run", str(source), "--input", str(tmp_path / "empty.in"))
    assert ran.stdout.split() == ["-1", "1"]  # EPERM


@needs_bwrap
def test_what_a_case_writes_in_its_box_is_memory_of_the_case_and_capped(problems: Path, case_path: str) -> None:
    """As root every box is a capped tmpfs; rootless, a session's case writes into an overlay
    of its own (a capped tmpfs above the build). Either way the files are memory of the case:
    writing 1 MiB files without end is an MLE, never a full disk."""
    from judge.grade import runner

    if sandbox.detect().rootless and case_path == "per-case":
        pytest.skip("rootless, a sandbox per case writes its box on disk (no mount without root)")
    problem = load_problem(problems / "marks")
    cases = testdata.load_cases(problem)[:1]
    judged = runner.judge_submission(problem, build.load_submission(PROGRAMS / "fill.c"), cases)
    assert [case.verdict for case in judged.cases] == ["MLE"]
    # and the box is memory indeed (the page cache of a disk counts against a cgroup too)
    seen = runner.judge_submission(problem, build.load_submission(PROGRAMS / "box_kind.py"), cases, trace=True)
    [kind] = [case.trace[0].decode().strip() for case in seen.cases if case.trace]
    assert kind == ("overlay" if sandbox.detect().rootless else "tmpfs")


@needs_bwrap
@pytest.mark.skipif(platform.machine() != "x86_64", reason="the i386 ABI of an x86_64 kernel")
def test_keyring_calls_are_refused_through_the_32_bit_abi_too(tmp_path: Path) -> None:
    if not filters.support().active:
        pytest.skip(filters.support().detail)
    (tmp_path / "empty.in").write_text("")
    ran = judge("run", str(PROGRAMS / "add_key_i386.c"), "--input", str(tmp_path / "empty.in"))
    # -EPERM as the i386 ABI returns it; a PIE's pointers above 4 GiB would give -EFAULT (-14)
    # if the call got through to the kernel's keyrings at all
    assert ran.stdout.split() == ["-1"], ran.stdout + ran.stderr
