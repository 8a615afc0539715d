"""Unit-test problems end to end: `judge new --unit` verifies as made; the teacher's tests,
in their own sandbox, use the student's module as if it were theirs (objects, exceptions,
generators, changes in place, prints); and nothing a student's module does in its own process
earns a point its code did not."""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from judge.author import scaffold
from judge.grade import judging
from judge.kinds import table as kinds
from judge.kinds.table import load_problem
from judge.kinds.unit import pairs
from judge.problem.spec import Problem, SpecError
from tests import needs
from tests.test_cli import judge

# The tests of a Python problem run under pytest in their sandbox; a Java problem's under JUnit.
needs_sandbox = needs.mark("isolation", "pytest")
needs_junit = needs.mark("isolation", "junit")

# A stack whose every method does nothing: no test passes by it. Each hostile module below is
# that stack and an attack, so any point it earns is one the attack earned.
NULL_STACK = (
    "class EmptyStackError(IndexError):\n    pass\n\n\nclass Stack:\n"
    "    def push(self, x):\n        pass\n\n    def pop(self):\n        pass\n\n"
    "    def peek(self):\n        pass\n\n    def __len__(self):\n        return 0\n\n\n"
    "def reverse_in_place(items):\n    pass\n"
)
HOSTILE = {
    # Replies and results of its own on every descriptor, at import.
    "forges.py": "import os\nfor fd in range(20):\n    try:\n"
    '        os.write(fd, b\'{"ok": true, "cpu": 0}\\n{"id": "public/test_stack.py::test_push_then_pop",'
    ' "phases": []}\\n1 passed\\n\')\n    except OSError:\n        pass\n',
    # An early exit 0 in the middle of a test, and sys.exit(0).
    "exits.py": "import os\n\n\ndef reverse_in_place(items):\n    os._exit(0)\n\n\n"
    "class Stack:\n    def __init__(self):\n        raise SystemExit(0)\n",
    # The assertion and pytest itself replaced: in its own process, not the tests'.
    "patches.py": "import builtins, sys\nbuiltins.AssertionError = type('Never', (Exception,), {})\n"
    "sys.modules['pytest'] = None\nsys.modules['_pytest'] = None\n",
    # Looks for the tests' files and, where it finds one, becomes the reference: none is there.
    # Skips by a name of its own choosing: a class named Skipped, and one shaped as pytest's
    # (an OutcomeException on BaseException), raised from every method.
    "skips.py": "class OutcomeException(BaseException):\n    pass\n\n\nclass Skipped(OutcomeException):\n    pass\n\n\n"
    "class Stack:\n    def __init__(self):\n        raise Skipped('skipped')\n\n\n"
    "def reverse_in_place(items):\n    raise Skipped('skipped')\n",
    # pytest's own skip, from the system's pytest where the student's python has it.
    "skips_pytest.py": "import site\nsite.main()\ntry:\n    import pytest\nexcept ImportError:\n    pytest = None\n\n\n"
    "class Stack:\n    def __init__(self):\n        if pytest:\n            pytest.skip('no')\n        raise ValueError\n\n\n"
    "def reverse_in_place(items):\n    if pytest:\n        pytest.skip('no')\n",
    # An object equal to everything, from every method that returns: no `==` is its to answer.
    "equals_all.py": "class Always:\n    def __eq__(self, other):\n        return True\n\n    __hash__ = None\n\n\n"
    "class Stack:\n    def __init__(self):\n        self.n = 0\n\n    def push(self, x):\n        self.n += 1\n\n"
    "    def pop(self):\n        self.n -= 1\n        return Always()\n\n    def peek(self):\n        return Always()\n\n"
    "    def __len__(self):\n        return self.n\n\n    def __eq__(self, other):\n        return True\n",
    # Its side of the bridge patched: every exception goes over as KeyboardInterrupt (which
    # would stop pytest, on the tests' side), and every reply after the import is a deep one.
    "patches_bridge.py": "import __main__\n_raised = __main__._raised\n\n\n"
    "def forged(err, objects):\n    found = _raised(err, objects)\n"
    "    found['class'] = {'$builtin': 'KeyboardInterrupt'}\n    return found\n\n\n"
    "__main__._raised = forged\n_encode = __main__.encode\n\n\n"
    "def deep(value, objects):\n    if getattr(value, '__name__', '') == 'reverse_in_place':\n"
    "        return {'$tuple': [[[[[[[[[[[[]]]]]]]]]]]]}\n    return _encode(value, objects)\n\n\n"
    "__main__.encode = deep\n\n\nclass Stack:\n    def __init__(self):\n        raise ValueError('no')\n",
    # Replies as large as a reply may be, which the tests' side keeps (a list of 1000 pops):
    # its memory or its time runs out in that test, which is this module's verdict, not an IE.
    "floods.py": "class Stack:\n    def push(self, x):\n        pass\n\n"
    "    def pop(self):\n        return 'x' * 15_000_000\n\n    def __len__(self):\n        return 0\n",
    "snoops.py": "import os\nFOUND = []\nfor root, dirs, files in os.walk('/'):\n"
    "    dirs[:] = [d for d in dirs if os.path.join(root, d) not in ('/usr', '/proc', '/sys', '/dev')]\n"
    "    FOUND += [f for f in files if f.startswith('test_stack')]\n",
}


