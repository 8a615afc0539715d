"""A tests problem for a unit problem: a student's own pytest file run against the reference
(validity) and each bug, the module in a box of its own behind the bridge's guarded side. A
student's test that reaches for the reference's source (through the module's dunders, its
functions' globals, inspect, open, the file system) fails on the reference, is invalid, and
no message carries the reference's code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.author import scaffold
from judge.errors import JudgeError
from judge.grade import judging, results
from judge.kinds import table as kinds
from judge.kinds.tests import unit_suite
from judge.kinds.unit import pairs
from judge.problem.spec import Suite
from judge.run.verdicts import CaseVerdict, Verdict
from tests import needs
from tests.test_cli import judge

pytestmark = needs.mark("isolation", "pytest")

SPEC = """id: stack-tests
title: Tests of stack
source: the judge's tests
limits: {time_s: 1.0, memory_mib: 256}
kind: tests
reference: suite
tests:
  for: stack
  points_per_bug: 5
"""
THOROUGH = """import pytest

import stack


def test_pop_gives_the_last_pushed():
    s = stack.Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2


def test_reverse_in_place_changes_the_list():
    items = [1, 2, 3]
    stack.reverse_in_place(items)
    assert items == [3, 2, 1]


def test_an_empty_pop_raises_its_error():
    with pytest.raises(stack.EmptyStackError):
        stack.Stack().pop()


def test_wrong_on_the_reference():
    assert stack.Stack().__len__() == 1
"""
# Each test passes only if it reads the reference's source (its docstring, "A stack on a Python list").
HOSTILE = """import glob
import inspect
import os

import _judge_unit
import stack

MARK = "A stack on a " + "Python list"


def raw(**request):
    # The tests' process is the student's: past the stand-ins' own refusals, straight on the pipe.
    return _judge_unit.CHANNEL.ask(request, [])


def handle(remote):
    return object.__getattribute__(remote, "_handle")


def test_the_modules_builtins_open():
    opened = raw(op="getattr", ref=stack.__dict__["_handle"], name="__builtins__")["open"]
    assert MARK in opened(raw(op="getattr", ref=stack.__dict__["_handle"], name="__file__")).read()


def test_the_modules_doc():
    assert MARK in raw(op="getattr", ref=stack.__dict__["_handle"], name="__doc__")


def test_function_globals():
    assert MARK in raw(op="getattr", ref=handle(stack.reverse_in_place), name="__globals__")["__doc__"]


def test_a_method_to_its_class_mro():
    method = raw(op="getattr", ref=handle(stack.Stack()), name="push")
    cls = raw(op="getattr", ref=handle(method), name="__self__")
    assert raw(op="getattr", ref=handle(cls), name="__class__")


def test_inspect_getsource():
    assert MARK in inspect.getsource(stack.Stack)


def test_open_the_module_file():
    assert MARK in open(stack.__file__).read()


def test_the_file_system():
    found = [p for p in glob.glob("/**/*.py", recursive=True) if "proc" not in p]
    assert any(MARK in open(p, errors="replace").read() for p in found if os.path.isfile(p))


def test_a_method_to_its_globals():
    method = raw(op="getattr", ref=handle(stack.Stack()), name="push")
    function = raw(op="getattr", ref=handle(method), name="__func__")
    assert MARK in raw(op="getattr", ref=handle(function), name="__globals__")["__doc__"]
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("problems")
    scaffold.create(root, "stack", "python3", kind="unit")
    assert judge("--problems", str(root), "gen", "stack").returncode == 0
    here = root / "stack-tests"
    (here / "suite").mkdir(parents=True)
    (here / "suite" / "test_mine.py").write_text(THOROUGH.rsplit("\n\n\ndef test_wrong", 1)[0] + "\n")
    (here / "statement.md").write_text("# Tests of stack\n")
    (here / "problem.yaml").write_text(SPEC)
    return root


