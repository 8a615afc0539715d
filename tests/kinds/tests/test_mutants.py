"""Mutants of the reference as bugs (`tests: mutants:`): made from a Python, C and C++
reference, kept only when the problem's own tests catch them, cached, the same every time;
a student's suite scored on them; judge verify says how many were kept."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from judge.author import making, scaffold, verify
from judge.grade import judging, results
from judge.kinds import table as kinds
from judge.kinds.tests import mutants
from judge.problem.spec import Suite
from tests import needs
from tests.kinds.tests import problems
from tests.kinds.tests.test_unit_suite import SPEC as UNIT_TESTS_SPEC
from tests.kinds.tests.test_unit_suite import THOROUGH as UNIT_THOROUGH
from tests.kinds.tests.test_unit_suite import judged as unit_judged

pytestmark = needs.mark("isolation", "python3")

MUTANTS = "  mutants: {max: 4}\n"
C_REFERENCE = r"""#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long best = 0, here = 0;
    for (int i = 0; i < n; i++) {
        long long value;
        if (scanf("%lld", &value) != 1) return 1;
        here = (i == 0 || here < 0) ? value : here + value;
        if (i == 0 || here > best) best = here;
    }
    printf("%lld\n", best);
    return 0;
}
"""


def generated(directory: Path) -> None:
    problem = kinds.load_problem(directory)
    making.write(problem, making.generate(problem, jobs=2))


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("problems")
    problems.make(root, "sums-tests", MUTANTS)
    generated(root / "sums")
    return root


def mutant_groups(directory: Path) -> list[str]:
    return [g.name for g in kinds.load_problem(directory).spec.groups if g.name.startswith("mutant-")]


def judged(root: Path, tests: dict[str, str], name: str) -> results.GradeRecord:
    problem = kinds.load_problem(root / "sums-tests")
    folder = problems.write_tests(root / "students" / name, tests)
    return judging.judge(judging.identify(problem, folder, name))


def judged_groups(root: Path, tests: dict[str, str], name: str) -> dict[str, str]:
    record = judged(root, tests, name)
    assert not record.error, record.error
    return {c.group: c.verdict for c in record.cases if c.group.startswith("mutant-")}


def test_python_mutants_made_filtered_cached_and_the_same_twice(root: Path) -> None:
    here = root / "sums-tests"
    # Judged before they are made: refused in a line (not scored on fewer bugs than it has).
    early = judged(root, {"01.in": "1\n7\n"}, "too-soon")
    assert re.fullmatch(
        r".*problem.yaml: its mutants are not made on this machine .*: run `judge gen sums-tests`", early.error
    )
    problem, said = making.prepare_data(kinds.load_problem(here), jobs=2)
    kept, tried, survived, broken = map(int, re.findall(r"\d+", said))
    assert kept == 4 and tried == kept + survived + broken
    groups = mutant_groups(here)
    assert len(groups) == 4 and groups == [g.name for g in problem.spec.groups if g.name.startswith("mutant-")]
    assert all(re.fullmatch(r"mutant-\d+-[a-z0-9-]+", g) for g in groups)
    # Every kept mutant fails some test of the problem's own data, by construction: re-run them.
    target = kinds.load_problem(root / "sums")
    spec = problem.spec.tests
    assert spec is not None
    made = mutants.cached(target.directory, spec)
    assert made is not None and len(made.kept) == 4
    # Made again from nothing (the cache emptied): the same mutants.
    shutil.rmtree(Path(mutants.cache_dir()) / "mutants")
    assert mutants.cached(target.directory, spec) is None
    again = mutants.make(target, kinds.of(target), spec, jobs=1)
    assert again == made


def test_a_students_suite_catches_some_mutants_and_a_thorough_one_all(root: Path) -> None:
    making.prepare_data(kinds.load_problem(root / "sums-tests"), jobs=2)
    groups = mutant_groups(root / "sums-tests")
    shallow = judged_groups(root, {"01.in": "1\n7\n"}, "shallow")
    thorough = judged_groups(root, {"01.in": "5\n-2 1 -3 4 -1\n", "02.in": "1\n7\n"}, "thorough")
    assert set(shallow) == set(thorough) == set(groups)
    assert 0 < list(shallow.values()).count("AC") < len(groups)
    assert set(thorough.values()) == {"AC"}


def test_verify_says_how_many_mutants_survived_the_filter(root: Path) -> None:
    prepared = verify.prepare(root / "sums-tests", jobs=2)
    made = next(c for c in prepared.checks if c.name == "bugs made")
    assert not made.failures
    assert re.fullmatch(
        r"4 mutants kept of \d+ tried: \d+ survived the problem's own tests, \d+ did not build", made.detail
    )


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_c_and_cpp_mutants_made_and_filtered(root: Path, language: str) -> None:
    needs.require(language)
    subject = f"sums-{language}"
    directory = scaffold.create(root, subject, "cpp").directory
    if language == "c":
        (directory / "solutions" / "accepted" / "ref.c").write_text(C_REFERENCE)
        spec = directory / "problem.yaml"
        spec.write_text(re.sub(r"reference: \S+", "reference: solutions/accepted/ref.c", spec.read_text()))
    generated(directory)
    here = problems.tests_of(root, f"{subject}-tests", subject, "3\n-5 -1 -8\n", "  mutants: {max: 3}\n")
    problem, said = making.prepare_data(kinds.load_problem(here), jobs=2)
    assert said.startswith("3 mutants kept of ")
    names = mutant_groups(here)
    assert len(names) == 3
    target = kinds.load_problem(directory)
    suite = problem.spec.tests
    assert suite is not None
    made = mutants.cached(directory, suite)
    assert made is not None
    # Each kept mutant is the reference with one change, and differs from it.
    reference = (directory / target.spec.reference).read_text()
    for mutant in made.kept:
        assert mutant.text != reference and mutant.name.startswith("mutant: line ")


UNIT_SPEC = UNIT_TESTS_SPEC + "  mutants: {operators: [negate, constant]}\n"
# The unit suite's thorough file (its last test invalid) and a test of peek, which it lacks.
THOROUGH = (
    UNIT_THOROUGH
    + """