@pytest.fixture(scope="module")
def problem(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("problems")
    scaffold.create(problems, "stack", "python3", kind="unit")
    made = judge("--problems", str(problems), "gen", "stack")
    assert made.returncode == 0, made.stderr
    return load_problem(problems / "stack")


@needs_sandbox
def test_the_new_unit_problem_verifies_as_made(problem: Problem) -> None:
    verified = judge("--problems", str(problem.directory.parent), "verify", "stack")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "reference passes every test (6 cases)" in verified.stdout
    # Points from @weight, the rest the default 1; public/ shown, secret/ not.
    points = {g.name: (g.points, g.visibility) for g in problem.spec.groups}
    assert points["test_stack-test_push_then_pop"] == (2.0, "public")
    assert points["test_stack_more-test_many_elements_come_back_in_reverse"] == (3.0, "secret")
    assert problem.max_score == 10


@needs_sandbox
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_no_hostile_module_earns_a_point(problem: Problem, tmp_path: Path, name: str) -> None:
    folder = tmp_path / name.removesuffix(".py")
    folder.mkdir()
    text = NULL_STACK + "\n\n" + HOSTILE[name]
    if name == "snoops.py":
        reference = (problem.directory / "solutions" / "accepted" / "stack.py").read_text()
        text += "if FOUND:\n" + textwrap.indent(reference, "    ")
    (folder / "stack.py").write_text(text)
    record = judging.judge(judging.identify(problem, folder, "mallory"), full=True)
    assert record.score == 0 and not any(c.verdict == "AC" for c in record.cases), (name, record.cases)
    # And none is the judge's failure: whatever the module does is its own verdict.
    assert not any(c.verdict == "IE" for c in record.cases), (name, record.cases)


@needs_sandbox
def test_a_test_that_times_out_costs_only_itself(problem: Problem, tmp_path: Path) -> None:
    reference = (problem.directory / "solutions" / "accepted" / "stack.py").read_text()
    slow = reference.replace(
        "        self._items.append(x)", "        while x == 999:\n            pass\n        self._items.append(x)"
    )
    (tmp_path / "stack.py").write_text(slow)
    record = judging.judge(judging.identify(problem, tmp_path / "stack.py", "sam"), full=True)
    verdicts = {c.group: c.verdict for c in record.cases}
    assert verdicts.pop("test_stack_more-test_many_elements_come_back_in_reverse") == "TLE"
    assert set(verdicts.values()) == {"AC"} and record.score == 7


# Its own clocks stopped (process_time, thread_time and os.times say 0 in its process: its
# replies or its runner's results would carry that), it burns CPU time by the real one, saved
# first, when 999 is pushed: the test that pushes it is timed by the kernel's figure all the same.
STOPS_ITS_CLOCKS = (
    "import os\nimport time\n\n_cpu = time.process_time\n"
    "time.process_time = time.thread_time = lambda: 0.0\n"
    "time.process_time_ns = time.thread_time_ns = lambda: 0\n"
    "os.times = lambda: os.times_result((0.0, 0.0, 0.0, 0.0, 0.0))\n\n\n"
    "def _burn(seconds):\n    end = _cpu() + seconds\n    while _cpu() < end:\n        pass\n\n\n"
)


@needs_sandbox
@pytest.mark.parametrize("mode", ["apart", "together"])
def test_a_tests_cpu_time_is_the_kernels_whatever_the_students_clocks_say(
    mode: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    judged: Problem = request.getfixturevalue("problem" if mode == "apart" else "together")
    reference = (judged.directory / "solutions" / "accepted" / "stack.py").read_text()
    push = "        self._items.append(x)"
    heavy = "test_stack_more-test_many_elements_come_back_in_reverse"
    for seconds in (3.5, 0.5):  # per_test_time_s: 2
        burning = f"        if x == 999:\n            _burn({seconds})\n{push}"
        (tmp_path / "stack.py").write_text(STOPS_ITS_CLOCKS + reference.replace(push, burning))
        record = judging.judge(judging.identify(judged, tmp_path / "stack.py", "sam"), full=True)
        cases = {c.group: c for c in record.cases}
        burnt = cases.pop(heavy)
        # CPU against CPU, whatever the machine's load: the figure is the kernel's, at most a
        # look of the judge's watch late at either end of the test.
        assert burnt.verdict == ("TLE" if seconds > 2 else "AC") and burnt.cpu_s > 0.4, burnt
        assert {c.verdict for c in cases.values()} == {"AC"}, cases
        assert all(c.cpu_s < 0.4 for c in cases.values()), cases


FEATURES_REF = """\
class Counter:
    def __init__(self, start=0):
        self.n = start
        self.history = []

    def add(self, k=1):
        self.n += k
        self.history.append(k)
        return self

    def __eq__(self, other):
        return isinstance(other, Counter) and other.n == self.n

    __hash__ = None


class NegativeError(ValueError):
    pass


class TooNegative(NegativeError):
    pass


def squares(n):
    for i in range(n):
        yield i * i


def fill(grid, value):
    for row in grid:
        for i in range(len(row)):
            row[i] = value


def split(d):
    return sorted(d), set(d.values())


def check(x):
    if x < -10:
        raise TooNegative(x)
    if x < 0:
        raise NegativeError("negative")
    print("ok", x)
    return {"x": x, "pair": (x, -x)}
"""
FEATURES_TESTS = """\
import pytest

import lib
from lib import Counter


def test_objects_and_chained_methods():
    c = Counter(2)
    assert c.add().add(3).n == 6
    assert c.history == [1, 3]
    assert isinstance(c, Counter) and not isinstance(3, Counter)
    assert c == Counter(6)
    assert c is c.add(0)


def test_generators_iterate():
    assert list(lib.squares(4)) == [0, 1, 4, 9]


def test_nested_lists_change_in_place():
    grid = [[1, 2], [3, 4]]
    row = grid[0]
    lib.fill(grid, 0)
    assert grid == [[0, 0], [0, 0]] and row is grid[0]


def test_tuples_sets_and_dicts():
    assert lib.split({"b": 1, "a": 2}) == (["a", "b"], {1, 2})
    assert lib.check(3) == {"x": 3, "pair": (3, -3)}


def test_exceptions_keep_their_names_and_bases():
    with pytest.raises(lib.NegativeError, match="negative"):
        lib.check(-1)
    with pytest.raises(ValueError):
        lib.check(-20)
    with pytest.raises(lib.TooNegative):
        lib.check(-20)


def test_prints_reach_capsys(capsys):
    lib.check(5)
    assert capsys.readouterr().out == "ok 5\\n"


def test_patching_the_module_needs_together(monkeypatch):
    monkeypatch.setattr(lib, "squares", lambda n: [])
"""


def _problem(root: Path, files: dict[str, str]) -> Path:
    directory = root / "lib"
    for name, text in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(textwrap.dedent(text))
    return directory


SPEC = """\
id: lib
title: Features
source: the judge's tests
kind: unit
unit:
  student_files: [lib.py]
  per_test:
    public/test_features.py::test_patching_the_module_needs_together: {points: 0}
reference: solutions/accepted/lib.py
limits: {time_s: 2, memory_mib: 256}
"""


@needs_sandbox
def test_the_stand_in_carries_what_tests_do_with_a_module(tmp_path: Path) -> None:
    directory = _problem(
        tmp_path,
        {
            "problem.yaml": SPEC,
            "statement.md": "# Features\n",
            "unit/public/test_features.py": FEATURES_TESTS,
            "solutions/accepted/lib.py": FEATURES_REF,
        },
    )
    assert judge("--problems", str(tmp_path), "gen", "lib").returncode == 0
    problem = load_problem(directory)
    record = judging.judge(judging.identify(problem, directory / "solutions" / "accepted" / "lib.py", "t"), full=True)
    verdicts = {c.group: (c.verdict, c.message) for c in record.cases}
    needs = verdicts.pop("test_features-test_patching_the_module_needs_together")
    assert needs[0] == "IE" and "mode: together" in needs[1]
    assert all(v == "AC" for v, _ in verdicts.values()), verdicts


@needs_sandbox
def test_a_module_that_does_not_import_is_ce_and_a_broken_test_file_is_ie(problem: Problem, tmp_path: Path) -> None:
    (tmp_path / "stack.py").write_text("import numpy_that_is_not_there\n")
    record = judging.judge(judging.identify(problem, tmp_path / "stack.py", "ann"))
    assert record.verdict == "CE" and "ModuleNotFoundError" in record.cases[0].message
    broken = problem.directory / "unit" / "public" / "test_stack.py"
    kept = broken.read_text()
    try:
        broken.write_text(kept.replace("import pytest", "import pytest\nundefined_name"))
        solution = problem.directory / "solutions" / "accepted" / "stack.py"
        record = judging.judge(judging.identify(load_problem(problem.directory), solution, "ref"))
        first = record.cases[0]
        assert first.verdict == "IE" and "NameError" in first.message, first
    finally:
        broken.write_text(kept)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("  student_files: [stack.py]", "  student_files: [main.py]"), "not main.py"),
        (("kind: unit\nunit:", "kind: unit\ngroups: [{name: a, cases: [{input: x}]}]\nunit:"), "leave `groups` out"),
        (("  tests: unit", "  tests: nowhere"), "folder not found: nowhere"),
        (("  # per_test:", "  per_test: {public/test_stack.py::test_gone: {points: 1}}\n  # per_test:"), "no test"),
    ],
)
def test_the_spec_of_a_unit_problem_is_checked(problem: Problem, change: tuple[str, str], said: str) -> None:
    spec = problem.directory / "problem.yaml"
    kept = spec.read_text()
    assert change[0] in kept
    try:
        spec.write_text(kept.replace(change[0], change[1]))
        with pytest.raises(SpecError, match=said):
            load_problem(problem.directory)
    finally:
        spec.write_text(kept)


