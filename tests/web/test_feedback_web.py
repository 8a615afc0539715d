"""A hostile student against a real `judge serve`, at each feedback level.

Programs that encode a digit d (1-9) of each secret input (where the 9 is on its first board) in their exit code, their CPU
time, their peak memory and their verdict are submitted; a decoder of our own then reads
every surface the student gets (the pages, the JSON, the listings; the same record rendered
for `judge report --for-students` and Gradescope) and tries to read d back. On the teacher's
own view it must succeed (so the decoder works); on a student's it must read no digit of any
secret case, only the verdicts the level shows (one bit here: the digit's parity).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from judge.grade import feedback, reports
from judge.interop.gradescope import report as gradescope
from judge.kinds.table import load_problem
from judge.web.state.store import Store
from tests.grade.test_grading import small_problems
from tests.web.conftest import Client, Server
from tests.web.test_app import submitted_id

LEVELS = ("verdict", "groups", "cases")
SECRET = ("edge/01", "random/01", "bulk/01")  # small_problems keeps one file per group
CPU_STEP_S = 0.1  # far above the noise of a busy machine's CPU accounting
MEMORY_STEP_MIB = 16
PROGRAM = """import sys
MODE = "{mode}"
d = sys.stdin.read().split()[:9].index("9") + 1  # where 9 is on the file's first board, 1-9
if MODE == "exit":
    sys.exit(10 + d)
if MODE == "cpu":
    import time
    end = time.process_time() + {cpu} * d
    while time.process_time() < end:
        pass
if MODE == "memory":
    block = bytearray(d * {mib} * 1024 * 1024)
    for i in range(0, len(block), 4096):
        block[i] = 1
if MODE == "pattern" and d % 2 == 0:
    sys.exit(3)
