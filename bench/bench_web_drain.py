"""`make bench`, the web judge at a deadline: how long `judge serve --workers 2` takes to drain 80
submissions sent within seconds, beside `judge grade -j 2` on the same 80 files.

Half are a correct C program (lanqiao's cantor_bfs.c), half a wrong one; every student is on the
roster, results are released at once (--result-step 0) and there is no per-minute cap. The drain
is timed from the first submission sent to the last result stored. Target (issue 44): the web
judge within 1.3x of `judge grade`. Not a test: nothing here fails a build.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.web.state.store import Store  # noqa: E402
from tests.web.conftest import Client, free_port  # noqa: E402

STUDENTS = 80
WRONG = '#include <stdio.h>\nint main(void) { char line[64]; while (fgets(line, sizeof line, stdin)) puts("0"); }\n'


def judge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=REPO, capture_output=True, text=True, check=True)


def class_folder(root: Path) -> tuple[Path, Path, dict[str, bytes]]:
    problems = root / "problems"
    problems.mkdir()
    shutil.copytree(REPO / "problems" / "lanqiao", problems / "lanqiao")
    right = (REPO / "problems" / "lanqiao" / "solutions" / "accepted" / "cantor_bfs.c").read_bytes()
    sources = {f"s{i:02d}": right if i % 2 == 0 else WRONG.encode() for i in range(STUDENTS)}
    submissions = root / "submissions"
    for student, source in sources.items():
        (submissions / student).mkdir(parents=True)
        (submissions / student / "lanqiao.c").write_bytes(source)
    return problems, submissions, sources


def grade_time(problems: Path, submissions: Path, out: Path) -> float:
    start = time.monotonic()
    judge("--problems", str(problems), "grade", str(submissions), "-o", str(out), "-j", "2")
    return time.monotonic() - start


def serve_time(problems: Path, data: Path, sources: dict[str, bytes]) -> float:
    tokens = dict(
        line.split(",", 1) for line in judge("roster", "add", *sources, "--data", str(data)).stdout.splitlines()
    )
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "judge", "--problems", str(problems), "serve", "--port", str(port), "--data", str(data),
         "--workers", "2", "--result-step", "0", "--per-minute", "0"],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        clients = {}
        deadline = time.monotonic() + 30
        while True:
            try:
                for student in sources:
                    client = Client(base)
                    client.login(student, tokens[student])
                    clients[student] = client
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        start = time.monotonic()

        def send(student: str) -> None:
            reply = clients[student].submit("lanqiao", "lanqiao.c", sources[student], language="c")
            assert reply.status == 303, reply.body[-300:]

        threads = [threading.Thread(target=send, args=(s,)) for s in sources]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        store = Store(data)
        while sum(row.status == "done" for row in store.all()) < len(sources):
            time.sleep(0.05)
        took = time.monotonic() - start
        rows = store.all()
        judging = [r.finished - r.started for r in rows if r.finished is not None and r.started is not None]
        first = min(r.created for r in rows)
        print(
            f"  web: judging a submission took {sum(judging) / len(judging):.3f} s on average "
            f"({sum(judging):.1f} s in all over 2 workers); the last result {max(r.finished or 0 for r in rows) - first:.1f} s "
            "after the first submission"
        )
        return took
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        root = Path(folder)
        problems, submissions, sources = class_folder(root)
        judge("--problems", str(problems), "gen", "lanqiao")
        served = serve_time(problems, root / "data", sources)
        graded = grade_time(problems, submissions, root / "reports")
        print(f"judge grade -j 2: {graded:.1f} s for {STUDENTS} submissions")
        print(f"judge serve --workers 2: {served:.1f} s from the first sent to the last judged")
        print(f"ratio: {served / graded:.2f} (target: at most 1.3)")


if __name__ == "__main__":
    main()
