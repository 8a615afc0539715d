"""Teams' rows (schema version 12): teams per assignment, each stay of a student in one (joined,
left), invitations, the teacher's lock, and the team each team submission was made for.

Every change is one transaction that checks what it needs inside it (BEGIN IMMEDIATE: one writer
at a time), so two invitations accepted at once cannot fill a team past its size, and a team
left as a submission arrives is not the team it is stamped with. The database holds a student
in one team per assignment at a time too (a unique index on the stays not ended).
The rule of whom a submission counts for is judge.course.teams's; this module keeps the rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from judge.course.spec import TeamRule
from judge.course.teams import ListedTeam, Stay, Teams, locked
from judge.errors import JudgeError
from judge.web.state.database import Database


class TeamError(JudgeError):
    """A change of teams refused, with the HTTP status a page answers it with and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Invite:
    id: int
    team: int
    student: str  # the one invited
    by: str
    members: tuple[str, ...]  # the team's members now


def team_now(db: sqlite3.Connection, assignment: str, student: str) -> int | None:
    row = db.execute(
        "SELECT team FROM team_members WHERE assignment = ? AND student = ? AND left_at IS NULL",
        (assignment, student),
    ).fetchone()
    return None if row is None else int(row["team"])


def members_now(db: sqlite3.Connection, team: int) -> list[str]:
    rows = db.execute(
        "SELECT student FROM team_members WHERE team = ? AND left_at IS NULL ORDER BY joined, rowid", (team,)
    )
    return [r["student"] for r in rows]


# Per member now: the team's submissions of the problem, and those of each team they were in
# when it arrived (what counts for them by judge.course.teams's rule), an IE never.
_USED_BY_MEMBER = (
    "SELECT m.student, COUNT(DISTINCT s.id) AS n FROM team_members m "
    "JOIN team_members stay ON stay.student = m.student AND stay.assignment = m.assignment "
    "JOIN team_submissions t ON t.team = stay.team JOIN submissions s ON s.id = t.submission "
    "WHERE m.team = :team AND m.left_at IS NULL AND s.problem = :problem "
    "AND (s.verdict IS NULL OR s.verdict != 'IE') AND (stay.team = :team OR "
    "(stay.joined <= s.created AND (stay.left_at IS NULL OR s.created < stay.left_at))) GROUP BY m.student"
)


def used_by(db: sqlite3.Connection, team: int, problem: str) -> int:
    """What a team has used of its quota of a problem: the most submissions that count for any
    member now. Not the team's own count alone: members who spent the quota in one team and
    started another would have it anew, and keep every earlier submission (issue 61)."""
    row = db.execute(f"SELECT MAX(n) FROM ({_USED_BY_MEMBER})", {"team": team, "problem": problem}).fetchone()
    return int(row[0] or 0)


def stamp(db: sqlite3.Connection, submission: int, team: int) -> None:
    db.execute("INSERT INTO team_submissions (submission, team) VALUES (?, ?)", (submission, team))


def _lock_of(db: sqlite3.Connection, assignment: str) -> float | None:
    row = db.execute("SELECT at FROM team_locks WHERE assignment = ?", (assignment,)).fetchone()
    return None if row is None else float(row["at"])


def _open(db: sqlite3.Connection, assignment: str, rule: TeamRule, now: float) -> None:
    if locked(rule, now, _lock_of(db, assignment)):
        raise TeamError(403, "The teams of this assignment are locked: they change no more.")


def _join(db: sqlite3.Connection, team: int, assignment: str, student: str, now: float) -> None:
    db.execute(
        "INSERT INTO team_members (team, assignment, student, joined) VALUES (?, ?, ?, ?)",
        (team, assignment, student, now),
    )
    db.execute(  # an invitation to a team one is in now, or was, is spent
        "DELETE FROM team_invites WHERE student = ? AND team IN (SELECT id FROM teams WHERE assignment = ?)",
        (student, assignment),
    )