print(-1)  # a wrong answer for every board
"""
MODES = ("exit", "cpu", "memory", "pattern")


def digit_of(text: str) -> int:
    """What the programs encode: the place of the 9 on the input's first board (1-9)."""
    return text.split()[:9].index("9") + 1


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[tuple[str, str], int], Path]]:
    """A server with sicily-rotations thrice, one per level, and every program judged on each:
    (server, (level, mode) -> submission id, problems)."""
    root = tmp_path_factory.mktemp("feedback")
    base = small_problems(root / "base")
    problems = root / "problems"
    problems.mkdir()
    for level in LEVELS:
        target = problems / f"sicily-{level}"
        shutil.copytree(base / "sicily-rotations", target)
        spec = yaml.safe_load((target / "problem.yaml").read_text())
        spec["id"], spec["feedback"] = target.name, level
        (target / "problem.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
        shutil.rmtree(target / "solutions")
    server = Server(problems, root / "data")
    server.start()
    tokens = server.roster(*MODES)
    ids = {}
    for mode in MODES:
        client = server.client()
        assert client.login(mode, tokens[mode]).status == 303
        for level in LEVELS:
            source = PROGRAM.format(mode=mode, cpu=CPU_STEP_S, mib=MEMORY_STEP_MIB).encode()
            reply = client.submit(f"sicily-{level}", "main.py", source)
            assert reply.status == 303, reply.body
            ids[(level, mode)] = submitted_id(reply.headers["location"])
            client.wait_done(ids[(level, mode)])
    yield server, ids, problems
    server.stop()


def cells(row: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def rows_of(html: str, name: str) -> list[list[str]]:
    """The cells of every table row of `html` whose first cell names `name`."""
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", html, re.S):
        shown = cells(row)
        if shown and shown[0].split(" ")[0] == name:
            found.append(shown)
    return found


@dataclasses.dataclass(frozen=True)
class Calibration:
    """What the public sample measured, and its d: an attacker's ruler."""

    d: int
    cpu_s: float
    memory_mib: float


def digits(text: str, case: str, calibration: Calibration) -> set[int]:
    """Every value of d that the surface `text` gives away for one secret case, by any channel."""
    group = case.split("/")[0]
    found: set[int] = set()
    for match in re.finditer(rf"{re.escape(case)}\W[^\n]*?exit code (\d+)", text):
        found.add(int(match.group(1)) - 10)
    numbers: list[tuple[str, str]] = []
    # HTML rows: a case's (cpu, wall, memory) cells, or a group's (slowest CPU, most memory).
    for row in rows_of(text, case):
        if len(row) >= 5:
            numbers.append((row[2], row[4]))
    for row in rows_of(text, group):
        if len(row) >= 6:
            numbers.append((row[4].removesuffix(" s"), row[5].removesuffix(" MiB")))
    # JSON (the web API's cases and groups) and Gradescope's lines.
    for blob in re.findall(r"\{[^{}]*\}", text):
        try:
            item = json.loads(blob)
        except ValueError:
            continue
        if item.get("name") == case and item.get("cpu_s") is not None:
            numbers.append((str(item["cpu_s"]), str(item["memory_kib"] / 1024)))
        if item.get("name") == group and "cpu" in item:
            numbers.append((str(item["cpu"]).removesuffix(" s"), str(item["memory"]).removesuffix(" MiB")))
        if item.get("name", "").startswith(f"{group}:") or item.get("name", "").startswith("sicily-"):
            for line in str(item.get("output", "")).splitlines():
                hit = re.match(rf"{re.escape(case)}: \w+, ([\d.]+) s CPU, ([\d.]+) MiB", line)
                if hit:
                    numbers.append((hit.group(1), hit.group(2)))
                hit = re.search(r"slowest CPU time ([\d.]+) s; most memory ([\d.]+) MiB", line)
                if hit:
                    numbers.append((hit.group(1), hit.group(2)))
    for cpu, memory in numbers:
        try:
            cpu_d = calibration.d + round((float(cpu) - calibration.cpu_s) / CPU_STEP_S)
            memory_d = calibration.d + round((float(memory) - calibration.memory_mib) / MEMORY_STEP_MIB)
        except ValueError:
            continue  # a band such as "≤ 25% of the limit": no digit in it
        found |= {d for d in (cpu_d, memory_d) if 1 <= d <= 9}
    return found


def parity(text: str, case: str) -> set[int]:
    """The parity of d read from the verdict of the case or of its group (pattern mode)."""
    seen = {row[1] for row in rows_of(text, case) + rows_of(text, case.split("/")[0]) if len(row) > 1}
    return {1 if v == "WA" else 0 for v in seen if v in ("WA", "RE")}


def student_surfaces(client: Client, problems: Path, store: Store, submission: int, level: str) -> str:
    """All a student gets of one submission: its page, its JSON, the listings; the same
    record as `judge report --for-students` and Gradescope render it."""
    parts = [client.get(path).body for path in (f"/submissions/{submission}", f"/api/submissions/{submission}")]
    parts += [client.get("/submissions").body, client.get("/").body]
    record = store.record(submission)
    assert record is not None
    problem = load_problem(problems / f"sicily-{level}")
    shown = feedback.for_student(record, problem)
    parts.append(reports.submission_html(reports.submission_context(shown, problem, {}, "index.html", None)))
    parts.append(json.dumps([dataclasses.asdict(t) for t in gradescope.tests_of(shown, "visible")]))
    return "\n".join(parts)


def teacher_surfaces(client: Client, store: Store, submission: int) -> str:
    record = store.record(submission)
    assert record is not None
    page = client.get(f"/submissions/{submission}").body
    return "\n".join((page, client.get(f"/api/submissions/{submission}").body))


def calibration_of(store: Store, submission: int, problem: Path) -> Calibration:
    record = store.record(submission)
    assert record is not None
    sample = next(c for c in record.cases if c.public)
    d = digit_of((problem / "tests" / f"{sample.name}.in").read_text())
    return Calibration(d, sample.cpu_s, sample.memory_kib / 1024)


@pytest.mark.parametrize("level", LEVELS)
def test_no_surface_gives_a_student_a_secret_input(
    judged: tuple[Server, dict[tuple[str, str], int], Path], level: str
) -> None:
    server, ids, problems = judged
    store = Store(server.data)
    truth = {case: digit_of((problems / f"sicily-{level}" / "tests" / f"{case}.in").read_text()) for case in SECRET}
    assert len(set(truth.values())) == len(SECRET)  # three different digits to read back
    teacher = server.teacher()
    tokens = server.roster(*MODES)  # new tokens: log in again
    for mode in MODES:
        submission = ids[(level, mode)]
        calibration = calibration_of(store, submission, problems / f"sicily-{level}")
        full = teacher_surfaces(teacher, store, submission)
        student = server.client()
        assert student.login(mode, tokens[mode]).status == 303
        shown = student_surfaces(student, problems, store, submission, level)
        for case, d in truth.items():
            if mode == "pattern":
                assert parity(full, case) == {d % 2}, (case, full)
                # The verdict of the case is what the level cases shows; groups shows only
                # whether its (one-case) group passed, and verdict neither.
                assert parity(shown, case) == (set() if level in ("verdict", "groups") else {d % 2}), case
                continue
            assert d in digits(full, case, calibration), (mode, case, "the decoder cannot read the teacher's view")
            assert digits(shown, case, calibration) == set(), (level, mode, case)
        if level == "verdict":
            assert not any(case in shown for case in SECRET)
            assert not any(f">{group}" in shown for group in ("edge", "random", "bulk"))
        # Figures of secret groups appear only as bands.
        for group in ("edge", "random", "bulk"):
            for row in rows_of(shown, group):
                assert all(not re.fullmatch(r"[\d.]+( s| MiB)?", cell) for cell in row[4:]), row


def test_a_student_sees_no_progress_by_case(judged: tuple[Server, dict[tuple[str, str], int], Path]) -> None:
    server, ids, _ = judged
    teacher = server.teacher()
    for submission in ids.values():
        status = teacher.get(f"/api/submissions/{submission}").json()
        assert status["case_total"] == 4
    tokens = server.roster("exit")
    student = server.client()
    student.login("exit", tokens["exit"])
    status = student.get(f"/api/submissions/{ids[('groups', 'exit')]}").json()
    assert "case_done" not in status and "case_total" not in status


def test_a_result_waits_for_the_end_of_its_step(tmp_path: Path) -> None:
    """How long a submission took on the secret cases reaches a student in whole steps only."""
    problems = small_problems(tmp_path / "problems")
    server = Server(problems, tmp_path / "data", extra=("--result-step", "4"))
    server.start()
    try:
        tokens = server.roster("sam")
        student = server.client()
        student.login("sam", tokens["sam"])
        reply = student.submit("sicily-rotations", "main.py", PROGRAM.format(mode="exit", cpu=0, mib=0).encode())
        submission = submitted_id(reply.headers["location"])
        store = Store(server.data)
        seen: list[tuple[float, str, str]] = []  # (time, what the store holds, what the student sees)
        deadline = time.time() + 120
        while time.time() < deadline:
            held = store.get(submission)
            assert held is not None
            # The page first: a release is for good, so a page read before a status that is
            # still held back must hold it back too (read after it, the step may have ended).
            page = student.get(f"/submissions/{submission}").body
            status = student.get(f"/api/submissions/{submission}").json()
            seen.append((time.time(), held.status, str(status["status"])))
            if status["status"] == "done":
                assert status["verdict"] == "RE" and status["groups"]
                break
            assert status["verdict"] is None and status["groups"] == []
            assert 'class="v RE"' not in page  # the page holds it back too
            time.sleep(0.1)
        done = store.get(submission)
        assert done is not None and done.started is not None and done.finished is not None
        release = done.started + 4 * max(1, math.ceil((done.finished - done.started) / 4))
        assert seen[-1][2] == "done" and seen[-1][0] >= release - 0.05
        if release - done.finished > 1.0:  # a second or more to see it held back in (polls are 0.1 s apart)
            assert any(stored == "done" and shown != "done" for _, stored, shown in seen)
    finally:
        server.stop()
