"""A tests problem on the web judge (kind: tests, docs/tests.md): its page is an editor of
tests in the form the problem under test takes, its submissions go the one submission path and
are judged by the workers' function, and what a hostile student sends is refused at the door
in one sentence, or earns nothing."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.author import scaffold
from judge.author.making import generate, write
from judge.grade import results
from judge.kinds.table import load_problem
from judge.problem.tables import TableStore
from judge.web.serving.app import Settings, create_app
from judge.web.state.store import Store
from judge.web.worker import judge_claim
from tests import needs
from tests.kinds.tests import problems
from tests.kinds.tests import test_unit_suite as unit
from tests.kinds.tests import test_unit_suite_junit as junit
from tests.test_cli import judge as judge_cli
from tests.web.test_app import zipped

BUGS = """  points_per_bug: 5
  max_tests: 3
  bugs:
    - {path: solutions/wrong_answer/empty_part.py, title: Empty part, hint: Every number negative?}
    - {path: solutions/run_time_error/crash_on_one.py}
"""
COUNT = BUGS + "  shows: count\n"
COURSE = """title: Testing
assignments:
  - id: w1
    title: Week 1
    problems: [sums-tests, sums-count]
    feedback: cases
  - id: w2
    title: Week 2
    problems: [maxf-tests]
    due: 2026-12-01 23:59
    late: {penalty_per_day: 10, until: 2099-12-31 23:59}
    max_submissions: 1