def judged(root: Path, text: str, name: str) -> results.GradeRecord:
    problem = kinds.load_problem(root / "stack-tests")
    folder = root / "students" / name
    folder.mkdir(parents=True)
    (folder / "test_mine.py").write_text(text)
    return judging.judge(judging.identify(problem, folder, name))


def validity(record: results.GradeRecord) -> dict[str, tuple[str, str]]:
    return {c.name.removeprefix("validity/"): (c.verdict, c.message) for c in record.cases if c.group == "validity"}


def test_a_students_pytest_file_is_checked_on_the_reference_and_catches_the_bugs(root: Path) -> None:
    record = judged(root, THOROUGH, "thorough")
    said = validity(record)
    assert said["test_mine-test_pop_gives_the_last_pushed"] == ("AC", "valid")
    verdict, why = said["test_mine-test_wrong_on_the_reference"]
    assert verdict == "NJ" and "fails on the reference (WA)" in why
    bugs = {c.group: (c.verdict, c.message) for c in record.cases if c.group != "validity"}
    assert bugs == {
        "stack": ("AC", "caught by test_mine-test_pop_gives_the_last_pushed"),  # wrong_answer/stack.py
        "stack-2": ("AC", "caught by test_mine-test_pop_gives_the_last_pushed"),  # run_time_error/stack.py
    }, bugs
    assert (record.verdict, record.score, record.max_score) == ("AC", 10.0, 10.0)


def test_a_test_reaching_for_the_references_source_is_invalid_and_shown_none_of_it(root: Path) -> None:
    record = judged(root, HOSTILE, "hostile")
    said = validity(record)
    assert len(said) == 8 and all(verdict == "NJ" for verdict, _ in said.values()), said
    assert record.score == 0.0
    shown = " ".join(message for _, message in said.values())
    # A line of the reference's that no test holds (MARK is the tests' own, quoted by pytest).
    assert "self._items" not in shown and "def peek" not in shown, shown


@pytest.mark.slow  # a whole verify or a mutants' judging end to end: make test-slow; cheaper tests keep the feature in make test
def test_verify_checks_the_reference_suite_catches_every_bug(root: Path) -> None:
    verified = judge("--problems", str(root), "verify", "stack-tests")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "the reference suite catches every bug" in verified.stdout


def test_a_file_that_is_not_a_pytest_file_is_refused_naming_it(tmp_path: Path) -> None:
    suite = Suite.model_validate({"for": "stack"})
    with pytest.raises(JudgeError, match=r"notes\.txt: not a pytest file"):
        unit_suite.read(("notes.txt", b"hello"), suite, tmp_path / "t")
    with pytest.raises(JudgeError, match=r"conftest\.py: not a pytest file"):
        unit_suite.submission_bytes(("conftest.py", b"import os\n"), suite)  # the web judge's door
    with pytest.raises(JudgeError, match=r"test_a\.py:1: "):
        unit_suite.read(("test_a.py", b"def test_x(:\n"), suite, tmp_path / "u")


@pytest.mark.slow  # a whole verify or a mutants' judging end to end: make test-slow; cheaper tests keep the feature in make test
def test_judge_new_for_a_unit_problem_starts_from_its_public_tests_and_verifies(root: Path) -> None:
    made = judge("--problems", str(root), "new", "stack-new", "--kind", "tests", "--for", "stack")
    assert made.returncode == 0, made.stdout + made.stderr
    public = sorted(p.name for p in (root / "stack" / "unit" / "public").glob("test_*.py"))
    assert sorted(p.name for p in (root / "stack-new" / "suite").iterdir()) == public
    problem = kinds.load_problem(root / "stack-new")
    assert "pytest files test_NAME.py" in kinds.of(problem).public_files(problem)[0][1]
    verified = judge("--problems", str(root), "verify", "stack-new")
    assert verified.returncode == 0, verified.stdout + verified.stderr


