"""The cases of a submission in one sandbox (sandbox.session): each case still starts from
nothing that an earlier case left, and a hostile program cannot break the sandbox for the next."""

from __future__ import annotations

import errno
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest

from judge.grade import runner
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.run import build, sandbox
from judge.run.sandbox import session, zygote_kit
from tests import needs
from tests.conftest import PROBLEMS
from tests.run.conftest import ROOTLESS, SUPPORT, VFORK_ONLY, needs_bwrap

# Reports what earlier cases left (files in the box, /tmp, /dev/shm; a process of the program's
# user), then leaves all of that behind for the next case: a daemon that double-forks and sleeps.
LEAVER = r"""
import os, sys, time
found = [p for p in ("mark", "/tmp/mark", "/dev/shm/mark") if os.path.exists(p)]
me = os.getpid()
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open(f"/proc/{pid}/status") as status:
            uid = next(line.split()[1] for line in status if line.startswith("Uid:"))
    except (OSError, StopIteration):
        continue
    if int(pid) not in (1, me) and uid == str(os.getuid()):  # 1: the namespace's init (bubblewrap's)
        found.append(f"process {pid}")
try:
    with open("main.py", "a") as build:  # the build itself: not the case's to change
        build.write("# changed\n")
    found.append("changed the build")
except OSError:
    pass
print("left:", ", ".join(found) or "nothing")
for place in ("mark", "/tmp/mark", "/dev/shm/mark"):
    with open(place, "w") as mark:
        mark.write("x")
sys.stdout.flush()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(60)
    os._exit(0)
"""


@pytest.fixture(params=["vfork", "fork"])
def start(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """How the session's supervisor starts a case: vfork (_fastspawn), or a fork of itself."""
    if not SUPPORT.active:
        pytest.skip(SUPPORT.detail)
    if request.param == "vfork":
        needs.require("fastspawn")
    if request.param == "fork":
        if ROOTLESS:
            pytest.skip(VFORK_ONLY)
        monkeypatch.setenv(session.FAST_ENV, "0")
    return str(request.param)


@needs_bwrap
def test_a_case_finds_nothing_an_earlier_case_left(tmp_path: Path, case_path: str) -> None:
    problem = load_problem(PROBLEMS / "sicily-rotations")
    cases = testdata.load_cases(problem)[:4]
    source = tmp_path / "main.py"
    source.write_text(LEAVER)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    judged = runner.judge_submission(problem, build.load_submission(source), cases, full=True, trace=True)
    said = [case.trace[0].decode().strip() for case in judged.cases]
    # Without root the program runs as the judge's own user, who owns the build: it can change
    # it (sandbox.seal_build); nothing else of an earlier case reaches it either way.
    clean = "left: nothing" if os.geteuid() == 0 else "left: changed the build"
    assert said == [clean] * 4, said
    # and nothing of the last case is left either
    assert {p.pid for p in psutil.Process().children(recursive=True)} <= before


# Tries to kill every process it can see, and to trace and read the memory of its parent and
# of its namespace's init (the supervisor, or the init of the case's own namespaces, which
# shares the supervisor's memory): prints what it saw and each refusal.
KILLER = r"""
import ctypes, os, signal
me = os.getpid()
print("saw", " ".join(sorted(p for p in os.listdir("/proc") if p.isdigit() and int(p) != me)))
print("parent", os.getppid())
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        os.kill(int(pid), signal.SIGKILL) if int(pid) != me else None
    except OSError as err:
        print("kill", pid, err.errno)
libc = ctypes.CDLL(None, use_errno=True)
for pid in sorted({1, os.getppid()}) if os.environ.get("TRACE") == "1" else ():
    if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
        print("trace", pid, ctypes.get_errno())
    try:
        open(f"/proc/{pid}/mem", "rb").close()
    except OSError as err:
        print("mem", pid, err.errno)
    try:
        os.listdir(f"/proc/{pid}/fd")  # the supervisor's control socket, the cgroup's files
    except OSError as err:
        print("fds", pid, err.errno)
print("alive")
"""


@needs_bwrap
def test_a_program_that_kills_everything_it_can_leaves_the_session_whole(tmp_path: Path, case_path: str) -> None:
    problem = load_problem(PROBLEMS / "sicily-rotations")
    cases = testdata.load_cases(problem)[:3]
    source = tmp_path / "killer.py"
    source.write_text(KILLER)
    submission = build.load_submission(source)
    with build.box() as where:
        assert runner.compile_for(problem, submission, where).ok
        launch = submission.launch(problem.spec.limits.memory_mib)
        with sandbox.cases(where) as cases_runner:
            limits = runner.run_limits(problem, submission.language)
            # A sandbox per case, rootless: bubblewrap's init is the program's own user's, and
            # tracing it stalls that run until its wall limit (nothing beyond the run).
            env = {"TRACE": "0" if ROOTLESS and case_path == "per-case" else "1"}
            outputs = [cases_runner.run(list(launch.argv), limits=limits, stdin=case.input, env=env) for case in cases]
            if case_path.startswith("session"):
                assert cases_runner.session is not None and not cases_runner.session.broken
    for run in outputs:
        lines = run.stdout.decode().splitlines()
        assert run.exit_code == 0 and lines[-1] == "alive", run
        said = {tuple(line.split()[:2]): line.split()[2] for line in lines[2:-1]}
        # Neither the parent nor the namespace's init may be traced or read (EPERM, EACCES).
        for pid in {"1", lines[1].split()[1]} if env["TRACE"] == "1" else ():
            assert said.get(("trace", pid)) == str(errno.EPERM), run
            assert said.get(("mem", pid)) in (str(errno.EPERM), str(errno.EACCES)), run
            assert said.get(("fds", pid)) in (str(errno.EPERM), str(errno.EACCES)), run
        kills = {key[1]: value for key, value in said.items() if key[0] == "kill"}
        if ROOTLESS and case_path == "session":
            # The case's own pid namespace: its init (whose signals from inside are ignored)
            # and the program itself are all there is.
            assert lines[0].split()[1:] == ["1"] and lines[1] == "parent 1" and not kills, run
        elif os.geteuid() == 0:
            # As the unprivileged user, kill(-1) reaches every process of that user it can
            # see: the supervisor (root) is not one of them.
            assert kills and set(kills.values()) == {str(errno.EPERM)}, run


def _ns_pid(process: psutil.Process) -> str:
    """A process's pid in the sandbox's pid namespace (the innermost it is in)."""
    with open(f"/proc/{process.pid}/status") as status:
        return next(line.split()[-1] for line in status if line.startswith("NSpid:"))


def _spares(bwrap: int) -> dict[str, psutil.Process]:
    """The supervisor's waiting children (root), by their pid in the sandbox. It forks one
    once a case has ended: waited for."""
    deadline = time.monotonic() + 30  # a bound for a loaded machine, not a timing expectation
    while True:
        found: dict[str, psutil.Process] = {}
        try:
            init = next(p for p in psutil.Process(bwrap).children(recursive=True) if _ns_pid(p) == "1")
            for supervisor in init.children():
                for child in supervisor.children():
                    if child.uids().real == 0:
                        found[_ns_pid(child)] = child
        except (OSError, psutil.Error, StopIteration):
            pass  # one went meanwhile (the last case's processes): look again
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.01)


