"""`kind: tests` through the judge's one way of judging (judging.identify and judge): a
student's tests validated, run on each bug in the sandbox, scored; hostile suites earn nothing
they did not catch."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.grade import judging, results
from judge.kinds import table as kinds
from judge.problem.spec import SpecError
from tests import needs
from tests.kinds.tests import problems

pytestmark = needs.mark("isolation", "python3")

FAST_BUGS = """  points_per_bug: 5
  bugs:
    - {path: solutions/wrong_answer/empty_part.py, title: Empty part, hint: Every number negative?}
    - {path: solutions/run_time_error/crash_on_one.py, hint: The shortest input}
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("problems")
    problems.make(root, "sums-tests", FAST_BUGS)
    return root


def judged(root: Path, tests: dict[str, str], name: str) -> results.GradeRecord:
    problem = kinds.load_problem(root / "sums-tests")
    folder = problems.write_tests(root / "students" / name, tests)
    return judging.judge(judging.identify(problem, folder, name))


def by_group(record: results.GradeRecord) -> dict[str, tuple[str, str]]:
    return {c.group: (c.verdict, c.message) for c in record.cases if c.group != "validity"}


def test_a_thorough_suite_catches_every_bug_and_a_hostile_one_nothing(root: Path) -> None:
    thorough = judged(root, {"01.in": "3\n-5 -1 -8\n", "02.in": "1\n7\n", "02.ans": "7\n"}, "thorough")
    assert (thorough.verdict, thorough.score, thorough.max_score) == ("AC", 10.0, 10.0)
    assert by_group(thorough) == {"empty-part": ("AC", "caught by 01.in"), "crash_on_one": ("AC", "caught by 02.in")}
    # Its expected answer copied from the bug's output (0), and an input the validator refuses:
    # neither is run on a bug, and what the bug would fail on earns nothing.
    hostile = judged(
        root,
        {"01.in": "3\n-5 -1 -8\n", "01.ans": "0\n", "02.in": "1 7\n", "03.in": "2\n1 2\n"},
        "hostile",
    )
    assert hostile.score == 0.0 and hostile.verdict == "WA"
    validity = {
        c.name.removeprefix("validity/"): (c.verdict, c.message) for c in hostile.cases if c.group == "validity"
    }
    assert validity["01"] == ("NJ", "its expected answer is not the reference's (line 1)")
    assert validity["02"][0] == "NJ" and "rejected by the validator validate.py" in validity["02"][1]
    assert validity["03"] == ("AC", "valid")
    assert by_group(hostile)["empty-part"] == ("WA", "not caught")


def test_a_huge_test_is_refused_with_a_message_naming_it(root: Path) -> None:
    record = judged(root, {"01.in": "1\n" + "9" * 70000 + "\n"}, "huge")
    assert record.verdict == "NG" and record.score == 0.0
    assert "01.in" in record.error and "over the cap" in record.error


def test_the_spec_names_its_problem_under_test_and_bugs(tmp_path: Path) -> None:
    problems.make(tmp_path, "lost", "  bugs: [{path: solutions/wrong_answer/nothing.py}]\n")
    with pytest.raises(
        SpecError, match=r"tests.bugs\[0\].path: no solution 'solutions/wrong_answer/nothing.py' in sums"
    ):
        kinds.load_problem(tmp_path / "lost")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "problem.yaml").write_text(
        problems.TESTS_SPEC.format(id="other", extra="").replace("for: sums", "for: nowhere")
    )
    (tmp_path / "other" / "statement.md").write_text("x\n")
    (tmp_path / "other" / "suite").mkdir()
    with pytest.raises(JudgeError, match=r"tests\.for: no problem 'nowhere' beside this one"):
        kinds.load_problem(tmp_path / "other")


def test_judge_run_and_grade_report_the_bugs_caught(root: Path) -> None:
    from tests.test_cli import judge

    problems.write_tests(root / "class" / "ann" / "sums-tests", {"01.in": "3\n-5 -1 -8\n"})
    problems.write_tests(root / "class" / "eve" / "sums-tests", {"a.txt": "hi"})
    ran = judge("--problems", str(root), "run", "-p", "sums-tests", str(root / "class" / "ann" / "sums-tests"))
    assert "caught by 01.in" in ran.stdout and "score 5/10" in ran.stdout, ran.stdout + ran.stderr
    out = root / "reports"
    graded = judge("--problems", str(root), "grade", "-p", "sums-tests", "-o", str(out), str(root / "class"))
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert (out / "grades.csv").read_text().splitlines()[1:] == ["ann,5,5", "eve,0,0"]
    assert "a.txt: not a test file" in graded.stdout + graded.stderr


