"""What the teacher reads of many submissions at once (pure: rows in, figures out): the list of
every submission filtered by problem, verdict, student and lateness, and per problem the pass
rate of each case, the commonest verdicts and a histogram of scores."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from judge.grade.results import GradeRecord
from judge.web.state.people import Person
from judge.web.state.store import SubmissionRow

LATE_CHOICES = ("", "late", "on-time")  # any; late or after the deadline; on time
PENDING_VERDICT = "pending"  # the verdict filter's name for a submission not judged yet
BINS = 10  # the score histogram's bars: 0-10%, 10-20%, ..., 90-100% (100% in the last)


@dataclass(frozen=True)
class Filter:
    problem: str = ""
    verdict: str = ""
    student: str = ""  # an id, or a part of an id or a name, in any case
    late: str = ""  # one of LATE_CHOICES

    @classmethod
    def of(cls, query: Mapping[str, str]) -> Filter:
        """From a page's query; an unknown `late` reads as any (a hand-edited URL is no error)."""
        late = query.get("late", "").strip()
        return cls(
            query.get("problem", "").strip()[:64],
            query.get("verdict", "").strip()[:16],
            query.get("student", "").strip()[:64],
            late if late in LATE_CHOICES else "",
        )

    @property
    def active(self) -> bool:
        return any((self.problem, self.verdict, self.student, self.late))

    def query(self, **changed: str) -> str:
        """This filter as a query string ("" when none), with `changed` fields put in: the page's
        links keep the filters they do not change."""
        fields = {k: v for k, v in vars(replace(self, **changed)).items() if v}
        return "?" + urlencode(fields) if fields else ""

    def keeps(self, row: SubmissionRow, mark: str, person: Person | None) -> bool:
        if self.problem and row.problem != self.problem:
            return False
        if self.verdict and (PENDING_VERDICT if row.pending else row.verdict or "") != self.verdict:
            return False
        if self.student and not _matches(self.student, row.student, person):
            return False
        late = mark.startswith(("late", "after the deadline"))
        return not self.late or (self.late == "late") == late


def _matches(wanted: str, student: str, person: Person | None) -> bool:
    wanted = wanted.casefold()
    if wanted == student.casefold():
        return True
    return wanted in student.casefold() or (person is not None and wanted in person.name.casefold())


def filtered(
    rows: Iterable[SubmissionRow], how: Filter, marks: Mapping[int, str], people: Mapping[str, Person]
) -> list[SubmissionRow]:
    return [r for r in rows if how.keeps(r, marks.get(r.id, ""), people.get(r.student))]


# --- per problem ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseRate:
    name: str
    passed: int
    judged: int

    @property
    def percent(self) -> float:
        return 100.0 * self.passed / self.judged if self.judged else 0.0


@dataclass(frozen=True)
class Bar:
    low: float  # percent of the maximum score, this bar's lower end
    high: float
    count: int


@dataclass(frozen=True)
class ProblemStats:
    problem: str
    submissions: int  # judged ones
    students: int
    solved: int  # students with an AC
    verdicts: tuple[tuple[str, int], ...]  # commonest first
    cases: tuple[CaseRate, ...]  # in the cases' own order
    histogram: tuple[Bar, ...]  # of each student's best score

    @property
    def tallest(self) -> int:
        return max((b.count for b in self.histogram), default=0)


def histogram(fractions: Sequence[float]) -> tuple[Bar, ...]:
    """How many of `fractions` (0..1) fall in each tenth; a full score is in the last bar."""
    counts = [0] * BINS
    for value in fractions:
        counts[min(BINS - 1, max(0, int(value * BINS)))] += 1
    return tuple(Bar(100.0 * i / BINS, 100.0 * (i + 1) / BINS, n) for i, n in enumerate(counts))


def problem_stats(problem: str, rows: Sequence[SubmissionRow], records: Iterable[GradeRecord]) -> ProblemStats:
    """The figures of one problem from its judged submissions (`rows`) and their records."""
    judged = [r for r in rows if r.problem == problem and r.status == "done" and r.verdict is not None]
    verdicts = Counter(r.verdict or "" for r in judged)
    passed: dict[str, int] = {}
    seen: dict[str, int] = {}
    for record in records:
        for case in record.cases:
            seen[case.name] = seen.get(case.name, 0) + 1
            passed[case.name] = passed.get(case.name, 0) + (case.verdict == "AC")
    best: dict[str, float] = {}
    for r in judged:
        fraction = (r.score or 0.0) / r.max_score if r.max_score else 0.0
        best[r.student] = max(best.get(r.student, 0.0), fraction)
    return ProblemStats(
        problem,
        len(judged),
        len({r.student for r in judged}),
        len({r.student for r in judged if r.verdict == "AC"}),
        tuple(sorted(verdicts.items(), key=lambda kv: (-kv[1], kv[0]))),
        tuple(CaseRate(name, passed[name], count) for name, count in seen.items()),
        histogram(list(best.values())),
    )
