"""The course file: a strict model of `course.yaml` (assignments, deadlines, late policy, quotas,
extensions) and its loader, which turns it into frozen records with every time zone-aware.

Errors are reported like problem.yaml's: `course.yaml:LINE: key.path: what is wrong`.
Times are written `2026-12-08 23:59` (in the course's `timezone`) or with an offset
(`2026-12-08 23:59+01:00`); a local time that does not exist or happens twice (the change to
or from summer time) is an error asking for the offset, never a guess. A deadline names a
minute and includes it: `due: 23:59` accepts a submission received at 23:59:59.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from judge.course.rubric import Dealing, Item, Review, Rubric, Rule
from judge.problem.spec import FeedbackLevel, SpecError, SpecIssue, render_path
from judge.problem.spec import error_message as spec_message
from judge.problem.yamlpos import Located, YamlError
from judge.problem.yamlpos import load as load_yaml

COURSE_FILE = "course.yaml"
Keep = Literal["best", "last"]
Scoreboard = Literal["off", "anonymous", "named"]


def _off(value: object) -> object:
    # YAML 1.1 reads a bare `off` as false: the file means the word.
    return "off" if value is False else value


ALL = "all"  # the one assignment of a web judge without a course file
_Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=64)]
_UserId = Annotated[str, Field(pattern=r"^[A-Za-z0-9._-]{1,64}$")]
# YAML reads `2026-12-08 23:59` as text, `2026-12-08 23:59:00` as a datetime and `2026-12-08`
# as a date: all three arrive here and are checked by _when.
_Time = str | datetime | date
_TIME = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?( ?(Z|[+-]\d\d:?\d\d))?$")
MINUTE = timedelta(minutes=1)
# An exam's length or a student's extra time: `40m`, `1h`, `1h30m` (whole minutes).
_DURATION = re.compile(r"^(?:(\d{1,3})h)?(?:(\d{1,4})m)?$")


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class _Late(_Strict):
    penalty_per_day: float = Field(ge=0, le=100, description="Percent of the score lost per started day late")
    until: _Time = Field(description="The last minute a late submission is accepted")


class _Item(_Strict):
    id: _Slug
    points: float = Field(ge=-10000, le=10000)
    description: str = Field(min_length=1, max_length=500)
    group: _Slug | None = None


class _Review(_Strict):
    manual: Rule = "add"
    max: float = Field(gt=0, le=10000, description="The manual part's maximum")
    rubric: dict[_Slug, list[_Item]] = {}
    caps: dict[_Slug, float] = {}
    regrade_days: float = Field(default=7, ge=0, le=365)
    anonymous: bool = False
    graders: Dealing = "random"


class _Exam(_Strict):
    duration: str = Field(description="Each student's time from their start: 40m, 1h30m")
    addresses: list[str] = Field(default=[], max_length=1000, description="CIDR ranges allowed (empty: any)")
    one_session: bool = True
    lock_others: bool = False
    explain: bool = Field(default=False, description="Students may have a failing submission explained during it")


class _Teams(_Strict):
    size: list[Annotated[int, Field(ge=1, le=50)]] = Field(
        min_length=2, max_length=2, description="The least and the most members of a team: [2, 3]"
    )
    formed: Literal["csv", "students"] = Field(description="csv: the teacher's file; students: invite and accept")
    lock: _Time | None = Field(default=None, description="From this minute on, students change no team")


class _Assignment(_Strict):
    id: _Slug
    title: str = Field(default="", max_length=200)
    problems: list[_Slug] = Field(min_length=1)
    opens: _Time | None = None
    due: _Time | None = None
    late: _Late | None = None
    keep: Keep = "best"
    max_submissions: int | None = Field(default=None, ge=1, le=100000)
    scoreboard: Annotated[Scoreboard, BeforeValidator(_off)] = "off"
    feedback: FeedbackLevel | None = None
    announcement: str = Field(default="", max_length=4000)
    review: _Review | None = None
    teams: _Teams | None = None
    exam: _Exam | None = None


class _Extension(_Strict):
    student: _UserId
    assignment: _Slug
    due: _Time | None = None
    until: _Time | None = None
    extra: str | None = Field(default=None, description="An exam's extra time for this student: 10m, 1h")


class _Course(_Strict):
    title: str = Field(max_length=200)
    timezone: str = "UTC"
    assignments: list[_Assignment] = Field(min_length=1)
    extensions: list[_Extension] = []
    default_language: str | None = Field(default=None, max_length=64)
    runs_per_minute: int = Field(
        default=6, ge=0, le=1000, description="Runs a student may start in a minute (0: no Run)"
    )


@dataclass(frozen=True)
class Late:
    penalty_per_day: float  # percent
    until: datetime


@dataclass(frozen=True)
class Exam:
    """An assignment taken as an exam: each student's own window, from their start."""

    duration: timedelta
    addresses: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]  # empty: any address
    one_session: bool  # a new sign-in during the exam ends the student's other sessions
    lock_others: bool  # no other assignment's pages during a student's exam
    explain: bool = False  # a failing input with the reference's answer is help an exam gives only if said


