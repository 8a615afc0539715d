"""A tests problem's form and door (a kind that takes data: docs/tests.md): the editor of a
student's tests in the form the problem under test takes (files NAME.in and NAME.ans, or a
function's calls), and what the form sent made into one upload, read by the kind's own rules
before it is queued, as a program is read by run/sources.py's at the door."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import UploadFile

from judge.errors import JudgeError
from judge.grade.results import GradeRecord
from judge.kinds import table as kinds
from judge.kinds.tests import unit_suite
from judge.kinds.tests.scoring import VALIDITY
from judge.kinds.tests.suite import CALLS
from judge.problem.spec import Problem
from judge.web import suitetext
from judge.web.routes.door import read_upload
from judge.web.routes.site import Site, WebError

FIRST_TEST = "== 01.in\n"  # an empty editor's text: where the first test goes
# A unit problem's: one pytest file (or JUnit class), named by its header line as a test's file is.
FIRST_FILE = "== test_mine.py\n"
FIRST_CLASS = "== MineTest.java\n"
PYTEST_NAME, JUNIT_NAME = "test_NAME.py", "NAMETest.java"  # how the page names a file of tests


@dataclass(frozen=True)
class TestsForm:
    """What the tests page shows beside its editor."""

    under: str  # the problem under test's id
    calls: bool  # its tests are a function's calls, one NAME.jsonl, not files
    unit: bool  # its tests are pytest files test_NAME.py (the problem under test is a unit problem)
    max_tests: int
    max_test_bytes: int
    text: str  # the editor's text: kept after a refusal, else the empty editor's
    signature: str  # a function's starter file (its signature), "" for a program that reads its input
    signature_name: str
    junit: bool = False  # a unit problem's tests are JUnit classes NAMETest.java, not pytest files


def under_test(site: Site, problem: Problem) -> Problem:
    """The problem under test: as served when the site serves it, else loaded from its folder."""
    assert problem.spec.tests is not None
    served = site.problems.get(problem.spec.tests.of)
    if served is not None:
        return served
    where = kinds.of(problem).under_test(problem)
    assert where is not None
    return kinds.load_problem(where)


def _calls_starter(target: Problem) -> str:
    """The empty calls file: what a line is, in comments (a `#` line is skipped)."""
    return (
        f"# Calls of {target.id}, one a line: its arguments as a JSON list, then optionally -> and the value\n"
        "# expected (the reference's is used when you give none). For example:\n# [[1, 2, 3]] -> 6\n"
    )


def form_of(site: Site, problem: Problem, kept: str, refused: bool) -> TestsForm | None:
    """The page's form for a problem of a kind that takes data (None for any other); `kept` the
    text sent when a submission was `refused`."""
    spec = problem.spec.tests
    if not kinds.of(problem).takes_data or spec is None:
        return None
    target = under_test(site, problem)
    calls = target.spec.signature is not None
    signature, signature_name = "", ""
    if calls and "python3" in kinds.of(target).starter_languages(target):
        try:
            signature_name, signature = kinds.of(target).starter_file(target, "python3")
        except JudgeError:
            signature_name, signature = "", ""
    unit = target.spec.unit is not None
    junit = _junit(target)
    first = FIRST_CLASS if junit else FIRST_FILE
    text = kept if refused else (_calls_starter(target) if calls else first if unit else FIRST_TEST)
    return TestsForm(spec.of, calls, unit, spec.max_tests, spec.max_test_bytes, text, signature, signature_name, junit)


def _junit(target: Problem) -> bool:
    return target.spec.unit is not None and target.spec.unit.framework == "junit5"


def upload_of(site: Site, problem: Problem, file: UploadFile | None, text: str, back: str) -> tuple[str, bytes]:
    """The tests sent as one upload (a file, or the editor's text made into tests.zip or, for a
    function's calls, tests.jsonl), refused in one sentence naming the file unless the kind reads
    it as tests within the spec's caps: what is refused here is never queued."""
    limit = site.settings.max_source_bytes
    if file is not None and file.filename:
        name, data = read_upload(site, file, "", back)
        if name.endswith(CALLS) and under_test(site, problem).spec.signature is None:
            # Else read as calls and judged, each line an input its validator refuses: a submission spent.
            target = problem.spec.tests.of if problem.spec.tests is not None else "the problem under test"
            raise WebError(400, f"{name}: calls are for a function problem; {target} reads NAME.in files.", back)
    else:
        name, data = _typed(site, problem, text, back)
    if len(data) > limit:
        raise WebError(413, f"Your tests are over the {limit // 1024} KiB limit of a submission.", back)
    try:
        kinds.of(problem).read_data(problem, (name, data))
    except JudgeError as err:
        raise WebError(400, f"{err}.", back, "Back to the form") from None
    return name, data


def _typed(site: Site, problem: Problem, text: str, back: str) -> tuple[str, bytes]:
    text = text.replace("\r\n", "\n")
    target = under_test(site, problem)
    if target.spec.signature is not None:
        return suitetext.CALLS_NAME, text.encode("utf-8")
    if target.spec.unit is not None:
        return _typed_files(text, back, target)
    try:
        files = suitetext.parse(text)
    except JudgeError as err:
        raise WebError(400, f"{err}.", back, "Back to the form") from None
    return suitetext.ZIP_NAME, suitetext.pack(files)


def _typed_files(text: str, back: str, target: Problem) -> tuple[str, bytes]:
    """A unit problem's typed pytest files (or JUnit classes), each after a line `== test_NAME.py`:
    one file as itself, several as tests.zip, each name the kind's pattern (no path) or refused."""
    example = JUNIT_NAME if _junit(target) else PYTEST_NAME
    files: list[tuple[str, list[str]]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        header = suitetext.HEADER.match(line)
        if header is not None:
            refused = unit_suite.name_refused(header.group(1), "junit5" if _junit(target) else "pytest")
            if refused:
                raise WebError(400, f"{suitetext.SHOWN}: line {number}: {header.group(1)}: {refused}.", back)
            if any(header.group(1) == seen for seen, _ in files):
                raise WebError(400, f"{suitetext.SHOWN}: line {number}: {header.group(1)} is there twice.", back)
            files.append((header.group(1), []))
        elif files:
            files[-1][1].append(line)
        elif line.strip():
            raise WebError(400, f"{suitetext.SHOWN}: line {number}: a file starts with a line `== {example}`.", back)
    if not files:
        raise WebError(400, f"{suitetext.SHOWN}: no file (a line `== {example}`, then its tests).", back)
    bodies = [(name, "\n".join(lines).rstrip("\n") + "\n") for name, lines in files]
    if len(bodies) == 1:
        return bodies[0][0], bodies[0][1].encode("utf-8")
    return suitetext.ZIP_NAME, suitetext.pack(bodies)


def caught_line(problem: Problem | None, record: GradeRecord) -> str:
    """A judged suite in one line: how many bugs its tests caught, how many of them were valid
    ("" for any other problem, or a suite not judged). The count is the score's, at every level."""
    if problem is None or not kinds.of(problem).takes_data or record.verdict in ("NG", "IE"):
        return ""
    mine = [c for c in record.cases if c.group == VALIDITY]
    bugs = [c for c in record.cases if c.group != VALIDITY]
    valid = sum(c.verdict == "AC" for c in mine)
    caught = sum(c.verdict == "AC" for c in bugs)
    return (
        f"Bugs caught: {caught} of {len(bugs)}. Your tests: {valid} of {len(mine)} valid"
        f"{' (an invalid one earns nothing: the cases below say why)' if valid < len(mine) else ''}."
    )
