"""A case gets its input, never the file (sandbox.inputs): hostile programs in C, Python and Java
reopen their stdin (/proc/self/fd/0) to write, truncate it and chmod it; a hostile checker and
interactor do the same to their `input` and `answer` files. The problem's files on the host keep
their bytes and modes, the program still reads, seeks and maps its input, and the verdicts are
ordinary. Rootless (.ci/rootless runs this file as an ordinary user) the program's uid owns the
test files, so only a copy stops it; as root the inputs are made world-writable to the same end."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from judge.grade import runner
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.run import build, sandbox
from judge.run.sandbox import inputs
from judge.run.verdicts import Verdict
from tests import needs
from tests.run.conftest import needs_bwrap
from tests.test_cli import judge

# Each tries every way to change its stdin's file, then reads it again (seek) and maps it: it
# echoes its input when all three agree, else "changed".
HOSTILE_C = r"""
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    static char data[1 << 16], again[1 << 16];
    ssize_t n = read(0, data, sizeof data);
    int fd = open("/proc/self/fd/0", O_RDWR);
    if (fd >= 0 && write(fd, "HACKED", 6) < 0) perror("write");
    if (fd >= 0 && ftruncate(fd, 0) < 0) perror("ftruncate rw");
    if (open("/proc/self/fd/0", O_WRONLY | O_TRUNC) >= 0) fputs("opened with O_TRUNC\n", stderr);
    if (truncate("/proc/self/fd/0", 0) == 0) fputs("truncated\n", stderr);
    if (ftruncate(0, 0) == 0) fputs("ftruncated\n", stderr);
    fchmod(0, 0777);
    chmod("/proc/self/fd/0", 0777);
    if (write(0, "HACKED", 6) > 0) fputs("wrote fd 0\n", stderr);
    if (mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, 0, 0) != MAP_FAILED) fputs("mapped to write\n", stderr);
    if (lseek(0, 0, SEEK_SET) != 0) { puts("no seek"); return 0; }
    ssize_t m = read(0, again, sizeof again);
    char *mapped = mmap(0, n, PROT_READ, MAP_SHARED, 0, 0);
    if (mapped == MAP_FAILED) { puts("no mmap"); return 0; }
    if (n > 0 && m == n && memcmp(data, again, n) == 0 && memcmp(data, mapped, n) == 0) fwrite(data, 1, n, stdout);
    else puts("changed");
    return 0;
}
"""

HOSTILE_PY = r"""
import mmap, os, sys
data = os.read(0, 1 << 16)
for attempt in (
    lambda: os.write(os.open("/proc/self/fd/0", os.O_RDWR), b"HACKED"),
    lambda: os.ftruncate(os.open("/proc/self/fd/0", os.O_RDWR), 0),
    lambda: os.open("/proc/self/fd/0", os.O_WRONLY | os.O_TRUNC),
    lambda: os.truncate("/proc/self/fd/0", 0),
    lambda: os.ftruncate(0, 0),
    lambda: os.fchmod(0, 0o777),
    lambda: os.chmod("/proc/self/fd/0", 0o777),
    lambda: os.write(0, b"HACKED"),
):
    try:
        attempt()
    except OSError:
        pass
os.lseek(0, 0, os.SEEK_SET)
again = os.read(0, 1 << 16)
mapped = mmap.mmap(0, 0, mmap.MAP_SHARED, mmap.PROT_READ)[:]
sys.stdout.write(data.decode() if again == data == mapped else "changed\n")
"""

HOSTILE_JAVA = r"""
import java.io.*;
import java.nio.*;
import java.nio.channels.*;
import java.nio.file.*;
import java.nio.file.attribute.*;
import java.util.Arrays;

