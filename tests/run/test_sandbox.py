"""Hostile programs against the real sandbox: each test asserts the verdict, that no
process of the run is left, and that nothing leaked out of (or into) the box."""

from __future__ import annotations

import inspect
import os
import re
import select
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from judge.run import build, checkers, lifecycle, sandbox
from judge.run.sandbox import spawn, watch
from judge.run.verdicts import CaseVerdict, Verdict, judge_run
from tests import needs
from tests.conftest import PROBLEMS

LAYERS = sandbox.detect()
needs_bwrap = needs.mark("bwrap")
SECRET = (PROBLEMS / "lanqiao" / "tests" / "hardest" / "01.ans").resolve()


def limits(cpu: float = 1.0, memory: int = 64, output: int = 1 << 20) -> sandbox.RunLimits:
    return sandbox.RunLimits(cpu_s=cpu, wall_s=2 * cpu + 1, memory_mib=memory, output_bytes=output)


class Outcome:
    def __init__(self, run: sandbox.RunResult, verdict: CaseVerdict, build_result: build.Build) -> None:
        self.run = run
        self.verdict = verdict.verdict
        self.message = verdict.message
        self.build = build_result


def judge_source(
    tmp_path: Path,
    name: str,
    code: str,
    *,
    stdin: str = "",
    answer: str | None = None,
    lim: sandbox.RunLimits | None = None,
) -> Outcome:
    source = tmp_path / name
    source.write_text(code)
    submission = build.load_submission(source)
    (tmp_path / "stdin.txt").write_text(stdin)
    lim = lim or limits()
    with build.box() as where:
        compiled = build.compile_submission(submission, where)
        assert compiled.ok, compiled.message
        heap = lim.memory_mib - submission.language.jvm_allowance_mib  # a JVM's -Xmx leaves room for itself
        with sandbox.cases(where) as runner:
            run = runner.run(submission.run_argv(heap), limits=lim, stdin=tmp_path / "stdin.txt")
    check = checkers.tokens(run.stdout, answer.encode()) if answer is not None else checkers.CheckResult(True, "")
    return Outcome(run, judge_run(run, lim.memory_mib * 1024, check), compiled)