def test_peek_shows_the_last_pushed():
    s = stack.Stack()
    s.push(1)
    s.push(2)
    assert s.peek() == 2
"""
)
SHALLOW = """import stack


def test_one_push_one_pop():
    s = stack.Stack()
    s.push(1)
    assert s.pop() == 1
"""
# Each test passes where the module's source cannot be read and, where it can, fails on any
# mutant (its text is not the reference's): were a route open, it would catch every mutant.
HOSTILE = """import inspect
import os

import _judge_unit
import stack

REFERENCE = {reference!r}


def raw(**request):
    return _judge_unit.CHANNEL.ask(request, [])


def same_or_unread(read):
    try:
        text = read()
    except Exception:
        return
    if "def reverse_in_place" in text:  # the module's source, not the stand-in's
        assert text == REFERENCE


def test_open_its_file():
    same_or_unread(lambda: open(stack.__file__).read())


def test_inspect_getsource():
    same_or_unread(lambda: inspect.getsource(stack.Stack))


def test_its_builtins_open():
    ref = stack.__dict__["_handle"]
    opened = lambda: raw(op="getattr", ref=ref, name="__builtins__")["open"]
    same_or_unread(lambda: opened()(raw(op="getattr", ref=ref, name="__file__")).read())


def test_the_file_system():
    # Everywhere but the system's own folders (read-only, the same on every machine).
    for top, folders, files in os.walk("/"):
        if top == "/":
            folders[:] = [f for f in folders if f not in ("proc", "sys", "dev", "usr", "lib", "lib64", "bin", "sbin")]
        for name in files:
            if name.endswith(".py") and not name.startswith("test_"):
                same_or_unread(lambda: open(os.path.join(top, name), errors="replace").read())