# What a student's test sees of the judging's time (issue 60): the box's files all dated alike
# (no build's time against the copy's), the CPU clock's folder at a fixed name, and no judge's
# folder under /tmp, nor its host name in the runner's arguments.
NO_CLOCK = """import os

import stack


def test_every_file_of_the_box_is_dated_alike():
    assert stack.Stack() is not None
    # Each file of the build is dated 2000-01-01 (what the run makes, its results and Python's
    # caches, is as new as the run itself).
    made = {"/box/feedback", "/box/.pytest_cache"}
    for top, dirs, files in os.walk("/box"):
        if top in made or top.startswith(tuple(f"{m}/" for m in made)) or "__pycache__" in top:
            continue
        for name in dirs + files:
            path = os.path.join(top, name)
            if path not in made and name != "__pycache__":
                assert os.lstat(path).st_mtime == 946684800.0, path


def test_the_clocks_folder_is_named_alike():
    # Its figure, and the link the watch renames over it, if caught between the two.
    assert set(os.listdir("/judge-clock")) <= {"cpu", "cpu.new"}, os.listdir("/judge-clock")


def test_no_folder_of_the_judges_in_tmp():
    assert not [name for name in os.listdir("/tmp") if name.startswith("judge")], os.listdir("/tmp")


def test_no_command_line_names_the_judges_folders():
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        try:
            argv = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        # bubblewrap's own arguments are given by a descriptor, none on its command line (Luck)
        assert b"judge-clock-" not in argv and b"--bind" not in argv, argv
"""


def test_a_students_test_sees_no_baseline_of_the_judgings_time(root: Path) -> None:
    # Each check a test of its own: a failure on the reference names which (its message is
    # the flaky or failing verdict's).
    record = judged(root, NO_CLOCK, "no-clock")
    said = validity(record)
    assert len(said) == 4 and all(found == ("AC", "valid") for found in said.values()), said


# Honest tests that sleep on a wrong answer (issue 60's stall): the first to sleep times out at
# its own deadline and still catches the bug, since the time cap holds one test's deadline over
# the reference's pace (without it, a fast reference's cap would cut that test first); the
# cap ends the rest of the run, and what it cuts is no error.
SLEEPS = """import time

import stack


def sleep_unless(right):
    if not right:
        time.sleep(3600)


def test_a_pop_or_sleep():
    made = stack.Stack()
    made.push(1)
    made.push(2)
    sleep_unless(made.pop() == 2)
""" + "".join(
    f"""

def test_{name}_or_sleep():
    made = stack.Stack()
    made.push(3)
    made.push(4)
    sleep_unless(made.pop() == 4)
"""
    for name in ("b", "c", "d", "e")
)


@pytest.mark.slow  # tests that sleep to their deadline on two bugs, three runs each: make test-slow
def test_a_suite_sleeping_on_wrong_answers_still_catches_within_the_cap(root: Path) -> None:
    record = judged(root, SLEEPS, "sleeps")
    assert all(verdict == "AC" for verdict, _ in validity(record).values()), validity(record)
    bugs = {c.group: (c.verdict, c.message) for c in record.cases if c.group != "validity"}
    assert bugs["stack"] == ("AC", "caught by test_mine-test_a_pop_or_sleep"), bugs  # wrong_answer/stack.py
    assert all(verdict != "IE" for verdict, _ in bugs.values()), bugs


def test_a_test_the_references_cap_cut_off_is_invalid_and_says_so() -> None:
    cut = unit_suite.invalid(CaseVerdict(Verdict.AC, ""), pairs.CUT, CaseVerdict(Verdict.AC, ""))
    assert cut.startswith(f"the suite's run on the reference went over {unit_suite.REFERENCE_CAP_S:g} s"), cut
    assert unit_suite.invalid(*[CaseVerdict(Verdict.AC, "")] * 3) == ""


