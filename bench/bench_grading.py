"""`make bench`, grading part: `judge grade` on the bundled class from scratch (--regrade
into a fresh folder), side by side in one run:

- -j1 and -j2 on this machine: -j2 at least 1.9x the throughput of -j1 (2 cores);
- -j2's wall time within 1.15x of (the CPU time of all cases) / 2: no critical path left;
- a loopback `judge scheduler` with two `judge worker -n 1` processes over mutual TLS
  against local -j2: at least 0.9x its throughput (the engine costs little).

The verdicts of every run must be the same. Not a test; it takes about ten minutes.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.grade import results  # noqa: E402

Verdicts = dict[tuple[str, str], tuple[str, ...]]


def judge_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "judge", *args]


def grade(out: Path, *extra: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        judge_command("grade", "submissions", "-o", str(out), "--regrade", *extra),
        cwd=REPO,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def verdicts(out: Path) -> Verdicts:
    return {(r.student, r.problem): tuple(c.verdict for c in r.cases) for r in results.read_all(out / "results")}


def case_cpu(out: Path) -> float:
    return sum(c.cpu_s for r in results.read_all(out / "results") for c in r.cases)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for(log: Path, text: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while text not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"bench: {log} never said {text!r}:\n{log.read_text(errors='replace')}")
        time.sleep(0.2)


def on_hosts(work: Path) -> float:
    """Grade through a loopback scheduler and two one-process judge workers, over TLS."""
    certs = work / "certs"
    subprocess.run(judge_command("cluster", "certs", str(certs)), check=True, stdout=subprocess.DEVNULL)
    address = f"tls://127.0.0.1:{free_port()}"
    started: list[subprocess.Popen[bytes]] = []
    try:
        for name, args in [
            ("scheduler", ("scheduler", address)),
            ("worker-1", ("worker", address, "-n", "1")),
            ("worker-2", ("worker", address, "-n", "1")),
        ]:
            log = work / f"{name}.log"
            with log.open("wb") as stream:
                process = subprocess.Popen(
                    judge_command(*args, "--certs", str(certs)),
                    stdout=stream,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            started.append(process)
            wait_for(log, "listening" if name == "scheduler" else "joined", process)
        return grade(work / "hosts", "--scheduler", address, "--certs", str(certs))
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=60)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="judge-bench-grading-") as folder:
        work = Path(folder)
        one = grade(work / "j1", "-j", "1")
        two = grade(work / "j2", "-j", "2")
        hosts = on_hosts(work)
        seen = {name: verdicts(work / name) for name in ("j1", "j2", "hosts")}
        cpu = case_cpu(work / "j2")
    count = len(seen["j1"])
    speedup = one / two
    ideal = two / (cpu / 2)
    engine = two / hosts
    print(f"grading the sample class ({count} submissions), from scratch:")
    print(f"  -j1                      {one:7.1f} s   {count / one:.3f} submissions/s")
    print(f"  -j2                      {two:7.1f} s   {count / two:.3f} submissions/s")
    print(f"  2 judge workers (TLS)    {hosts:7.1f} s   {count / hosts:.3f} submissions/s")
    print(f"  -j2 against -j1          {speedup:.2f}x, target >= 1.9x: {'met' if speedup >= 1.9 else 'MISSED'}")
    print(
        f"  -j2 against case CPU/2   {ideal:.2f}x ({cpu:.1f} s of case CPU), target <= 1.15x: "
        f"{'met' if ideal <= 1.15 else 'MISSED'}"
    )
    print(
        f"  hosts against -j2        {engine:.2f}x throughput, target >= 0.9x: {'met' if engine >= 0.9 else 'MISSED'}"
    )
    same = seen["j1"] == seen["j2"] == seen["hosts"]
    print(f"  verdicts identical on -j1, -j2 and the hosts: {'yes' if same else 'NO'}")
    for key in sorted(set().union(*seen.values())):
        found = {name: verdicts_of.get(key) for name, verdicts_of in seen.items()}
        if len(set(found.values())) > 1:
            print(
                f"    {key[0]}/{key[1]}: " + "; ".join(f"{name} {' '.join(v or ('-',))}" for name, v in found.items())
            )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