"""


@pytest.fixture(scope="module")
def unit_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    needs.require("pytest")
    root = tmp_path_factory.mktemp("unit")
    problems.unit_of(root, UNIT_SPEC, THOROUGH)
    return root


def test_a_unit_problems_mutants_are_those_its_own_test_files_catch(unit_root: Path) -> None:
    problem, said = making.prepare_data(kinds.load_problem(unit_root / "stack-tests"), jobs=2)
    # peek's `[-1]` as `[-0]` is the one survivor: every teacher's test peeks at a stack of one.
    assert said == "3 mutants kept of 4 tried: 1 survived the problem's own tests, 0 did not build"
    groups = {g.name: g.visibility for g in problem.spec.groups if g.name.startswith("mutant-")}
    assert groups == dict.fromkeys(["mutant-16-negated", "mutant-21-negated", "mutant-23-2-for-1"], "public")
    # secret: the same mutants (the same record), named mutant-N and secret.
    secret = unit_root / "stack-tests-secret"
    shutil.copytree(unit_root / "stack-tests", secret)
    spec = (secret / "problem.yaml").read_text().replace("id: stack-tests", "id: stack-tests-secret")
    (secret / "problem.yaml").write_text(spec.replace("constant]}", "constant], secret: true}"))
    hidden = {g.name: g.visibility for g in kinds.load_problem(secret).spec.groups if g.name.startswith("mutant")}
    assert hidden == {"mutant-1": "secret", "mutant-2": "secret", "mutant-3": "secret"}


@pytest.mark.slow  # a whole verify or a mutants' judging end to end: make test-slow; cheaper tests keep the feature in make test
def test_a_students_pytest_suite_is_scored_on_the_mutants_it_catches(unit_root: Path) -> None:
    making.prepare_data(kinds.load_problem(unit_root / "stack-tests"), jobs=2)
    thorough = unit_judged(unit_root, THOROUGH, "thorough")
    assert {c.group: c.verdict for c in thorough.cases if c.group != "validity"} == {
        "stack": "AC",
        "stack-2": "AC",
        "mutant-16-negated": "AC",
        "mutant-21-negated": "AC",
        "mutant-23-2-for-1": "AC",
    }
    assert (thorough.verdict, thorough.score, thorough.max_score) == ("AC", 25.0, 25.0)
    shallow = unit_judged(unit_root, SHALLOW, "shallow")
    caught = sorted(c.group for c in shallow.cases if c.group != "validity" and c.verdict == "AC")
    assert caught == ["mutant-16-negated", "stack-2"]  # pop's guard negated; the bug that crashes on push
    assert (shallow.verdict, shallow.score) == ("WA", 10.0)


def test_a_suite_reading_a_mutants_source_is_valid_and_catches_nothing(unit_root: Path) -> None:
    making.prepare_data(kinds.load_problem(unit_root / "stack-tests"), jobs=2)
    reference = (unit_root / "stack" / "solutions" / "accepted" / "stack.py").read_text()
    record = unit_judged(unit_root, HOSTILE.format(reference=reference), "hostile")
    validity = {c.name: c.verdict for c in record.cases if c.group == "validity"}
    assert not record.error and len(validity) == 4 and set(validity.values()) == {"AC"}, [
        c.message for c in record.cases
    ]
    assert [c.verdict for c in record.cases if c.group.startswith("mutant-")] == ["WA"] * 3
    assert record.score == 0.0


def test_a_unit_problem_with_a_reference_of_several_modules_has_mutants_of_each(tmp_path: Path) -> None:
    reference = tmp_path / "shapes" / "solutions" / "accepted"
    reference.mkdir(parents=True)
    (reference / "shapes.py").write_text("def area(w, h):\n    return w * h if w > 0 else None\n")
    (reference / "util.py").write_text("def clamp(x):\n    return min(x, 10)\n")
    (tmp_path / "shapes" / "problem.yaml").write_text("kind: unit\nreference: solutions/accepted\n")
    suite = Suite.model_validate({"for": "shapes", "mutants": {"operators": ["compare", "constant"]}})
    made = mutants.candidates(tmp_path / "shapes", suite)
    assert sorted(m.name for m in made) == [
        "mutant: shapes.py line 2, -1 for 0",
        "mutant: shapes.py line 2, 1 for 0",
        "mutant: shapes.py line 2, >= for >",
        "mutant: util.py line 2, 11 for 10",
        "mutant: util.py line 2, 9 for 10",
    ]
