"""Teams (pure): whom a team submission counts for, and a teacher's file of teams read strictly.

The rule, one for every view (the gradebook applies it, so every page, CSV and the LMS agree):
- A submission to a team assignment is stamped with the team its author is in when it arrives.
- It counts for every member of that team now (a late joiner gets what the team made before
  them: the team has one grade), and for every student who was a member when it arrived (one
  who leaves keeps what the team made while they were in it, their own submissions included,
  and what their new team makes from then on).
- The quota is the team's: the submissions stamped with the team.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from judge.course.spec import MINUTE, Course, TeamRule
from judge.errors import JudgeError

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$")
HEADER = "team"  # a first row whose first cell is this names the columns, and is skipped


@dataclass(frozen=True)
class Stay:
    """One stay of a student in a team, from `joined` to `left` (None: a member now)."""

    team: int
    assignment: str
    student: str
    joined: float
    left: float | None = None

    def during(self, moment: float) -> bool:
        return self.joined <= moment and (self.left is None or moment < self.left)


@dataclass(frozen=True)
class Teams:
    """Every stay in every team, and which team each team submission was made for."""

    members: tuple[Stay, ...] = ()
    stamped: Mapping[int, int] = field(default_factory=dict)  # submission id -> team id
    by_team: Mapping[int, tuple[Stay, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Each team's stays at hand: a class's gradebook asks this of every submission.
        index: dict[int, list[Stay]] = {}
        for stay in self.members:
            index.setdefault(stay.team, []).append(stay)
        object.__setattr__(self, "by_team", {team: tuple(stays) for team, stays in index.items()})

    def credited(self, submission: int, author: str, received: float) -> frozenset[str]:
        """Whom a submission counts for: its author alone, or by the team rule above."""
        team = self.stamped.get(submission)
        if team is None:
            return frozenset((author,))
        return frozenset(
            (author, *(m.student for m in self.by_team.get(team, ()) if m.left is None or m.during(received)))
        )

    def team_of(self, assignment: str, student: str) -> int | None:
        """The student's team in an assignment now (None: none)."""
        return next(
            (m.team for m in self.members if m.assignment == assignment and m.student == student and m.left is None),
            None,
        )

    def together(self, assignment: str) -> frozenset[frozenset[str]]:
        """Every set of students who were ever in one team of an assignment (the similarity
        report does not pair them)."""
        by_team: dict[int, set[str]] = {}
        for m in self.members:
            if m.assignment == assignment:
                by_team.setdefault(m.team, set()).add(m.student)
        return frozenset(frozenset(s) for s in by_team.values() if len(s) > 1)


NO_TEAMS = Teams()


@dataclass(frozen=True)
class ListedTeam:
    """A team as the teacher's file gives it."""

    name: str
    students: tuple[str, ...]
    line: int


def read_csv(text: str, source: str, roster: Collection[str], rule: TeamRule) -> tuple[ListedTeam, ...]:
    """A file of teams, a row each: the team's name, then its members' ids. Strict: an unknown
    student, a student in two teams, a name given twice, a size outside the rule's are each one
    JudgeError naming `source` and the line."""
    listed: list[ListedTeam] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        cells = [c.strip() for c in row if c.strip()]
        if not cells or (number == 1 and cells[0].lower() == HEADER):
            continue
        name, students = cells[0], tuple(cells[1:])
        if not NAME.match(name):
            raise JudgeError(f"{source}:{number}: {name!r} is not a team name (1-64 letters, digits, spaces, . _ -)")
        twice = next((t for t in listed if t.name == name), None)
        if twice is not None:
            raise JudgeError(f"{source}:{number}: team {name!r} is already given at line {twice.line}")
        for student in students:
            if student not in roster:
                raise JudgeError(f"{source}:{number}: {student!r} is not a student on the roster")
            if student in seen:
                raise JudgeError(f"{source}:{number}: {student!r} is already in a team at line {seen[student]}")
            seen[student] = number
        if not rule.least <= len(set(students)) <= rule.most:
            raise JudgeError(
                f"{source}:{number}: team {name!r} has {len(set(students))} member(s); "
                f"this assignment takes {rule.least} to {rule.most}"
            )
        listed.append(ListedTeam(name, students, number))
    return tuple(listed)


def read_file(data: bytes, source: str, roster: Collection[str], rule: TeamRule) -> tuple[ListedTeam, ...]:
    """A teacher's file of teams as its bytes (the command line's file, the teacher's page's
    upload), read by read_csv; text that is not UTF-8 is one JudgeError naming `source`."""
    try:
        text = data.decode("utf-8-sig")  # a spreadsheet's CSV may start with a byte-order mark
    except UnicodeDecodeError:
        raise JudgeError(f"{source}: not UTF-8 text") from None
    return read_csv(text, source, roster, rule)


def check_kept(course: Course, teams: Teams) -> None:
    """JudgeError naming the course file and the assignment when an assignment that took team
    submissions has no `teams:` now. Each counts for every member: without the key the judge
    would either move those members' grades or keep a rule the file no longer says, so the
    file is refused (a reload keeps the course in force) until the key is back."""
    made: dict[str, int] = {}
    for team in teams.stamped.values():
        stays = teams.by_team.get(team, ())
        if stays:
            made[stays[0].assignment] = made.get(stays[0].assignment, 0) + 1
    for assignment in course.assignments:
        if assignment.teams is None and made.get(assignment.id):
            raise JudgeError(
                f"{course.path or 'the course'}: assignment {assignment.id!r} has no `teams:` but "
                f"{made[assignment.id]} team submission(s) were made to it, each counted for every member; "
                "put its `teams:` back (lock the teams to stop changes)"
            )


def locked(rule: TeamRule, now: float, teacher_lock: float | None) -> bool:
    """Whether students may no longer change teams: the teacher locked them, or the date passed."""
    if rule.formed == "csv" or teacher_lock is not None:
        return True
    # The lock's minute is the last one students may change teams in, as a deadline's is.
    return rule.lock is not None and now >= (rule.lock + MINUTE).timestamp()


def members_of(teams: Teams, team: int) -> tuple[str, ...]:
    """A team's members now, in the order they joined."""
    # Its own stays only: the teacher's page asks this of every team, and a student who starts
    # and leaves teams in a loop made sorting every stay of the class per team quadratic (issue 61).
    stays = teams.by_team.get(team, ())
    return tuple(m.student for m in sorted(stays, key=lambda m: m.joined) if m.left is None)