# What a case's program is started with, as the program sees it: its ids and capabilities,
# signals, descriptors, limits, session, folder and environment.
SELF = r"""
grep -E '^(Uid|Gid|Groups|CapPrm|CapEff|CapBnd|CapAmb|SigBlk|SigIgn|NoNewPrivs):' /proc/self/status
echo fds $(ls /proc/self/fd)
echo second $(( $$ == 2 ))
echo limits $(ulimit -c) $(ulimit -t) $(ulimit -f) $(ulimit -s)
echo leader $(( $(cut -d' ' -f6 /proc/$$/stat) == $$ ))
echo cwd $(pwd)
env | sort
"""


@needs_bwrap
def test_a_case_starts_the_same_by_vfork_or_by_fork(tmp_path: Path, start: str) -> None:
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    limits = runner.sandbox.RunLimits(2, 5, 64, 1 << 20)
    with sandbox.cases(box) as cases_runner:
        assert cases_runner.session is not None and cases_runner.session.vfork == (start == "vfork")
        runs = [cases_runner.run(["sh", "-c", SELF], limits=limits, env={"ONLY": "this"}) for _ in range(2)]
        missing = cases_runner.run(["/no/such/program"], limits=limits)
        unknown = cases_runner.run(["no-such-program"], limits=limits)
        after = cases_runner.run(["sh", "-c", "echo $((6*7))"], limits=limits)
        assert not cases_runner.session.broken
    for run in runs:
        assert run.exit_code == 0, run
    seen = runs[0].stdout.decode()
    assert runs[1].stdout.decode() == seen  # nothing of the first case carries over
    lines = {
        key: value.strip() for key, _, value in (line.replace("\t", " ").partition(" ") for line in seen.splitlines())
    }
    if ROOTLESS:
        # The judge's own user (the only one its user namespace maps), which no exec may
        # raise: no new privileges, and nothing of the supervisor's capabilities.
        ids = " ".join([str(os.getuid())] * 4)
        assert lines["Uid:"] == ids and lines["NoNewPrivs:"] == "1", seen
        assert lines["second"] == "1", seen  # pid 2 of a pid namespace of its own, after its init
    else:
        ids = " ".join([str(sandbox.NOBODY)] * 4)
        assert lines["Uid:"] == ids and lines["Gid:"] == ids and lines["Groups:"] == "", seen
    assert {lines[f"Cap{kind}:"] for kind in ("Prm", "Eff", "Amb")} == {"0000000000000000"}, seen
    # Every signal as a program expects: none blocked, none ignored. The fork path resets them
    # through Python, and glibc will not change its own two (32 and 33): whatever started the
    # judge may have left those ignored there (it varies: not a test's expectation).
    ignored = int(lines["SigIgn:"], 16) & ~(0b11 << 31 if start == "fork" else 0)
    assert lines["SigBlk:"] == "0000000000000000" and ignored == 0, seen
    # only its stdin, stdout and stderr (and the listing's own folder), each case the same
    assert lines["fds"].split() in (["0", "1", "2", "3"], ["0", "1", "2"]), seen
    cpu_soft = 3  # a backstop a second above the limit (argv.rlimit_list)
    assert lines["limits"].split() == ["0", str(cpu_soft), str((1 << 20) // 512), str(64 * 1024)], seen
    assert lines["leader"] == "1" and lines["cwd"] == sandbox.BOX_MOUNT, seen
    assert "ONLY=this" in seen.splitlines() and not [v for v in seen.splitlines() if v.startswith("JUDGE")]
    for run, name in ((missing, "/no/such/program"), (unknown, "no-such-program")):
        said = run.stderr.decode()
        assert run.exit_code == 127 and f"judge: cannot run {name}: " in said and "No such file" in said, run
    assert after.stdout == b"42\n"


@needs_bwrap
def test_a_case_starts_from_a_child_forked_ahead_or_from_a_fork_when_there_is_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not SUPPORT.active or ROOTLESS:
        pytest.skip(VFORK_ONLY if ROOTLESS else SUPPORT.detail)
    monkeypatch.setenv(session.FAST_ENV, "0")  # by vfork nothing is forked ahead: see the test above
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    limits = runner.sandbox.RunLimits(1, 3, 64, 1024)
    me = ["/bin/sh", "-c", "echo $$"]
    with sandbox.cases(box) as cases_runner:
        assert cases_runner.session is not None
        first = cases_runner.run(me, limits=limits)
        # Once a case has ended, the supervisor holds a spare child (root, not the
        # program's user), and it becomes the next case's program.
        spares = _spares(cases_runner.session.proc.pid)
        assert len(spares) == 1, spares
        second = cases_runner.run(me, limits=limits)
        assert first.exit_code == second.exit_code == 0
        assert second.stdout.decode().strip() in spares, (second.stdout, list(spares))
        # A spare that is gone (killed from outside) is not waited for: the case is forked.
        for spare in _spares(cases_runner.session.proc.pid).values():
            spare.kill()
            spare.wait(timeout=30)  # gone, and reaped by the supervisor
        third = cases_runner.run(["/bin/sh", "-c", "echo $((6*7))"], limits=limits)
        assert third.stdout == b"42\n" and not cases_runner.session.broken, third


@needs_bwrap
def test_a_session_that_cannot_start_falls_back_to_a_sandbox_per_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not SUPPORT.active:
        pytest.skip(SUPPORT.detail)
    broken = tmp_path / "supervisor.py"
    broken.write_text("raise SystemExit(3)\n")
    monkeypatch.setattr(session, "_SUPERVISOR", str(broken))
    monkeypatch.setattr(session, "_failed", 0)  # restored after: later tests get sessions again
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    with sandbox.cases(box) as cases_runner:
        assert cases_runner.session is None
        run = cases_runner.run(["/bin/sh", "-c", "echo $((6*7))"], limits=runner.sandbox.RunLimits(1, 3, 64, 1024))
    assert run.stdout == b"42\n"
    assert session._failed == os.getpid()  # and this process stops trying


@needs_bwrap
def test_the_supervisor_is_started_by_a_short_command_line(tmp_path: Path) -> None:
    """`ps` on a judging machine shows a file's name, not pages of Python."""
    if not SUPPORT.active:
        pytest.skip(SUPPORT.detail)
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    with sandbox.cases(box) as cases_runner:
        if cases_runner.session is None:
            pytest.skip("no session here")
        shown = " ".join(psutil.Process(cases_runner.session.proc.pid).cmdline())
        run = cases_runner.run(["/bin/sh", "-c", "ls /tmp"], limits=runner.sandbox.RunLimits(1, 3, 64, 1024))
    assert "/tmp/judge-supervisor.py" in shown and "def main" not in shown and len(shown) < 4096, shown
    assert run.stdout == b""  # the file was for the start only: the program's /tmp is empty


def test_doctor_says_whether_cases_share_a_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sandbox.SESSION_ENV, "0")
    off = sandbox.session_support()
    assert not off.active and "a new sandbox for each case" in off.detail and sandbox.SESSION_ENV in off.detail
    monkeypatch.delenv(sandbox.SESSION_ENV)
    layers = sandbox.detect()
    here = sandbox.session_support(layers)
    if not layers.bwrap.active or not layers.cgroup.active:
        assert not here.active and here.detail.startswith("a new sandbox for each case: ")
        return
    assert here.active, here.detail
    assert ("starts each case by vfork" in here.detail) == bool(session.fast_spawn()), here.detail
    assert ("a pid and mount namespace of its own" in here.detail) == layers.rootless, here.detail
    needs.require("fastspawn", because="what doctor says with it switched off")
    monkeypatch.setenv(session.FAST_ENV, "0")
    session._probe.cache_clear()
    try:
        forked = sandbox.session_support(layers)
    finally:
        session._probe.cache_clear()
    if layers.rootless:  # no fork path: a sandbox per case, and why
        assert not forked.active and "need the _fastspawn extension" in forked.detail, forked.detail
        assert f"${session.FAST_ENV}=0" in forked.detail, forked.detail
    else:
        assert forked.active and f"forks each case (${session.FAST_ENV}=0)" in forked.detail, forked.detail


@needs.mark("root", because="the build is sealed only as root")
def test_sealing_a_build_never_follows_its_symbolic_links(tmp_path: Path) -> None:
    # A build script may leave links to anywhere: outside the sandbox they point at the host.
    host = tmp_path / "host"
    host.mkdir()
    (host / "file").write_text("host's\n")
    os.chown(host, 1234, 1234)
    os.chown(host / "file", 1234, 1234)
    host.chmod(0o777)
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    (box / "main").write_text("#!/bin/sh\n")
    (box / "main").chmod(0o775)
    (box / "lib").mkdir()
    (box / "lib" / "part.txt").write_text("x")
    (box / "to-dir").symlink_to(host)
    (box / "lib" / "to-file").symlink_to(host / "file")
    sandbox.seal_build(box)
    for target in (host, host / "file"):
        assert (target.stat().st_uid, target.stat().st_gid) == (1234, 1234)
    assert host.stat().st_mode & 0o777 == 0o777
    assert (box / "to-dir").lstat().st_uid == 0 and (box / "to-dir").is_symlink()
    assert (box / "main").stat().st_mode & 0o777 == 0o555 and (box / "main").stat().st_uid == 0
    assert (box / "lib").stat().st_mode & 0o777 == 0o555
    assert (box / "lib" / "part.txt").stat().st_mode & 0o777 == 0o444
    assert box.stat().st_mode & 0o7777 == 0o1777


class _FakeSpawn:
    """_fastspawn's spawn, answering as a case whose start failed at `stage`."""

    def __init__(self, stage: str) -> None:
        self.stage = stage

    def spawn(self, *_: object) -> tuple[int, int, str, int]:
        return 4242, errno.EPERM, self.stage, 127 << 8


def test_a_case_whose_init_fails_breaks_the_session_not_the_program(tmp_path: Path) -> None:
    from judge.run.sandbox import supervisor

    request = {"argv": ["prog"], "env": {"PATH": "/usr/bin"}, "cwd": "/box", "uid": None, "rlimits": [], "tmp_bytes": 1}
    read, write = os.pipe()
    try:
        # The sandbox's own step (the case's namespaces): an error for the judge, which then
        # runs the case in a sandbox of its own; the program is not blamed for it.
        with pytest.raises(OSError, match="the case's init could not mount its /proc"):
            supervisor._spawn_fast(_FakeSpawn("mount its /proc, /tmp and /dev/shm"), request, [0, 1, write], True)
        # The program's own (it cannot be executed): exit 127 and why, on its stderr.
        assert supervisor._spawn_fast(_FakeSpawn("exec"), request, [0, 1, write], True) == (4242, 127 << 8)
        os.close(write)
        write = -1
        with os.fdopen(read, "rb") as said:
            read = -1
            assert said.read() == b"judge: cannot run prog: [Errno 1] Operation not permitted\n"
    finally:
        for fd in (read, write):
            if fd >= 0:
                os.close(fd)


# What a Python process is, as seen from inside: its ids, capabilities, filter, signals, modules,
# folder, argv, environment, descriptors, limits and stdin (printed by a call's harness).
PYTHON_SELF = r"""
import os, signal, sys
with open("/proc/self/status") as status:
    fields = dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)
for key in ("Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp",
            "Seccomp_filters", "SigBlk", "SigIgn", "SigCgt"):
    print(key, fields.get(key, "").strip())
print("modules", sorted(sys.modules))
print("where", os.getcwd(), sys.argv, __file__, __name__, sys.path[0])
print("env", sorted(os.environ.items()))
print("fds", sorted(os.listdir("/proc/self/fd")))
print("leader", os.getsid(0) == os.getpid())
with open("/proc/self/limits") as limits:
    print("limits", limits.read())
print("stdin", sys.stdin.read(), sys.stdout.encoding, sys.stdin.encoding, sys.stdout.line_buffering)
import ctypes
print("dumpable", ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))
"""

# A call that goes for its zygote (its parent): a signal, a stop, its memory read and written
# (where the next fork would find what it wrote), tracing it, its environment.
AT_THE_ZYGOTE = r"""
import ctypes, os, signal
parent = os.getppid()
def tried(what, act):
    try:
        act()
    except OSError as err:
        print(what, "refused", err.errno)
    else:
        print(what, "done")
def write_memory():
    with open(f"/proc/{parent}/mem", "r+b", buffering=0) as memory:
        memory.seek(id(os) + 16)
        memory.write(b"x")
tried("signal", lambda: os.kill(parent, 0))
tried("stop", lambda: os.kill(parent, signal.SIGSTOP))
tried("kill", lambda: os.kill(parent, signal.SIGKILL))
tried("memory", write_memory)
tried("environment", lambda: open(f"/proc/{parent}/environ", "rb").read())
libc = ctypes.CDLL(None, use_errno=True)
print("trace", libc.ptrace(16, parent, 0, 0), ctypes.get_errno())  # PTRACE_ATTACH
"""


@contextmanager
def _zygote_session(
    tmp_path: Path, script: str, name: str = "main.py", rootless_too: bool = False
) -> Iterator[sandbox.CaseRunner]:
    """A session whose box holds `script` as main.py (or `name`), the build sealed: as root, or
    `rootless_too` (a Python zygote's; rootless there is no Node zygote)."""
    if not SUPPORT.active or (ROOTLESS and not rootless_too):
        pytest.skip("rootless, no zygote for PyPy" if ROOTLESS else SUPPORT.detail)
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    (box / name).write_text(script)
    sandbox.seal_build(box)
    with sandbox.cases(box) as cases_runner:
        assert cases_runner.session is not None
        yield cases_runner


LIMITS = runner.sandbox.RunLimits(2, 5, 256, 1 << 20)


def _first_call(cases_runner: sandbox.CaseRunner) -> tuple[sandbox.RunResult, session.Session, object]:
    """A first call of main.py through the zygote: its run, the session, and the zygote's channel."""
    run = cases_runner.forking().run(["python3", "-S", "main.py"], limits=LIMITS)
    session_ = cases_runner.session
    assert session_ is not None and session_.zygote is not None
    return run, session_, session_.zygote[1]


@needs_bwrap
@pytest.mark.parametrize("fast", ["1", "0"])
def test_no_case_inherits_a_signal_the_judge_ignores(
    tmp_path: Path, fast: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge started from a shell that ignores SIGINT and SIGQUIT (a background job's) passes
    the ignore on through fork and exec: a case by vfork, by a fork of the supervisor and by a
    zygote's fork alike starts with every signal at its default (CI's runner ignored 32 once,
    and a zygote's call saw it ignored where a case of its own did not)."""
    import signal

    if fast == "0" and ROOTLESS:
        pytest.skip(VFORK_ONLY)
    monkeypatch.setenv(session.FAST_ENV, fast)
    before = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGQUIT)}
    try:
        with _zygote_session(tmp_path, PYTHON_SELF, rootless_too=True) as cases_runner:
            runs = [cases_runner.run(["python3", "-S", "main.py"], limits=LIMITS)]
            runs.append(cases_runner.forking().run(["python3", "-S", "main.py"], limits=LIMITS))
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    for run in runs:
        seen = dict(line.split(" ", 1) for line in run.stdout.decode().splitlines() if line.startswith("Sig"))
        # Python's own start ignores SIGPIPE (13) and SIGXFSZ (25), and nothing else.
        assert seen["SigIgn"] == f"{(1 << 12) | (1 << 24):016x}", run


@needs_bwrap
@pytest.mark.parametrize("python", ["python3", "pypy3"])
def test_a_call_forked_from_a_zygote_is_what_a_process_of_its_own_is(tmp_path: Path, python: str) -> None:
    needs.require(python)
    _forked_as_own(tmp_path, PYTHON_SELF, [python, "-S", "main.py"])


def _forked_as_own(tmp_path: Path, script: str, argv: list[str]) -> tuple[sandbox.RunResult, str]:
    """`script` (named as argv's last part) run twice through a zygote and once as a process of
    its own, all on the same stdin: the first forked run and what it printed, which the other
    two printed too, as the case's user (rootless: the judge's own) with no capability."""
    given = tmp_path / "call.in"
    given.write_text("[1, 2]\n")
    rootless_too = argv[0] not in session.ROOTLESS_OWN_START
    with _zygote_session(tmp_path, script, argv[-1], rootless_too=rootless_too) as cases_runner:
        forked = cases_runner.forking().run(argv, limits=LIMITS, stdin=given)
        session_ = cases_runner.session
        assert session_ is not None and session_.zygote is not None, session_ and session_.no_zygote
        again = cases_runner.forking().run(argv, limits=LIMITS, stdin=given)
        own = cases_runner.run(argv, limits=LIMITS, stdin=given)
    assert forked.exit_code == own.exit_code == 0, (forked, own)
    seen = forked.stdout.decode()
    user = f"Uid {os.getuid()}" if ROOTLESS else "Uid 65534"
    assert user in seen and "CapEff 0000000000000000" in seen and "stdin [1, 2]" in seen, seen
    assert seen == own.stdout.decode() == again.stdout.decode()
    return forked, seen


@needs_bwrap
def test_a_call_can_neither_signal_nor_trace_nor_write_its_zygote(tmp_path: Path) -> None:
    with _zygote_session(tmp_path, AT_THE_ZYGOTE) as cases_runner:
        forking = cases_runner.forking()
        runs = [forking.run(["python3", "-S", "main.py"], limits=LIMITS) for _ in range(3)]
        session_ = cases_runner.session
        assert session_ is not None and session_.zygote is not None
        kept = session_.zygote[1]
        after = forking.run(["python3", "-S", "main.py"], limits=LIMITS)
        assert session_.zygote is not None and session_.zygote[1] is kept  # the same zygote, alive
    for run in (*runs, after):
        said = run.stdout.decode().splitlines()
        assert said == [
            "signal refused 1",
            "stop refused 1",
            "kill refused 1",
            "memory refused 13",
            "environment refused 13",
            "trace -1 1",
        ], run


def _argv(process: psutil.Process) -> list[str]:
    """A process's command line, or none when it has just ended (the first call's, not reaped yet)."""
    try:
        return process.cmdline()
    except psutil.Error:
        return []


@needs_bwrap
def test_a_zygote_that_is_gone_is_replaced_and_the_call_still_runs(tmp_path: Path) -> None:
    with _zygote_session(tmp_path, "print(6 * 7)\n", rootless_too=True) as cases_runner:
        forking = cases_runner.forking()
        first, session_, kept = _first_call(cases_runner)
        # its forks (a spare forked ahead) share its command line: the zygote is their parent
        forks = [p for p in psutil.Process(session_.proc.pid).children(recursive=True) if "-c" in _argv(p)]
        zygotes = [p for p in forks if p.ppid() not in {fork.pid for fork in forks}]
        assert len(zygotes) == 1, forks
        # Nothing a fork could write and the zygote (or the next fork) read: no mapping shared and writable
        with open(f"/proc/{zygotes[0].pid}/maps") as maps:
            assert not [line for line in maps if line.split()[1][1::2] == "ws"]
        zygotes[0].kill()  # from outside: nothing inside can
        zygotes[0].wait(timeout=30)
        second = forking.run(["python3", "-S", "main.py"], limits=LIMITS)
        third = forking.run(["python3", "-S", "main.py"], limits=LIMITS)
        assert session_.zygote is not None and session_.zygote[1] is not kept, session_.no_zygote
        assert not session_.broken
    assert first.stdout == second.stdout == third.stdout == b"42\n"


@needs_bwrap
def test_a_new_build_gets_a_new_zygote(tmp_path: Path) -> None:
    with _zygote_session(tmp_path, "print(1)\n", rootless_too=True) as cases_runner:
        first, session_, kept = _first_call(cases_runner)
        harness = cases_runner.box / "main.py"
        harness.unlink()  # the next submission's copy of the harness: a file of its own
        harness.write_text("print(2)\n")
        second = cases_runner.forking().run(["python3", "-S", "main.py"], limits=LIMITS)
        assert session_.zygote is not None and session_.zygote[1] is not kept
    assert (first.stdout, second.stdout) == (b"1\n", b"2\n")


# A rootless call (the judge's own user, pid 2 of its own namespaces under its init) that looks
# for what an earlier call left (/tmp, /dev/shm, a SysV segment, a global, a process left
# running; any process but its init and itself), leaves all of those, and goes for every process
# it can name: a signal, a stop, a kill, memory and environment through /proc, ptrace.
ROOTLESS_STASH = r"""
import ctypes, json, os, signal, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True)
found = [path for path in ("/tmp/stash", "/dev/shm/stash") if os.path.exists(path)]
if libc.shmget(0x6A75, 0, 0) >= 0:
    found.append("a SysV segment")
if "STASH" in dir(sys.modules["builtins"]):
    found.append("a global")
me = os.getpid()
seen = sorted(int(pid) for pid in os.listdir("/proc") if pid.isdigit())
found += [f"process {pid}" for pid in seen if pid not in (1, me)]
for path in ("/tmp/stash", "/dev/shm/stash"):
    with open(path, "w") as stash:
        stash.write("[1, 2]")
libc.shmget(0x6A75, 4096, 0o1666)  # IPC_CREAT
sys.modules["builtins"].STASH = [1, 2]
subprocess.Popen(["sleep", "60"], start_new_session=True)
tried = {}
for pid in seen:
    if pid == me:
        continue
    for name, act in (("stop", lambda: os.kill(pid, signal.SIGSTOP)), ("kill", lambda: os.kill(pid, signal.SIGKILL))):
        try:
            act()
        except OSError as err:
            tried[f"{pid} {name}"] = err.errno
    for part in ("mem", "environ"):
        try:
            open(f"/proc/{pid}/{part}", "rb").read(1)
            tried[f"{pid} {part}"] = "read"
        except OSError as err:
            tried[f"{pid} {part}"] = err.errno
    tried[f"{pid} trace"] = libc.ptrace(16, pid, 0, 0) == 0 or ctypes.get_errno()  # PTRACE_ATTACH
print(json.dumps({"me": me, "seen": seen, "found": found, "tried": tried}))
"""


@needs_bwrap
def test_a_rootless_call_is_a_fork_of_a_zygote_that_finds_nothing_an_earlier_call_left(tmp_path: Path) -> None:
    """Rootless, a Python call is a fork of the zygote too, in pid, mount and IPC namespaces of
    its own under an init, as a rootless case is: it sees only its init and itself, and nothing
    an earlier call left; what it can name (its init) it cannot stop, kill, read or trace."""
    if not SUPPORT.active or not ROOTLESS:
        pytest.skip("rootless only" if SUPPORT.active else SUPPORT.detail)
    with _zygote_session(tmp_path, ROOTLESS_STASH, rootless_too=True) as cases_runner:
        forking = cases_runner.forking()
        first, session_, kept = _first_call(cases_runner)
        runs = [first, *(forking.run(["python3", "-S", "main.py"], limits=LIMITS) for _ in range(2))]
        assert session_.zygote is not None and session_.zygote[1] is kept and not session_.broken
        # a PyPy call rootless is its own start (session.ROOTLESS_OWN_START), the zygote kept
        pypy = forking.run(["pypy3", "-S", "main.py"], limits=LIMITS) if not needs.why_not("pypy3") else None
        assert session_.zygote is not None and session_.zygote[1] is kept
    for run in runs:
        assert run.exit_code == 0, run
        said = json.loads(run.stdout)
        assert said["me"] == 2 and said["seen"] == [1, 2] and said["found"] == [], said
        # pid 1 takes no signal it has no handler for (none): not refused, not delivered either
        assert said["tried"] == {"1 mem": errno.EACCES, "1 environ": errno.EACCES, "1 trace": errno.EPERM}, said
    assert pypy is None or (pypy.exit_code == 0 and json.loads(pypy.stdout)["found"] == []), pypy


@needs_bwrap
def test_calls_of_a_zygote_and_cases_of_their_own_take_turns_in_one_session(tmp_path: Path) -> None:
    """The zygote makes the next call's /tmp as soon as a call is swept; a case the supervisor
    starts meanwhile must not replace /tmp at the same moment (it did: EINVAL, the session broken)."""
    script = "import os\nprint(sorted(os.listdir('/tmp')))\nopen('/tmp/mark', 'w').close()\n"
    with _zygote_session(tmp_path, script, rootless_too=True) as cases_runner:
        forking = cases_runner.forking()
        runs = []
        for _ in range(6):
            runs.append(forking.run(["python3", "-S", "main.py"], limits=LIMITS))
            runs.append(cases_runner.run(["python3", "-S", "main.py"], limits=LIMITS))
        session_ = cases_runner.session
        assert session_ is not None and not session_.broken and session_.zygote is not None
    assert [run.stdout for run in runs] == [b"[]\n"] * len(runs), runs


# What a Node process is, as seen from inside: its ids, capabilities, filter, signals, globals,
# modules, folder, argv, environment, stdio, limits and stdin (main.js of a JavaScript call).
NODE_SELF = r"""
const fs = require("fs");
const status = Object.fromEntries(fs.readFileSync("/proc/self/status", "utf8").split("\n")
  .filter((line) => line.includes(":\t")).map((line) => line.split(":\t").map((part) => part.trim())));
for (const key of ["Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs",
                   "Seccomp", "SigBlk", "SigIgn", "SigCgt"]) console.log(key, status[key]);
console.log("globals", Object.getOwnPropertyNames(globalThis).sort().join(" "));
console.log("cache", Object.keys(require.cache).join(" "), require.main === module, module.id, __filename);
console.log("where", process.cwd(), JSON.stringify(process.argv), JSON.stringify(process.execArgv), process._eval);
console.log("env", JSON.stringify(Object.entries(process.env).sort()));
console.log("stdio", [0, 1, 2].map((fd) => fs.readlinkSync(`/proc/self/fd/${fd}`).replace(/\[\d+\]/, "")).join(" "));
console.log("leader", fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")[3] == process.pid);
console.log("limits", fs.readFileSync("/proc/self/limits", "utf8"));
console.log("stdin", fs.readFileSync(0, "utf8"));
const others = fs.readdirSync("/proc/self/fd").filter((fd) => fd > 2).map((fd) => {
  try { return fs.readlinkSync(`/proc/self/fd/${fd}`).replace(/\[\d+\]/, ""); } catch (error) { return "dir"; }
});
fs.writeSync(2, others.sort().join(" "));
"""
NODE = ["node", "--max-old-space-size=256", "--stack-size=65500", "main.js"]


@needs_bwrap
def test_a_javascript_call_forked_from_a_zygote_is_what_a_node_of_its_own_is(tmp_path: Path) -> None:
    needs.require("javascript")
    forked, seen = _forked_as_own(tmp_path, NODE_SELF, NODE)
    assert "where /box" in seen and "/box/main.js true . /box/main.js" in seen, seen
    # No descriptor of the zygote's (its channel, addon and script, a call's cgroup files):
    # beyond its stdio, only what libuv made anew in the child, and the listing's own folder
    others = set(forked.stderr.decode().split())
    assert others <= {"anon_inode:[eventpoll]", "anon_inode:[eventfd]", "pipe:", "/dev/null", "dir"}, forked


@needs_bwrap
def test_a_javascript_call_inherits_no_signal_the_judge_ignores(tmp_path: Path) -> None:
    """Node's start resets signals 1-31 only: one above (a real-time signal) that the judge's
    ancestors ignore would reach a forked call, where a Node of its own (by vfork, whose start
    resets every signal) has it at its default."""
    import signal

    needs.require("javascript")
    before = signal.signal(signal.SIGRTMIN + 6, signal.SIG_IGN)
    try:
        _, seen = _forked_as_own(tmp_path, NODE_SELF, NODE)
    finally:
        signal.signal(signal.SIGRTMIN + 6, before)
    ignored = int(dict(line.split(" ", 1) for line in seen.splitlines() if line.startswith("Sig"))["SigIgn"], 16)
    assert not ignored >> (signal.SIGRTMIN + 6 - 1) & 1, seen


# A JavaScript call that looks for what an earlier call stashed, then stashes its arguments in
# /tmp, /dev/shm, a global, a process left running, and goes for the zygote: a signal, a stop,
# a kill, its memory and environment through /proc. One line of what it found. (Its folder is
# the runner's to clean between cases, as for any case: not the zygote's part.)
NODE_STASH = r"""
const fs = require("fs");
const { spawn } = require("child_process");
const found = [];
for (const path of ["/tmp/stash", "/dev/shm/stash"]) if (fs.existsSync(path)) found.push(path);
if (globalThis.STASH !== undefined) found.push("a global");
for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
  try {
    if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("judge-stash")) found.push("a process left");
  } catch (error) {}
}
const tried = [];
for (const path of ["/tmp/stash", "/dev/shm/stash"]) {
  try { fs.writeFileSync(path, "[1, 2]"); } catch (error) { tried.push(path + " " + error.code); }
}
globalThis.STASH = [1, 2];
spawn("/bin/sh", ["-c", "exec sleep 60", "judge-stash"], { detached: true, stdio: "ignore" }).unref();
const parent = process.ppid;
for (const signal of ["SIGUSR2", "SIGSTOP", "SIGKILL"]) {
  try { process.kill(parent, signal); tried.push(signal + " done"); } catch (error) { tried.push(signal + " " + error.code); }
}
for (const what of ["mem", "environ"]) {
  try { fs.openSync(`/proc/${parent}/${what}`, "r+"); tried.push(what + " done"); } catch (error) { tried.push(what + " " + error.code); }
}
console.log(JSON.stringify({ found, tried }));
process.exit(0);
"""


@needs_bwrap
def test_a_javascript_call_finds_nothing_an_earlier_call_stashed_nor_reaches_its_zygote(tmp_path: Path) -> None:
    needs.require("javascript")
    with _zygote_session(tmp_path, NODE_STASH, "main.js", rootless_too=True) as cases_runner:
        forking = cases_runner.forking()
        first = forking.run(NODE, limits=LIMITS)
        session_ = cases_runner.session
        assert session_ is not None and session_.zygote is not None, session_ and session_.no_zygote
        kept = session_.zygote[1]
        runs = [first, *(forking.run(NODE, limits=LIMITS) for _ in range(2))]
        assert session_.zygote is not None and session_.zygote[1] is kept  # the same zygote, alive
    refused = ["SIGUSR2 EPERM", "SIGSTOP EPERM", "SIGKILL EPERM", "mem EACCES", "environ EACCES"]
    if ROOTLESS:  # its parent is its init, pid 1, which takes no signal it has no handler for: dropped, not refused
        refused = ["SIGUSR2 done", "SIGSTOP done", "SIGKILL done", "mem EACCES", "environ EACCES"]
    for run in runs:
        assert run.exit_code == 0, run
        assert json.loads(run.stdout) == {"found": [], "tried": refused}, run


@needs_bwrap
def test_without_the_node_zygote_each_javascript_call_is_nodes_own_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    needs.require("javascript")
    monkeypatch.setenv(zygote_kit.NODE_ENV, "0")
    with _zygote_session(tmp_path, "console.log(6 * 7)\n", "main.js", rootless_too=True) as cases_runner:
        runs = [cases_runner.forking().run(NODE, limits=LIMITS) for _ in range(2)]
        session_ = cases_runner.session
        assert session_ is not None and session_.zygote is None and "Node" in session_.no_zygote
    assert [run.stdout for run in runs] == [b"42\n", b"42\n"], runs


@needs_bwrap
def test_a_folder_every_case_reads_is_shown_read_only_where_the_sandbox_can(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kind's kit (the JVM kit of Java calls): read-only at its own path. A session replaces
    /tmp for each case, so a folder below /tmp (this test's) is shown by a sandbox per case only."""
    kit = tmp_path / "kit"
    kit.mkdir(mode=0o755)
    (kit / "said").write_text("kit\n")
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    limits = runner.sandbox.RunLimits(1, 3, 64, 1024)
    with sandbox.cases(box, read_only=(str(kit),)) as cases_runner:
        if cases_runner.session is not None:
            assert cases_runner.shown == ()
    monkeypatch.setenv(sandbox.SESSION_ENV, "0")
    with sandbox.cases(box, read_only=(str(kit),)) as cases_runner:
        assert cases_runner.session is None and cases_runner.shown == (str(kit),)
        run = cases_runner.run(["/bin/sh", "-c", f"cat {kit}/said; echo changed > {kit}/said"], limits=limits)
    assert run.stdout == b"kit\n" and run.exit_code != 0  # read, not written
    assert (kit / "said").read_text() == "kit\n"