def test_a_test_file_that_is_not_python_names_its_line(problem: Problem) -> None:
    bad = problem.directory / "unit" / "secret" / "test_broken.py"
    try:
        bad.write_text("def test_a():\n    pass\n\ndef test_b(:\n")
        with pytest.raises(SpecError, match=r"test_broken\.py:4: not Python"):
            load_problem(problem.directory)
    finally:
        bad.unlink()


def test_students_read_the_public_tests_whole_and_never_the_secret_ones(problem: Problem) -> None:
    from judge.kinds import shown

    statement, samples = shown.page_parts(problem)
    assert [(s.name, s.file) for s in samples] == [("public/test_stack.py", True)]
    assert "def test_push_then_pop" in samples[0].input
    assert "test_many_elements" not in statement + "".join(s.input for s in samples)


def test_a_public_file_with_a_hidden_test_is_not_shown_and_a_skipped_test_is_listed(
    problem: Problem, tmp_path: Path
) -> None:
    from judge.author import verify
    from judge.kinds import table

    copy = tmp_path / "stack"
    shutil.copytree(problem.directory, copy)
    public = copy / "unit" / "public" / "test_stack.py"
    public.write_text(
        public.read_text()
        + '\n\n@visibility("hidden")\ndef test_hidden_here():\n    assert Stack() is not None\n'
        + '\n\n@pytest.mark.skip(reason="next year")\ndef test_not_yet():\n    assert False\n'
    )
    public.write_text(public.read_text().replace("import weight", "import visibility, weight"))
    moved = load_problem(copy)
    assert table.of(moved).public_files(moved) == []  # the decorator wins over the folder
    assert "test_not_yet" not in {(c.input or "").split("::")[-1].strip() for g in moved.spec.groups for c in g.cases}
    notes = verify.prepare(copy).notes
    assert any("public/test_stack.py::test_not_yet: skipped in its source" in n for n in notes), notes


@needs_sandbox
def test_a_secret_test_in_a_public_file_hands_nothing_to_a_public_tests_message(
    problem: Problem, tmp_path: Path
) -> None:
    copy = tmp_path / "problems" / "stack"
    shutil.copytree(problem.directory, copy)
    public = copy / "unit" / "public" / "test_stack.py"
    hidden = '@visibility("hidden")\ndef test_hidden_first():\n    Stack().push("hidden-input-7F3A")\n\n\n'
    text = public.read_text().replace("import weight", "import visibility, weight")
    public.write_text(text.replace("@weight(2)\ndef test_push_then_pop", hidden + "@weight(2)\ndef test_push_then_pop"))
    moved = load_problem(copy)
    # What the student's code is handed, it raises from then on: in a public test, its message.
    (tmp_path / "stack.py").write_text(
        "SEEN = []\n\n\nclass EmptyStackError(IndexError):\n    pass\n\n\nclass Stack:\n    def push(self, x):\n        SEEN.append(repr(x))\n\n"
        "    def pop(self):\n        raise ValueError('seen: ' + ','.join(SEEN))\n"
    )
    record = judging.judge(judging.identify(moved, tmp_path / "stack.py", "mallory"), full=True)
    public_said = [c.message for c in record.cases if c.public]
    assert any("seen: 1" in m for m in public_said), public_said  # the channel works for public values
    assert not any("7F3A" in m for m in public_said), public_said
    # Together, such a file cannot be kept apart: it is refused with its name.
    spec = copy / "problem.yaml"
    spec.write_text(spec.read_text().replace("  per_test_time_s: 2\n", "  per_test_time_s: 2\n  mode: together\n"))
    with pytest.raises(SpecError, match=r"public/test_stack\.py:0: holds public and secret tests"):
        load_problem(copy)


# Tests written as teachers write them, each of which a value of the student's object could
# answer for the student were it sent over: a float checked within eps, `in`, a star import.
OPERATORS_TESTS = """\
import pytest
from lib import *


def test_a_mean_within_eps():
    assert abs(mean([1, 2, 3, 4]) - 2.5) < 1e-9


def test_a_name_is_in():
    assert "alice" in names()


def test_len_and_pytest_are_the_tests_own():
    assert len(list(names())) == 2 and pytest.approx(2.5) == mean([1, 2, 3, 4])
"""
OPERATORS_REF = """\
def mean(xs):
    return sum(xs) / len(xs)


def names():
    return {"alice": 1, "bob": 2}.keys()
"""
# Nothing computed: objects answering the test's operators, and the test's own names shadowed.
OPERATORS_HOSTILE = """\
class Zero:
    def __sub__(self, other):
        return 0


class Everyone:
    def __contains__(self, item):
        return True

    def __iter__(self):
        return iter(())


def mean(xs):
    return Zero()


def names():
    return Everyone()


def len(x):
    return 2


def range(n):
    return None


class pytest:
    @staticmethod
    def approx(x):
        return Zero()
"""


