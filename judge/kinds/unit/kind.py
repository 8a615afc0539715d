"""The unit-test kind: the teacher's own test files (pytest, unittest) judge a student's module,
a case per test, its points and visibility read from the files (found.py).

In `mode: apart` the tests run in a sandbox of their own and the student's module in the
submission's: each use the tests make of it crosses over as a request (pairs.py,
bridge_tests.py, bridge_student.py). What a test concluded is decided where the student's code
cannot reach, so no output, exit or patch of the student's can pass a test for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.errors import JudgeError
from judge.kinds.base import CaseJob, CaseRun, Kind, Starter
from judge.kinds.unit import found, listing, pairs, spec_part
from judge.run.sources import Sources
from judge.run.verdicts import CaseVerdict, Verdict

if TYPE_CHECKING:
    from pathlib import Path

    from judge.problem.spec import Finding, Problem, ProblemSpec, Unit
    from judge.problem.yamlpos import Located

LANGUAGES = ("python3", "pypy3")
PRINTED_SHOWN = 300


def _unit(problem: Problem) -> Unit:
    assert problem.spec.unit is not None  # the spec's loader requires it of this kind
    return problem.spec.unit


class UnitTests(Kind):
    name = "unit"
    summary = "the teacher's test files (`unit`) run against the student's code, a case per test"
    solves = False  # a test's answer is its passing: the reference must pass every one
    explains = False  # no input to make smaller
    own_sandboxes = True
    reference_check = "reference passes every test"
    spec_keys = ("unit",)
    in_packages = False  # no test files as cases in ICPC packages

    def spec_issues(self, directory: Path, spec: ProblemSpec) -> list[Finding]:
        return spec_part.issues(directory, spec)

    def complete_spec(self, directory: Path, spec: ProblemSpec, located: Located) -> ProblemSpec:
        return spec_part.completed(directory, spec, located)

    def program(self, problem: Problem, sources: Sources) -> Sources:
        """The student's side: the judge's bridge as the entry, beside the student's files
        under the names the problem asks for; together, the tests and their runner too."""
        files = dict(self._student_files(problem, sources) or sources.files)
        unit = _unit(problem)
        # Nothing is compiled at build: the student's module is imported (Python) or compiled
        # (Java, by the judge's runner) by the process that runs the tests, which reports an
        # error there as a CE with its line. A syntax check at build was a sandbox of its own.
        language = sources.language.model_copy(update={"compile": None})
        if unit.runs == "apart" and unit.framework == "junit5":
            # The student's classes alone: the judge's JudgeStudent (kit.py) compiles and serves them.
            return Sources(sources.path, language, tuple(sorted(files.items())), "", "JudgeStudent", single=False)
        if unit.runs == "apart":
            files["main.py"] = pairs.bridge(pairs.STUDENT_ENTRY).encode()
            return Sources(sources.path, language, tuple(sorted(files.items())), "main.py", "Main", single=False)
        folder = problem.directory / unit.tests
        shared = {
            path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts
        }
        if unit.framework == "junit5":
            # The student's classes and the tests, compiled by the judge's runner in the JVM that
            # then runs them (pairs.py, kit.py): nothing is compiled at build.
            files = {**shared, **files}
            return Sources(sources.path, language, tuple(sorted(files.items())), "", "JudgeRunner", single=False)
        shared.update({name: text.encode() for name, text in pairs.support_files().items()})
        # The student's files keep their names; the tests' may not replace them.
        files = {**shared, **files, "main.py": pairs.bridge(pairs.TOGETHER_ENTRY).encode()}
        return Sources(sources.path, language, tuple(sorted(files.items())), "main.py", "Main", single=False)

    @staticmethod
    def _student_files(problem: Problem, sources: Sources) -> list[tuple[str, bytes]] | None:
        """The submission's files under their names: one file takes the one name asked for."""
        wanted = _unit(problem).student_files
        if sources.single and len(wanted) == 1:
            return [(wanted[0], sources.files[0][1])]
        return None if not sources.single else []

    def compile_check(self, problem: Problem, sources: Sources) -> str:
        unit = _unit(problem)
        wanted = unit.student_files
        offered = ("java",) if unit.framework == "junit5" else LANGUAGES
        if sources.language.id not in offered:
            what = "Java's" if unit.framework == "junit5" else "Python's"
            return f"this problem's tests are {what}: submit {', '.join(wanted)} (not {sources.language.name})"
        if sources.single and len(wanted) > 1:
            return f"this problem asks for {len(wanted)} files ({', '.join(wanted)}): submit a folder or a zip of them"
        names = {name for name, _ in self._student_files(problem, sources) or sources.files}
        missing = [name for name in wanted if name not in names]
        if missing:
            return f"missing {', '.join(missing)} (this problem asks for {', '.join(wanted)})"
        return ""

    def test_titles(self, problem: Problem) -> dict[str, str]:
        """Each test's group by its title (@number and @name, else a readable name from its
        function), in the order of their numbers (tests without one after, as found)."""
        unit = _unit(problem)
        try:
            tests = listing.unit_tests(
                problem.directory / unit.tests, unit.default_points, found.per_test_table(unit.per_test), unit.framework
            )
        except listing.ListingError:
            return {}
        taken: set[str] = set()
        named = [(found.group_name(t.id, taken), found.title_of(t)) for t in tests if not t.skipped]
        return dict(sorted(named, key=lambda pair: found.title_order(pair[1])))

    def public_files(self, problem: Problem) -> list[tuple[str, str]]:
        """The test files under public/ whose every test is public: students read them whole.
        A test its decorator (or the spec) hides keeps its file unshown, the decorator winning
        over the folder; a file that cannot be read is not shown."""
        unit = _unit(problem)
        folder = problem.directory / unit.tests
        try:
            tests = listing.unit_tests(folder, unit.default_points, found.per_test_table(unit.per_test), unit.framework)
        except listing.ListingError:
            return []
        hidden = {test.file for test in tests if not test.public}
        return [
            (name, path.read_text(encoding="utf-8", errors="replace"))
            for path in listing.files_with_tests(folder / found.PUBLIC_FOLDER, unit.framework)
            if (name := path.relative_to(folder).as_posix()) not in hidden
        ]

    def verify_notes(self, problem: Problem) -> list[str]:
        unit = _unit(problem)
        try:
            tests = listing.unit_tests(
                problem.directory / unit.tests, unit.default_points, found.per_test_table(unit.per_test), unit.framework
            )
        except listing.ListingError:
            return []  # the spec's loader said why
        notes = []
        for test in tests:
            if test.leaderboard:
                notes.append(f"{test.id}: a Gradescope leaderboard column, which scores nothing: not a case")
            elif test.skipped:
                notes.append(f"{test.id}: skipped in its source, so not a case (a skip earns nothing)")
            elif test.partial:
                notes.append(
                    f"{test.id}: @partial_credit is given whole: {test.points:g} points when the test sets"
                    f" a score of {test.points:g}, none below it"
                )
        return notes

    def input_issues(self, problem: Problem, text: str) -> list[str]:
        test = text.strip()
        known = {(case.input or "").strip() for group in problem.spec.groups for case in group.cases or ()}
        return [] if test in known else [f"{test!r} is not a test of the problem's files"]

    def judge_case(self, job: CaseJob) -> CaseRun:
        """The test named by the case's input, run with the rest of its file (pairs.py): two
        sandboxes of their own, not the submission's session (whose one run at a time cannot
        hold the dialogue)."""
        test_id = job.case[0].read_text(encoding="utf-8").strip()
        found = pairs.result_of(job.problem, job.launch, job.where, test_id, job.limits)
        decided = found.decided
        printed = found.run.stdout.decode("utf-8", errors="replace")
        if printed.strip() and decided.verdict is not Verdict.AC:
            # What the student's code printed in the test: beside the message, shown where the
            # case's message is (public tests; never a secret one's, feedback.py).
            shown = printed if len(printed) <= PRINTED_SHOWN else printed[:PRINTED_SHOWN] + "..."
            decided = CaseVerdict(decided.verdict, f"{decided.message} (the student's code printed: {shown!r})")
        return CaseRun(found.run, decided, None, own_output=False)

    def starter_languages(self, problem: Problem) -> tuple[str, ...]:
        """The languages the tests take, where the problem names a starter file (`unit.starter`)."""
        unit = _unit(problem)
        if unit.starter is None:
            return ()
        return ("java",) if unit.framework == "junit5" else LANGUAGES

    def starter_file(self, problem: Problem, language: str) -> tuple[str, str]:
        """(file name, text) of the problem's starter file: the same file in each language it takes."""
        unit = _unit(problem)
        if unit.starter is None:
            raise JudgeError(f"{problem.spec_path}: this unit-test problem names no starter file (unit.starter)")
        if language not in self.starter_languages(problem):
            what = "Java's" if unit.framework == "junit5" else "Python's"
            raise JudgeError(f"{problem.spec_path}: {language!r}: this problem's tests are {what}")
        path = problem.directory / unit.starter
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise JudgeError(f"{path}: cannot read the starter file ({err.__class__.__name__})") from None
        return path.name, text

    def starter(self, own: str, other: str, shape: str = "") -> Starter:
        if own == "java":
            return Starter(
                "A Stack, Tested",
                (
                    ("unit/java/problem.yaml.j2", "problem.yaml"),
                    ("unit/java/statement.md.j2", "statement.md"),
                    ("unit/java/StackTest.java.j2", "unit/public/StackTest.java"),
                    ("unit/java/StackMoreTest.java.j2", "unit/secret/StackMoreTest.java"),
                    ("unit/java/ref.java.j2", "solutions/accepted/Stack.java"),
                    ("unit/java/wrong.java.j2", "solutions/wrong_answer/Stack.java"),
                    ("unit/java/raises.java.j2", "solutions/run_time_error/Stack.java"),
                    ("unit/java/starter.java.j2", "starter/Stack.java"),
                ),
            )
        return Starter(
            "A Stack, Tested",
            (
                ("unit/problem.yaml.j2", "problem.yaml"),
                ("unit/statement.md.j2", "statement.md"),
                ("unit/test_public.py.j2", "unit/public/test_stack.py"),
                ("unit/test_secret.py.j2", "unit/secret/test_stack_more.py"),
                ("unit/ref.py.j2", "solutions/accepted/stack.py"),
                ("unit/wrong.py.j2", "solutions/wrong_answer/stack.py"),
                ("unit/raises.py.j2", "solutions/run_time_error/stack.py"),
                ("unit/starter.py.j2", "starter/stack.py"),
            ),
        )
