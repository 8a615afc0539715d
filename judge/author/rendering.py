"""A variant's statement rendered in a child process with a CPU time limit, a memory limit
and a wall timeout: the template is the teacher's file (an imported package's, perhaps), and
a loop of loops would otherwise hold the web server's thread and its memory for ever. The
child prints the statement (at most judge.problem.variants.MAX_STATEMENT_BYTES) or one line
of error; `python -m judge.author.rendering` is the child."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

from judge.errors import JudgeError
from judge.problem import variants
from judge.run.sandbox import procs, spawn

CPU_S = 5
WALL_S = 15  # the CPU limit's, with room for a busy machine
MEMORY_BYTES = 1 << 30
FAILED = 3  # the child's exit status for a template that failed (its line on stderr)


def rendered(text: str, params: dict[str, variants.Value], label: str) -> str:
    """judge.problem.variants.render_statement, bounded in time and memory; JudgeError in one
    line naming `label` (the statement file) when it fails or goes over a bound."""
    given = json.dumps({"text": text, "params": params, "label": label, "cpu_s": CPU_S})
    # Spawned between the sandbox's runs and kept from their sweep of leftover children,
    # as the exchange's helpers are: another thread's run must not kill it.
    with spawn.RUN_LOCK:
        child = subprocess.Popen(
            [sys.executable, "-m", "judge.author.rendering"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        procs.LONG_LIVED.add(child.pid)
    try:
        out, err = child.communicate(given.encode(), timeout=WALL_S)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise JudgeError(f"{label}: statement template: took more than {WALL_S} s") from None
    finally:
        procs.LONG_LIVED.discard(child.pid)
    done = subprocess.CompletedProcess(child.args, child.returncode, out, err)
    if done.returncode == 0:
        return done.stdout.decode("utf-8")
    said = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
    if done.returncode == FAILED and said:
        raise JudgeError(said[-1])
    if done.returncode == -9 or done.returncode == -24:  # SIGKILL or SIGXCPU: the CPU limit
        raise JudgeError(f"{label}: statement template: took more than {CPU_S} s of CPU")
    raise JudgeError(f"{label}: statement template: its rendering failed (exit status {done.returncode})")


def main() -> int:
    """The child: its limits first, then the template read from stdin."""
    given = json.loads(sys.stdin.buffer.read())
    resource.setrlimit(resource.RLIMIT_CPU, (given["cpu_s"], given["cpu_s"] + 1))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    try:
        text = variants.render_statement(given["text"], given["params"], given["label"])
    except JudgeError as err:
        print(err, file=sys.stderr)
        return FAILED
    sys.stdout.buffer.write(text.encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
