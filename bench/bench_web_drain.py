"""`make bench`, the web judge at a deadline: how long `judge serve --workers 2` takes to drain 80
submissions sent within seconds, beside `judge grade -j 2` on the same 80 files in the same run.

Half are a correct C program, half a wrong one; every student is on the roster, results are
released at once (--result-step 0) and there is no per-minute cap. The drain is timed from the
first submission sent to the last result stored. Three rows: lanqiao (78 cases a submission,
nobody watching), and the cheap case of issue 62, eight-digits (65 cases of a few ms), with its
80 students watching as browsers do: each polling their submission's status (JSON) every 0.5 s until
it is judged, or each holding the page's event stream open until its `end` (and fetching the
page at each change, as its script does). Targets (issues 44
and 62): the web judge within 1.3x of `judge grade`. Not a test: nothing here fails a build.
`--only NAME` runs one row (lanqiao, poll, stream).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.web.state.store import Store  # noqa: E402
from tests.web.conftest import Client, free_port  # noqa: E402

STUDENTS = 80
WATCH_S = 0.5  # how often a polling student fetches their page (the live page's own tick)
WRONG = '#include <stdio.h>\nint main(void) { char line[64]; while (fgets(line, sizeof line, stdin)) puts("0"); }\n'


@dataclass(frozen=True)
class Row:
    name: str
    problem: str
    right: str  # the correct program, under the problem's solutions/accepted
    watch: str  # "" (nobody watches), "poll" (the page every WATCH_S), "stream" (its event stream)


ROWS = (
    Row("lanqiao", "lanqiao", "cantor_bfs.c", ""),
    Row("poll", "eight-digits", "ida_star.c", "poll"),
    Row("stream", "eight-digits", "ida_star.c", "stream"),
)


def judge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=REPO, capture_output=True, text=True, check=True)


def class_folder(root: Path, row: Row) -> tuple[Path, Path, dict[str, bytes]]:
    problems = root / "problems"
    problems.mkdir()
    shutil.copytree(REPO / "problems" / row.problem, problems / row.problem)
    right = (REPO / "problems" / row.problem / "solutions" / "accepted" / row.right).read_bytes()
    sources = {f"s{i:02d}": right if i % 2 == 0 else WRONG.encode() for i in range(STUDENTS)}
    submissions = root / "submissions"
    for student, source in sources.items():
        (submissions / student).mkdir(parents=True)
        (submissions / student / f"{row.problem}.c").write_bytes(source)
    return problems, submissions, sources


def children_cpu() -> float:
    """CPU seconds of this process's ended children and theirs (the cases included): beside a
    wall time that the machine's other work stretches, what the judge itself spent."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def grade_time(problems: Path, submissions: Path, out: Path) -> tuple[float, float]:
    """`judge grade -j 2`: (wall seconds, CPU seconds)."""
    start, cpu = time.monotonic(), children_cpu()
    judge("--problems", str(problems), "grade", str(submissions), "-o", str(out), "-j", "2")
    return time.monotonic() - start, children_cpu() - cpu


def watch(client: Client, submission: int, how: str) -> None:
    """A student watching their submission until it is judged, as their browser would: polling
    its status (the JSON a page's poller reads) every WATCH_S, or holding the live page's event
    stream open and fetching the page again at each `change`, as static/live.js does."""
    if how == "poll":
        while client.get(f"/api/submissions/{submission}").json()["status"] != "done":
            time.sleep(WATCH_S)
        return
    request = urllib.request.Request(f"{client.base}/submissions/{submission}/events")
    with client.opener.open(request, timeout=120) as stream:
        for line in stream:
            if line.startswith(b"event: end"):
                return
            if line.startswith(b"event: change"):
                client.get(f"/submissions/{submission}")


def logged_in(base: str, tokens: dict[str, str]) -> dict[str, Client]:
    clients = {}
    deadline = time.monotonic() + 30
    while True:
        try:
            for student, token in tokens.items():
                client = Client(base)
                client.login(student, token)
                clients[student] = client
            return clients
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def serve_time(problems: Path, data: Path, sources: dict[str, bytes], row: Row) -> tuple[float, float]:
    """`judge serve --workers 2` draining the class: (wall seconds from the first sent to the
    last judged, CPU seconds of the server, its workers and their cases, start-up included)."""
    tokens = dict(
        line.split(",", 1) for line in judge("roster", "add", *sources, "--data", str(data)).stdout.splitlines()
    )
    port = free_port()
    cpu = children_cpu()
    server = subprocess.Popen(
        [sys.executable, "-m", "judge", "--problems", str(problems), "serve", "--port", str(port), "--data", str(data),
         "--workers", "2", "--result-step", "0", "--per-minute", "0"],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        clients = logged_in(f"http://127.0.0.1:{port}", tokens)
        store = Store(data)
        start = time.monotonic()

        def send(student: str) -> None:
            reply = clients[student].submit(row.problem, f"{row.problem}.c", sources[student], language="c")
            assert reply.status == 303, reply.body[-300:]
            if row.watch:
                watch(clients[student], int(reply.headers["location"].rstrip("/").rsplit("/", 1)[1]), row.watch)

        threads = [threading.Thread(target=send, args=(s,)) for s in sources]
        for thread in threads:
            thread.start()
        while sum(r.status == "done" for r in store.all()) < len(sources):
            time.sleep(0.05)
        took = time.monotonic() - start
        for thread in threads:
            thread.join()
        rows = store.all()
        judging = [r.finished - r.started for r in rows if r.finished is not None and r.started is not None]
        first = min(r.created for r in rows)
        print(
            f"  web: judging a submission took {sum(judging) / len(judging):.3f} s on average "
            f"({sum(judging):.1f} s in all over 2 workers); the last result {max(r.finished or 0 for r in rows) - first:.1f} s "
            "after the first submission"
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    return took, children_cpu() - cpu


def measure(row: Row) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        root = Path(folder)
        problems, submissions, sources = class_folder(root, row)
        judge("--problems", str(problems), "gen", row.problem)
        watching = {"": "nobody watching", "poll": "each student polling their status (JSON) every 0.5 s",
                    "stream": "each student holding the live page's event stream"}[row.watch]  # fmt: skip
        print(f"{row.name}: {STUDENTS} submissions of {row.problem} in C, {watching}; load {os.getloadavg()[0]:.2f}")
        # The bare reference before and after the web judge: the machine's load moves meanwhile.
        before, before_cpu = grade_time(problems, submissions, root / "reports-before")
        served, served_cpu = serve_time(problems, root / "data", sources, row)
        after, after_cpu = grade_time(problems, submissions, root / "reports-after")
        graded, graded_cpu = (before + after) / 2, (before_cpu + after_cpu) / 2
        print(f"  judge grade -j 2: {before:.1f} s before, {after:.1f} s after, for {STUDENTS} submissions "
              f"({before_cpu:.1f} and {after_cpu:.1f} s of CPU)")  # fmt: skip
        print(
            f"  judge serve --workers 2: {served:.1f} s from the first sent to the last judged ({served_cpu:.1f} s of CPU)"
        )
        print(
            f"  ratio: {served / graded:.2f} (target: at most 1.3), of CPU {served_cpu / graded_cpu:.2f}; "
            f"load {os.getloadavg()[0]:.2f} after"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=[r.name for r in ROWS], action="append")
    chosen = parser.parse_args().only
    for row in ROWS:
        if not chosen or row.name in chosen:
            measure(row)


if __name__ == "__main__":
    main()
