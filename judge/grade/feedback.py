"""What a reader may learn of a graded submission (pure): the one place where secret cases are
cut down to a problem's feedback level before anything is shown to a student.

Every student surface (the web judge's pages and JSON, `judge report --for-students`, the
Gradescope results) renders a `Shown` made here, never a `GradeRecord`: what this module
leaves out cannot reach a template by mistake. (An explanation of `judge explain` is cut for
students by its own `Explanation.for_student`, since only it knows its fields.)

The levels (docs/feedback.md counts what each reveals, in bits per submission):
- `verdict`: the submission's verdict and score; the secret groups only as one total.
- `groups` (the default): that, and whether each secret group passed, and its points.
- `cases`: that, each secret case's verdict, and each secret group's slowest CPU time and
  largest memory as a band of a quarter of the limit.
No level shows a secret case's exit code, signal, message, output, exact figures or wall time,
nor how many cases of a group passed unless each case's verdict is shown anyway.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import get_args

from judge.grade.results import CaseRecord, GradeRecord, Heading
from judge.grade.runner import GroupRecord
from judge.kinds import table as kinds
from judge.problem.spec import FeedbackLevel, Group, Problem
from judge.run import languages
from judge.run.verdicts import Verdict

LEVELS: tuple[FeedbackLevel, ...] = get_args(FeedbackLevel)
TEACHER = "teacher"  # the teacher's own views: everything the record holds
BANDS = 4  # a secret group's figures are shown as the quarter of the limit they reach
FAILED = (
    "The judge failed on this submission (IE): it does not count, and nothing of its secret cases is shown;"
    " the score is its public cases' points."
)
SECRET_TOTAL = "secret"  # the one group the `verdict` level shows for all secret groups


@dataclass(frozen=True)
class ShownCase:
    name: str
    group: str
    public: bool
    verdict: str
    message: str
    cpu_s: float | None  # None: not for this reader
    wall_s: float | None
    memory_kib: int | None
    output: str | None
    diff_line: int


@dataclass(frozen=True)
class ShownGroup:
    name: str
    public: bool
    verdict: str | None  # the first verdict of its cases that is not AC (AC if none); None: no case ran
    ok: bool  # every case of the group was judged and accepted
    points: float
    earned: float
    passed: int | None  # None: not for this reader (it would say where the group first failed)
    total: int | None
    cpu: str  # the slowest case's CPU time: exact for the teacher, a band for a student, "" if none
    memory: str  # likewise the largest peak memory


@dataclass(frozen=True)
class Shown(Heading):
    """A graded submission as one reader may see it: its record's heading as recorded, and the
    cases and groups cut for the reader's level."""

    level: str  # TEACHER or one of LEVELS
    cases: tuple[ShownCase, ...]
    groups: tuple[ShownGroup, ...]

    @property
    def for_students(self) -> bool:
        return self.level != TEACHER

    @property
    def withheld(self) -> str:
        """One sentence on what this view leaves out of the secret cases ("" for the teacher)."""
        if self.for_students and self.verdict == "IE":
            return FAILED
        return describe(self.level) if self.for_students else ""  # type: ignore[arg-type]


_SHOWN = {
    "verdict": "only the submission's verdict and the secret groups' total points",
    "groups": "whether each secret group passed, and its points",
    "cases": "each secret case's verdict, and each secret group's points, slowest CPU time and largest memory"
    " (as a quarter of the limit)",
}


def describe(level: FeedbackLevel) -> str:
    """What a student learns of the secret cases at `level`, as the pages say it."""
    return (
        f"Secret cases (feedback level {level}): you see {_SHOWN[level]}; their inputs, outputs, messages and"
        " exact figures stay on the server."
    )


def level_of(problem: Problem | None) -> FeedbackLevel:
    """A problem's level; a record whose problem is gone gets the least."""
    return problem.spec.feedback if problem is not None else "verdict"


def level_for(problem: Problem | None, asked: FeedbackLevel | None) -> FeedbackLevel:
    """The level a student gets: the one `asked` (an assignment's), else the problem's; never
    more than the problem's kind allows (a tests problem that shows a count: verdict)."""
    level = asked or level_of(problem)
    most = kinds.of(problem).most_shown(problem) if problem is not None else None
    return most if most is not None and LEVELS.index(most) < LEVELS.index(level) else level


