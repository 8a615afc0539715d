"""What LTI keeps in the web judge's store (judge.web.state.database, version 3): the tool's keys, the
platforms and their deployments, a launch's one-use values, the LMS people and courses, their
line items, and the grades queued for the LMS. Each row leaves as a frozen record."""

from __future__ import annotations

import secrets
import sqlite3
import time
from dataclasses import dataclass

from judge.web.state.accounts import hash_token
from judge.web.state.database import Database

FRAME_ORIGIN = "origin:"  # an LMS origin whose pages may frame the judge's
FRAME_ORIGIN_S = 365 * 24 * 3600
SEND_FIELDS = (
    "issuer, context_id, assignment, user, score, max_score, submission, at, status, tries, next_try, error, sent, "
    "sent_score"
)


@dataclass(frozen=True)
class ToolKey:
    kid: str
    private_pem: str
    created: float
    retired: float | None


@dataclass(frozen=True)
class Platform:
    issuer: str
    client_id: str
    name: str
    login_url: str
    token_url: str
    keys_url: str
    audience: str = ""
    deployments: tuple[str, ...] = ()


@dataclass(frozen=True)
class LmsCourse:
    issuer: str
    context_id: str
    client_id: str
    deployment_id: str
    title: str
    lineitems_url: str
    memberships_url: str
    tool_url: str
    linked_by: str


@dataclass(frozen=True)
class Member:
    user: str
    role: str
    name: str
    email: str
    dropped: float | None


@dataclass(frozen=True)
class Send:
    """A student's score of an assignment for one LMS course, as queued or sent."""

    issuer: str
    context_id: str
    assignment: str
    user: str
    score: float
    max_score: float
    submission: int | None
    at: float
    status: str  # pending, sent
    tries: int
    next_try: float
    error: str
    sent: float | None
    sent_score: float | None

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.issuer, self.context_id, self.assignment, self.user)


