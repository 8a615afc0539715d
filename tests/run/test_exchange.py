"""Interactive problems against hostile programs of our own: the problem is the one `judge new
--interactive` makes (a guessing game, its interactor in Python); each program here talks to
it, or refuses to, and the test asserts the verdict by the ICPC rules, that secrets stay
secret, and that nothing of either side is left running."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psutil
import pytest

from judge.author import scaffold
from judge.grade import runner
from judge.kinds.interactive.kind import built_interactor
from judge.kinds.table import load_problem
from judge.kinds.unit.pairs import GATE
from judge.problem.testdata import CaseFiles, load_cases
from judge.run import exchange as interact
from judge.run import sandbox
from judge.run.build import box
from judge.run.verdicts import Verdict
from tests import needs
from tests.interop.packages import GUESS_PY
from tests.test_cli import judge

needs_bwrap = needs.mark("bwrap")
pytestmark = needs_bwrap

BISECT = GUESS_PY  # halves the range each guess


@pytest.fixture(scope="module")
def problems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("interactive") / "problems"
    root.mkdir()
    made = scaffold.create(root, "guess", "python3", kind="interactive")
    spec_file = made.directory / "problem.yaml"
    spec_file.write_text(spec_file.read_text().replace("count: 10", "count: 2"))  # each case is an interaction
    made = judge("--problems", str(root), "gen", "guess")
    assert made.returncode == 0, made.stderr
    return root


def _cases(problems: Path, *names: str) -> list[CaseFiles]:
    return [c for c in load_cases(load_problem(problems / "guess")) if c.id in names]


def judged(problems: Path, tmp_path: Path, source: str, *cases: str) -> list[runner.CaseResult]:
    program = tmp_path / "main.py"
    program.write_text(source)
    problem = load_problem(problems / "guess")
    result = runner.judge_submission(problem, runner.load_for(problem, program), _cases(problems, *cases), full=True)
    return list(result.cases)


def test_a_bisection_is_accepted_and_a_count_up_is_not(problems: Path, tmp_path: Path) -> None:
    found = judged(problems, tmp_path, BISECT, "samples/01", "edges/02", "random/01")
    assert [r.verdict for r in found] == [Verdict.AC] * 3
    # It stops at the end of its input: crashing there instead would make the label (WA or
    # RE, 0 points either way) depend on which end the machine's load let the judge see
    # first (docs/testing.md); the rule itself is tested in tests/run/test_verdicts.py.
    counting = (
        "import sys\nn = int(input())\nfor g in range(1, n + 1):\n    print(g, flush=True)\n"
        "    if sys.stdin.readline().strip() in ('correct', ''): break\n"
    )
    found = judged(problems, tmp_path, counting, "samples/01", "edges/01")
    assert [r.verdict for r in found] == [Verdict.WA, Verdict.AC]
    assert found[0].message == "not found in 30 guesses"  # a sample shows the interactor's word


def test_a_secret_case_keeps_the_interactors_message(problems: Path, tmp_path: Path) -> None:
    # The interactor's message names the secret number's range and the guesses: a secret case
    # shows the verdict only, in the runner's result and in `judge run --json`.
    program = tmp_path / "zero.py"
    program.write_text("import sys\nsys.stdin.readline()\nprint(0, flush=True)\nsys.stdin.readline()\n")
    found = judged(problems, tmp_path, program.read_text(), "edges/02")
    assert found[0].verdict is Verdict.WA and found[0].message == "wrong answer"
    ran = judge("--problems", str(problems), "run", str(program), "-p", "guess", "--json", "--full")
    payload = json.loads(ran.stdout)
    secret = [c for c in payload["cases"] if not c["group"] == "samples"]
    assert secret and all("between" not in json.dumps(c) for c in secret)
    assert "0 is not between 1 and 1000" in json.dumps(payload["cases"][0])  # the sample's is shown


def test_a_program_that_never_flushes_is_tle_not_a_hang(problems: Path, tmp_path: Path) -> None:
    source = "import sys\nn = int(sys.stdin.readline())\nsys.stdout.write('1\\n')\nsys.stdin.readline()\n"
    [found] = judged(problems, tmp_path, source, "samples/01")
    assert found.verdict is Verdict.TLE and "idle" in found.message


def test_a_crash_after_the_right_guess_is_re_and_a_crash_before_it_too(problems: Path, tmp_path: Path) -> None:
    after = BISECT + "raise SystemExit(3)\n"
    before = "import sys\nsys.stdin.readline()\nprint(500, flush=True)\nraise SystemExit(3)\n"
    found = judged(problems, tmp_path, after, "edges/02") + judged(problems, tmp_path, before, "edges/02")
    assert [r.verdict for r in found] == [Verdict.RE, Verdict.RE]


def test_a_wrong_answer_stops_a_program_that_would_wait_forever(problems: Path, tmp_path: Path) -> None:
    # Out of range: the interactor says WA at once; the program sleeps on. The judge ends it
    # (STOPPED) instead of waiting out its wall clock.
    problem = load_problem(problems / "guess")
    [case] = _cases(problems, "edges/02")
    program = tmp_path / "sleepy.py"
    program.write_text("import sys, time\nsys.stdin.readline()\nprint(0, flush=True)\ntime.sleep(600)\n")
    submission = runner.load_for(problem, program)
    limits = runner.run_limits(problem, submission.language)
    tool = built_interactor(problem.directory / "interactor.py", 2048)
    task = interact.programs.Task(
        tool,
        ("input", "answer", "feedback/"),
        None,
        interact.partner_limits(problem.program_limits.sandbox_limits(tool), limits),
        files=(("input", case.input), ("answer", case.answer)),
        keep=interact.FEEDBACK,
    )
    with box() as where:
        assert runner.compile_for(problem, submission, where).ok
        done = interact.interact(list(submission.run_argv(256)), where, limits, task)
    assert done.partner.exit_code == 43 and done.partner.ended < done.submission.ended
    assert done.submission.limit_hit is sandbox.Limit.STOPPED


def test_nothing_of_either_side_is_left_running(problems: Path, tmp_path: Path) -> None:
    # A daemon that holds the pipes, forked before the right guess: the run's end takes it too.
    # It names itself (prctl PR_SET_NAME), so it is found wherever it went, and only it: other
    # judges on this machine (tests in parallel) run programs as the same user.
    tag = f"judge-left-{os.getpid() % 10000}"
    source = (
        "import ctypes, os, sys, time\nif os.fork() == 0:\n"
        f"    ctypes.CDLL(None).prctl(15, b'{tag}', 0, 0, 0)\n    time.sleep(600)\n    sys.exit(0)\n" + BISECT
    )
    before = {p.pid for p in psutil.process_iter()}
    [found] = judged(problems, tmp_path, source, "edges/01")
    assert found.verdict is Verdict.AC
    time.sleep(0.2)
    # Ours: this process's new descendants (orphans come to the judge, its subreaper), and the
    # daemon by its name wherever it is.
    mine = {p.pid for p in psutil.Process().children(recursive=True)}
    left = [
        p for p in psutil.process_iter(["name"]) if (p.pid in mine and p.pid not in before) or p.info["name"] == tag
    ]
    assert not left, [p.cmdline() for p in left]


def test_an_interactor_that_never_decides_is_the_judges_error(problems: Path, tmp_path: Path) -> None:
    # The submission ends; the interactor goes on waiting for nothing: after a few seconds it
    # is stopped, and the case is IE (the problem's fault), not a verdict against the student.
    stuck = tmp_path / "stuck"
    shutil.copytree(problems / "guess", stuck)
    (stuck / "interactor.py").write_text("import time\ntime.sleep(600)\n")
    spec = stuck / "problem.yaml"
    spec.write_text(spec.read_text().replace("id: guess", "id: stuck"))
    problem = load_problem(stuck)
    program = tmp_path / "quick.py"
    program.write_text("print(1)\n")
    started = time.monotonic()
    result = runner.judge_submission(problem, runner.load_for(problem, program), load_cases(problem)[:1])
    assert result.cases[0].verdict is Verdict.IE and "stopped" in result.cases[0].message
    assert time.monotonic() - started < 120  # bounded by the judge, not by the sleep


def test_a_class_is_graded_on_an_interactive_problem(problems: Path, tmp_path: Path) -> None:
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "ada_guess.py").write_text(BISECT)
    (klass / "bo_guess.py").write_text("import sys\nsys.stdin.readline()\nprint(0, flush=True)\n")
    out = tmp_path / "reports"
    graded = judge("--problems", str(problems), "grade", str(klass), "-p", "guess", "-o", str(out), "-j", "2")
    assert graded.returncode == 0, graded.stderr
    assert "AC 1, WA 1" in graded.stdout
    assert (out / "grades.csv").read_text().splitlines()[1:] == ["ada,100,100", "bo,0,0"]


def test_the_kept_helper_ends_each_task_holding_what_it_held_before(problems: Path, tmp_path: Path) -> None:
    """The helper process that runs interactors is kept for the next interaction: the same one
    serves each, and after a task it holds no pipe of the task's and every descriptor it held
    before (the cgroup files its sandbox pools between runs aside, which come and go). It does
    not catch a number closed twice that nothing had reused yet: that rule is in _serve."""
    from judge.run.exchange import Helper

    judged(problems, tmp_path, BISECT, "samples/01")
    [helper] = [h for h in Helper._idle if h.owner == os.getpid()]

    def held() -> dict[str, str]:
        """Its descriptors, but the cgroup files the sandbox keeps open for its next run."""
        folder = Path(f"/proc/{helper.process.pid}/fd")
        found = {fd.name: os.readlink(fd) for fd in folder.iterdir()}
        return {fd: target for fd, target in found.items() if not target.startswith("/sys/fs/cgroup/")}

    before = held()
    for _ in range(3):
        found = judged(problems, tmp_path, BISECT, "samples/01", "edges/02")
        assert [r.verdict for r in found] == [Verdict.AC, Verdict.AC]
    assert [h.process.pid for h in Helper._idle if h.owner == os.getpid()] == [helper.process.pid]  # the same one
    assert held() == before


GATED_PARTNER = """import json, os, sys, time
started = time.monotonic()  # CLOCK_MONOTONIC: the same in every namespace of the machine
data = sys.stdin.buffer.read()
figure = os.readlink("/judge-clock/cpu")
# each pipe's and socket's times: when it was made or last touched
pipes = []
for fd in os.listdir("/proc/self/fd"):
    try:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(("pipe:", "socket:")):
            found = os.fstat(int(fd))
            pipes.append(min(found.st_atime, found.st_mtime, found.st_ctime))
    except OSError:
        pass