def test_verify_wants_the_reference_suite_to_catch_every_bug(root: Path) -> None:
    from judge.author import verify

    here = problems.make(root, "sums-verify", FAST_BUGS)
    (here / "solutions" / "wrong_answer" / "shallow").mkdir(parents=True)
    (here / "solutions" / "wrong_answer" / "shallow" / "01.in").write_text("2\n1 2\n")
    checks = verify.prepare(here).checks
    said = {c.name: c.failures for c in checks}
    assert said["the reference suite catches every bug"] == (f"{here / 'suite'}: crash_on_one: not caught",)
    assert said["example suites"] == ()  # the shallow suite catches none, as its folder says
    (here / "suite" / "02.in").write_text("1\n7\n")
    (here / "solutions" / "wrong_answer" / "shallow" / "02.in").write_text("1\n7\n")
    (here / "solutions" / "wrong_answer" / "shallow" / "03.in").write_text("3\n-5 -1 -8\n")
    said = {c.name: c.failures for c in verify.prepare(here).checks}
    assert said["the reference suite catches every bug"] == ()
    assert said["example suites"] == (
        f"{here / 'solutions' / 'wrong_answer' / 'shallow'}: catches every bug, though in wrong_answer/",
    )


def test_judge_new_makes_a_tests_problem_from_the_public_cases(root: Path) -> None:
    from judge.author import scaffold

    with pytest.raises(JudgeError, match=r"^--kind tests needs --for PROBLEM"):
        scaffold.create(root, "nothing-for", "python3", kind="tests")
    with pytest.raises(JudgeError, match=r"^--for names the problem under test of a tests problem, not a stdio one$"):
        scaffold.create(root, "stdio-for", "python3", subject="sums")
    samples = root / "sums" / "tests" / "samples"
    samples.mkdir(parents=True, exist_ok=True)
    (samples / "01.in").write_text("3\n-5 -1 -8\n")
    (samples / "01.ans").write_text("-1\n")
    made = scaffold.create(root, "sums-new", "python3", kind="tests", subject="sums")
    assert (made.directory / "suite" / "01.in").read_text() == "3\n-5 -1 -8\n"
    problem = kinds.load_problem(made.directory)
    assert problem.spec.tests is not None and problem.spec.tests.of == "sums"
    assert [g.name for g in problem.spec.groups][:2] == ["validity", "empty_part"]
    assert not (root / "nothing-for").exists() and not (root / "stdio-for").exists()


def test_a_function_problem_is_tested_by_calls_a_line_each(root: Path) -> None:
    from judge.author import scaffold

    scaffold.create(root, "maxfn", "python3", kind="functions")
    here = problems.tests_of(root, "maxfn-tests", "maxfn", "[[-5, -1, -8]]\n")
    problem = kinds.load_problem(here)
    calls = '[[1, 2, 3]] -> 6\n[[-5, -1, -8]]\n\n[[1, 2]] -> 4\n["x"]\n'
    folder = problems.write_tests(root / "students" / "calls", {"mine.jsonl": calls})
    record = judging.judge(judging.identify(problem, folder, "calls"))
    validity = {c.name: (c.verdict, c.message) for c in record.cases if c.group == "validity"}
    assert validity["validity/line-01"] == ("AC", "valid")
    assert validity["validity/line-02"] == ("AC", "valid")
    assert validity["validity/line-04"] == ("NJ", "its expected answer is not the reference's")
    assert validity["validity/line-05"][0] == "NJ"
    assert by_group(record) == {"off_by_one": ("AC", "caught by line-02.in"), "raises": ("AC", "caught by line-01.in")}
    assert (record.score, record.max_score) == (20.0, 20.0)
    broken = problems.write_tests(root / "students" / "broken", {"mine.jsonl": "[[1, 2] -> 3\n"})
    refused = judging.identify(problem, broken, "broken")
    assert refused.data is None and "mine.jsonl:1: not `[args] -> expected` in JSON" in refused.error


PEEK = """import glob, os, sys
sys.stdin.read()
# A bug that would pass every test if it could read the expected answer: beside its input
# (through /proc/self/fd/0), or anywhere it can look.
found = []
try:
    found.append(os.readlink("/proc/self/fd/0").rsplit(".", 1)[0] + ".ans")
except OSError:
    pass
for pattern in ("*.ans", "/tmp/**/*.ans", "/tmp/*/*.ans", "/proc/1/cwd/**/*.ans"):
    found += glob.glob(pattern, recursive=True)
for path in found:
    try:
        print(open(path).read().strip())  # noqa: SIM115
        break
    except OSError:
        continue
else:
    print(0)
"""


