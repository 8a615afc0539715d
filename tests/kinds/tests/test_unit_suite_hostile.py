"""A hostile student's pytest files for a unit problem (issue 60's review): state shared from an
invalid test, luck, a test that stalls, a bug told apart by a name of its own, the results
channel written by the tests, a test that stops the run or is not run. Each is judged once in
one submission of several files (a file is a process of its own), each break asserted apart."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest

from judge.author import scaffold
from judge.errors import JudgeError
from judge.grade import judging, results
from judge.kinds import table as kinds
from judge.kinds.tests import scoring, unit_suite
from judge.kinds.unit import pairs
from judge.problem.spec import Bug, Suite
from judge.run.verdicts import CaseVerdict, Verdict
from tests import needs
from tests.kinds.tests.test_unit_suite import SPEC
from tests.test_cli import judge

if TYPE_CHECKING:
    from judge.kinds.base import Kind
    from judge.problem.spec import Problem

pytestmark = needs.mark("isolation", "pytest")

# A primer that fails (invalid) and leaves a mark a later test needs: on the reference both ran;
# were the bugs to run only the valid test, it would fail on each and catch them all.
ORDER = """import stack

RAN = []


def test_a_primer():
    RAN.append(1)
    assert False, "meant to be invalid"


def test_b_needs_the_primer():
    assert stack.Stack() is not None
    assert RAN
"""
STALL = """def test_loops():
    while True:
        pass
"""
SEEDED = """import os
import random

import stack


def test_random_is_seeded_alike():
    assert random.random() == random.Random(0).random()
    assert os.environ.get("PYTHONHASHSEED") == "0"


def test_no_name_of_a_bugs_own():
    assert "helper" not in stack._offered and not hasattr(stack, "helper")
"""
STOPS = """import pytest


@pytest.mark.xfail(run=False)
def test_not_run():
    assert False


def test_interrupted():
    raise KeyboardInterrupt


def test_exits():
    pytest.exit("done", returncode=0)
"""
FORGED = """import json
import os


def test_forges_a_pass():
    os.write(6, (json.dumps({"id": "test_forge.py::test_forges_a_pass", "phases": []}) + "\\n").encode())
    assert False


def test_after():
    pass
"""
FLOODS = """def test_floods():
    import os

    os.write(6, b'{"start": "' + b"a" * (2 << 20) + b'"}\\n')


def test_after():
    pass
"""
FILES = {
    "test_order.py": ORDER,
    "test_stall.py": STALL,
    "test_seeded.py": SEEDED,
    "test_stops.py": STOPS,
    "test_forge.py": FORGED,
    "test_floods.py": FLOODS,
}


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> results.GradeRecord:
    root = tmp_path_factory.mktemp("problems")
    scaffold.create(root, "stack", "python3", kind="unit")
    assert judge("--problems", str(root), "gen", "stack").returncode == 0
    # A bug with a public helper of its own (and the reference's behaviour otherwise).
    reference = (root / "stack" / "solutions" / "accepted" / "stack.py").read_text()
    (root / "stack" / "solutions" / "wrong_answer" / "extra.py").write_text(reference + "\n\ndef helper():\n    pass\n")
    spec = SPEC.replace("points_per_bug: 5", "points_per_bug: 5\n  max_tests: 20")
    return judged(make_tests_problem(root, spec), root / "students" / "hostile", FILES)


def make_tests_problem(root: Path, spec: str) -> Path:
    """The tests problem of `root`'s stack problem, with `spec`: its folder."""
    here = root / "stack-tests"
    (here / "suite").mkdir(parents=True)
    (here / "suite" / "test_mine.py").write_text("import stack\n\n\ndef test_x():\n    assert stack.Stack()\n")
    (here / "statement.md").write_text("# Tests of stack\n")
    (here / "problem.yaml").write_text(spec)
    return here


def judged(problem: Path, folder: Path, files: dict[str, str]) -> results.GradeRecord:
    """`files` as a student's submission (its folder's name the student's) judged whole."""
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return judging.judge(judging.identify(kinds.load_problem(problem), folder, folder.name))


def validity(record: results.GradeRecord) -> dict[str, tuple[str, str]]:
    return {c.name.removeprefix("validity/"): (c.verdict, c.message) for c in record.cases if c.group == "validity"}


@pytest.mark.slow  # one submission of six files judged end to end (about a minute): make test-slow
def test_a_test_passing_by_an_invalid_ones_state_catches_no_bug(record: results.GradeRecord) -> None:
    said = validity(record)
    assert said["test_order-test_b_needs_the_primer"] == ("AC", "valid")
    caught = [c.message for c in record.cases if c.group != "validity"]
    # Every bug runs the primer too: the test passes there as on the reference.
    assert not any("test_b_needs_the_primer" in message for message in caught), caught
    assert record.score == 0.0, caught