SWALLOWS_TESTS = """\
import lib


def test_swallows_the_timeout():
    try:
        lib.sleepy()
    except Exception:
        pass


def test_after_it():
    assert lib.quick() == 1
"""


@needs_sandbox
def test_a_timeout_the_test_swallows_is_tle_and_the_next_test_gets_its_own_reply(tmp_path: Path) -> None:
    """A test (or pytest making a failure's message) that catches the exception of a call past
    its deadline leaves that call's reply unread on the pipe: the test is TLE all the same, and
    the tests after it get a fresh pair, never the stale reply (a hostile student's finding)."""
    spec = SPEC.replace(
        "  per_test:\n    public/test_features.py::test_patching_the_module_needs_together: {points: 0}\n", ""
    )
    reference = "def sleepy():\n    return 0\n\n\ndef quick():\n    return 1\n"
    directory = _problem(
        tmp_path,
        {
            "problem.yaml": spec,
            "statement.md": "# Timeouts\n",
            "unit/secret/test_timeouts.py": SWALLOWS_TESTS,
            "solutions/accepted/lib.py": reference,
        },
    )
    assert judge("--problems", str(tmp_path), "gen", "lib").returncode == 0
    problem = load_problem(directory)
    (tmp_path / "lib.py").write_text(reference.replace("    return 0", "    import time\n    time.sleep(60)"))
    record = judging.judge(judging.identify(problem, tmp_path / "lib.py", "sam"), full=True)
    verdicts = {c.group: c.verdict for c in record.cases}
    assert verdicts == {"test_timeouts-test_swallows_the_timeout": "TLE", "test_timeouts-test_after_it": "AC"}


@needs_sandbox
def test_no_operator_or_star_import_lets_a_students_object_answer_for_the_test(tmp_path: Path) -> None:
    spec = SPEC.replace(
        "  per_test:\n    public/test_features.py::test_patching_the_module_needs_together: {points: 0}\n", ""
    )
    directory = _problem(
        tmp_path,
        {
            "problem.yaml": spec,
            "statement.md": "# Operators\n",
            "unit/secret/test_operators.py": OPERATORS_TESTS,
            "solutions/accepted/lib.py": OPERATORS_REF,
        },
    )
    assert judge("--problems", str(tmp_path), "gen", "lib").returncode == 0
    problem = load_problem(directory)
    honest = judging.judge(judging.identify(problem, directory / "solutions" / "accepted" / "lib.py", "t"), full=True)
    assert honest.score == 3, honest.cases
    (tmp_path / "lib.py").write_text(OPERATORS_HOSTILE)
    record = judging.judge(judging.identify(problem, tmp_path / "lib.py", "mallory"), full=True)
    assert record.score == 0 and not any(c.verdict in ("AC", "IE") for c in record.cases), record.cases


@needs_sandbox
def test_a_module_missing_a_name_the_tests_import_is_ce_naming_it(problem: Problem, tmp_path: Path) -> None:
    (tmp_path / "stack.py").write_text("class Stack:\n    pass\n")  # no EmptyStackError
    record = judging.judge(judging.identify(problem, tmp_path / "stack.py", "sam"), full=True)
    public = [c for c in record.cases if c.public]
    assert {c.verdict for c in public} == {"CE"}, record.cases
    assert "no attribute 'EmptyStackError'" in public[0].message


PATCHING_TEST = """

def test_a_patched_helper_is_used(monkeypatch):
    monkeypatch.setattr(stack, "reverse_in_place", lambda items: items.clear())
    items = [1, 2]
    stack.reverse_in_place(items)
    assert items == []
"""


