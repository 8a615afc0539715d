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
from tests import needs
from tests.kinds.tests import problems

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