@pytest.mark.slow  # one submission of six files judged end to end (about a minute): make test-slow
def test_a_test_that_loops_ends_at_its_own_deadline_as_tle(record: results.GradeRecord) -> None:
    verdict, why = validity(record)["test_stall-test_loops"]
    assert verdict == "NJ" and "fails on the reference (TLE)" in why, why


@pytest.mark.slow  # one submission of six files judged end to end (about a minute): make test-slow
def test_random_and_hashes_are_seeded_alike_and_a_bugs_own_name_is_not_seen(record: results.GradeRecord) -> None:
    said = validity(record)
    assert said["test_seeded-test_random_is_seeded_alike"] == ("AC", "valid")
    assert said["test_seeded-test_no_name_of_a_bugs_own"] == ("AC", "valid")


@pytest.mark.slow  # one submission of six files judged end to end (about a minute): make test-slow
def test_a_test_not_run_or_stopping_the_run_did_not_pass(record: results.GradeRecord) -> None:
    said = validity(record)
    for name in ("test_not_run", "test_interrupted", "test_exits"):
        verdict, why = said[f"test_stops-{name}"]
        assert verdict == "NJ" and "did not run to its end" in why, (name, why)


@pytest.mark.slow  # one submission of six files judged end to end (about a minute): make test-slow
def test_the_tests_writing_the_results_channel_fail_never_ie_nor_pass(record: results.GradeRecord) -> None:
    said = validity(record)
    for name in ("test_forge-test_forges_a_pass", "test_forge-test_after"):
        verdict, why = said[name]
        assert verdict == "NJ" and "(RE)" in why and "results channel: a line out of place" in why, why
    for name in ("test_floods-test_floods", "test_floods-test_after"):
        verdict, why = said[name]
        assert verdict == "NJ" and "(RE)" in why and "results channel: over 1 MiB" in why, why


def test_a_test_is_valid_only_if_it_passed_the_reference_every_run() -> None:
    passed, failed = CaseVerdict(Verdict.AC, ""), CaseVerdict(Verdict.WA, "no")
    assert unit_suite.invalid(passed, passed) == ""
    assert unit_suite.invalid(passed, failed) == "flaky: passed and failed on the reference"
    assert unit_suite.invalid(failed, passed) == "flaky: passed and failed on the reference"
    assert unit_suite.invalid(passed, passed, failed) == "flaky: passed and failed on the reference"
    assert unit_suite.invalid(passed, passed, passed) == ""
    timed_out = CaseVerdict(Verdict.TLE, "over its deadline")
    assert unit_suite.invalid(passed, timed_out, passed).startswith("flaky: passed and ran out of time")


def test_a_catch_counts_only_if_the_test_failed_the_bug_in_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    failed, passed = {"t.py::a": CaseVerdict(Verdict.WA, "")}, {"t.py::a": CaseVerdict(Verdict.AC, "")}
    runs = iter([failed, failed, passed, *[failed] * unit_suite.RUNS])
    # The bug's runs as given; the reference's beside each passes.
    monkeypatch.setattr(
        unit_suite,
        "run_suite",
        lambda _p, _k, path, *_: unit_suite.SuiteRun(passed if path == "ref.py" else next(runs), 0.0),
    )
    tests = unit_suite.UnitSuite((), ("t.py::a",), ("t-a",))
    problem = cast("Problem", SimpleNamespace(spec=SimpleNamespace(reference="ref.py")))
    kind = cast("Kind", None)  # run_suite, replaced, uses it not
    bug = Bug(path="solutions/wrong_answer/b.py")
    assert unit_suite.run_bug(problem, kind, bug, tests, ("t.py::a",)) == scoring.BugRun(
        ""
    )  # failed, then passed: luck
    assert unit_suite.run_bug(problem, kind, bug, tests, ("t.py::a",)) == scoring.BugRun("t-a")


def test_the_results_channel_is_taken_only_as_the_runner_writes_it() -> None:
    ids = ["t.py::a", "t.py::b"]
    record = {"id": "t.py::a", "phases": [], "cpu": 0.0, "wall": 0.0, "printed": ""}
    runner = [{"start": "t.py::a"}, record, {"start": "t.py::b"}, {**record, "id": "t.py::b"}]
    assert pairs.forged(runner, ids, 100) == ""
    assert "out of place" in pairs.forged([{"start": "t.py::a"}, record, record], ids, 100)  # a record twice
    assert "out of place" in pairs.forged([record], ids, 100)  # a record before its test started
    assert "out of place" in pairs.forged([{"start": "t.py::z"}], ids, 100)  # a test not of this run
    assert "not a record" in pairs.forged([{"start": "t.py::a"}, None], ids, 100)
    assert "over 1 MiB" in pairs.forged(runner, ids, pairs.RESULTS_BYTES)