public class Main {
    public static void main(String[] args) throws Exception {
        byte[] data = System.in.readAllBytes();
        Path self = Paths.get("/proc/self/fd/0");
        try (RandomAccessFile f = new RandomAccessFile("/proc/self/fd/0", "rw")) {
            f.write("HACKED".getBytes());
            f.setLength(0);
        } catch (IOException e) {
        }
        try (FileOutputStream f = new FileOutputStream("/proc/self/fd/0")) {
            f.write(1);
        } catch (IOException e) {
        }
        try {
            Files.setPosixFilePermissions(self, PosixFilePermissions.fromString("rwxrwxrwx"));
        } catch (Exception e) {
        }
        byte[] again;
        try (FileChannel c = FileChannel.open(self, StandardOpenOption.READ)) {
            MappedByteBuffer m = c.map(FileChannel.MapMode.READ_ONLY, 0, c.size());
            again = new byte[m.remaining()];
            m.get(again);
        }
        System.out.print(Arrays.equals(data, again) ? new String(data) : "changed\n");
    }
}
"""

# A checker and an interactor that try the same on their `input` and `answer` (and on every
# descriptor of them), then do their job; what they could change they report (exit 43: WA).
ATTACK_FILES = r"""
import os, sys

def attack(path):
    with open(path, "rb") as stream:
        before = stream.read()
    mode = os.stat(path).st_mode
    fd = os.open(path, os.O_RDONLY)
    for attempt in (
        lambda: os.write(os.open(path, os.O_RDWR), b"HACKED"),
        lambda: os.write(os.open(f"/proc/self/fd/{fd}", os.O_RDWR), b"HACKED"),
        lambda: os.open(path, os.O_WRONLY | os.O_TRUNC),
        lambda: os.truncate(path, 0),
        lambda: os.chmod(path, 0o777),
        lambda: os.fchmod(fd, 0o777),
        lambda: os.chmod(f"/proc/self/fd/{fd}", 0o777),
    ):
        try:
            attempt()
        except OSError:
            pass
    with open(path, "rb") as stream:
        after = stream.read()
    return [] if after == before and os.stat(path).st_mode == mode else [path]

changed = attack(sys.argv[1]) + attack(sys.argv[2])
"""

CHECKER = (
    ATTACK_FILES
    + r"""
data = os.read(0, 1 << 16)  # the program's output, a sealed copy as well
for attempt in (lambda: os.write(os.open("/proc/self/fd/0", os.O_RDWR), b"X"), lambda: os.ftruncate(0, 0)):
    try:
        attempt()
    except OSError:
        pass
os.lseek(0, 0, os.SEEK_SET)
if os.read(0, 1 << 16) != data:
    changed.append("stdin")
with open(sys.argv[3] + "judgemessage.txt", "w") as feedback:
    feedback.write("changed: " + " ".join(changed) + "\n")
with open(sys.argv[2]) as answer:
    sys.exit(43 if changed or data.split() != answer.read().encode().split() else 42)
"""
)

INTERACTOR = (
    ATTACK_FILES
    + r"""
with open(sys.argv[1]) as given:
    print(given.read().strip(), flush=True)
with open(sys.argv[2]) as answer:
    want = answer.read().strip()
got = sys.stdin.readline().strip()
with open(sys.argv[3] + "judgemessage.txt", "w") as feedback:
    feedback.write(f"changed: {' '.join(changed)}; got {got[:30]!r}\n")