"""
THOROUGH = "== 01.in\n3\n-5 -1 -8\n\n== 02.in\n1\n7\n== 02.ans\n7\n"


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("suites") / "problems"
    root.mkdir()
    problems.make(root, "sums-tests", BUGS)
    problems.make(root, "sums-count", COUNT)
    scaffold.create(root, "maxf", "python3", kind="functions")
    problems.tests_of(root, "maxf-tests", "maxf", "[[-5, -1, -8]]\n")
    for pid in ("sums", "maxf", "sums-tests", "sums-count", "maxf-tests"):
        made = load_problem(root / pid)
        write(made, generate(made, TableStore()))
    (root.parent / "course.yaml").write_text(COURSE)
    return root


class Web:
    def __init__(self, root: Path, data: Path) -> None:
        self.root, self.store = root, Store(data)
        token = self.store.add_user("ada")
        settings = Settings(problems_dir=root, data_dir=data, result_step_s=0)
        self.client = TestClient(create_app(settings, start_workers=False), follow_redirects=False)
        assert self.client.post("/login", data={"user": "ada", "token": token}).status_code == 303

    def send(self, problem: str, text: str = "", upload: tuple[str, bytes] | None = None) -> tuple[int, str]:
        files = {"file": upload} if upload is not None else {"file": ("", b"")}
        reply = self.client.post(f"/problems/{problem}/submit", data={"source": text}, files=files)
        return reply.status_code, reply.headers.get("location", "") or html.unescape(reply.text)

    def judge_next(self) -> results.GradeRecord:
        """The next queued submission judged as a web worker judges it, and its result stored."""
        claim = self.store.claim(worker=1)
        assert claim is not None
        record = judge_claim(claim, load_problem(self.root / claim.problem), self.store)
        assert record is not None
        self.store.finish(claim, record)
        return record


@pytest.fixture
def web(root: Path, tmp_path: Path) -> Web:
    return Web(root, tmp_path / "data")


def test_the_page_is_an_editor_of_tests_in_the_form_the_problem_under_test_takes(web: Web) -> None:
    page = web.client.get("/problems/sums-tests").text
    assert 'id="tests-form"' in page and '<textarea id="source" name="source"' in page
    assert "== 01.in\n</textarea>" in page and "at most 3 tests of at most 65536 bytes each" in page
    assert "/static/tests.js" in page and "/static/problem.js" not in page and 'id="language"' not in page
    assert 'id="tests-folder"' in page and 'id="tests-add"' in page  # rows and a folder, with scripts
    calls = web.client.get("/problems/maxf-tests").text
    # A function's tests are calls: its signature shown, the calls file's empty form in the editor.
    assert 'id="tests-signature"' in calls and "def max_sum(xs: list[int]) -&gt; int:" in calls
    assert "# Calls of maxf, one a line" in calls and 'id="tests-folder"' not in calls
    # Nothing to Run: a crafted run of a program on a tests problem is refused, nothing queued.
    ran = web.client.post("/problems/sums-tests/run", data={"language": "python3", "source": "print(1)\n"})
    assert ran.status_code == 400 and "A tests problem has no Run" in ran.text
    assert 'id="run-samples"' not in page


@needs.mark("isolation", "python3")
def test_typed_tests_go_the_submission_path_and_are_judged_by_the_bugs_they_catch(web: Web) -> None:
    status, where = web.send("sums-tests", THOROUGH.replace("\n", "\r\n") + "== 03.in\n2 1\n")
    assert status == 303, where
    (row,) = web.store.of_student("ada")
    assert (row.language, row.filename) == ("tests", "tests.zip")
    record = web.judge_next()
    assert (record.verdict, record.score, record.max_score) == ("AC", 10.0, 10.0)
    page = web.client.get(where).text
    assert "Bugs caught: 2 of 2. Your tests: 2 of 3 valid" in page
    assert "caught by 01.in" in page and "rejected by the validator validate.py" in page
    # The student's own submissions list it, counted.
    assert "counts" in web.client.get("/problems/sums-tests").text


@needs.mark("isolation", "python3")
def test_a_functions_calls_are_one_file_and_catch_its_bugs(web: Web) -> None:
    status, where = web.send("maxf-tests", "# all negative\n[[-5, -1, -8]]\n[[1, 2, 3]] -> 6\n")
    assert status == 303, where
    (row,) = web.store.of_student("ada")
    assert row.filename == "tests.jsonl"
    record = web.judge_next()
    validity = [c.message for c in record.cases if c.group == "validity"]
    assert validity == ["valid", "valid"] and record.score > 0
    assert any(c.verdict == "AC" and c.message.startswith("caught by line-02") for c in record.cases)


def test_what_a_hostile_student_sends_is_refused_at_the_door_in_one_sentence(web: Web) -> None:
    bomb = zipped({"01.in": b"0" * (64 << 20)})  # 64 MiB of zeros in a few KiB
    assert len(bomb) < 64 * 1024
    refused = [
        ("", ("../x.in", b"3\n1 2 3\n"), 400, "looks like a path"),
        ("", ("tests.zip", zipped({"../x.in": b"1\n1\n"})), 400, "../x.in"),
        ("", ("tests.zip", zipped({"sub/../../x.in": b"1\n1\n"})), 400, "x.in"),
        ("", ("01.in", b"1\n" + b"9" * 70000), 413, "over the 64 KiB limit"),
        ("", ("tests.zip", bomb), 400, "unpacks to over"),
        ("", ("tests.zip", zipped({f"{n}.in": b"1\n1\n" for n in range(4)})), 400, "4 tests, over the cap of 3"),
        ("== 01.in\n1\n1\n== ../x.in\n1\n", None, 400, "line 4: '../x.in' is not a test's file name"),
        ("1\n1\n", None, 400, "your tests: line 1: a test starts with a line `== NAME.in`"),
        ("".join(f"== {n}.in\n1\n1\n" for n in range(4)), None, 400, "4 tests, over the cap of 3"),
        ("== 01.ans\n1\n", None, 400, "01.ans: no 01.in beside it"),
        ("", ("mine.jsonl", b"[[1, 2]]\n"), 400, "mine.jsonl: calls are for a function problem; sums reads NAME.in"),
    ]
    for text, upload, status, words in refused:
        got, body = web.send("sums-tests", text, upload)
        assert got == status and words in body, (upload[0] if upload else text, got, body[-400:])
        assert "Traceback" not in body
    assert web.store.of_student("ada") == []
    # The text sent is kept in the editor, beside the reason.
    _, body = web.send("sums-tests", "== 01.in\n1\n1\n== ../x.in\n1\n")
    assert "== ../x.in\n1\n</textarea>" in body and 'id="message" role="alert"' in body


@needs.mark("isolation", "python3")
def test_a_test_that_would_have_a_bug_read_files_earns_nothing(web: Web) -> None:
    """A bug gets the test on stdin, in a box of its own: a test naming files is text, which
    the validator refuses before any bug runs, and no file's content reaches the student."""
    status, _ = web.send("sums-tests", "== 01.in\n/etc/passwd\n== 02.in\n1\n../../suite/01.ans\n")
    assert status == 303
    record = web.judge_next()
    assert record.score == 0.0 and all(c.verdict != "AC" for c in record.cases)
    assert "root:" not in repr(record)


def finished(web: Web, problem: str, score: float, cases: tuple[results.CaseRecord, ...] = ()) -> int:
    """The queued submission finished with a record of this score out of 10 (no sandbox)."""
    claim = web.store.claim(worker=1)
    assert claim is not None and claim.problem == problem
    groups = tuple(results.GroupRecord(c.group, 5, 5 if c.verdict == "AC" else 0, 1, 1) for c in cases)
    verdict = "AC" if score == 10 else "WA"
    record = results.GradeRecord(
        "ada", problem, claim.filename, "tests", "h", verdict, score, 10.0, "", "bwrap", "", cases, groups
    )
    web.store.finish(claim, record)
    return claim.id