def test_the_names_offered_are_the_references_public_ones_read_never_run() -> None:
    source = b"import os\nX = 1\n_hidden = 2\ndef f(): pass\nclass C: pass\nif True:\n    nested = 3\n"
    assert unit_suite.public_names(source) == {"X", "f", "C"}
    assert unit_suite.public_names(b"def (:") == frozenset()


def test_one_file_sent_under_a_path_is_refused_never_renamed() -> None:
    suite = Suite.model_validate({"for": "stack"})
    with pytest.raises(JudgeError, match=r"^\.\./test_x\.py: not a pytest file"):
        unit_suite.submission_bytes(("../test_x.py", b"def test_x():\n    pass\n"), suite)
    assert unit_suite.name_refused("test_x.py") == ""
    assert unit_suite.name_refused("../test_x.py") != ""


def test_judge_new_for_a_unit_problem_states_pytest_files_not_inputs(tmp_path: Path) -> None:
    scaffold.create(tmp_path, "stack", "python3", kind="unit")
    scaffold.create(tmp_path, "stack-tests", "python3", kind="tests", subject="stack")
    statement = (tmp_path / "stack-tests" / "statement.md").read_text()
    assert "files `test_NAME.py`" in statement and "NAME.in" not in statement, statement
    assert "NAME.in" not in (tmp_path / "stack-tests" / "problem.yaml").read_text()


# A ninth review's kind of forge, from the residual the eighth left: a bug identical to the
# reference but slow to start (a heavy import), told apart by how old the tests' own process
# or the clock's folder is at the first call. The start gate starts the tests' process once
# the module side is ready, and the clock's folder they see is born then too; the pipes between
# the two sides, made before, are dated then (a ninth review timed them: 13 of 13).
AGE = """import os, subprocess, time

import stack


def age():
    with open("/proc/self/stat") as own:
        started = int(own.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime") as up:
        return float(up.read().split()[0]) - started


def test_the_module_was_ready_soon():
    assert stack.Stack() is not None
    assert age() < 5.0


def test_the_pipes_are_young():
    assert stack.Stack() is not None
    made = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
                made.append(os.fstat(int(fd)).st_ctime)
        except OSError:
            pass
    assert time.time() - min(made) < 5.0


def test_the_machines_counters_are_not_read():
    # they count the module side's memory too (a tenth review: /proc/meminfo's Committed_AS)
    assert stack.Stack() is not None
    for name in ("meminfo", "vmstat", "zoneinfo", "stat", "loadavg", "sys/fs/file-nr"):
        try:
            with open(f"/proc/{name}") as counters:
                counters.read()
        except OSError:
            continue
        raise AssertionError(name)


def test_the_clock_is_young():
    assert stack.Stack() is not None
    born = subprocess.run(["stat", "-c", "%.9W", "/judge-clock"], capture_output=True, text=True).stdout
    assert float(born or 0) == 0 or time.time() - float(born) < 5.0
"""


@pytest.mark.slow  # one submission judged end to end against a bug that sleeps 6 s at import
def test_a_bug_slow_to_start_is_not_told_by_the_tests_start_or_the_clocks_age(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = tmp_path_factory.mktemp("problems")
    scaffold.create(root, "stack", "python3", kind="unit")
    assert judge("--problems", str(root), "gen", "stack").returncode == 0
    solutions = root / "stack" / "solutions"
    reference = (solutions / "accepted" / "stack.py").read_text()
    for bug in (solutions / "wrong_answer").iterdir():
        bug.unlink()
    (solutions / "wrong_answer" / "slowstart.py").write_text("import time\ntime.sleep(6)\n" + reference)
    record = judged(make_tests_problem(root, SPEC), root / "students" / "timer", {"test_age.py": AGE})
    said = validity(record)
    # Each valid (a generous bound: the reference's pytest starts in well under a second; under
    # 5 s on a machine ten times as loaded, against the bug's 6 s sleep) ...
    assert said["test_age-test_the_module_was_ready_soon"] == ("AC", "valid"), said
    assert said["test_age-test_the_clock_is_young"] == ("AC", "valid"), said
    assert said["test_age-test_the_pipes_are_young"] == ("AC", "valid"), said
    assert said["test_age-test_the_machines_counters_are_not_read"] == ("AC", "valid"), said
    # ... and none tells the bug: before the gate, the first caught it in every run.
    assert record.score == 0.0, [c.message for c in record.cases if c.group != "validity"]