@dataclass(frozen=True)
class TeamRule:
    """An assignment taken by teams: one submission counts for every member (judge.course.teams)."""

    least: int
    most: int
    formed: Literal["csv", "students"]  # csv: the teacher's file; students: invite and accept
    lock: datetime | None  # from then on students change no team (None: until the teacher locks)


@dataclass(frozen=True)
class Assignment:
    id: str
    title: str
    problems: tuple[str, ...]
    opens: datetime | None  # None: open from the start
    due: datetime | None  # None: no deadline
    late: Late | None  # None: nothing is accepted after `due`
    keep: Keep
    max_submissions: int | None
    scoreboard: Scoreboard
    feedback: FeedbackLevel | None  # None: each problem's own level
    announcement: str
    review: Review | None = None  # None: the judge's score alone, no grading by hand
    exam: Exam | None = None  # None: an ordinary assignment
    teams: TeamRule | None = None  # None: each student submits for themselves

    @property
    def name(self) -> str:
        return self.title or self.id


@dataclass(frozen=True)
class Extension:
    student: str
    assignment: str
    due: datetime | None  # None: the due date stays (an exam's extra time alone)
    until: datetime | None  # None: the late window moves with the due date
    line: int  # where course.yaml gives it, for the teacher's notes
    extra: timedelta = timedelta(0)  # an exam's extra time for this student


@dataclass(frozen=True)
class Course:
    title: str
    zone: ZoneInfo
    assignments: tuple[Assignment, ...]
    extensions: tuple[Extension, ...]
    path: Path | None  # None: no course file, the implicit course
    default_language: str | None = None  # the editor's language before a student has one of their own
    runs_per_minute: int = 6  # Run on the samples or one's own input, per student (0: no Run)

    def assignment(self, assignment_id: str) -> Assignment | None:
        return next((a for a in self.assignments if a.id == assignment_id), None)

    def assignment_of(self, problem: str) -> Assignment | None:
        return next((a for a in self.assignments if problem in a.problems), None)

    def extension(self, student: str, assignment: str) -> Extension | None:
        return next((e for e in self.extensions if e.student == student and e.assignment == assignment), None)

    def local(self, moment: datetime) -> datetime:
        return moment.astimezone(self.zone)


def implicit(problems: Sequence[str]) -> Course:
    """The course of a web judge without course.yaml: every problem open, no deadline, best counts."""
    everything = Assignment(ALL, "Problems", tuple(problems), None, None, None, "best", None, "off", None, "")
    return Course("", ZoneInfo("UTC"), (everything,), (), None)


def load_course(path: Path, problems: Collection[str], languages: Collection[str] = ()) -> Course:
    """Load and check a course file against the problems there are (and the language ids there
    are, when given: `default_language`); SpecError lists every issue."""
    try:
        located = load_yaml(path)
    except YamlError as err:
        raise SpecError([SpecIssue(err.path, err.line, "", err.message)]) from None
    if not isinstance(located.data, dict):
        raise SpecError([SpecIssue(path, 1, "", "the course file must be a mapping of keys to values")])
    try:
        model = _Course.model_validate(located.data)
    except ValidationError as err:
        raise SpecError(
            [
                SpecIssue(path, located.line_of(e["loc"]), render_path(e["loc"], located), spec_message(e, _Course))
                for e in err.errors()
            ]
        ) from None
    return _Builder(path, located, model, problems, languages).build()