def test_tests_go_the_one_submission_path_late_and_quota_included(web: Web) -> None:
    status, _ = web.send("maxf-tests", "[[1, 2]]\n")
    assert status == 303
    finished(web, "maxf-tests", 10.0)
    # Late (due on 1 Dec; 10% a started day since), and counted so by the gradebook's rule.
    page = web.client.get("/problems/maxf-tests").text
    assert re.search(r'<td class="mark"><b>counts</b> late -\d+%</td>', page), page[page.find('id="mine"') :]
    status, said = web.send("maxf-tests", "[[1, 2]]\n")
    assert status == 429 and "No submissions left for maxf-tests: 1 of 1 used" in said


def test_a_count_names_no_bug_even_where_its_assignment_shows_cases(web: Web) -> None:
    """The spec's `shows: count` caps what any assignment shows: the count, never which bug."""
    web.store.submit("ada", "sums-count", "tests", "tests.zip", b"-")
    claim = web.store.claim(worker=1)
    assert claim is not None
    cases = (
        results.CaseRecord("validity/01", "validity", True, "AC", "valid", 0, 0, 0, None, 0),
        results.CaseRecord("bug-1/01", "bug-1", False, "AC", "caught by 01.in", 0, 0, 0, None, 0),
        results.CaseRecord("bug-2/01", "bug-2", False, "WA", "not caught", 0, 0, 0, None, 0),
    )
    groups = (
        results.GroupRecord("validity", 0, 0, 1, 1),
        results.GroupRecord("bug-1", 5, 5, 1, 1),
        results.GroupRecord("bug-2", 5, 0, 0, 1),
    )
    record = results.GradeRecord(
        "ada", "sums-count", "tests.zip", "tests", "h", "WA", 5.0, 10.0, "", "bwrap", "", cases, groups
    )
    web.store.finish(claim, record)
    page = web.client.get(f"/submissions/{claim.id}").text
    assert "Bugs caught: 1 of 2." in page and "feedback level verdict" in page
    assert "bug-1" not in page and "bug-2" not in page and "caught by" not in page
    shown = web.client.get(f"/api/submissions/{claim.id}").json()
    assert "bug-1" not in repr(shown) and shown["feedback"] == "verdict"


@pytest.fixture(scope="module")
def unit_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """stack (a unit problem, two bugs) and stack-tests, a tests problem of it."""
    root = tmp_path_factory.mktemp("unit-suites") / "problems"
    root.mkdir()
    problems.unit_of(root, unit.SPEC + "  shows: names\n", unit.THOROUGH.rsplit("\n\n\ndef test_wrong", 1)[0] + "\n")
    return root


@pytest.fixture
def unit_web(unit_root: Path, tmp_path: Path) -> Web:
    return Web(unit_root, tmp_path / "data")


def test_a_unit_problems_page_is_an_editor_of_one_pytest_file(unit_web: Web) -> None:
    page = unit_web.client.get("/problems/stack-tests").text
    assert "== test_mine.py\n</textarea>" in page and "pytest files (<code>test_NAME.py</code>)" in page
    assert 'id="tests-rows"' not in page and "one <code>test_NAME.py</code>, or a .zip" in page


@needs.mark("isolation", "pytest")
def test_a_typed_pytest_file_is_judged_by_the_bugs_it_catches(unit_web: Web) -> None:
    status, where = unit_web.send("stack-tests", "== test_mine.py\r\n" + unit.THOROUGH.replace("\n", "\r\n"))
    assert status == 303, where
    (row,) = unit_web.store.of_student("ada")
    assert (row.language, row.filename) == ("tests", "test_mine.py")
    record = unit_web.judge_next()
    assert (record.score, record.max_score) == (10.0, 10.0)
    page = unit_web.client.get(where).text
    assert "Bugs caught: 2 of 2. Your tests: 3 of 4 valid" in page
    # At the spec's `shows: names`: which test caught each bug, and why the invalid one is.
    assert "caught by test_mine-test_pop_gives_the_last_pushed" in page and "fails on the reference (WA)" in page


def refuses(web: Web, problem: str, refused: list[tuple[str, tuple[str, bytes] | None, str]]) -> None:
    """Each (text, upload) refused at the door in one line holding its words; nothing queued."""
    for text, upload, words in refused:
        got, body = web.send(problem, text, upload)
        assert got == 400 and words in body, (upload[0] if upload else text, got, body[-400:])
        assert "Traceback" not in body and "\n" not in body[body.find('role="alert">') :].split("</p>")[0]
    assert web.store.of_student("ada") == []