# What a program can choose of its verdict on a secret case: AC, WA, TLE, MLE, RE, OLE, and an
# IE that a custom checker can be driven to; a case's shown verdict may also be NJ.
CHOSEN_VERDICTS = 7
BAND_VALUES = BANDS + 1  # the four quarters and "over the limit"


def _outcomes(group: Group, count: int) -> set[tuple[float, bool]]:
    """What a secret group of `count` cases can show: (its points, whether it passed). All or
    nothing, or a share per case passed; a group of no points still passes or not."""
    if group.scoring == "all" or count == 0:
        return {(0.0, False), (float(group.points), True)}
    return {(round(group.points * passed / count, 9), passed == count) for passed in range(count + 1)}


def bits(problem: Problem, level: FeedbackLevel, counts: Mapping[str, int]) -> float:
    """The most one submission can learn of `problem`'s secret cases at `level` (`counts`: the
    number of cases of each group, from its test data): log2 of the number of different things
    its student can be shown (docs/feedback.md). The headline verdict is one of
    CHOSEN_VERDICTS at every level; `verdict` adds the secret groups' total and whether all
    passed, `groups` each group's points and whether it passed, `cases` each secret case's
    verdict (which fixes the points) and each group's two bands."""
    secret = [g for g in problem.spec.groups if g.visibility == "secret"]
    each = [_outcomes(g, counts.get(g.name, 0)) for g in secret]
    if level == "cases":
        cases = sum(counts.get(g.name, 0) for g in secret)
        return cases * math.log2(CHOSEN_VERDICTS + 1) + len(secret) * 2 * math.log2(BAND_VALUES)
    headline = math.log2(CHOSEN_VERDICTS)
    if level == "groups":
        return headline + sum(math.log2(len(shown)) for shown in each)
    totals = {(0.0, True)}
    for shown in each:
        totals = {(round(total + points, 9), every and passed) for total, every in totals for points, passed in shown}
    return headline + math.log2(len(totals))


def band(value: float, limit: float) -> str:
    """`value` as the quarter of `limit` it reaches: "≤ 25% of the limit" ... "over the limit"."""
    if limit <= 0:
        return ""
    if value > limit:
        return "over the limit"
    quarter = max(1, math.ceil(BANDS * value / limit))
    return f"≤ {quarter * 100 // BANDS}% of the limit"


def group_verdict(cases: list[CaseRecord]) -> str | None:
    if not cases:
        return None
    for case in cases:
        if case.verdict not in (Verdict.AC.value, Verdict.NJ.value):
            return case.verdict
    return Verdict.NJ.value if all(c.verdict == Verdict.NJ.value for c in cases) else Verdict.AC.value


def _judged(cases: list[CaseRecord]) -> list[CaseRecord]:
    return [c for c in cases if c.verdict != Verdict.NJ.value]


def _all_accepted(cases: list[CaseRecord]) -> bool:
    return bool(cases) and all(c.verdict == Verdict.AC.value for c in cases)


def _exact_group(group: GroupRecord, cases: list[CaseRecord], public: bool) -> ShownGroup:
    judged = _judged(cases)
    return ShownGroup(
        group.name,
        public,
        group_verdict(cases),
        _all_accepted(cases),
        group.points,
        group.earned,
        group.passed,
        group.total,
        f"{max(c.cpu_s for c in judged):.2f} s" if judged else "",
        f"{max(c.memory_kib for c in judged) / 1024:.1f} MiB" if judged else "",
    )


def _full_case(case: CaseRecord) -> ShownCase:
    return ShownCase(
        case.name,
        case.group,
        case.public,
        case.verdict,
        case.message,
        case.cpu_s,
        case.wall_s,
        case.memory_kib,
        case.output,
        case.diff_line,
    )


# What a Shown takes from its record as it is: the heading (a field added to Heading is thus
# shown to students at every level).
_AS_RECORDED = tuple(f.name for f in fields(Heading))