class _Builder:
    """From the checked model to records: times made zone-aware, cross-references checked."""

    def __init__(
        self, path: Path, located: Located, model: _Course, problems: Collection[str], languages: Collection[str]
    ) -> None:
        self.path, self.located, self.model, self.problems = path, located, model, problems
        self.languages = languages
        self.issues: list[SpecIssue] = []
        self.zone = ZoneInfo("UTC")

    def issue(self, loc: tuple[str | int, ...], message: str) -> None:
        self.issues.append(SpecIssue(self.path, self.located.line_of(loc), render_path(loc, self.located), message))

    def build(self) -> Course:
        try:
            if self.model.timezone not in available_timezones():
                raise ZoneInfoNotFoundError(self.model.timezone)
            self.zone = ZoneInfo(self.model.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            self.issue(("timezone",), f"unknown time zone {self.model.timezone!r} (an IANA name: Europe/Berlin, UTC)")
        assignments = tuple(self._assignment(i, a) for i, a in enumerate(self.model.assignments))
        by_id = {a.id: a for a in assignments}
        extensions = tuple(
            e for e in (self._extension(i, x, by_id) for i, x in enumerate(self.model.extensions)) if e is not None
        )
        chosen = self.model.default_language
        if chosen is not None and self.languages and chosen not in self.languages:
            known = ", ".join(sorted(self.languages))
            self.issue(("default_language",), f"unknown language {chosen!r} (known: {known})")
        if self.issues:
            raise SpecError(self.issues)
        return Course(
            self.model.title, self.zone, assignments, extensions, self.path, chosen, self.model.runs_per_minute
        )

    def _assignment(self, index: int, raw: _Assignment) -> Assignment:
        here: tuple[str | int, ...] = ("assignments", index)
        if any(a.id == raw.id for a in self.model.assignments[:index]):
            self.issue((*here, "id"), f"assignment {raw.id!r} is defined twice")
        for k, problem in enumerate(raw.problems):
            if problem not in self.problems:
                known = ", ".join(sorted(self.problems)) or "none"
                self.issue((*here, "problems", k), f"unknown problem {problem!r} (known: {known})")
            elif problem in raw.problems[:k]:
                self.issue((*here, "problems", k), f"problem {problem!r} is listed twice")
            else:
                earlier = next((a.id for a in self.model.assignments[:index] if problem in a.problems), None)
                if earlier is not None:
                    self.issue((*here, "problems", k), f"problem {problem!r} is already in assignment {earlier!r}")
        opens = self._when(raw.opens, (*here, "opens"))
        due = self._when(raw.due, (*here, "due"))
        late = None
        if raw.late is not None:
            until = self._when(raw.late.until, (*here, "late", "until"))
            if due is None:
                self.issue((*here, "late"), "a late policy needs a `due` time")
            elif until is not None and until <= due:
                self.issue((*here, "late", "until"), "late.until must come after due")
            late = Late(raw.late.penalty_per_day, until or datetime.max.replace(tzinfo=UTC))
        if opens is not None and due is not None and due <= opens:
            self.issue((*here, "due"), "due must come after opens")
        return Assignment(
            raw.id,
            raw.title,
            tuple(raw.problems),
            opens,
            due,
            late,
            raw.keep,
            raw.max_submissions,
            raw.scoreboard,
            raw.feedback,
            raw.announcement,
            self._review(raw, here),
            self._exam(raw, here),
            teams=self._teams(raw, here),
        )

    def _exam(self, raw: _Assignment, here: tuple[str | int, ...]) -> Exam | None:
        if raw.exam is None:
            return None
        where = (*here, "exam")
        if raw.late is not None:
            self.issue(
                (*here, "late"), "an exam has no late window: each student's end is their start plus the duration"
            )
        if raw.teams is not None:  # windows are each student's, a team's submission every member's
            self.issue(
                (*here, "teams"),
                "an exam is taken alone: a teammate's submission would count for a member after their own end",
            )
        duration = self._duration(raw.exam.duration, (*where, "duration"))
        if duration is not None and duration <= timedelta(0):
            self.issue((*where, "duration"), "an exam lasts at least a minute")
        addresses = []
        for k, text in enumerate(raw.exam.addresses):
            try:
                addresses.append(ipaddress.ip_network(text.strip(), strict=True))
            except ValueError as err:
                self.issue((*where, "addresses", k), f"{text!r} is not an address range like 10.1.0.0/16 ({err})")
        return Exam(duration or MINUTE, tuple(addresses), raw.exam.one_session, raw.exam.lock_others, raw.exam.explain)

    def _duration(self, text: str, loc: tuple[str | int, ...]) -> timedelta | None:
        found = _DURATION.match(text.strip().replace(" ", ""))
        if not text.strip() or found is None:
            self.issue(loc, f"{text!r} is not a duration like 40m, 1h or 1h30m")
            return None
        return timedelta(hours=int(found[1] or 0), minutes=int(found[2] or 0))

    def _teams(self, raw: _Assignment, here: tuple[str | int, ...]) -> TeamRule | None:
        if raw.teams is None:
            return None
        least, most = raw.teams.size
        if least > most:
            self.issue((*here, "teams", "size"), f"[{least}, {most}]: the least number of members comes first")
        lock = self._when(raw.teams.lock, (*here, "teams", "lock"))
        return TeamRule(least, most, raw.teams.formed, lock)

    def _review(self, raw: _Assignment, here: tuple[str | int, ...]) -> Review | None:
        if raw.review is None:
            return None
        review, rubrics = raw.review, []
        used_groups = {i.group for items in review.rubric.values() for i in items if i.group is not None}
        for problem, items in review.rubric.items():
            if problem not in raw.problems:
                self.issue((*here, "review", "rubric", problem), f"problem {problem!r} is not in this assignment")
            for k, item in enumerate(items):
                if any(i.id == item.id for i in items[:k]):
                    self.issue((*here, "review", "rubric", problem, k, "id"), f"item {item.id!r} is defined twice")
            rubrics.append((problem, tuple(Item(i.id, i.points, i.description, i.group) for i in items)))
        caps = []
        for group, cap in review.caps.items():
            if cap <= 0:
                self.issue((*here, "review", "caps", group), "a cap is a number of points above 0")
            elif group not in used_groups:
                self.issue((*here, "review", "caps", group), f"no rubric item is in group {group!r}")
            caps.append((group, cap))
        return Review(
            review.manual,
            review.max,
            tuple((p, Rubric(items, tuple(caps))) for p, items in rubrics),
            review.regrade_days,
            review.anonymous,
            review.graders,
        )

    def _extension(self, index: int, raw: _Extension, by_id: dict[str, Assignment]) -> Extension | None:
        here: tuple[str | int, ...] = ("extensions", index)
        due = self._when(raw.due, (*here, "due"))
        until = self._when(raw.until, (*here, "until"))
        assignment = by_id.get(raw.assignment)
        if assignment is None:
            self.issue((*here, "assignment"), f"unknown assignment {raw.assignment!r} (known: {', '.join(by_id)})")
            return None
        if any(e.student == raw.student and e.assignment == raw.assignment for e in self.model.extensions[:index]):
            self.issue(here, f"{raw.student!r} already has an extension of {raw.assignment!r}")
        if assignment.due is None and raw.due is not None:
            self.issue((*here, "assignment"), f"assignment {raw.assignment!r} has no due time to extend")
        if until is not None and assignment.late is None:
            self.issue((*here, "until"), f"assignment {raw.assignment!r} has no late window to extend")
        if until is not None and due is not None and until <= due:
            self.issue((*here, "until"), "until must come after due")
        extra = timedelta(0)
        if raw.extra is not None:
            extra = self._duration(raw.extra, (*here, "extra")) or timedelta(0)
            if assignment.exam is None:
                self.issue((*here, "extra"), f"assignment {raw.assignment!r} is no exam: extra time is an exam's")
        if raw.due is None and raw.extra is None:
            self.issue(here, "an extension gives a new `due`, or an exam's `extra` time")
        if due is None and raw.due is not None:
            return None
        return Extension(raw.student, raw.assignment, due, until, self.located.line_of(here), extra)

    def _when(self, value: _Time | None, loc: tuple[str | int, ...]) -> datetime | None:
        """A time of the file as an aware datetime, or None after saying what is wrong with it."""
        if value is None:
            return None
        if isinstance(value, datetime):
            moment = value
        elif isinstance(value, date):
            self.issue(loc, f"{value} is a day: give the time too (`{value} 23:59`)")
            return None
        elif not _TIME.match(value.strip()):
            self.issue(loc, f"{value!r} is not a time like `2026-12-08 23:59` (or `2026-12-08 23:59+01:00`)")
            return None
        else:
            try:
                moment = datetime.fromisoformat(value.strip().replace(" Z", "Z").replace(" +", "+").replace(" -", "-"))
            except ValueError as err:
                self.issue(loc, f"{value!r}: {err}")
                return None
        if moment.second or moment.microsecond:
            self.issue(loc, f"{value}: course times are whole minutes (no seconds)")
            return None
        if moment.tzinfo is not None:
            return moment
        return self._localize(moment, loc)

    def _localize(self, naive: datetime, loc: tuple[str | int, ...]) -> datetime | None:
        early, late = naive.replace(tzinfo=self.zone, fold=0), naive.replace(tzinfo=self.zone, fold=1)
        offset = f"{naive:%Y-%m-%d %H:%M}"
        if early.utcoffset() != late.utcoffset():
            # Round trip through UTC: a time in the spring gap comes back changed; a time of the
            # autumn hour that happens twice comes back as itself.
            if early.astimezone(UTC).astimezone(self.zone).replace(tzinfo=None) != naive:
                self.issue(loc, f"{offset} does not exist in {self.zone.key} (the clocks skip it): give an offset")
            else:
                self.issue(
                    loc,
                    f"{offset} happens twice in {self.zone.key} (the clocks go back): give an offset, "
                    f"{offset}{_offset(early)} or {offset}{_offset(late)}",
                )
            return None
        return early


def _offset(moment: datetime) -> str:
    delta = moment.utcoffset() or timedelta(0)
    minutes = int(delta.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