sys.exit(43 if changed or got != want else 42)
"""
)

ECHO_PY = "print(input(), flush=True)\n"
CASES = ("7 11 13\n", "2 3 5 8\n")
COPY_PY = "import sys\nsys.stdout.write(sys.stdin.read())\n"


def _problem(root: Path, name: str, extra: str) -> Path:
    folder = root / name
    (folder / "solutions").mkdir(parents=True)
    (folder / "statement.md").write_text("Print the input back.\n")
    (folder / "solutions" / "reference.py").write_text(ECHO_PY if "interactor" in extra else COPY_PY)
    cases = ", ".join(f"{{input: {text!r}, answer: {text!r}}}" for text in CASES)
    (folder / "problem.yaml").write_text(
        f"id: {name}\ntitle: Echo\nsource: the judge's tests\nreference: solutions/reference.py\n{extra}"
        "limits: {time_s: 2.0, memory_mib: 256}\ngroups:\n"
        f"  - {{name: open, visibility: public, points: 1, cases: [{cases}]}}\n"
        f"  - {{name: hidden, visibility: secret, points: 1, cases: [{cases}]}}\n"
    )
    return folder


@pytest.fixture(scope="module")
def problems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("inputs") / "problems"
    _problem(root, "echo", "checker: {type: custom, program: checker.py}\n")
    (root / "echo" / "checker.py").write_text(CHECKER)
    _problem(root, "talk", "interactor: {program: interactor.py}\n")
    (root / "talk" / "interactor.py").write_text(INTERACTOR)
    made = judge("--problems", str(root), "gen")
    assert made.returncode == 0, made.stdout + made.stderr
    for name in ("echo", "talk"):
        for item in (root / name / "tests").rglob("*"):
            if item.is_file():
                # World-writable: as root, uid 65534 could change them through a descriptor of them.
                item.chmod(0o666)
    return root


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(item.relative_to(folder)): (item.read_bytes(), stat.S_IMODE(item.stat().st_mode))
        for item in sorted(folder.rglob("*"))
        if item.is_file()
    }


def _judged(problems: Path, name: str, program: Path) -> list[runner.CaseResult]:
    problem = load_problem(problems / name)
    cases = testdata.load_cases(problem)
    before = _snapshot(problems / name)
    judged = runner.judge_submission(problem, runner.load_for(problem, program), cases, full=True)
    assert _snapshot(problems / name) == before, "a problem's file changed on the host"
    return list(judged.cases)


@needs_bwrap
@pytest.mark.parametrize(
    ("file", "code"),
    [
        ("hostile.c", HOSTILE_C),
        ("hostile.py", HOSTILE_PY),
        pytest.param("Main.java", HOSTILE_JAVA, marks=needs.mark("java")),
    ],
)
def test_a_program_cannot_change_its_input_nor_a_checker_its_files(
    problems: Path, tmp_path: Path, case_path: str, file: str, code: str
) -> None:
    program = tmp_path / file
    program.write_text(code)
    found = _judged(problems, "echo", program)
    assert [(case.verdict, case.message) for case in found] == [(Verdict.AC, "")] * 4


@needs_bwrap
def test_an_interactor_cannot_change_its_files(problems: Path, tmp_path: Path) -> None:
    program = tmp_path / "echo.py"
    program.write_text(ECHO_PY)
    found = _judged(problems, "talk", program)
    assert [(case.verdict, case.message) for case in found] == [(Verdict.AC, "")] * 4


def test_a_sealed_copy_reads_seeks_and_maps_but_never_changes(tmp_path: Path) -> None:
    given = tmp_path / "01.in"
    given.write_bytes(b"1 2 3\n" * 100_000)
    fd = inputs.sealed_copy(given)
    try:
        assert os.lseek(fd, 0, os.SEEK_CUR) == 0 and os.fstat(fd).st_size == given.stat().st_size
        assert stat.S_ISREG(os.fstat(fd).st_mode)  # fstat's size and mmap, as on the file
        with pytest.raises(OSError):
            os.write(fd, b"x")
        again = os.open(f"/proc/self/fd/{fd}", os.O_RDWR)  # what a program of the judge's uid may do
        try:
            for attempt in (lambda: os.write(again, b"x"), lambda: os.ftruncate(again, 0)):
                with pytest.raises(PermissionError):
                    attempt()
        finally:
            os.close(again)
        assert os.read(fd, 12) == b"1 2 3\n1 2 3\n"
    finally:
        os.close(fd)
    assert given.read_bytes() == b"1 2 3\n" * 100_000
    empty = inputs.sealed_copy(None)
    assert os.read(empty, 1) == b""
    os.close(empty)


def _copies_held() -> list[str]:
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            held.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue  # the listing's own descriptor, closed by now
    return [target for target in held if target.startswith("/memfd:judge-input")]  # inputs.sealed_copy's name


@needs_bwrap
def test_the_judge_lets_go_of_each_copy_once_its_case_is_over(tmp_path: Path, case_path: str) -> None:
    given = tmp_path / "01.in"
    given.write_text("5\n")
    limits = sandbox.RunLimits(cpu_s=1, wall_s=3, memory_mib=64, output_bytes=1 << 20)
    with build.box() as where, sandbox.cases(where) as runner:
        for argv in (["/bin/cat"], ["/bin/true"], ["/no/such/program"]):
            runner.run(argv, limits=limits, stdin=given)
            assert _copies_held() == []