class TeamBook:
    """The teams' rows, held beside the store on its database (as the reviews' are)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def teams(self) -> Teams:
        """Every stay and every stamp, for the gradebook's rule."""
        with self.database.connect() as db:
            members = tuple(
                Stay(r["team"], r["assignment"], r["student"], r["joined"], r["left_at"])
                for r in db.execute("SELECT * FROM team_members ORDER BY joined, rowid")
            )
            stamped = {r["submission"]: r["team"] for r in db.execute("SELECT * FROM team_submissions")}
        return Teams(members, stamped)

    def used(self, assignment: str, student: str, problem: str) -> int:
        """The student's team's submissions of a problem against its quota (0: in no team)."""
        with self.database.connect() as db:
            team = team_now(db, assignment, student)
            return 0 if team is None else used_by(db, team, problem)

    def mark(self) -> tuple[int, float]:
        """What changes when a student joins or leaves a team: the LMS's passback plans anew then."""
        with self.database.connect() as db:
            row = db.execute(
                "SELECT COUNT(*) AS n, COALESCE(SUM(joined), 0) + COALESCE(SUM(left_at), 0) AS last FROM team_members"
            ).fetchone()
        return int(row["n"]), float(row["last"])

    def names(self, assignment: str) -> dict[int, str]:
        with self.database.connect() as db:
            return {
                r["id"]: r["name"] for r in db.execute("SELECT id, name FROM teams WHERE assignment = ?", (assignment,))
            }

    def lock_of(self, assignment: str) -> float | None:
        with self.database.connect() as db:
            return _lock_of(db, assignment)

    def lock(self, assignment: str, by: str, now: float) -> None:
        with self.database.transaction() as db:
            db.execute("INSERT OR IGNORE INTO team_locks (assignment, by, at) VALUES (?, ?, ?)", (assignment, by, now))

    def unlock(self, assignment: str) -> None:
        with self.database.transaction() as db:
            db.execute("DELETE FROM team_locks WHERE assignment = ?", (assignment,))

    def start(self, assignment: str, student: str, rule: TeamRule, now: float) -> int:
        """A new team of one, its starter, who then invites the others."""
        with self.database.transaction() as db:
            _open(db, assignment, rule, now)
            if team_now(db, assignment, student) is not None:
                raise TeamError(409, "You are in a team already: leave it first.")
            cursor = db.execute(
                "INSERT INTO teams (assignment, name, created) VALUES (?, ?, ?)", (assignment, f"{student}+{now}", now)
            )
            team = int(cursor.lastrowid or 0)
            db.execute("UPDATE teams SET name = ? WHERE id = ?", (f"team {team}", team))
            _join(db, team, assignment, student, now)
            return team

    def invite(self, assignment: str, by: str, student: str, roster: Sequence[str], rule: TeamRule, now: float) -> None:
        with self.database.transaction() as db:
            _open(db, assignment, rule, now)
            team = team_now(db, assignment, by)
            if team is None:
                raise TeamError(409, "Start a team first: then invite.")
            if student not in roster:
                raise TeamError(400, f"There is no student {student!r} on the roster.")
            if student in members_now(db, team):
                raise TeamError(409, f"{student} is in your team already.")
            if len(members_now(db, team)) >= rule.most:
                raise TeamError(409, f"Your team is full: {rule.most} members at most.")
            db.execute(
                "INSERT OR IGNORE INTO team_invites (team, student, by, created) VALUES (?, ?, ?, ?)",
                (team, student, by, now),
            )

    def accept(self, assignment: str, invite: int, student: str, rule: TeamRule, now: float) -> int:
        """Join the team of an invitation addressed to `student` (another's is not found)."""
        with self.database.transaction() as db:
            row = db.execute(
                "SELECT i.team FROM team_invites i JOIN teams t ON t.id = i.team "
                "WHERE i.id = ? AND i.student = ? AND t.assignment = ?",
                (invite, student, assignment),
            ).fetchone()
            if row is None:
                raise TeamError(404, "There is no such invitation for you.")
            _open(db, assignment, rule, now)
            if team_now(db, assignment, student) is not None:
                raise TeamError(409, "You are in a team already: leave it first.")
            team = int(row["team"])
            if len(members_now(db, team)) >= rule.most:
                raise TeamError(409, f"That team is full: {rule.most} members at most.")
            _join(db, team, assignment, student, now)
            return team

    def decline(self, assignment: str, invite: int, student: str) -> None:
        with self.database.transaction() as db:
            db.execute(
                "DELETE FROM team_invites WHERE id = ? AND student = ? "
                "AND team IN (SELECT id FROM teams WHERE assignment = ?)",
                (invite, student, assignment),
            )

    def leave(self, assignment: str, student: str, rule: TeamRule, now: float) -> None:
        """End the student's stay in their team: what the team made while they were in it stays theirs."""
        with self.database.transaction() as db:
            _open(db, assignment, rule, now)
            team = team_now(db, assignment, student)
            if team is None:
                raise TeamError(409, "You are in no team.")
            db.execute(
                "UPDATE team_members SET left_at = ? WHERE assignment = ? AND student = ? AND left_at IS NULL",
                (now, assignment, student),
            )
            # The leaver's invitations are spent, and every one of a team left empty: accepted,
            # they let a student into a team nobody is in any more, and its work (issue 61).
            empty = not members_now(db, team)
            db.execute("DELETE FROM team_invites WHERE team = ? AND (by = ? OR ?)", (team, student, empty))

    def invites_for(self, assignment: str, student: str) -> list[Invite]:
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT i.* FROM team_invites i JOIN teams t ON t.id = i.team "
                "WHERE i.student = ? AND t.assignment = ? ORDER BY i.id",
                (student, assignment),
            ).fetchall()
            return [Invite(r["id"], r["team"], r["student"], r["by"], tuple(members_now(db, r["team"]))) for r in rows]

    def invites_of(self, team: int) -> list[Invite]:
        with self.database.connect() as db:
            rows = db.execute("SELECT * FROM team_invites WHERE team = ? ORDER BY id", (team,)).fetchall()
            return [Invite(r["id"], r["team"], r["student"], r["by"], ()) for r in rows]

    def replace(self, assignment: str, listed: Sequence[ListedTeam], now: float) -> int:
        """The teacher's file of teams, in one transaction: a student whose team changes leaves
        the old one (keeping what it made while they were in it) and joins the new one; one in
        no team of the file leaves theirs. How many students changed team."""
        wanted = {s: t.name for t in listed for s in t.students}
        changed = 0
        with self.database.transaction() as db:
            ids = {
                r["name"]: r["id"] for r in db.execute("SELECT id, name FROM teams WHERE assignment = ?", (assignment,))
            }
            for team in listed:
                if team.name not in ids:
                    cursor = db.execute(
                        "INSERT INTO teams (assignment, name, created) VALUES (?, ?, ?)", (assignment, team.name, now)
                    )
                    ids[team.name] = int(cursor.lastrowid or 0)
            names = {v: k for k, v in ids.items()}
            current = {
                r["student"]: r["team"]
                for r in db.execute(
                    "SELECT student, team FROM team_members WHERE assignment = ? AND left_at IS NULL", (assignment,)
                )
            }
            for student in sorted(set(current) | set(wanted)):
                old, new = current.get(student), wanted.get(student)
                if old is not None and names.get(old) == new:
                    continue
                changed += 1
                if old is not None:
                    db.execute(
                        "UPDATE team_members SET left_at = ? WHERE assignment = ? AND student = ? AND left_at IS NULL",
                        (now, assignment, student),
                    )
                if new is not None:
                    _join(db, ids[new], assignment, student, now)
        return changed