class LtiRecords:
    """LTI's rows, kept in the web judge's one database beside the accounts and the queue: held
    rather than inherited, so the store's core knows nothing of LTI (the app composes the two)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # --- the tool's keys ----------------------------------------------------------------------

    def lti_keys(self) -> list[ToolKey]:
        """Every key kept, newest first."""
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT kid, private_pem, created, retired FROM lti_keys ORDER BY created DESC"
            ).fetchall()
        return [ToolKey(r["kid"], r["private_pem"], r["created"], r["retired"]) for r in rows]

    def add_lti_key(self, key: ToolKey, retire_before: float | None = None) -> None:
        """Keep a new signing key; the ones made before it sign no more (still published a while),
        and those retired before `retire_before` are removed."""
        with self.database.transaction() as db:
            db.execute("UPDATE lti_keys SET retired = ? WHERE retired IS NULL", (key.created,))
            if retire_before is not None:
                db.execute("DELETE FROM lti_keys WHERE retired IS NOT NULL AND retired < ?", (retire_before,))
            db.execute(
                "INSERT INTO lti_keys (kid, private_pem, created, retired) VALUES (?, ?, ?, NULL)",
                (key.kid, key.private_pem, key.created),
            )

    # --- platforms ----------------------------------------------------------------------------

    def add_platform(self, platform: Platform) -> None:
        """Register (or update) a platform and its deployments."""
        with self.database.transaction() as db:
            db.execute(
                "INSERT INTO lti_platforms (issuer, client_id, name, login_url, token_url, keys_url, audience, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (issuer, client_id) DO UPDATE SET name = excluded.name,"
                " login_url = excluded.login_url, token_url = excluded.token_url, keys_url = excluded.keys_url,"
                " audience = excluded.audience",
                (
                    platform.issuer,
                    platform.client_id,
                    platform.name,
                    platform.login_url,
                    platform.token_url,
                    platform.keys_url,
                    platform.audience,
                    time.time(),
                ),
            )
            db.executemany(
                "INSERT OR IGNORE INTO lti_deployments (issuer, client_id, deployment_id) VALUES (?, ?, ?)",
                [(platform.issuer, platform.client_id, d) for d in platform.deployments],
            )

    def remove_platform(self, issuer: str, client_id: str) -> bool:
        with self.database.transaction() as db:
            db.execute("DELETE FROM lti_deployments WHERE issuer = ? AND client_id = ?", (issuer, client_id))
            found = db.execute(
                "DELETE FROM lti_platforms WHERE issuer = ? AND client_id = ?", (issuer, client_id)
            ).rowcount
        return found > 0

    def platforms(self, issuer: str | None = None) -> list[Platform]:
        """Every platform (of one issuer), with its deployments."""
        where, args = ("WHERE issuer = ?", (issuer,)) if issuer is not None else ("", ())
        with self.database.connect() as db:
            rows = db.execute(f"SELECT * FROM lti_platforms {where} ORDER BY issuer, client_id", args).fetchall()
            deployments = db.execute("SELECT issuer, client_id, deployment_id FROM lti_deployments").fetchall()
        held: dict[tuple[str, str], list[str]] = {}
        for d in deployments:
            held.setdefault((d["issuer"], d["client_id"]), []).append(d["deployment_id"])
        return [
            Platform(
                r["issuer"],
                r["client_id"],
                r["name"],
                r["login_url"],
                r["token_url"],
                r["keys_url"],
                r["audience"],
                tuple(sorted(held.get((r["issuer"], r["client_id"]), []))),
            )
            for r in rows
        ]

    # --- a launch's one-use values ----------------------------------------------------------

    def put_lti_value(self, key: str, value: str, lifetime_s: float) -> None:
        now = time.time()
        with self.database.transaction(durable=False) as db:
            db.execute("DELETE FROM lti_values WHERE expires < ?", (now,))
            db.execute(
                "INSERT INTO lti_values (key, value, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires = excluded.expires",
                (key, value, now + lifetime_s),
            )

    def lti_value(self, key: str) -> str | None:
        with self.database.connect() as db:
            row = db.execute(
                "SELECT value FROM lti_values WHERE key = ? AND expires >= ?", (key, time.time())
            ).fetchone()
        return str(row["value"]) if row is not None else None

    def take_lti_value(self, key: str) -> str | None:
        """The value, removed as it is read: a second reader (a replayed launch) finds none."""
        with self.database.transaction() as db:
            row = db.execute(
                "SELECT value FROM lti_values WHERE key = ? AND expires >= ?", (key, time.time())
            ).fetchone()
            db.execute("DELETE FROM lti_values WHERE key = ?", (key,))
        return str(row["value"]) if row is not None else None

    def lti_values_count(self) -> int:
        with self.database.connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM lti_values WHERE expires >= ?", (time.time(),)).fetchone()[0])

    def lti_values_under(self, prefix: str) -> list[str]:
        """The keys (after `prefix`) of the live values under it."""
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT key FROM lti_values WHERE key >= ? AND key < ? AND expires >= ?",
                (prefix, prefix + "\uffff", time.time()),
            ).fetchall()
        return [str(r["key"])[len(prefix) :] for r in rows]

    def note_frame_origin(self, origin: str) -> None:
        """An LMS's pages are at `origin` (seen in a launch, or given): they may frame the judge."""
        if origin:
            self.put_lti_value(FRAME_ORIGIN + origin, "1", FRAME_ORIGIN_S)

    def frame_origins(self) -> tuple[str, ...]:
        return tuple(sorted(self.lti_values_under(FRAME_ORIGIN)))

    # --- people -------------------------------------------------------------------------------

    def lti_person(self, issuer: str, sub: str) -> str | None:
        with self.database.connect() as db:
            row = db.execute("SELECT user FROM lti_people WHERE issuer = ? AND sub = ?", (issuer, sub)).fetchone()
        return str(row["user"]) if row is not None else None

    def person_user(self, issuer: str, sub: str, wanted: list[str], name: str, email: str) -> str:
        """The roster id of the LMS user `sub`: the one linked before; else the first of `wanted`
        that is a roster student no LMS user holds yet (a roster imported from the registrar),
        or that no one holds (made, with no usable token: an LMS user signs in by launches);
        else a fresh `lms-...`. Their name and email are kept for the teacher's pages."""
        with self.database.transaction() as db:
            row = db.execute("SELECT user FROM lti_people WHERE issuer = ? AND sub = ?", (issuer, sub)).fetchone()
            if row is not None:
                db.execute(
                    "UPDATE lti_people SET name = ?, email = ? WHERE issuer = ? AND sub = ?", (name, email, issuer, sub)
                )
                return str(row["user"])
            chosen = None
            for user_id in [*wanted, f"lms-{secrets.token_hex(5)}"]:
                held = db.execute("SELECT role FROM users WHERE id = ?", (user_id,)).fetchone()
                taken = db.execute(
                    "SELECT 1 FROM lti_people WHERE issuer = ? AND user = ?", (issuer, user_id)
                ).fetchone()
                if held is None:
                    db.execute(
                        "INSERT INTO users (id, role, token_hash, created) VALUES (?, 'student', ?, ?)",
                        (user_id, hash_token(secrets.token_urlsafe(18)), time.time()),
                    )
                if held is None or (held["role"] == "student" and taken is None):
                    chosen = user_id
                    break
            assert chosen is not None, "a fresh random id is free"
            db.execute(
                "INSERT INTO lti_people (issuer, sub, user, name, email) VALUES (?, ?, ?, ?, ?)",
                (issuer, sub, chosen, name, email),
            )
            return chosen

    def link_person(self, issuer: str, sub: str, user_id: str, name: str, email: str) -> None:
        """The LMS user `sub` is `user_id` here from now on (a teacher who proved it with their
        token); whoever of that LMS was `user_id` before is no longer."""
        with self.database.transaction() as db:
            db.execute("DELETE FROM lti_people WHERE issuer = ? AND (sub = ? OR user = ?)", (issuer, sub, user_id))
            db.execute(
                "INSERT INTO lti_people (issuer, sub, user, name, email) VALUES (?, ?, ?, ?, ?)",
                (issuer, sub, user_id, name, email),
            )

    def sub_of(self, issuer: str, user_id: str) -> str | None:
        """The LMS's id of a roster user (`sub`), for the grades sent to that LMS."""
        with self.database.connect() as db:
            row = db.execute("SELECT sub FROM lti_people WHERE issuer = ? AND user = ?", (issuer, user_id)).fetchone()
        return str(row["sub"]) if row is not None else None

    def done_mark(self) -> tuple[int, float]:
        """What changes when a judging ends (how many are done, the last end): the passback
        plans anew only then."""
        with self.database.connect() as db:
            row = db.execute(
                "SELECT COUNT(*) AS n, COALESCE(MAX(finished), 0) AS last FROM submissions WHERE status = 'done'"
            ).fetchone()
            members = db.execute("SELECT COUNT(*) AS n, COALESCE(MAX(seen), 0) AS last FROM lti_members").fetchone()
        return int(row["n"]) + int(members["n"]), float(row["last"]) + float(members["last"])

    def linked_people(self) -> set[str]:
        with self.database.connect() as db:
            return {str(r["user"]) for r in db.execute("SELECT user FROM lti_people")}

    def set_role(self, user_id: str, role: str) -> None:
        """The role a linked LMS course gives, only ever upward: a student may become a ta (a
        TeachingAssistant) or a teacher (an Instructor), a ta a teacher; a teacher stays one
        (`judge roster add ID` makes them a student)."""
        below = {"ta": ("student",), "teacher": ("student", "ta")}.get(role, ())
        with self.database.transaction() as db:
            for held in below:
                db.execute("UPDATE users SET role = ? WHERE id = ? AND role = ?", (role, user_id, held))

    # --- LMS courses and their members -------------------------------------------------------

    def lms_course(self, issuer: str, context_id: str) -> LmsCourse | None:
        with self.database.connect() as db:
            row = db.execute(
                "SELECT * FROM lti_courses WHERE issuer = ? AND context_id = ?", (issuer, context_id)
            ).fetchone()
        return _course(row) if row is not None else None

    def lms_courses(self) -> list[LmsCourse]:
        with self.database.connect() as db:
            return [_course(r) for r in db.execute("SELECT * FROM lti_courses ORDER BY linked")]

    def link_course(self, course: LmsCourse) -> None:
        """Link an LMS course, or refresh what its launches say of it (title, service URLs)."""
        with self.database.transaction() as db:
            db.execute(
                "INSERT INTO lti_courses (issuer, context_id, client_id, deployment_id, title, lineitems_url,"
                " memberships_url, tool_url, linked, linked_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (issuer, context_id) DO UPDATE SET title = excluded.title,"
                " lineitems_url = COALESCE(NULLIF(excluded.lineitems_url, ''), lineitems_url),"
                " memberships_url = COALESCE(NULLIF(excluded.memberships_url, ''), memberships_url),"
                " tool_url = excluded.tool_url, deployment_id = excluded.deployment_id",
                (
                    course.issuer,
                    course.context_id,
                    course.client_id,
                    course.deployment_id,
                    course.title,
                    course.lineitems_url,
                    course.memberships_url,
                    course.tool_url,
                    time.time(),
                    course.linked_by,
                ),
            )

    def member_seen(self, issuer: str, context_id: str, members: list[tuple[str, str]], whole: bool) -> None:
        """The LMS says these (user, role) are in its course; `whole`: the whole list, so any
        other member is marked dropped (their submissions stay)."""
        now = time.time()
        with self.database.transaction() as db:
            db.executemany(
                "INSERT INTO lti_members (issuer, context_id, user, role, seen, dropped) VALUES (?, ?, ?, ?, ?, NULL)"
                " ON CONFLICT (issuer, context_id, user) DO UPDATE SET role = excluded.role, seen = excluded.seen,"
                " dropped = NULL",
                [(issuer, context_id, user, role, now) for user, role in members],
            )
            if whole:
                db.execute(
                    "UPDATE lti_members SET dropped = ? WHERE issuer = ? AND context_id = ? AND seen < ?"
                    " AND dropped IS NULL",
                    (now, issuer, context_id, now),
                )

    def members(self, issuer: str, context_id: str) -> list[Member]:
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT m.user, m.role, m.dropped, COALESCE(p.name, '') AS name, COALESCE(p.email, '') AS email"
                " FROM lti_members m LEFT JOIN lti_people p ON p.user = m.user"
                " WHERE m.issuer = ? AND m.context_id = ? ORDER BY m.user",
                (issuer, context_id),
            ).fetchall()
        return [Member(r["user"], r["role"], r["name"], r["email"], r["dropped"]) for r in rows]

    # --- line items and the grades for them ------------------------------------------------

    def lineitem(self, issuer: str, context_id: str, assignment: str) -> str | None:
        with self.database.connect() as db:
            row = db.execute(
                "SELECT url FROM lti_lineitems WHERE issuer = ? AND context_id = ? AND assignment = ?",
                (issuer, context_id, assignment),
            ).fetchone()
        return str(row["url"]) if row is not None else None

    def set_lineitem(self, issuer: str, context_id: str, assignment: str, url: str) -> None:
        with self.database.transaction() as db:
            db.execute(
                "INSERT INTO lti_lineitems (issuer, context_id, assignment, url) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (issuer, context_id, assignment) DO UPDATE SET url = excluded.url",
                (issuer, context_id, assignment, url),
            )

    def want_scores(self, sends: list[Send]) -> int:
        """Queue each score unless the LMS has it already or it is queued; how many were queued.
        One transaction for them all: a judging that changes one score reads every seat's."""
        queued = 0
        with self.database.transaction() as db:
            for send in sends:
                row = db.execute(
                    "SELECT score, max_score, status, sent_score FROM lti_sends"
                    " WHERE issuer = ? AND context_id = ? AND assignment = ? AND user = ?",
                    send.key,
                ).fetchone()
                if row is not None:
                    held = row["score"] if row["status"] == "pending" else row["sent_score"]
                    if held == send.score and row["max_score"] == send.max_score:
                        continue
                db.execute(
                    f"INSERT INTO lti_sends ({SEND_FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, '', NULL, NULL)"
                    " ON CONFLICT (issuer, context_id, assignment, user) DO UPDATE SET score = excluded.score,"
                    " max_score = excluded.max_score, submission = excluded.submission, at = excluded.at,"
                    " status = 'pending', tries = 0, next_try = excluded.next_try, error = ''",
                    (*send.key, send.score, send.max_score, send.submission, send.at, send.next_try),
                )
                queued += 1
        return queued

    def sends(self, status: str | None = None, due_by: float | None = None) -> list[Send]:
        clauses: list[str] = []
        args: list[object] = []
        if status is not None:
            clauses.append("status = ?")
            args.append(status)
        if due_by is not None:
            clauses.append("next_try <= ?")
            args.append(due_by)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self.database.connect() as db:
            rows = db.execute(
                f"SELECT {SEND_FIELDS} FROM lti_sends {where} ORDER BY next_try, user", tuple(args)
            ).fetchall()
        return [Send(*tuple(r)) for r in rows]

    def send_done(self, send: Send) -> None:
        """The LMS has `send.score`: kept as sent unless a newer score was queued meanwhile."""
        with self.database.transaction() as db:
            db.execute(
                "UPDATE lti_sends SET sent_score = ?, sent = ?, status = CASE WHEN score = ? AND max_score = ?"
                " THEN 'sent' ELSE status END, error = '' WHERE issuer = ? AND context_id = ? AND assignment = ?"
                " AND user = ?",
                (send.score, time.time(), send.score, send.max_score, *send.key),
            )

    def send_failed(self, send: Send, error: str, next_try: float) -> None:
        with self.database.transaction() as db:
            db.execute(
                "UPDATE lti_sends SET tries = tries + 1, next_try = ?, error = ? WHERE issuer = ? AND context_id = ?"
                " AND assignment = ? AND user = ? AND status = 'pending'",
                (next_try, error[:500], *send.key),
            )

    def defer_sends(self, issuer: str, until: float) -> None:
        """Every pending score for the LMS `issuer` waits until `until` at least."""
        with self.database.transaction() as db:
            db.execute(
                "UPDATE lti_sends SET next_try = MAX(next_try, ?) WHERE issuer = ? AND status = 'pending'",
                (until, issuer),
            )

    def resend(self, issuer: str | None = None) -> int:
        """Queue every score again (of one platform), as sent or not: how many."""
        where, args = ("WHERE issuer = ?", (issuer,)) if issuer is not None else ("", ())
        with self.database.transaction() as db:
            return db.execute(
                f"UPDATE lti_sends SET status = 'pending', tries = 0, next_try = ?, error = '' {where}",
                (time.time(), *args),
            ).rowcount


def _course(r: sqlite3.Row) -> LmsCourse:
    return LmsCourse(
        r["issuer"],
        r["context_id"],
        r["client_id"],
        r["deployment_id"],
        r["title"],
        r["lineitems_url"],
        r["memberships_url"],
        r["tool_url"],
        r["linked_by"],
    )