def _descendants() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every hostile program twice: in a submission's one sandbox (sandbox.session, where the
    machine has one) and in a sandbox of its own (the path of every other machine). Tests that
    call the sandbox or the compiler directly take one path whatever is set: they run once."""
    both = "judge_source(" in inspect.getsource(metafunc.function)
    metafunc.parametrize("case_path", ["session", "per-case"] if both else ["direct"], indirect=True)


@pytest.fixture(autouse=True)
def case_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "per-case":
        monkeypatch.setenv(sandbox.SESSION_ENV, "0")
    return str(request.param)


@pytest.fixture(autouse=True)
def nothing_left_behind() -> Iterator[None]:
    before = _descendants()  # what this process had already (an earlier test's browser, say)
    yield
    # The judge is the subreaper of its runs: anything that outlived a run, however it
    # detached itself, would be a descendant of this process now.
    assert _descendants() - before == set(), "a process of the run survived"
    reusable = spawn._reusable
    if reusable is not None and reusable[0] == os.getpid():
        assert reusable[1].pids() == [], "the run's cgroup is not empty"


def test_accepted_program(tmp_path: Path) -> None:
    got = judge_source(
        tmp_path,
        "a.c",
        '#include <stdio.h>\nint main(){int n;scanf("%d",&n);printf("%d\\n",2*n);}',
        stdin="21\n",
        answer="42",
    )
    assert got.verdict is Verdict.AC and got.run.stdout == b"42\n"
    # Right after the compiler ran in the same cgroup: its page cache must not count.
    assert got.run.memory_kib < 8 * 1024
    if LAYERS.cgroup.active:
        assert got.run.memory_kib > 0
    # Without a cgroup the peak is sampled: a program done in its first milliseconds may be
    # gone before the first look (test_fallback_samples_the_peak covers the sampling).


def test_cpu_loop_is_tle_on_cpu_time(tmp_path: Path) -> None:
    got = judge_source(tmp_path, "loop.c", "int main(){volatile unsigned long x=0;for(;;)x++;}")
    assert got.verdict is Verdict.TLE and got.run.limit_hit == "cpu"
    # Stopped by its CPU time, whatever the wall clock says: on a busy machine a second of CPU
    # can take several of wall time, and the wall limit (2 x CPU + 1 s) must not be what ended it.
    assert 1.0 <= got.run.cpu_s < 1.5


def test_sleeper_ends_at_the_wall_limit(tmp_path: Path) -> None:
    got = judge_source(tmp_path, "sleep.c", "#include <unistd.h>\nint main(){sleep(100);return 0;}")
    assert got.verdict is Verdict.TLE and got.run.limit_hit == "wall"
    # Ended at its wall limit (3 s), not after its 100 s; how long the kill takes is the machine's.
    assert got.run.cpu_s < 0.2 and 3.0 <= got.run.wall_s < 30.0


def test_memory_bomb_is_mle(tmp_path: Path) -> None:
    code = "#include <stdlib.h>\n#include <string.h>\nint main(){for(;;){char*p=malloc(1<<20);if(!p)return 3;memset(p,1,1<<20);}}"
    got = judge_source(tmp_path, "mem.c", code)
    assert got.verdict is Verdict.MLE, (got.run, got.message)


def test_python_memory_bomb_is_mle(tmp_path: Path) -> None:
    got = judge_source(tmp_path, "mem.py", "x = []\nwhile True:\n    x.append(bytearray(1 << 20))\n")
    assert got.verdict is Verdict.MLE, (got.run, got.message)


# The pids cgroup, or RLIMIT_NPROC counted in the run's own user namespace (rootless).
@pytest.mark.skipif(not (LAYERS.cgroup.active or LAYERS.rootless), reason=f"no pids limit: {LAYERS.cgroup.detail}")
def test_fork_bomb_is_contained(tmp_path: Path) -> None:
    got = judge_source(tmp_path, "fork.c", "#include <unistd.h>\nint main(){for(;;)fork();}")
    assert got.verdict in (Verdict.TLE, Verdict.RE, Verdict.MLE)
    assert got.run.wall_s < 30.0  # ended by its limits, not left to run (the margin is a busy machine's)


# Forks until refused, each child waiting, then says how many it made.
FORK_COUNT = """#include <stdio.h>
#include <unistd.h>
int main(void) {
  int made = 0;
  while (made < 1000) {
    pid_t pid = fork();
    if (pid < 0) break;
    if (pid == 0) { sleep(5); _exit(0); }
    made++;
  }
  printf("%d\\n", made);
  fflush(stdout);
  return 0;
}
"""


@pytest.mark.skipif(not (LAYERS.cgroup.active or LAYERS.rootless), reason=f"no pids limit: {LAYERS.cgroup.detail}")
def test_a_runs_processes_are_bounded_by_its_own_count_not_the_judge_users(tmp_path: Path) -> None:
    # Rootless, RLIMIT_NPROC bounds the run's own user namespace: set on the sandbox's first
    # process once bubblewrap has made it, never on bubblewrap (where it would count every
    # process of the judge's user on the machine). With the judge's user holding more
    # processes than the bound, the run still forks up to it, and no further.
    lim = replace(limits(), pids=16)
    held = [subprocess.Popen(["sleep", "60"]) for _ in range(24)]
    try:
        got = judge_source(tmp_path, "forks.c", FORK_COUNT, lim=lim)
    finally:
        for process in held:
            process.kill()
            process.wait()
    made = int(got.run.stdout.decode().split()[0])
    assert 8 <= made < lim.pids, got.run  # the bound counts the run's own processes (and threads)


def test_output_flood_is_ole(tmp_path: Path) -> None:
    got = judge_source(tmp_path, "flood.py", "import sys\nwhile True:\n    sys.stdout.write('y' * 65536)\n")
    assert got.verdict is Verdict.OLE and got.run.output_bytes > 1 << 20
    assert len(got.run.stdout) == 1 << 20  # kept no more than the limit


def test_large_file_is_ole(tmp_path: Path) -> None:
    code = "with open('big', 'wb') as f:\n    while True:\n        f.write(b'z' * 65536)\n"
    got = judge_source(tmp_path, "file.py", code)
    assert got.verdict is Verdict.OLE, (got.run, got.message)


def test_daemon_that_double_forks_is_killed(tmp_path: Path) -> None:
    marker = tmp_path / "daemon-was-here"
    code = f"""#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(){{
  if (fork() == 0) {{
    setsid();
    if (fork() == 0) {{ sleep(2); FILE *f = fopen("{marker}", "w"); if (f) fputs("alive", f); for(;;) pause(); }}
    exit(0);
  }}
  printf("42\\n");
  return 0;
}}"""
    got = judge_source(tmp_path, "daemon.c", code, answer="42")
    assert got.verdict is Verdict.AC
    time.sleep(2.5)
    assert not marker.exists()


def test_what_the_judge_ran_before_a_run_is_not_swept_with_it(tmp_path: Path) -> None:
    """The sweep after a run kills what the run left, never a child the judge process had
    already (a server a test started, an embedding program's own workers)."""
    import subprocess

    before = _descendants()
    mine = subprocess.Popen(["sleep", "60"])
    try:
        code = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\nprint(42)\n"
        got = judge_source(tmp_path, "leaves.py", code, answer="42")
        assert got.verdict is Verdict.AC
        assert mine.poll() is None, "the judge's own child was killed"
        assert _descendants() - before == {mine.pid}  # the run's leftover is gone
    finally:
        mine.kill()
        mine.wait()


def test_killing_its_parent_does_not_escape(tmp_path: Path) -> None:
    code = "import os, signal, time\nif os.fork() == 0:\n    os.kill(os.getppid(), signal.SIGKILL)\n    time.sleep(30)\nelse:\n    time.sleep(30)\n"
    got = judge_source(tmp_path, "parent.py", code)
    assert got.verdict in (Verdict.RE, Verdict.TLE)


@needs_bwrap
def test_answer_files_are_out_of_reach(tmp_path: Path) -> None:
    relative = os.path.relpath(SECRET, Path.cwd())
    code = f"""
import os
for path in ({str(SECRET)!r}, {relative!r}, "../../../" + {relative!r}, "/work", "/root"):
    try:
        print("LEAK", path, open(path).read() if os.path.isfile(path) else os.listdir(path))
    except OSError:
        pass
print("42")
"""
    got = judge_source(tmp_path, "peek.py", code, answer="42")
    assert got.verdict is Verdict.AC, got.run.stdout
    assert b"LEAK" not in got.run.stdout


@needs_bwrap
def test_nothing_inside_names_the_judges_start(tmp_path: Path) -> None:
    """bubblewrap's init (pid 1) shows its command line, and a bind's host path shows in
    mountinfo: neither may hold the judge's pid and start time (a clock of the judging)."""
    code = """
import os
for path in ("/proc/1/cmdline", "/proc/self/mountinfo", "/proc/self/cmdline"):
    print(path, open(path, "rb").read().replace(b"\\0", b" ").decode(errors="replace"))
print("cwd", os.getcwd())
"""
    got = judge_source(tmp_path, "clock.py", code)
    assert got.verdict is Verdict.AC, got.run.stdout
    seen = got.run.stdout.decode()
    # pid 1 is bubblewrap's (read in full: its options by --args), or without root in a
    # delegated cgroup's session the judge's supervisor, whose arguments name no host folder
    assert ("--args" in seen or "/tmp/judge-supervisor.py" in seen) and " /box " in seen, seen
    pid, ticks = lifecycle.owner_tag().split(".")
    assert f"{pid}.{ticks}" not in seen and not re.search(rf"(?<!\d){ticks}(?!\d)", seen), seen
    assert "--bind" not in seen, seen  # none of bubblewrap's options (a folder's name is random)


@needs_bwrap
def test_no_network_even_to_loopback(tmp_path: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(3)
    port = server.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        try:
            accepted.append(server.accept())
        except OSError:
            pass

    waiter = threading.Thread(target=accept)
    waiter.start()
    code = f"""
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=1)
    print("CONNECTED")
except OSError:
    print("BLOCKED")
"""
    got = judge_source(tmp_path, "net.py", code, answer="BLOCKED")
    waiter.join()
    server.close()
    assert got.verdict is Verdict.AC and not accepted


def test_cannot_write_outside_the_box(tmp_path: Path) -> None:
    target = tmp_path / "outside.txt"
    code = f"""
import os
for path in ({str(target)!r}, "/usr/judge-was-here", "/etc/judge-was-here"):
    try:
        with open(path, "w") as f:
            f.write("x")
        print("WROTE", path)
    except OSError:
        pass
with open("inside.txt", "w") as f:  # the box itself is writable
    f.write("ok")
print(open("inside.txt").read())
"""
    got = judge_source(tmp_path, "write.py", code, answer="ok")
    assert got.verdict is Verdict.AC, got.run.stdout
    assert not target.exists() and not Path("/usr/judge-was-here").exists()


def test_compile_bomb_is_ce(tmp_path: Path) -> None:
    source = tmp_path / "bomb.c"
    source.write_text('#include "/dev/random"\nint main(){return 0;}\n')
    submission = build.load_submission(source)
    with build.box() as where:
        compiled = build.compile_submission(submission, where)
    assert not compiled.ok and compiled.wall_s < build.compile_limits(submission.language).wall_s + 5


def test_compile_error_keeps_the_message(tmp_path: Path) -> None:
    source = tmp_path / "bad.cpp"
    source.write_text("int main() { return undefined_name; }\n")
    with build.box() as where:
        compiled = build.compile_submission(build.load_submission(source), where)
    assert not compiled.ok and "undefined_name" in compiled.message


def test_deep_legal_recursion_is_fine(tmp_path: Path) -> None:
    code = """#include <stdio.h>
long depth(long n){ volatile char pad[64]; pad[0] = (char)n; return n == 0 ? 0 : 1 + depth(n - 1) + pad[0] * 0; }
int main(){ printf("%ld\\n", depth(1000000)); return 0; }"""
    got = judge_source(tmp_path, "deep.c", code, answer="1000000", lim=limits(memory=256))
    assert got.verdict is Verdict.AC, (got.run, got.message)


def test_threads_on_both_cores_count_twice(tmp_path: Path) -> None:
    code = """#include <pthread.h>
#include <time.h>
static void *burn(void *arg){ volatile unsigned long x = 0; for(;;) x++; return arg; }
int main(){ pthread_t a, b; pthread_create(&a, 0, burn, 0); pthread_create(&b, 0, burn, 0); pthread_join(a, 0); return 0; }"""
    got = judge_source(tmp_path, "threads.c", code)
    # Judged on the CPU time of both threads (no assertion on the clock: on a busy machine
    # the two threads may not get a core each).
    assert got.verdict is Verdict.TLE and got.run.limit_hit == "cpu" and got.run.cpu_s >= 1.0


def test_runtime_error_names_the_signal(tmp_path: Path) -> None:
    got = judge_source(tmp_path, "segv.c", "int main(){ volatile int *p = 0; return *p; }")
    assert got.verdict is Verdict.RE and "SIGSEGV" in got.message


def test_a_signal_a_program_sends_itself_ends_it(tmp_path: Path) -> None:
    # Not so for a pid 1, which ignores its own signals without a handler: a case never is
    # one (rootless, its namespace's init is the judge's; see sandbox.session).
    aborted = judge_source(tmp_path, "abort.c", "#include <stdlib.h>\nint main(){ abort(); }")
    assert aborted.verdict is Verdict.RE and "SIGABRT" in aborted.message, aborted.message
    code = "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\nprint('alive')\n"
    termed = judge_source(tmp_path, "term.py", code)
    assert termed.verdict is Verdict.RE and "SIGTERM" in termed.message and termed.run.stdout == b"", termed.message


def test_an_interactions_run_ended_when_it_ended_not_when_the_judge_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which side of an interaction ended first may decide its verdict: a busy judge that looks
    late must not move a run's end (bubblewrap's exit status, stamped by the kernel)."""
    needs.require("bwrap")
    seen: list[float] = []
    real_read = watch.Watch.read

    def late_read(self: watch.Watch) -> None:
        exit_fds = [key.fd for key in self.selector.get_map().values() if key.data == "exit"]
        if exit_fds and not seen:
            select.select(exit_fds, [], [])  # the run has ended (its sandbox is gone) ...
            seen.append(time.monotonic())
            time.sleep(0.2)  # ... and the judge is slow to get to it
        real_read(self)

    monkeypatch.setattr(watch.Watch, "read", late_read)
    box = tmp_path / "box"
    sandbox.prepare_box(box)
    to_other, theirs = os.pipe()  # its stdout: the other side's stdin
    try:
        run = sandbox.run(["/bin/sh", "-c", "exit 3"], box=box, limits=limits(), stdout=theirs)
    finally:
        os.close(to_other)
    assert run.exit_code == 3 and seen, run
    assert run.ended <= seen[0], (run.ended, seen)


def test_exit_code_is_re(tmp_path: Path) -> None:
    got = judge_source(tmp_path, "exit.py", "import sys\nsys.exit(3)\n")
    assert got.verdict is Verdict.RE and got.message == "exit code 3"


def test_java_heap_exhaustion_is_mle(tmp_path: Path) -> None:
    needs.require("java")
    code = """import java.util.*;
public class Main { public static void main(String[] a) { List<long[]> keep = new ArrayList<>(); while (true) keep.add(new long[1 << 20]); } }"""
    got = judge_source(
        tmp_path,
        "Main.java",
        code,
        lim=sandbox.RunLimits(cpu_s=5, wall_s=11, memory_mib=64 + 192, output_bytes=1 << 20, address_space=False),
    )
    assert got.verdict is Verdict.MLE, (got.run, got.message)


# The fallback: no bubblewrap and no cgroup (rlimits, setuid, psutil sampling, the sweep).
FALLBACK = sandbox.Layers(
    bwrap=sandbox.Layer("bwrap", False, "switched off by the test"),
    user=LAYERS.user if not LAYERS.bwrap.active else sandbox.Layer("nobody", os.geteuid() == 0, "setuid before exec"),
    cgroup=sandbox.Layer("cgroup", False, "switched off by the test"),
    cgroup_version=0,
    bwrap_path=None,
    setpriv_path=None,
    binds=(),
)


def fallback_run(tmp_path: Path, code: str, lim: sandbox.RunLimits | None = None) -> tuple[sandbox.RunResult, Verdict]:
    source = tmp_path / "prog.c"
    source.write_text(code)
    lim = lim or limits()
    with build.box() as where:
        assert build.compile_submission(build.load_submission(source), where).ok
        run = sandbox.run(["./main"], box=where, limits=lim, layers=FALLBACK)
    return run, judge_run(run, lim.memory_mib * 1024, checkers.CheckResult(True, "")).verdict


def test_fallback_samples_the_peak(tmp_path: Path) -> None:
    # 48 MiB touched and held for a moment: the samples see each process's VmHWM.
    code = (
        "#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n"
        "int main(){char*p=malloc(48<<20);memset(p,1,48<<20);usleep(300000);return p[5]-1;}"
    )
    run, verdict = fallback_run(tmp_path, code)
    assert verdict is Verdict.AC, run
    assert 48 * 1024 <= run.memory_kib < 64 * 1024


def test_fallback_still_judges_cpu_memory_and_output(tmp_path: Path) -> None:
    # A judge much bigger than the limit, as pytest is late in a run: a child forked from
    # it holds the judge's image until it execs, which must not count as the program's.
    ballast = bytearray(160 << 20)
    ballast[:: 1 << 12] = b"\1" * len(ballast[:: 1 << 12])
    run, verdict = fallback_run(tmp_path, '#include <stdio.h>\nint main(){puts("1");return 0;}')
    assert verdict is Verdict.AC and run.memory_kib < 32 * 1024
    run, verdict = fallback_run(tmp_path, "int main(){volatile unsigned long x=0;for(;;)x++;}")
    assert verdict is Verdict.TLE and run.cpu_s >= 1.0
    memory = "#include <stdlib.h>\n#include <string.h>\nint main(){for(;;){char*p=malloc(1<<20);if(!p)return 3;memset(p,1,1<<20);}}"
    run, verdict = fallback_run(tmp_path, memory)
    assert verdict is Verdict.MLE, run  # the sampled peak passes the limit
    # A static array far over the limit: it loads (RLIMIT_AS is only a backstop above the
    # limit) and is MLE once it is touched, as with a cgroup, not a SIGSEGV at exec.
    static = "#include <string.h>\nstatic char big[512 << 20];\nint main(){memset(big, 1, sizeof big);return big[7];}"
    run, verdict = fallback_run(tmp_path, static)
    assert verdict is Verdict.MLE, run
    run, verdict = fallback_run(tmp_path, '#include <stdio.h>\nint main(){for(;;)fputs("zzzzzzzzzzzzzzzz", stdout);}')
    assert verdict is Verdict.OLE


def test_fallback_kills_a_daemon_that_leaves_the_session(tmp_path: Path) -> None:
    code = """#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(){ if (fork() == 0) { setsid(); if (fork() == 0) { for(;;) pause(); } exit(0); } puts("1"); return 0; }"""
    run, verdict = fallback_run(tmp_path, code)
    assert verdict is Verdict.AC and run.stdout == b"1\n"


def test_host_temp_folders_and_loopback_stay_untouched(tmp_path: Path) -> None:
    """What a program writes to /tmp, /var/tmp or /dev/shm stays in its sandbox (or fails)."""
    needs.require("isolation")
    name = f"judge-hostile-{os.getpid()}-{time.monotonic_ns()}"
    code = f"""
for folder in ("/tmp", "/var/tmp", "/dev/shm"):
    try:
        with open(folder + "/{name}", "w") as f:
            f.write("x")
    except OSError:
        pass
print("done")
"""
    got = judge_source(tmp_path, "litter.py", code, answer="done")
    assert got.verdict is Verdict.AC, got.run
    assert not any(Path(folder, name).exists() for folder in ("/tmp", "/var/tmp", "/dev/shm"))


def test_a_private_file_of_the_user_is_out_of_reach(tmp_path: Path) -> None:
    """Root or not, the judge's own user's files (its home, a mode-0600 file) are not visible."""
    needs.require("isolation")
    home = Path(os.path.expanduser("~"))
    secret = home / f".judge-test-secret-{os.getpid()}"
    secret.write_text("grades of the class\n")
    secret.chmod(0o600)
    try:
        code = f"""
import os
for path in ({str(secret)!r}, {str(home)!r}, {str(SECRET)!r}):
    try:
        print("LEAK", path, open(path).read() if os.path.isfile(path) else os.listdir(path))
    except OSError:
        pass
print("42")
"""
        got = judge_source(tmp_path, "private.py", code, answer="42")
    finally:
        secret.unlink()
    assert got.verdict is Verdict.AC, got.run.stdout
    assert b"LEAK" not in got.run.stdout and b"grades" not in got.run.stdout


def test_no_new_namespaces_inside_the_sandbox(tmp_path: Path) -> None:
    """Rootless: a program cannot make a user namespace of its own (and with it capabilities)."""
    if not LAYERS.rootless:
        pytest.skip("as root, programs run as nobody with bubblewrap's plain namespaces (no user namespace)")
    code = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print("UNSHARED" if libc.unshare(0x10000000) == 0 else "REFUSED")
"""
    got = judge_source(tmp_path, "userns.py", code, answer="REFUSED")
    assert got.verdict is Verdict.AC, got.run.stdout


def test_compile_bombs_end_as_ce_within_the_compile_limits(tmp_path: Path) -> None:
    import psutil as ps

    macro = "#define A x=x+1;\n" + "".join(
        f"#define {b} {a} {a} {a} {a} {a} {a} {a} {a} {a} {a}\n" for a, b in zip("ABCDEFGH", "BCDEFGHI", strict=True)
    )
    bombs = {
        "macro.c": macro + "int main(){ volatile int x = 0; I return x; }\n",
        "template.cpp": "template<int N, unsigned long M> struct B { static const unsigned long v = B<N-1, 2*M>::v + B<N-1, 2*M+1>::v; };\n"
        "template<unsigned long M> struct B<0, M> { static const unsigned long v = M; };\n"
        "int main(){ return (int)B<28, 1>::v; }\n",
    }
    memory_mib = 256
    me = ps.Process()

    def held() -> int:
        # What the compile's processes hold, sampled from outside the sandbox: the test's own
        # descendants only, so other work on the machine (a parallel test) does not count.
        total = 0
        for child in me.children(recursive=True):
            try:
                total += child.memory_info().rss
            except ps.Error:
                pass
        return total

    def compile_watched(submission: build.Submission, limit: sandbox.RunLimits) -> tuple[build.Build, float]:
        """Compile, and the most memory its processes held together meanwhile (MiB)."""
        peak = [0]
        stop = threading.Event()

        def watch() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], held())
                time.sleep(0.005)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            with build.box() as where:
                compiled = build.compile_submission(submission, where, limit)
        finally:
            stop.set()
            watcher.join()
        return compiled, peak[0] / (1 << 20)

    for name, code in bombs.items():
        source = tmp_path / name
        source.write_text(code)
        submission = build.load_submission(source)
        limit = build.compile_limits(submission.language, time_s=2, memory_mib=memory_mib)
        compiled, held_mib = compile_watched(submission, limit)
        # Stopped at a limit, or (under RLIMIT_AS, without a cgroup) the compiler's own allocation refused.
        stopped = any(why in compiled.message for why in ("compilation stopped", "out of memory", "memory exhausted"))
        assert not compiled.ok and stopped, (name, compiled.message[:300])
        assert compiled.wall_s < 2 * limit.cpu_s + 2, (name, compiled.wall_s)  # 2x the CPU limit plus start-up
        # The compiler's processes are charged to one cgroup; without one, RLIMIT_AS bounds
        # each. Slack for the compiler's own code (in its RSS, charged to whoever read it first), the driver and bubblewrap.
        assert 0 < held_mib < memory_mib + 64, (name, held_mib)


# --- the same verdicts under load -------------------------------------------------------------

UNDER_LOAD = {
    "deep.c": (
        "#include <stdio.h>\n#include <string.h>\n"
        "long depth(long n){ volatile char pad[64]; memset((char*)pad, (int)n, sizeof pad);"
        " if (n == 0) return 0; long r = depth(n - 1); return r + 1 + (pad[7] != (char)n); }\n"
        'int main(){ printf("%ld\\n", depth(1000000)); return 0; }\n'
    ),
    "heap.c": (
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
        "int main(){ size_t n = (size_t)200 << 20; char *p = malloc(n); if (!p) return 3; memset(p, 7, n);"
        ' long s = 0; for (size_t i = 0; i < n; i += 4096) s += p[i]; printf("%ld\\n", s); return 0; }\n'
    ),
    "threads.c": (
        "#include <pthread.h>\n#include <stdio.h>\n"
        "static void *work(void *arg){ volatile long s = 0; for (long i = 0; i < 2000000; i++) s += i;"
        " return arg; }\n"
        "int main(){ pthread_t t[32]; for (int i = 0; i < 32; i++) if (pthread_create(&t[i], 0, work, 0))"
        ' return 4; for (int i = 0; i < 32; i++) pthread_join(t[i], 0); puts("32"); return 0; }\n'
    ),
    "loop.c": "int main(){ volatile unsigned long x = 0; for (;;) x++; }\n",
}
LOAD_LIMITS = sandbox.RunLimits(cpu_s=0.5, wall_s=2.0, memory_mib=256, output_bytes=1 << 20)


def judge_under_load(sources: list[str]) -> list[str]:
    """In a process of its own (a judge): compile and run each program, return the verdicts."""
    verdicts = []
    for source in sources:
        submission = build.load_submission(Path(source))
        with build.box() as where:
            assert build.compile_submission(submission, where).ok
            run = sandbox.run(["./main"], box=where, limits=LOAD_LIMITS)
        verdict = judge_run(run, LOAD_LIMITS.memory_mib * 1024, checkers.CheckResult(True, ""))
        verdicts.append(
            f"{Path(source).name}: {verdict.verdict.value} {verdict.message if verdict.verdict is Verdict.RE else ''}"
        )
    return verdicts


@pytest.mark.slow
def test_eight_judges_at_once_give_the_verdicts_of_one(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from tests.conftest import REPO

    sources = []
    for name, code in UNDER_LOAD.items():
        (tmp_path / name).write_text(code)
        sources.append(str(tmp_path / name))
    alone = judge_under_load(sources)
    assert [v.split(": ")[1].strip() for v in alone] == ["AC", "AC", "AC", "TLE"], alone
    script = (
        "import json, sys\nfrom tests.run.test_sandbox import judge_under_load\n"
        "print(json.dumps(judge_under_load(json.loads(sys.argv[1]))))"
    )
    for round_ in range(3):
        # Eight judge processes at once, each taking the programs in another order, so
        # that different programs overlap.
        orders = [sources[i % 4 :] + sources[: i % 4] for i in range(8)]
        judges = [
            subprocess.Popen(
                [sys.executable, "-c", script, json.dumps(order)],
                cwd=REPO,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for order in orders
        ]
        for judge in judges:
            out, err = judge.communicate(timeout=300)
            assert judge.returncode == 0, err.decode()
            assert sorted(json.loads(out)) == sorted(alone), (round_, out)


def test_a_busy_machine_does_not_turn_a_running_program_into_tle(tmp_path: Path) -> None:
    """On one core shared with three busy loops the program gets a quarter of it: its wall
    limit moves (it is running, not sleeping), and CPU time decides."""
    import subprocess
    import sys

    source = tmp_path / "work.c"
    # About 0.45 s of CPU on an idle machine; the limits follow from what it takes here and
    # now (a busy machine has measured 1.45 s), so that the test does not depend on speed.
    source.write_text(
        "#include <stdio.h>\nint main(){ volatile unsigned long x = 0; "
        'for (unsigned long i = 0; i < 1300000000UL; i++) x += i; puts("ok"); return 0; }\n'
    )
    core = min(os.sched_getaffinity(0))
    saved = os.sched_getaffinity(0)

    def pin(cores: set[int]) -> None:  # every thread: the judge's launcher thread starts the runs
        for tid in os.listdir("/proc/self/task"):
            os.sched_setaffinity(int(tid), cores)

    with build.box() as where:
        assert build.compile_submission(build.load_submission(source), where).ok
        roomy = sandbox.RunLimits(cpu_s=30, wall_s=60, memory_mib=64, output_bytes=1 << 20)
        alone = sandbox.run(["./main"], box=where, limits=roomy)
        assert alone.ok and alone.cpu_s > 0.05, alone
        # A CPU (and wall) limit of three times that: on a quarter of a core (a fifth with the
        # judge's own polls) the run takes past its wall limit, and well inside the three
        # times more it may be extended to while it runs.
        work = 3 * alone.cpu_s
        lim = sandbox.RunLimits(cpu_s=work, wall_s=work, memory_mib=64, output_bytes=1 << 20)
        # Each loop in a session of its own: the kernel shares a core between sessions first.
        # The share the run gets varies with the machine; with more loops it only shrinks, so
        # add loops until the run is pushed past its wall limit (each run must still be OK).
        pushed = []
        for count in (3, 5, 7):
            hogs = [
                subprocess.Popen(
                    [sys.executable, "-c", f"import os\nos.sched_setaffinity(0, {{{core}}})\nwhile True: pass"],
                    start_new_session=True,
                )
                for _ in range(count)
            ]
            try:
                pin({core})  # the run inherits the judge's one core
                time.sleep(0.2)
                loaded = sandbox.run(["./main"], box=where, limits=lim)
            finally:
                pin(saved)
                for hog in hogs:
                    hog.kill()
                    hog.wait()
            assert loaded.ok and loaded.stdout == b"ok\n", (count, loaded)
            pushed.append(loaded.wall_s)
            if loaded.wall_s > lim.wall_s:
                break
    assert max(pushed) > lim.wall_s, pushed  # it did share the core, and ran past its wall limit


def _is_subreaper_after_a_run(box: str) -> int:
    import ctypes

    sandbox.run(["/bin/true"], box=Path(box), limits=limits())
    flag = ctypes.c_int(0)
    ctypes.CDLL(None).prctl(37, ctypes.byref(flag), 0, 0, 0)  # PR_GET_CHILD_SUBREAPER
    return flag.value


def test_a_forked_worker_is_a_subreaper_of_its_own(tmp_path: Path) -> None:
    """The flag is not inherited by fork: a worker forked from a subreaper judge must set it
    again, or its runs' orphans become zombies of the parent, charged to its pids cgroup."""
    from judge.run import lifecycle

    sandbox.run(["/bin/true"], box=tmp_path, limits=limits())  # this process is a subreaper now
    sandbox.prepare_box(tmp_path)
    with lifecycle.worker_pool(1) as pool:
        assert pool.submit(_is_subreaper_after_a_run, str(tmp_path)).result() == 1


def test_only_the_box_and_capped_tmpfs_are_writable(tmp_path: Path) -> None:
    """The sandbox's own root and /dev are read-only (rootless, the program owns them and
    could fill them with memory); /tmp and /dev/shm take no more than their cap."""
    needs.require("isolation")
    cap = sandbox.TMP_CAP_BYTES
    code = f"""
import os
for path in ("/x", "/dev/x", "/box/../y", "/usr/x"):
    try:
        open(path, "w").close()
        print("WROTE", path)
    except OSError:
        pass
for folder in ("/tmp", "/dev/shm"):
    written = 0
    try:
        with open(folder + "/fill", "wb") as f:
            for _ in range({2 * cap} // 65536):
                written += f.write(bytes(65536))
                f.flush()
    except OSError:
        pass
    print(folder, "capped" if written <= {cap} else "OVER", written)
print("done")
"""
    lim = sandbox.RunLimits(cpu_s=5, wall_s=11, memory_mib=256, output_bytes=4 * cap)
    got = judge_source(tmp_path, "fill.py", code, lim=lim)
    assert got.verdict is Verdict.AC, (got.run, got.message)
    out = got.run.stdout.decode()
    assert "WROTE" not in out and "OVER" not in out and out.count("capped") == 2 and "done" in out, out


class _OomKilledGroup:
    """What a cgroup says of a run the kernel's OOM killer ended late in its CPU time."""

    oom_guarded = False

    def cpu_seconds(self) -> float:
        return 0.99

    def peak_bytes(self) -> int:
        return 60 << 20

    def oom_killed(self) -> bool:
        return True

    def hit_memory_limit(self) -> bool:
        return True

    def oom_event_fd(self) -> None:
        return None

    def kill_all(self, timeout: float = 2.0) -> None:
        pass


def test_an_oom_kill_near_the_cpu_limit_is_mle_not_the_cpu_backstop() -> None:
    # A run SIGKILLed at 99% of its CPU time looks like the CPU rlimit's backstop; when its
    # cgroup counts an OOM kill, memory ended it (Go's runtime used 0.96 s of 1 s in CI).
    from judge.run.sandbox.watch import Watch

    proc = subprocess.Popen(["true"])
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    os.close(out_w)
    os.close(err_w)
    group = _OomKilledGroup()
    start = time.monotonic()
    watch = Watch(group.kill_all, None, proc.pid, group, limits(cpu=1.0), out_r, err_r, start, 64 << 20, 0.0)  # type: ignore[arg-type]
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    run = watch.finish(9, usage, under_bwrap=False, judge_rss=0)  # status 9: killed by SIGKILL
    os.close(out_r)
    os.close(err_r)
    assert run.limit_hit == sandbox.Limit.MEMORY, run
    assert judge_run(run, 64 * 1024, None).verdict is Verdict.MLE
