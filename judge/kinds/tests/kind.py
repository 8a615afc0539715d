"""`kind: tests`: a student submits test cases for another problem (`tests: {for: ID}`), and
earns points for each known bug of that problem the valid ones catch (docs/tests.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from judge.kinds.base import CaseJob, CaseRun, DataCase, Kind, Starter
from judge.kinds.tests import matrix, mutants, scoring, suite
from judge.kinds.tests.unit_suite import framework_of, judged, read_bytes, unit_shown
from judge.problem.locate import SPEC_FILE
from judge.problem.spec import Case, Group, inside
from judge.run.verdicts import CaseVerdict, Verdict

if TYPE_CHECKING:
    from judge.kinds.base import Progress
    from judge.problem.spec import FeedbackLevel, Finding, Problem, ProblemSpec
    from judge.problem.yamlpos import Located


class Tests(Kind):
    name = "tests"
    summary = "a student submits test cases for another problem, scored by the known bugs they catch"
    solves = False
    explains = False
    in_packages = False
    takes_data = True
    spec_keys = ("tests",)
    reference_check = "the reference suite catches every bug"

    def under_test(self, problem: Problem) -> Path | None:
        assert problem.spec.tests is not None
        return problem.directory.parent / problem.spec.tests.of

    def spec_issues(self, directory: Path, spec: ProblemSpec) -> list[Finding]:
        if spec.tests is None:
            return [(("kind",), "a tests problem needs `tests:` (for: the id of the problem under test)")]
        said: list[Finding] = []
        if spec.groups:
            said.append((("groups",), "a tests problem's groups are its bugs: leave `groups` out"))
        target = directory.parent / spec.tests.of
        if spec.tests.of == spec.id:
            return [*said, (("tests", "for"), "a tests problem cannot test itself")]
        if not (target / SPEC_FILE).is_file():
            return [*said, (("tests", "for"), f"no problem {spec.tests.of!r} beside this one ({target})")]
        for index, bug in enumerate(spec.tests.bugs):
            if not inside(target, bug.path) or not (target / bug.path).exists():
                said.append((("tests", "bugs", index, "path"), f"no solution {bug.path!r} in {spec.tests.of}"))
        if not matrix.bugs_of(target, spec.tests) and spec.tests.mutants is None:
            said.append(
                (("tests",), f"{spec.tests.of} has no bugs: list them in `bugs`, or put solutions in its wrong_answer/")
            )
        return said

    def complete_spec(self, directory: Path, spec: ProblemSpec, located: Located) -> ProblemSpec:
        """A group per bug (its points, visible as `shows` says), and one of the student's tests."""
        assert spec.tests is not None
        bugs = mutants.bugs(directory.parent / spec.tests.of, spec.tests)
        points = scoring.bug_points(spec.tests, len(bugs))
        groups = [Group(name=scoring.VALIDITY, visibility="public", cases=(Case(input="the student's tests\n"),))]
        groups += [
            Group(
                name=name,
                visibility="secret" if scoring.secret(spec.tests, bug) else "public",
                points=points,
                cases=(Case(input=f"{name}\n"),),
            )
            for name, bug in zip(scoring.group_names(spec.tests, bugs), bugs, strict=True)
        ]
        update: dict[str, object] = {"groups": tuple(groups)}
        if spec.tests.shows == "count":  # a count: the score says how many, no group says which
            update["feedback"] = "verdict"
        return spec.model_copy(update=update)

    def most_shown(self, problem: Problem) -> FeedbackLevel | None:
        # A count: no assignment's level may say which bugs were caught (each bug a secret group).
        return "verdict" if problem.spec.tests is not None and problem.spec.tests.shows == "count" else None

    def public_files(self, problem: Problem) -> list[tuple[str, str]]:
        """In place of samples (the groups are the bugs, whose names are feedback, not a
        hand-out): what a submission is."""
        spec = problem.spec.tests
        assert spec is not None
        framework = framework_of(problem.directory.parent / spec.of)
        if framework is not None:
            return [("your tests", unit_shown(spec, framework))]
        said = (  # short lines: a page shows it as it is, in a box of its own
            f"Tests of {spec.of}: a folder or .zip of NAME.in files\n(NAME.ans beside each optional),\n"
            f"at most {spec.max_tests} tests of at most {spec.max_test_bytes} bytes each;\nfor a function problem,"
            " one NAME.jsonl of calls instead,\na line each: [args] -> expected.\n"
        )
        return [("your tests", said)]

    def read_data(self, problem: Problem, given: Path | tuple[str, bytes]) -> bytes:
        spec = problem.spec.tests
        assert spec is not None
        target = problem.directory.parent / spec.of
        framework = framework_of(target)
        if framework is not None:  # a student's pytest files or JUnit classes (unit_suite.py)
            mine = read_bytes(given, spec, framework)
        else:
            mine = b"".join(
                f"{t.name}\0{len(t.input)}\0".encode() + t.input + b"\0" + (t.answer or b"") + b"\0"
                for t in suite.read(given, spec)
            )
        # The bugs too (the problem under test's digest has its programs, not its solutions):
        # a bug changed or added judges every suite again.
        made = mutants.cached(target, spec)  # the mutants' names (their text follows from the reference)
        kept = "\0".join(m.name for m in made.kept) if made is not None else ""
        return mine + matrix.bugs_digest(target, matrix.bugs_of(target, spec)).encode() + kept.encode()

    def judge_data(
        self, problem: Problem, target: Problem, kind: Kind, given: Path | tuple[str, bytes]
    ) -> tuple[DataCase, ...]:
        spec = problem.spec.tests
        assert spec is not None
        mutants.required(problem, target.directory)
        bugs = mutants.bugs(target.directory, spec)
        if target.spec.unit is not None:  # a student's own pytest files against its modules
            return judged(spec, bugs, target, kind, given)
        tests = suite.read(given, spec)
        checked, runs = matrix.judge_tests(bugs, target, kind, tests)
        return scoring.rows(spec, bugs, checked, runs)

    def prepare_data(
        self, problem: Problem, target: Problem, kind: Kind, jobs: int, progress: Progress | None = None
    ) -> str:
        spec = problem.spec.tests
        if spec is None or spec.mutants is None:
            return ""
        return mutants.make(target, kind, spec, jobs, progress).said

    def judge_case(self, job: CaseJob) -> CaseRun:
        # Never asked: a tests problem's submissions are judged whole (judge_data).
        return CaseRun(None, CaseVerdict(Verdict.IE, "a tests problem's cases are judged by judge_data"))

    def starter(self, own: str, other: str, shape: str = "") -> Starter:
        # suite/ gets the public inputs of the problem under test (judge.author.scaffold).
        return Starter(
            "Tests of a Problem", (("tests/problem.yaml.j2", "problem.yaml"), ("tests/statement.md.j2", "statement.md"))
        )