@pytest.fixture(scope="module")
def together(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("together")
    made = scaffold.create(problems, "stack", "python3", kind="unit")
    spec = made.directory / "problem.yaml"
    spec.write_text(spec.read_text().replace("  per_test_time_s: 2\n", "  per_test_time_s: 2\n  mode: together\n"))
    secret = made.directory / "unit" / "secret" / "test_stack_more.py"
    secret.write_text(secret.read_text() + PATCHING_TEST)
    assert judge("--problems", str(problems), "gen", "stack").returncode == 0
    return load_problem(made.directory)


@needs_sandbox
def test_together_runs_tests_that_patch_the_module_and_checks_the_channel(together: Problem, tmp_path: Path) -> None:
    verified = judge("--problems", str(together.directory.parent), "verify", "stack")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    # Results printed at import, before any test started: no test is passed by them.
    forged = (
        "import os\nfor fd in range(20):\n    try:\n        os.write(fd, b'"
        + ('{\\"id\\": \\"public/test_stack.py::test_push_then_pop\\", \\"phases\\": []}\\n')
        + "')\n    except OSError:\n        pass\n"
    )
    (tmp_path / "stack.py").write_text(NULL_STACK + "\n\n" + forged)
    record = judging.judge(judging.identify(together, tmp_path / "stack.py", "mallory"), full=True)
    passed = {c.group for c in record.cases if c.verdict == "AC"}
    assert passed == {"test_stack_more-test_a_patched_helper_is_used"}, record.cases  # its own, honestly
    # An exit in the middle of a test fails that test; the file's others run in a new pair.
    reference = (together.directory / "solutions" / "accepted" / "stack.py").read_text()
    exits = reference.replace("    def peek(self):\n", "    def peek(self):\n        import os\n        os._exit(0)\n")
    (tmp_path / "stack.py").write_text(exits)
    record = judging.judge(judging.identify(together, tmp_path / "stack.py", "eve"), full=True)
    verdicts = {c.group: c.verdict for c in record.cases}
    assert verdicts.pop("test_stack-test_peek_leaves_the_top") == "RE"
    assert verdicts.pop("test_stack_more-test_the_error_is_an_index_error") == "RE"
    assert set(verdicts.values()) == {"AC"}, verdicts


@needs_sandbox
def test_together_a_module_that_ends_its_process_at_import_is_its_own_verdict(
    together: Problem, tmp_path: Path
) -> None:
    for ending in ("import os\nos._exit(0)\n", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"):
        (tmp_path / "stack.py").write_text(NULL_STACK + "\n" + ending)
        record = judging.judge(judging.identify(together, tmp_path / "stack.py", "mallory"), full=True)
        assert {c.verdict for c in record.cases} == {"RE"}, record.cases  # was IE on every test


# Reads every test file it can find in its box (and what an earlier run left there), and raises
# their text from every test, public ones included, whose messages a student reads.
READS_THE_BOX = """
import os
FOUND = ""
for root, dirs, files in os.walk("."):
    for name in files:
        if "more" in name.lower() or name == "leak.txt":
            try:
                FOUND += open(os.path.join(root, name)).read()
            except OSError:
                pass
try:
    open("leak.txt", "a").write(FOUND)
except OSError:
    pass


class Stack:
    def __init__(self):
        raise ValueError(FOUND[-3000:] or "nothing found")
"""


@needs_sandbox
def test_together_no_public_test_can_carry_a_secret_tests_text(together: Problem, tmp_path: Path) -> None:
    (tmp_path / "stack.py").write_text(NULL_STACK + READS_THE_BOX)
    record = judging.judge(judging.identify(together, tmp_path / "stack.py", "mallory"), full=True)
    public = [c.message for c in record.cases if c.public]
    assert public and all("nothing found" in m for m in public if "ValueError" in m), public
    assert not any("test_many_elements" in m for m in public), public


JAVA_HOSTILE = {
    # Reads the secret test class in its box and throws its text from every test.
    "reads": (
        "    public int size() {",
        "    public Stack() {\n        StringBuilder found = new StringBuilder();\n"
        '        try (java.util.stream.Stream<java.nio.file.Path> walk = java.nio.file.Files.walk(java.nio.file.Paths.get("."))) {\n'
        "            for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) walk::iterator) {\n"
        '                if (p.toString().contains("More") && java.nio.file.Files.isRegularFile(p)) {\n'
        "                    found.append(new String(java.nio.file.Files.readAllBytes(p)));\n"
        "                }\n            }\n        } catch (Exception e) {\n        }\n"
        '        throw new IllegalStateException("found: " + found);\n    }\n\n    public int size() {',
    ),
    # Aborts every test as JUnit's assumptions do: a skip earns nothing.
    "aborts": (
        "    public int size() {",
        '    public Stack() {\n        throw new org.opentest4j.TestAbortedException("skipped");\n'
        "    }\n\n    public int size() {",
    ),
    # pop returns an object whose equals says yes to everything (apart: its stand-in equals no
    # plain value; together: assertEquals(2, it) asks Integer.equals, which says no).
    "equals_everything": (
        "    public int pop() {",
        "    public Object pop() {\n        return new Object() {\n            @Override\n"
        "            public boolean equals(Object other) {\n                return true;\n            }\n"
        "        };\n    }\n\n    public int popItem() {",
    ),
    # Exits in the middle of a test: that test fails, the others run in a new JVM.
    "exits": ("        return items.get(items.size() - 1);", "        System.exit(0);\n        return 0;"),
    # Prints results of its own, and writes one straight to the channel out of turn.
    "forges": (
        "    public int size() {",
        '    static {\n        System.out.println("{\\"end\\": true}");\n'
        "        try {\n            new java.io.FileOutputStream(java.io.FileDescriptor.out).write(\n"
        '                "{\\"id\\": \\"public/StackTest.java::StackTest::pushThenPop\\", \\"phases\\": []}\\n".getBytes());\n'
        "        } catch (java.io.IOException e) {\n        }\n    }\n\n    public int size() {",
    ),
}


@pytest.fixture(scope="module", params=["apart", "together"])
def junit(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("junit")
    scaffold.create(problems, "jstack", "java", kind="unit")
    if request.param == "together":
        spec = problems / "jstack" / "problem.yaml"
        spec.write_text(spec.read_text().replace("  per_test_time_s: 2\n", "  per_test_time_s: 2\n  mode: together\n"))
    assert judge("--problems", str(problems), "gen", "jstack").returncode == 0
    made = load_problem(problems / "jstack")
    assert made.spec.unit is not None and made.spec.unit.runs == request.param
    return made


@needs_junit
@pytest.mark.slow  # heavy end to end: make test-slow
def test_a_junit_problem_verifies_as_made_with_its_points(junit: Problem) -> None:
    verified = judge("--problems", str(junit.directory.parent), "verify", "jstack")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    points = {g.name: (g.points, g.visibility) for g in junit.spec.groups}
    assert points["stacktest-stacktest-pushthenpop"] == (2.0, "public")
    assert points["stackmoretest-stackmoretest-manyelementscomebackinreverse"] == (3.0, "secret")
    assert junit.max_score == 8


@needs_junit
@pytest.mark.slow  # heavy end to end: make test-slow
def test_a_java_student_exiting_or_forging_gets_nothing_it_did_not_earn(junit: Problem, tmp_path: Path) -> None:
    reference = (junit.directory / "solutions" / "accepted" / "Stack.java").read_text()
    old, new = JAVA_HOSTILE["exits"]
    (tmp_path / "Stack.java").write_text(reference.replace(old, new))
    record = judging.judge(judging.identify(junit, tmp_path / "Stack.java", "eve"), full=True)
    verdicts = {c.group: c.verdict for c in record.cases}
    assert verdicts.pop("stacktest-stacktest-peekleavesthetop") == "RE"
    assert set(verdicts.values()) == {"AC"}, verdicts
    # A queue (wrong) that forges: the forged lines fail what they touch, pass nothing.
    wrong = (junit.directory / "solutions" / "wrong_answer" / "Stack.java").read_text()
    old, new = JAVA_HOSTILE["forges"]
    (tmp_path / "Stack.java").write_text(wrong.replace(old, new))
    record = judging.judge(judging.identify(junit, tmp_path / "Stack.java", "mallory"), full=True)
    verdicts = {c.group: c.verdict for c in record.cases}
    assert verdicts["stacktest-stacktest-pushthenpop"] != "AC", record.cases
    # The reference, aborting every test from its class's start: nothing is earned.
    old, new = JAVA_HOSTILE["aborts"]
    (tmp_path / "Stack.java").write_text(reference.replace(old, new))
    record = judging.judge(judging.identify(junit, tmp_path / "Stack.java", "mallory"), full=True)
    assert record.score == 0 and not any(c.verdict in ("AC", "IE") for c in record.cases), record.cases
    # A queue whose pop returns an object equal to everything: no assertion takes its word.
    old, new = JAVA_HOSTILE["equals_everything"]
    (tmp_path / "Stack.java").write_text(wrong.replace(old, new))
    record = judging.judge(judging.identify(junit, tmp_path / "Stack.java", "mallory"), full=True)
    verdicts = {c.group: c.verdict for c in record.cases}
    assert verdicts["stacktest-stacktest-pushthenpop"] != "AC", record.cases
    assert verdicts["stackmoretest-stackmoretest-manyelementscomebackinreverse"] != "AC", record.cases
    # The secret test class is not in the box while a public one runs.
    old, new = JAVA_HOSTILE["reads"]
    (tmp_path / "Stack.java").write_text(reference.replace(old, new))
    record = judging.judge(judging.identify(junit, tmp_path / "Stack.java", "mallory"), full=True)
    public = [c.message for c in record.cases if c.public]
    assert public and not any("manyElements" in m for m in public), public


# 3.5 s of CPU time in a thread of its own when 999 is pushed (the runner once timed only the
# test's thread): the kernel counts every thread of the JVM.
JAVA_BURNS_IN_A_THREAD = """        if (x == 999) {
            Thread burner = new Thread(() -> {
                java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
                while (cpu.getCurrentThreadCpuTime() < 3_500_000_000L) {
                }
            });
            burner.start();
            try {
                burner.join();
            } catch (InterruptedException e) {
            }
        }
        items.add(x);"""


@needs_junit
def test_a_java_tests_cpu_time_is_every_threads(junit: Problem, tmp_path: Path) -> None:
    reference = (junit.directory / "solutions" / "accepted" / "Stack.java").read_text()
    (tmp_path / "Stack.java").write_text(reference.replace("        items.add(x);", JAVA_BURNS_IN_A_THREAD))
    record = judging.judge(judging.identify(junit, tmp_path / "Stack.java", "sam"), full=True)
    verdicts = {c.group: c.verdict for c in record.cases}
    assert verdicts.pop("stackmoretest-stackmoretest-manyelementscomebackinreverse") == "TLE", record.cases
    assert set(verdicts.values()) == {"AC"}, record.cases


@needs_sandbox
def test_isolate_test_gives_each_test_a_pair_of_its_own(problem: Problem, tmp_path: Path) -> None:
    """A module that keeps state across calls (a count of the stacks made) passes a test that
    wants a fresh process only when each test has one."""
    spec = problem.directory / "problem.yaml"
    kept = spec.read_text()
    reference = (problem.directory / "solutions" / "accepted" / "stack.py").read_text()
    counting = reference.replace(
        "        self._items = []", "        global MADE\n        MADE += 1\n        self._items = []"
    )
    counting = "MADE = 0\n\n\n" + counting.replace(
        "    def __len__(self):", "    def made(self):\n        return MADE\n\n    def __len__(self):"
    )
    (tmp_path / "stack.py").write_text(counting)
    fresh = "\n\ndef test_a_fresh_process():\n    assert stack.Stack().made() == 1\n"
    secret = problem.directory / "unit" / "secret" / "test_stack_more.py"
    kept_tests = secret.read_text()
    try:
        secret.write_text(kept_tests + fresh)
        results = {}
        for isolate in ("file", "test"):
            spec.write_text(kept.replace("  per_test_time_s: 2\n", f"  per_test_time_s: 2\n  isolate: {isolate}\n"))
            assert judge("--problems", str(problem.directory.parent), "gen", "stack").returncode == 0
            loaded = load_problem(problem.directory)
            record = judging.judge(judging.identify(loaded, tmp_path / "stack.py", "ida"), full=True)
            results[isolate] = {c.group: c.verdict for c in record.cases}["test_stack_more-test_a_fresh_process"]
    finally:
        spec.write_text(kept)
        secret.write_text(kept_tests)
        judge("--problems", str(problem.directory.parent), "gen", "stack")
    assert results == {"file": "WA", "test": "AC"}


@needs_junit
def test_a_java_student_whose_classes_do_not_compile_gets_ce_without_a_secret_line(
    junit: Problem, tmp_path: Path
) -> None:
    """The runner compiles the box in its own JVM: a class the tests cannot compile against is
    a CE on every test, with javac's words for the student's file and the public test, and only
    the name and the error of a secret one (its source lines are the secret)."""
    reference = (junit.directory / "solutions" / "accepted" / "Stack.java").read_text()
    without_size = reference.replace("    public int size() {\n        return items.size();\n    }\n", "")
    assert without_size != reference
    (tmp_path / "Stack.java").write_text(without_size)
    record = judging.judge(judging.identify(junit, tmp_path / "Stack.java", "dora"), full=True)
    assert {c.verdict for c in record.cases} == {"CE"}
    said = record.cases[0].message
    assert "public/StackTest.java:24: error: cannot find symbol" in said
    assert "secret/" not in said  # a public test's JVM has no secret class to compile
    secret = next(c.message for c in record.cases if not c.public)
    assert "secret/StackMoreTest.java: error: cannot find symbol" in secret
    assert re.search(r"secret/StackMoreTest\.java:\d", secret) is None
    assert "symbol:" not in secret.split("secret/", 1)[1], secret  # javac's detail lines: never a secret file's
    (tmp_path / "Stack.java").write_text(reference.replace("items.add(x);", "items.add(x)"))
    record = judging.judge(judging.identify(junit, tmp_path / "Stack.java", "dora"), full=True)
    assert {c.verdict for c in record.cases} == {"CE"}
    assert "Stack.java:8: error: ';' expected" in record.cases[0].message


@needs_sandbox
def test_a_syntax_error_is_ce_with_its_line_in_either_mode(problem: Problem, tmp_path: Path) -> None:
    """Nothing is compiled at build: the process that imports the module finds the error, and
    says where, apart (the student's bridge) and together (pytest's collection)."""
    copy = tmp_path / "problems" / "stack"
    shutil.copytree(problem.directory, copy)
    spec = copy / "problem.yaml"
    (tmp_path / "stack.py").write_text("class Stack:\n    def push(self, x)\n        pass\n")
    for mode in ("apart", "together"):
        spec.write_text(
            re.sub(r"(?m)^unit:\n", f"unit:\n  mode: {mode}\n", spec.read_text().replace("  mode: apart\n", ""))
        )
        copied = load_problem(copy)
        assert copied.spec.unit is not None and copied.spec.unit.runs == mode
        record = judging.judge(judging.identify(copied, tmp_path / "stack.py", "syd"), full=True)
        assert {c.verdict for c in record.cases} == {"CE"}, (mode, record.cases)
        assert "SyntaxError" in record.cases[0].message and "(stack.py, line 2)" in record.cases[0].message, mode


PYTEST_SHAPES = """import unittest

import pytest

import stack


@pytest.mark.parametrize("n", [1, 2, 3])
def test_pushes(n):
    s = stack.Stack()
    for i in range(n):
        s.push(i)
    assert len(s) == n


@pytest.mark.xfail(reason="peek on an empty stack is not asked for")
def test_expected_to_fail():
    assert stack.Stack().peek() == 0


@pytest.mark.xfail(strict=True)
def test_strict_xfail_that_passes():
    assert len(stack.Stack()) == 0


def test_a_helper_beside_the_tests():
    from helpers import filled

    assert len(filled(3)) == 3


def test_with_a_fixture_of_conftest(filled_stack):
    assert filled_stack.pop() == 2


def test_an_exception_of_its_own():
    with pytest.raises(stack.EmptyStackError, match="nothing to pop") as caught:
        stack.Stack().pop()
    assert caught.value.size == 0


class TestSubtests(unittest.TestCase):
    def test_sizes(self):
        for n in range(4):
            with self.subTest(n=n):
                s = stack.Stack()
                for i in range(n):
                    s.push(i)
                self.assertEqual(len(s), n)

    def test_last_subtest_fails_alone(self):
        for n in (1, 2, 3):
            with self.subTest(n=n):
                self.assertEqual(len(stack.Stack()), 0)
                self.assertLess(n, 3)
"""
CONFTEST = (
    "import pytest\n\nimport stack\n\n\n@pytest.fixture\ndef filled_stack():\n"
    "    s = stack.Stack()\n    s.push(1)\n    s.push(2)\n    return s\n"
)
HELPERS = (
    "import stack\n\n\ndef filled(n):\n    s = stack.Stack()\n    for i in range(n):\n        s.push(i)\n    return s\n"
)
# An exception class with a __str__ and an attribute of its own, as an honest student writes one.
OWN_ERROR = (
    "class EmptyStackError(IndexError):\n"
    "    def __init__(self, message, size=0):\n"
    "        super().__init__(message)\n"
    "        self.size = size\n\n"
    "    def __str__(self):\n"
    '        return "nothing to pop: " + self.args[0]\n'
)


@pytest.fixture(scope="module", params=["apart", "together"])
def shapes(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("shapes")
    made = scaffold.create(problems, "stack", "python3", kind="unit")
    spec = made.directory / "problem.yaml"
    mode = f"  per_test_time_s: 2\n  mode: {request.param}\n"
    spec.write_text(spec.read_text().replace("  per_test_time_s: 2\n", mode))
    (made.directory / "unit" / "public" / "test_shapes.py").write_text(PYTEST_SHAPES)
    (made.directory / "unit" / "public" / "helpers.py").write_text(HELPERS)
    (made.directory / "unit" / "public" / "conftest.py").write_text(CONFTEST)
    assert judge("--problems", str(problems), "gen", "stack").returncode == 0
    return load_problem(made.directory)


@needs_sandbox
def test_pytest_shapes_parametrize_xfail_helpers_and_own_exceptions_run_as_pytest_runs_them(
    shapes: Problem, tmp_path: Path
) -> None:
    def verdicts(source: str) -> dict[str, str]:
        (tmp_path / "stack.py").write_text(source)
        record = judging.judge(judging.identify(shapes, tmp_path / "stack.py", "ann"), full=True)
        return {
            c.group.removeprefix("test_shapes-"): c.verdict for c in record.cases if c.group.startswith("test_shapes")
        }

    reference = (shapes.directory / "solutions" / "accepted" / "stack.py").read_text()
    own = reference.replace("class EmptyStackError(IndexError):\n    pass\n", OWN_ERROR)
    assert own != reference
    assert verdicts(own) == {
        "test_pushes": "AC",
        "test_expected_to_fail": "AC",
        "test_strict_xfail_that_passes": "WA",
        "test_a_helper_beside_the_tests": "AC",
        "test_an_exception_of_its_own": "AC",
        "test_with_a_fixture_of_conftest": "AC",
        # A failing subTest fails its test, as plain pytest (7 and 8) counts it.
        "testsubtests-test_sizes": "AC",
        "testsubtests-test_last_subtest_fails_alone": "WA",
    }
    assert verdicts(reference)["test_an_exception_of_its_own"] == "WA"  # its message is not that
    # Wrong for 3 pushes alone: one run of three fails, and so does the test.
    capped = reference.replace("        return len(self._items)", "        return min(len(self._items), 2)")
    assert capped != reference
    assert verdicts(capped)["test_pushes"] == "WA"
    assert verdicts(capped)["testsubtests-test_sizes"] == "WA"  # its one subTest of 3 pushes


BURNS = """import pytest

import stack


@pytest.mark.parametrize("n", [1, 2, 3])
def test_three_runs(n):
    assert stack.burn(0.45) > 0
"""
# CPU time by the student's own clock: each call burns 0.45 s, whatever the machine's load.
BURN = (
    "\n\ndef burn(seconds):\n    import time\n\n    start, n = time.process_time(), 0\n"
    "    while time.process_time() - start < seconds:\n        n += 1\n    return n\n"
)


@needs_sandbox
@pytest.mark.parametrize("mode", ["apart", "together"])
def test_a_parametrized_tests_runs_share_its_time_in_either_mode(tmp_path: Path, mode: str) -> None:
    """Three runs of 0.45 s each, in a test of 1 s: within it one by one, over it together. A
    test is one case with one time, in both modes (apart gave each run the whole second, as
    long as the pair's budget, which the file's other tests shared, lasted)."""
    made = scaffold.create(tmp_path, "stack", "python3", kind="unit")
    spec = made.directory / "problem.yaml"
    spec.write_text(spec.read_text().replace("  per_test_time_s: 2\n", f"  per_test_time_s: 1\n  mode: {mode}\n"))
    (made.directory / "unit" / "public" / "test_burns.py").write_text(BURNS)
    assert judge("--problems", str(tmp_path), "gen", "stack").returncode == 0
    reference = (made.directory / "solutions" / "accepted" / "stack.py").read_text()
    (tmp_path / "stack.py").write_text(reference + BURN)
    record = judging.judge(judging.identify(load_problem(made.directory), tmp_path / "stack.py", "ann"), full=True)
    verdicts = {c.group: c.verdict for c in record.cases}
    assert verdicts.pop("test_burns-test_three_runs") == "TLE", record.cases
    assert set(verdicts.values()) == {"AC"}, verdicts


@needs_sandbox
def test_a_submissions_own_helpers_py_never_replaces_the_teachers_and_breaking_it_is_no_ie(
    shapes: Problem, tmp_path: Path
) -> None:
    """A hostile student's findings in `together`: a submitted helpers.py replaced the teacher's
    helper module, and `sys.modules["helpers"] = None` made the teacher's files IE. The
    teacher's helper wins in either mode; breaking it costs only the submission."""
    reference = (shapes.directory / "solutions" / "accepted" / "stack.py").read_text()
    folder = tmp_path / "stack"  # a folder of Python files runs the one named after it
    folder.mkdir()
    (folder / "stack.py").write_text(reference)
    (folder / "helpers.py").write_text("def filled(n):\n    return None\n")
    record = judging.judge(judging.identify(shapes, folder, "eve"), full=True)
    helper = [c for c in record.cases if c.group == "test_shapes-test_a_helper_beside_the_tests"]
    assert [c.verdict for c in helper] == ["AC"], record.cases
    (tmp_path / "stack.py").write_text("import sys\n\nsys.modules['helpers'] = None\n" + reference)
    record = judging.judge(judging.identify(shapes, tmp_path / "stack.py", "eve"), full=True)
    assert not any(c.verdict == "IE" for c in record.cases), record.cases


def _pytest_outcomes(tests: Path, student: str, where: Path) -> dict[str, bool]:
    """pytest's own run of the public tests on `student` (the judge's own honest files, not a
    hostile's: run directly): each listed test, passing when pytest counts every run of it good."""
    import xml.etree.ElementTree as ElementTree

    shutil.copytree(tests / "public", where)
    (where / "stack.py").write_text(student)
    for name, text in pairs.support_files().items():  # gradescope-utils' decorators, as no-ops
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_text(text)
    report = where / "report.xml"
    subprocess.run(
        ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", str(where)],
        cwd=where,
        capture_output=True,
        timeout=120,
    )
    outcomes: dict[str, bool] = {}
    for case in ElementTree.parse(report).iter("testcase"):
        name = re.sub(r"\[.*\]$", "", case.get("name", ""))
        _module, *cls = case.get("classname", "").split(".")
        name = f"{cls[-1].lower()}-{name}" if cls else name  # a class's test, as the judge's group names it
        skipped = case.find("skipped")
        bad = case.find("failure") is not None or case.find("error") is not None
        bad = bad or (skipped is not None and "xfail" not in (skipped.get("type") or ""))
        outcomes[name] = outcomes.get(name, True) and not bad
    return outcomes


# pytest run beside the judge, in both modes: the slow tier (CI runs it).
@pytest.mark.slow
@needs_sandbox
def test_every_verdict_agrees_with_pytests_own_run(shapes: Problem, tmp_path: Path) -> None:
    """The score the judge gives is the one pytest gives, run directly on the same files: for
    the reference, a wrong stack and one with its own exception, test by test."""
    reference = (shapes.directory / "solutions" / "accepted" / "stack.py").read_text()
    wrong = (shapes.directory / "solutions" / "wrong_answer" / "stack.py").read_text()
    own = reference.replace("class EmptyStackError(IndexError):\n    pass\n", OWN_ERROR)
    for n, student in enumerate((reference, wrong, own)):
        (tmp_path / "stack.py").write_text(student)
        record = judging.judge(judging.identify(shapes, tmp_path / "stack.py", "ann"), full=True)
        judged = {
            c.group.removeprefix("test_stack-").removeprefix("test_shapes-"): c.verdict == "AC"
            for c in record.cases
            if c.public
        }
        theirs = _pytest_outcomes(shapes.directory / "unit", student, tmp_path / f"run{n}")
        assert len(judged) >= 8 and judged == theirs, (n, judged, theirs)


def _numbered(tmp_path: Path) -> Problem:
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "stack", "python3", kind="unit")
    public = problems / "stack" / "unit" / "public" / "test_stack.py"
    text = public.read_text().replace("import weight\n", "import number, weight\n")
    text = text.replace(
        "@weight(2)\ndef test_push_then_pop",
        '@weight(2)\n@number("1.10")\ndef test_push_then_pop',
    )
    text = text.replace("def test_peek_leaves_the_top", '@number("1.2")\ndef test_peek_leaves_the_top')
    public.write_text(text)
    assert judge("--problems", str(problems), "gen", "stack").returncode == 0
    return load_problem(problems / "stack")


def test_unit_tests_are_titled_by_number_and_name_in_the_order_of_their_numbers(tmp_path: Path) -> None:
    """Issue 59, item 4: slugs such as test_stack-test_push_then_pop were all a student saw."""
    from judge.kinds import table as kinds

    problem = _numbered(tmp_path)
    titles = kinds.of(problem).test_titles(problem)
    shown = list(titles.values())
    assert shown[:3] == ["1.2 peek leaves the top", "1.10 push then pop", "an empty stack raises"]
    assert list(titles)[1] == "test_stack-test_push_then_pop"  # the group, by its slug


@needs_sandbox
def test_a_unit_submission_shows_one_table_of_tests_by_title(tmp_path: Path) -> None:
    from judge.grade import feedback, reports

    problem = _numbered(tmp_path)
    accepted = next((problem.directory / "solutions" / "accepted").iterdir())
    record = judging.judge(judging.identify(problem, accepted, "sam"), full=True)
    context = reports.submission_context(feedback.for_student(record, problem), problem, {}, "..", None)
    page = reports.submission_html(context)
    assert page.count('id="tests"') == 1 and 'id="groups"' not in page and 'id="cases"' not in page
    assert (
        page.index("1.2 peek leaves the top") < page.index("1.10 push then pop") < page.index("an empty stack raises")
    )


def test_a_starter_file_is_one_asked_for_and_there(tmp_path: Path) -> None:
    scaffold.create(tmp_path, "stack", "python3", kind="unit")
    spec = tmp_path / "stack" / "problem.yaml"
    made = spec.read_text(encoding="utf-8")
    assert "  starter: starter/stack.py\n" in made  # the scaffold writes one and names it
    for starter, why in (
        ("starter/queue.py", "its file name is none of student_files"),
        ("stack.py", "file not found"),
    ):
        spec.write_text(made.replace("starter/stack.py", starter), encoding="utf-8")
        with pytest.raises(SpecError, match=why):
            load_problem(tmp_path / "stack")
    spec.write_text(made.replace("  starter: starter/stack.py\n", ""), encoding="utf-8")
    loaded = load_problem(tmp_path / "stack")
    assert kinds.of(loaded).starter_languages(loaded) == ()  # none named: no starter in the editor