def test_a_unit_problems_door_refuses_other_files_in_one_line(unit_web: Web) -> None:
    refused = [
        ("", ("mine.py", b"def test_x():\n    pass\n"), "mine.py: not a pytest file of tests"),
        ("", ("conftest.py", b"x = 1\n"), "conftest.py: not a pytest file of tests"),
        ("== helper.py\nx = 1\n", None, "helper.py: not a pytest file of tests"),
        ("== test_a.py\ndef test_x(:\n", None, "test_a.py:1"),
        ("import stack\n", None, "line 1: a file starts with a line `== test_NAME.py`"),
        ("== test_a.py\nx = 1\n== test_a.py\n", None, "line 3: test_a.py is there twice"),
        # A typed name with a path, even one file alone, is refused, never renamed.
        ("== ../test_x.py\ndef test_x():\n    pass\n", None, "line 1: ../test_x.py: not a pytest file of tests"),
    ]
    refuses(unit_web, "stack-tests", refused)


def earns_nothing(web: Web, problem: str, upload: tuple[str, bytes]) -> str:
    """The upload queued, judged and scoring nothing, no case passed; its result page."""
    status, where = web.send(problem, upload=upload)
    assert status == 303, where
    record = web.judge_next()
    assert record.score == 0.0 and all(c.verdict != "AC" for c in record.cases)
    return web.client.get(where).text


@needs.mark("isolation", "pytest")
def test_an_uploaded_hostile_pytest_file_earns_nothing_and_sees_no_source(unit_web: Web) -> None:
    """Its tests pass only by reading the reference's source through the module (its dunders,
    its functions' globals, inspect, open, the file system): each fails there, invalid."""
    page = earns_nothing(unit_web, "stack-tests", ("test_mine.py", unit.HOSTILE.encode()))
    assert "Bugs caught: 0 of 2. Your tests: 0 of 8 valid" in page
    assert "self._items" not in page and "def peek" not in page


@pytest.fixture(scope="module")
def junit_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """jstack (a JUnit problem, two bugs) and jstack-tests, a tests problem of it."""
    root = tmp_path_factory.mktemp("junit-suites") / "problems"
    root.mkdir()
    scaffold.create(root, "jstack", "java", kind="unit")
    problems.tests_of(root, "jstack-tests", "jstack", "")
    return root


def test_a_junit_problems_page_takes_test_classes_and_its_door_refuses_other_files_in_one_line(
    junit_root: Path, tmp_path: Path
) -> None:
    """The editor starts a NAMETest.java; a file of another name, a pytest file or a class of
    no test is refused before it is queued, no submission spent; a test class is queued."""
    web = Web(junit_root, tmp_path / "data")
    page = web.client.get("/problems/jstack-tests").text
    assert "== MineTest.java\n</textarea>" in page and "JUnit 5 classes (<code>NAMETest.java</code>" in page
    assert "one <code>NAMETest.java</code>, or a .zip" in page
    refused = [
        ("", ("Stack.java", b"public class Stack {}\n"), "Stack.java: not a JUnit test class"),
        ("== test_mine.py\ndef test_x():\n    pass\n", None, "test_mine.py: not a JUnit test class"),
        ("", ("JudgeTests.java", b"class JudgeTests {}\n"), "JudgeTests.java: not a JUnit test class"),
        ("== MineTest.java\nclass MineTest {}\n", None, "no tests (@Test methods"),
        ("class MineTest {}\n", None, "line 1: a file starts with a line `== NAMETest.java`"),
    ]
    refuses(web, "jstack-tests", refused)
    status, where = web.send("jstack-tests", "== MineTest.java\n" + junit.THOROUGH)
    assert status == 303, where
    (row,) = web.store.of_student("ada")
    assert (row.language, row.filename) == ("tests", "MineTest.java")


@needs.mark("isolation", "junit")
@pytest.mark.slow  # JVMs end to end: make test-slow
def test_an_uploaded_junit_class_is_judged_and_a_hostile_one_earns_nothing(junit_root: Path, tmp_path: Path) -> None:
    web = Web(junit_root, tmp_path / "data")
    for made in ("jstack", "jstack-tests"):
        assert judge_cli("--problems", str(junit_root), "gen", made).returncode == 0
    status, where = web.send("jstack-tests", "== MineTest.java\n" + junit.THOROUGH)
    assert status == 303, where
    record = web.judge_next()
    assert record.score == record.max_score > 0, record
    page = earns_nothing(web, "jstack-tests", ("StackTest.java", junit.HOSTILE.encode()))
    assert "Bugs caught: 0 of 2. Your tests: 0 of 10 valid" in page
    assert "items.remove" not in page and "A stack on an ArrayList" not in page