def test_a_bug_cannot_read_the_tests_expected_answers(root: Path) -> None:
    peek = root / "sums" / "solutions" / "wrong_answer" / "peek.py"
    peek.write_text(PEEK)
    try:
        problems.make(root, "sums-peek", "  bugs: [{path: solutions/wrong_answer/peek.py}]\n")
        problem = kinds.load_problem(root / "sums-peek")
        folder = problems.write_tests(root / "students" / "peeked", {"01.in": "1\n7\n", "01.ans": "7\n"})
        record = judging.judge(judging.identify(problem, folder, "peeked"))
    finally:
        peek.unlink()
    assert by_group(record) == {"peek": ("AC", "caught by 01.in")}


def test_a_suites_hash_moves_with_the_bugs_and_a_count_names_none(root: Path) -> None:
    problem = kinds.load_problem(root / "sums-tests")
    folder = problems.write_tests(root / "students" / "hashed", {"01.in": "1\n7\n"})
    before = judging.identify(problem, folder, "hashed").content_hash
    bug = root / "sums" / "solutions" / "run_time_error" / "crash_on_one.py"
    text = bug.read_text()
    bug.write_text(text + "# changed\n")
    try:
        assert judging.identify(problem, folder, "hashed").content_hash != before
    finally:
        bug.write_text(text)
    assert judging.identify(problem, folder, "hashed").content_hash == before
    problems.make(root, "sums-count", "  shows: count\n")
    counted = kinds.load_problem(root / "sums-count")
    assert counted.spec.feedback == "verdict"
    bugs = [g for g in counted.spec.groups if g.name != "validity"]
    assert [(g.name, g.visibility) for g in bugs][:2] == [("bug-1", "secret"), ("bug-2", "secret")]


@pytest.mark.slow
def test_every_default_bug_folder_is_caught_by_its_own_verdict(root: Path) -> None:
    """The default bugs (wrong_answer/, time_limit_exceeded/, run_time_error/), fraction scoring:
    a thorough suite catches the time limit too; one test of n = 2 only the printing bug."""
    problems.make(root, "sums-all", "  scoring: fraction\n  points: 60\n")
    problem = kinds.load_problem(root / "sums-all")
    thorough = {"01.in": "3\n-5 -1 -8\n", "02.in": "1\n7\n", "03.in": "6\n1 2 3 -1 -2 4\n"}
    folder = problems.write_tests(root / "students" / "all", thorough)
    record = judging.judge(judging.identify(problem, folder, "all"))
    assert (record.verdict, record.score, record.max_score) == ("AC", 60.0, 60.0)
    assert by_group(record)["forever_on_five"] == ("AC", "caught by 03.in")
    one = problems.write_tests(root / "students" / "one", {"01.in": "2\n1 2\n"})
    record = judging.judge(judging.identify(problem, one, "one"))
    assert record.score == 15.0
    assert [g for g, (verdict, _) in by_group(record).items() if verdict == "AC"] == ["first_only"]


def test_the_statement_pages_show_what_to_submit_not_the_bugs(root: Path) -> None:
    from judge.kinds import shown

    problem = kinds.load_problem(root / "sums-tests")
    samples = shown.samples(problem)
    assert [s.name for s in samples] == ["your tests"]
    assert "at most 20 tests" in samples[0].input
    assert not any("empty" in s.input.lower() or "crash" in s.input.lower() for s in samples)


def test_a_problem_whose_reference_makes_no_answers_cannot_be_under_test_yet(tmp_path: Path) -> None:
    """An interactive problem (its tests are dialogues) is refused in one line by judge new, and
    a tests problem written for it by hand by its judging (verify, grade), never a traceback (a
    unit problem takes a student's pytest files or JUnit classes: test_unit_suite*.py)."""
    from judge.author import scaffold
    from judge.author.making import generate, write
    from judge.grade.runner import judge_data
    from judge.problem.tables import TableStore

    scaffold.create(tmp_path, "guess", "python3", kind="interactive")
    made = kinds.load_problem(tmp_path / "guess")
    write(made, generate(made, TableStore()))
    refused = "a interactive problem cannot be under test yet: a student's test is an input whose answer its"
    with pytest.raises(JudgeError, match=r"^--for guess: " + refused):
        scaffold.create(tmp_path, "guess-tests", "python3", kind="tests", subject="guess")
    assert not (tmp_path / "guess-tests").exists()
    here = problems.tests_of(tmp_path, "by-hand", "guess", "anything\n")
    problem = kinds.load_problem(here)
    with pytest.raises(JudgeError, match=r"guess/problem.yaml: " + refused):
        judge_data(problem, "mine", ("01.in", b"anything\n"))
