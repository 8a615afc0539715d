"""The unit-test kind's part of problem.yaml: `unit:` (the teacher's test files), and the
groups the loader makes of them, a group per test found in the files."""

from __future__ import annotations

from pathlib import Path

from judge.kinds.unit import found, listing
from judge.problem import refs
from judge.problem.locate import SPEC_FILE
from judge.problem.spec import Case, Finding, Group, ProblemSpec, SpecError, SpecIssue, inside
from judge.problem.yamlpos import Located


def issues(directory: Path, spec: ProblemSpec) -> list[Finding]:
    """What a unit-test problem asks of its spec: its tests' folder, and no cases of its own
    (each test is one); the tests' files themselves are read once the spec is whole."""
    if spec.unit is None:
        return [(("kind",), "a unit-test problem needs `unit:` (framework, student_files, tests)")]
    said: list[Finding] = []
    if spec.groups:
        said.append((("groups",), "a unit-test problem's groups are its tests: leave `groups` out"))
    if spec.reference in refs.NAMES:
        said.append((("reference",), "a unit-test problem's reference is the files a student would submit"))
    if not inside(directory, spec.unit.tests):
        said.append((("unit", "tests"), f"{spec.unit.tests!r} points outside the problem folder"))
    elif not (directory / spec.unit.tests).is_dir():
        said.append((("unit", "tests"), f"folder not found: {spec.unit.tests}"))
    starter = spec.unit.starter
    if starter is not None:
        if not inside(directory, starter):
            said.append((("unit", "starter"), f"{starter!r} points outside the problem folder"))
        elif not (directory / starter).is_file():
            said.append((("unit", "starter"), f"file not found: {starter}"))
    return said


def completed(directory: Path, spec: ProblemSpec, located: Located) -> ProblemSpec:
    """A unit-test problem's spec with a group per test, found in its test files; SpecError
    naming the file and line of a test file that cannot be read."""
    assert spec.unit is not None
    table = found.per_test_table(spec.unit.per_test)
    try:
        tests = listing.unit_tests(directory / spec.unit.tests, spec.unit.default_points, table, spec.unit.framework)
    except listing.ListingError as err:
        raise SpecError([SpecIssue(err.path, err.line, "", str(err))]) from None
    unknown = sorted(set(spec.unit.per_test) - {t.id for t in tests})
    # A test the teacher skipped in the source is no case: a skip earns nothing (verify lists it).
    any_found = bool(tests)
    tests = [test for test in tests if not test.skipped]
    if not tests:
        line = located.line_of(("unit", "tests"))
        why = "every test in its files is skipped" if any_found else "no tests found in its files"
        raise SpecError([SpecIssue(directory / SPEC_FILE, line, "unit.tests:", why)])
    if unknown:
        line = located.line_of(("unit", "per_test", unknown[0]))
        message = f"no test {unknown[0]!r} in the test files"
        raise SpecError([SpecIssue(directory / SPEC_FILE, line, "unit.per_test:", message)])
    if spec.unit.runs == "together":
        # The student's code shares the process with the file it runs: a secret test in a
        # file with public ones could be read and raised from a public test, whose message
        # students see. The file's public tests need it, so such a file is refused.
        visibilities: dict[str, set[bool]] = {}
        for test in tests:
            visibilities.setdefault(test.file, set()).add(test.public)
        mixed = sorted(file for file, seen in visibilities.items() if len(seen) > 1)
        if mixed:
            why = (
                "holds public and secret tests, which mode together cannot keep apart"
                " (the student's code could read a secret one during a public one): move the secret ones to a file of their own"
            )
            raise SpecError([SpecIssue(directory / spec.unit.tests / mixed[0], 0, "", why)])
    taken: set[str] = set()
    groups = tuple(
        Group(
            name=listing.group_name(test.id, taken),
            visibility="public" if test.public else "secret",
            points=test.points,
            cases=(Case(input=test.id + "\n"),),
        )
        for test in tests
    )
    update: dict[str, object] = {"groups": groups}
    if spec.unit.per_test_time_s is not None:  # a test's time is the problem's time limit, per case
        update["limits"] = spec.limits.model_copy(update={"time_s": spec.unit.per_test_time_s})
    return spec.model_copy(update=update)