def _shown(
    record: GradeRecord,
    level: str,
    cases: tuple[ShownCase, ...],
    groups: tuple[ShownGroup, ...],
    score: float | None = None,
) -> Shown:
    """The view at `level` of `record`, with the cases and groups cut for it (and its score,
    where that too is cut)."""
    taken = {name: getattr(record, name) for name in _AS_RECORDED}
    if score is not None:
        taken["score"] = score
    return Shown(level=level, cases=cases, groups=groups, **taken)


def _by_group(record: GradeRecord) -> dict[str, list[CaseRecord]]:
    found: dict[str, list[CaseRecord]] = {g.name: [] for g in record.groups}
    for case in record.cases:
        found.setdefault(case.group, []).append(case)
    return found


def _public_groups(record: GradeRecord) -> set[str]:
    return {c.group for c in record.cases if c.public}


def for_teacher(record: GradeRecord) -> Shown:
    """Everything: each case's figures and messages, the groups' exact maxima."""
    cases = _by_group(record)
    public = _public_groups(record)
    return _shown(
        record,
        TEACHER,
        tuple(_full_case(c) for c in record.cases),
        tuple(_exact_group(g, cases[g.name], g.name in public) for g in record.groups),
    )


def _failed_for_student(record: GradeRecord, cases: dict[str, list[CaseRecord]], public: set[str]) -> Shown:
    """A submission the judge failed on (IE), as a student sees it: its public cases whole, and
    nothing of the secret ones at any level, not even their points in the score. It does not
    count (course.gradebook) and costs no quota, so were anything of the secret cases shown,
    a failure the judge could be driven to would be a free look at them."""
    shown = [_full_case(c) for c in record.cases if c.public and c.group in public]
    groups = tuple(_exact_group(g, cases[g.name], True) for g in record.groups if g.name in public)
    score = sum(g.earned for g in record.groups if g.name in public)
    return _shown(record, "verdict", tuple(shown), groups, score)


def for_student(record: GradeRecord, problem: Problem | None, level: FeedbackLevel | None = None) -> Shown:
    """What the student may see at `level` (default: the problem's own). Public cases are
    shown whole; a secret case at most by its verdict; secret figures only as bands."""
    level = level_for(problem, level)
    cases = _by_group(record)
    public = (
        {g.name for g in problem.spec.groups if g.visibility == "public"}
        if problem is not None
        else _public_groups(record)
    )
    if record.verdict == "IE":
        return _failed_for_student(record, cases, public)
    factor = languages.time_factor_of(record.language)
    cpu_limit = problem.spec.limits.cpu_s_for(record.language, factor) if problem is not None else 0.0
    memory_limit_kib = problem.spec.limits.memory_mib * 1024 if problem is not None else 0
    shown_cases: list[ShownCase] = []
    for case in record.cases:
        if case.public and case.group in public:
            shown_cases.append(_full_case(case))
        elif level == "cases":
            shown_cases.append(ShownCase(case.name, case.group, False, case.verdict, "", None, None, None, None, 0))
    groups: list[ShownGroup] = []
    secret = [g for g in record.groups if g.name not in public]
    for g in record.groups:
        mine = cases[g.name]
        if g.name in public:
            groups.append(_exact_group(g, mine, True))
            continue
        if level == "verdict":
            continue
        judged = _judged(mine)
        # At `groups` a secret group says whether it passed and its points, nothing more: a
        # group that stops at its first failure has that one case's verdict and figures, and a
        # group's slowest figure is its slowest case's, both chosen by the program.
        each = level == "cases"
        groups.append(
            ShownGroup(
                g.name,
                False,
                group_verdict(mine) if each else None,
                _all_accepted(mine),
                g.points,
                g.earned,
                g.passed if each else None,
                g.total if each else None,
                band(max(c.cpu_s for c in judged), cpu_limit) if judged and each else "",
                band(max(c.memory_kib for c in judged), memory_limit_kib) if judged and each else "",
            )
        )
    if level == "verdict" and secret:
        ran = [c for g in secret for c in cases[g.name]]
        groups.append(
            ShownGroup(
                SECRET_TOTAL,
                False,
                None,
                _all_accepted(ran),
                sum(g.points for g in secret),
                sum(g.earned for g in secret),
                None,
                None,
                "",
                "",
            )
        )
    return _shown(record, level, tuple(shown_cases), tuple(groups))
