"""The pure figures of many submissions: filters, pass rates per case, verdicts, histogram."""

from __future__ import annotations

from judge.grade.results import CaseRecord, GradeRecord
from judge.web import insight
from judge.web.insight import Filter
from judge.web.state.people import Person
from judge.web.state.store import SubmissionRow


def row(id_: int, student: str, problem: str, verdict: str | None, score: float = 0.0) -> SubmissionRow:
    status = "done" if verdict else "queued"
    return SubmissionRow(id_, student, problem, "python3", "a.py", 1.0, status, 0, 0, 0, 0, verdict, score, 100.0)


def graded(verdicts: dict[str, str]) -> GradeRecord:
    cases = tuple(CaseRecord(n, "secret", False, v, "", 0.1, 0.1, 1000, None, 0) for n, v in verdicts.items())
    return GradeRecord("s", "p", "a.py", "python3", "h", "WA", 0.0, 100.0, "", "bwrap", "", cases, ())


def test_each_filter_keeps_what_it_names() -> None:
    rows = [row(1, "ada", "p", "AC", 100), row(2, "bo", "p", "WA"), row(3, "ada", "q", None), row(4, "cy", "q", "WA")]
    marks = {2: "late -10%", 4: "after the deadline: not counted"}
    people = {"ada": Person("ada", "student", "Ada Lovelace"), "cy": Person("cy", "student", "Cyrus")}

    def ids(how: Filter) -> list[int]:
        return [r.id for r in insight.filtered(rows, how, marks, people)]

    assert ids(Filter()) == [1, 2, 3, 4]
    assert ids(Filter(problem="q")) == [3, 4]
    assert ids(Filter(verdict="WA")) == [2, 4] and ids(Filter(verdict="pending")) == [3]
    assert ids(Filter(student="LOVE")) == [1, 3] and ids(Filter(student="bo")) == [2]
    assert ids(Filter(late="late")) == [2, 4] and ids(Filter(late="on-time")) == [1, 3]
    assert ids(Filter(problem="q", verdict="WA", late="late")) == [4]


def test_a_filter_reads_a_query_and_its_links_keep_the_others() -> None:
    how = Filter.of({"problem": " p ", "verdict": "WA", "late": "sometimes", "student": ""})
    assert how == Filter(problem="p", verdict="WA") and how.active and not Filter().active
    assert how.query(verdict="AC") == "?problem=p&verdict=AC"
    assert how.query(problem="a b&c") == "?problem=a+b%26c&verdict=WA" and Filter().query() == ""


def test_a_problems_figures() -> None:
    rows = [
        row(1, "ada", "p", "WA", 50),
        row(2, "ada", "p", "AC", 100),
        row(3, "bo", "p", "WA", 0),
        row(4, "cy", "p", "TLE", 95),
        row(5, "cy", "q", "AC", 100),
        row(6, "dee", "p", None),
    ]
    records = [graded({"1": "AC", "2": "AC"}), graded({"1": "AC", "2": "WA"}), graded({"1": "WA", "2": "TLE"})]
    stats = insight.problem_stats("p", rows, records)
    assert (stats.submissions, stats.students, stats.solved) == (4, 3, 1)
    assert stats.verdicts == (("WA", 2), ("AC", 1), ("TLE", 1))
    assert [(c.name, c.passed, c.judged) for c in stats.cases] == [("1", 2, 3), ("2", 1, 3)]
    # Best scores: ada 100, bo 0, cy 95: bars 0-10% and 90-100% (a full score in the last).
    assert [b.count for b in stats.histogram] == [1, 0, 0, 0, 0, 0, 0, 0, 0, 2] and stats.tallest == 2