def test_the_references_runs_are_capped_and_what_they_cut_is_invalid(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cap already spent (below one test's deadline, which `run_suite` adds) and no start
    # allowance cut every test at once: the plumbing of a slow suite's cut, without its minutes.
    monkeypatch.setattr(unit_suite, "REFERENCE_CAP_S", -3600.0)
    monkeypatch.setattr(unit_suite, "START_FACTOR", 0.0)
    monkeypatch.setattr(unit_suite, "START_EXTRA_S", 0.0)
    monkeypatch.setattr(unit_suite, "time_cap_for", lambda *_args: 3600.0)  # the judging's is far
    record = judged(root, THOROUGH, "over-the-cap")
    said = validity(record)
    assert said and all(v == "NJ" and "the suite's run on the reference went over" in m for v, m in said.values()), said
    bugs = {c.group: (c.verdict, c.message) for c in record.cases if c.group != "validity"}
    assert all(verdict not in ("AC", "IE") for verdict, _ in bugs.values()), bugs
    assert record.score == 0.0 and record.verdict != "IE", record


def judged_files(root: Path, files: dict[str, str], name: str) -> results.GradeRecord:
    problem = kinds.load_problem(root / "stack-tests")
    folder = root / "students" / name
    folder.mkdir(parents=True)
    for file, text in files.items():
        (folder / file).write_text(text)
    return judging.judge(judging.identify(problem, folder, name))


FAST = "import stack\n\n\ndef test_made():\n    assert stack.Stack() is not None\n"
SLOW = "import time\n\nimport stack\n\n\ndef test_made_slowly():\n    time.sleep(9)\n    assert stack.Stack() is not None\n"


@pytest.mark.slow  # 9 s sleeps (cut short) on the reference, three runs: make test-slow
def test_a_runs_cap_counts_the_tests_own_time_not_the_files_starts(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Own time of 2 s a validity run (the cap, -8 s, and the 10 s of the stack problem's test
    # deadline, its 2 s of CPU). Eight quick files: their pairs' starts (two processes each) are
    # over that, but not the suite's own time, so each is valid. Then four files of a 9 s sleep
    # (within a test's deadline), over the cap: the last is cut, invalid and saying so, never IE.
    # (Each file's start allowance is twice the start measured at the judging's start: a 5 s
    # sleep fitted in it at a load of 8 on 2 cores, a 9 s one needs a start of 4 s.)
    monkeypatch.setattr(unit_suite, "REFERENCE_CAP_S", -8.0)
    files = {f"test_a{i}.py": FAST for i in range(8)} | {f"test_z{i}.py": SLOW for i in range(4)}
    said = validity(judged_files(root, files, "slow-files"))
    assert len(said) == 12, said
    assert all(said[f"test_a{i}-test_made"] == ("AC", "valid") for i in range(8)), said
    verdict, why = said["test_z3-test_made_slowly"]
    assert (
        verdict == "NJ"
        and "went over -8 s of its tests' own time and one test's deadline (process starts not counted)" in why
    ), said
    assert all(verdict in ("AC", "NJ") for verdict, _ in said.values()), said


def test_a_judging_whose_time_cap_is_spent_catches_nothing_and_says_so(root: Path) -> None:
    # A cap spent at once (a millisecond): every run is cut at its start, the plumbing of a slow
    # suite's cut without its minutes. The same suite, uncapped, is valid and catches both bugs.
    capped = root / "stack-tests-capped"
    shutil.copytree(root / "stack-tests", capped)
    spec = SPEC.replace("id: stack-tests", "id: stack-tests-capped") + "  time_cap_s: 0.001\n"
    (capped / "problem.yaml").write_text(spec)
    folder = root / "students" / "capped"
    folder.mkdir(parents=True)
    (folder / "test_mine.py").write_text(THOROUGH)
    record = judging.judge(judging.identify(kinds.load_problem(capped), folder, "capped"))
    said = validity(record)
    over = "the suite's run on the reference went over the judging's time cap of 0.001 s"
    assert said and all(v == "NJ" and m.startswith(over) for v, m in said.values()), said
    bugs = {c.group: (c.verdict, c.message) for c in record.cases if c.group != "validity"}
    assert bugs and all(v == "WA" and "time cap was spent" in m for v, m in bugs.values()), bugs
    assert record.score == 0.0 and record.verdict != "IE", record