with open(os.path.join(sys.argv[1], "said.json"), "w") as said:
    json.dump({"started": started, "data": data.decode(), "figure": figure, "pipes": pipes, "stdin": os.fstat(0).st_ino}, said)
sys.exit(42)
"""


@dataclass(frozen=True)
class Gated:
    said: dict[str, Any]  # what the partner wrote (GATED_PARTNER)
    exit_code: int | None
    born: str  # the clock's folder's birth time, as stat(1) gives it
    before: float  # time.monotonic() before the exchange
    before_wall: float  # time.time() then


def _gated(problems: Path, tmp_path: Path, source: str) -> Gated:
    """`source` (Python) as the submission of a gated exchange, GATED_PARTNER its partner."""
    problem = load_problem(problems / "guess")
    program = tmp_path / "main.py"
    program.write_text(source)
    (tmp_path / "partner.py").write_text(GATED_PARTNER)
    submission = runner.load_for(problem, program)
    limits = runner.run_limits(problem, submission.language)
    tool = built_interactor(tmp_path / "partner.py", 2048)
    with box() as where, sandbox.CpuClock(late=True) as clock:
        assert runner.compile_for(problem, submission, where).ok
        own = interact.partner_limits(problem.program_limits.sandbox_limits(tool), limits)
        task = interact.programs.Task(
            tool, ("feedback/",), None, replace(own, read_only=(*own.read_only, clock.bind)), keep=interact.FEEDBACK
        )
        before, before_wall = time.monotonic(), time.time()
        done = interact.interact(list(submission.run_argv(256)), where, limits, task, clock, gate=GATE)
        born = subprocess.run(["stat", "-c", "%.9W", str(clock.shown)], capture_output=True, text=True).stdout
    said = json.loads(dict(done.kept)["said.json"])
    return Gated(said, done.partner.exit_code, born.strip(), before, before_wall)


def test_a_gated_partner_starts_after_the_marker_and_never_sees_it(problems: Path, tmp_path: Path) -> None:
    # A tests problem's module side that is slow to start (a bug's import) must not show it to
    # the student's tests: they start once it has said it is ready, and the clock's folder they
    # see is born then too. The sleep is a lower bound: a busy machine only makes it longer.
    slow = f"import os, time\ntime.sleep(1.5)\nos.write(1, {GATE!r})\nos.write(1, b'after %d' % os.fstat(1).st_ino)\n"
    gated = _gated(problems, tmp_path, slow)
    said = gated.said
    assert gated.exit_code == 42, said
    words, pipe = said["data"].split(), said["stdin"]
    assert words[0] == "after"  # the marker is the judge's: taken off the pipe
    # the partner's stdin is a pipe of its own, made at the gate: its number is no older
    assert int(words[1]) != pipe
    assert said["started"] - gated.before >= 1.5
    # its pipes are as young (the exchange's were made before the submission started): a ninth
    # review timed the submission's start by their ctime and their inode numbers
    assert len(said["pipes"]) >= 2 and min(said["pipes"]) - gated.before_wall >= 1.5, said["pipes"]
    assert float(said["figure"]) >= 0.0
    if gated.born not in ("", "0", "-"):  # a file system that keeps birth times
        assert float(gated.born) - gated.before_wall >= 1.5


def test_a_gated_partner_of_a_submission_that_never_says_ready_still_runs_and_sees_its_end(
    problems: Path, tmp_path: Path
) -> None:
    gated = _gated(problems, tmp_path, "import os\nos.write(1, b'other')\n")  # not the marker
    assert gated.exit_code == 42, gated.said
    # The gate read up to its first byte that was not the marker's: a gated submission is the
    # judge's own bridge, whose first word is the marker; anything else starts the partner as is.
    assert "other".endswith(gated.said["data"]) and gated.said["data"] != "other"
