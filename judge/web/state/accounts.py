"""Who may use the web judge: the roster (token hashes only), browser sessions (the hash of a
random id), and the login throttle per account and per address."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from judge.errors import JudgeError
from judge.web.state.database import Database

ROLES = ("student", "ta", "teacher")
SESSION_S = 12 * 3600  # a session ends 12 hours after the login at the latest


@dataclass(frozen=True)
class Throttle:
    """The login throttle: `free` failures in a row are allowed, then each failure locks the
    key for `first_lock_s`, doubled per further failure, at most `max_lock_s`. A key's
    failures are forgotten `forget_s` after its last one, and an account's on a success."""

    free: int
    first_lock_s: float = 30.0
    max_lock_s: float = 3600.0
    forget_s: float = 3600.0

    def lock_s(self, failures: int) -> float:
        if failures < self.free:
            return 0.0
        return min(self.max_lock_s, self.first_lock_s * 2.0 ** (failures - self.free))


ACCOUNT_THROTTLE = Throttle(free=5)
# An address is shared by a lab or a campus NAT: it gets more room before it is locked.
ADDRESS_THROTTLE = Throttle(free=30)


@dataclass(frozen=True)
class User:
    id: str
    role: str

    # The one rule of who may do what (every route asks these, never the role itself): a
    # teaching assistant sees and grades what the teacher does of submissions; only the
    # teacher changes the course (rejudges, tokens and sessions, the roster).
    @property
    def can_grade(self) -> bool:
        return self.role in ("ta", "teacher")

    @property
    def can_manage(self) -> bool:
        return self.role == "teacher"


class Accounts(Database):
    def add_user(self, user_id: str, role: str = "student") -> str:
        """Add (or give a new token to) a user; returns the token, which is stored only as a hash."""
        if role not in ROLES:
            raise JudgeError(f"unknown role {role!r} (known: {', '.join(ROLES)})")
        if not valid_user_id(user_id):
            raise JudgeError(f"{user_id!r}: a user id is {ID_RULE}")
        token = secrets.token_urlsafe(18)
        with self.transaction() as db:
            db.execute(
                "INSERT INTO users (id, role, token_hash, created) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET role = excluded.role, token_hash = excluded.token_hash",
                (user_id, role, hash_token(token), time.time()),
            )
            # A new token is given when the old one leaked: what was logged in with it ends,
            # and so does a lock that someone guessing at the old one caused.
            db.execute("DELETE FROM sessions WHERE user = ?", (user_id,))
            db.execute("DELETE FROM login_failures WHERE key = ?", (f"user:{user_id}",))
        return token

    # --- sessions -------------------------------------------------------------------------

    def new_session(self, user_id: str, now: float | None = None) -> str:
        """A session for a user who just logged in: the cookie's value (only its hash is kept)."""
        now = time.time() if now is None else now
        session_id = secrets.token_urlsafe(32)
        with self.transaction() as db:
            db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
            db.execute(
                "INSERT INTO sessions (id_hash, user, created, expires) VALUES (?, ?, ?, ?)",
                (_session_hash(session_id), user_id, now, now + SESSION_S),
            )
        return session_id

    def session_user(self, session_id: str, now: float | None = None) -> User | None:
        """The user of a live session, else None (unknown, ended or expired)."""
        now = time.time() if now is None else now
        with self.connect() as db:
            row = db.execute(
                "SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user WHERE s.id_hash = ? AND s.expires >= ?",
                (_session_hash(session_id), now),
            ).fetchone()
        return User(row["id"], row["role"]) if row is not None else None

    def end_session(self, session_id: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM sessions WHERE id_hash = ?", (_session_hash(session_id),))

    def end_other_sessions(self, user_id: str, keep: str, why: str, now: float) -> int:
        """End every session of a user but `keep` (an exam's one live session), each remembered
        with `why` so its next request can say it; how many were ended."""
        with self.transaction() as db:
            db.execute("DELETE FROM ended_sessions WHERE ended < ?", (now - SESSION_S,))
            rows = db.execute(
                "SELECT id_hash FROM sessions WHERE user = ? AND id_hash != ?", (user_id, _session_hash(keep))
            ).fetchall()
            db.executemany(
                "INSERT OR REPLACE INTO ended_sessions (id_hash, user, ended, why) VALUES (?, ?, ?, ?)",
                [(r["id_hash"], user_id, now, why) for r in rows],
            )
            db.execute("DELETE FROM sessions WHERE user = ? AND id_hash != ?", (user_id, _session_hash(keep)))
        return len(rows)

    def ended_why(self, session_id: str) -> str | None:
        """Why a session was ended by the judge (None: it was not; logged out, expired or unknown)."""
        with self.connect() as db:
            row = db.execute(
                "SELECT why FROM ended_sessions WHERE id_hash = ?", (_session_hash(session_id),)
            ).fetchone()
        return str(row["why"]) if row is not None else None

    def end_sessions(self, user_id: str) -> int:
        """End every session of a user (the teacher's button); how many there were."""
        with self.transaction() as db:
            return db.execute("DELETE FROM sessions WHERE user = ?", (user_id,)).rowcount

    # --- the login throttle ----------------------------------------------------------------

    def login_wait(self, keys: dict[str, Throttle], now: float | None = None) -> float:
        """Seconds before a login may be tried for these keys (0: now)."""
        now = time.time() if now is None else now
        with self.connect() as db:
            rows = db.execute(
                f"SELECT locked_until FROM login_failures WHERE key IN ({', '.join('?' * len(keys))})", tuple(keys)
            ).fetchall()
        return max([0.0, *(float(r["locked_until"]) - now for r in rows)])

    def login_failed(self, keys: dict[str, Throttle], now: float | None = None) -> None:
        """Count a failed login against each key, locking those past their free failures."""
        now = time.time() if now is None else now
        with self.transaction() as db:
            for key, throttle in keys.items():
                row = db.execute("SELECT failures, last FROM login_failures WHERE key = ?", (key,)).fetchone()
                failures = 1 if row is None or now - row["last"] > throttle.forget_s else row["failures"] + 1
                db.execute(
                    "INSERT INTO login_failures (key, failures, last, locked_until) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, last = excluded.last, "
                    "locked_until = excluded.locked_until",
                    (key, failures, now, now + throttle.lock_s(failures)),
                )

    def login_succeeded(self, keys: list[str]) -> None:
        with self.transaction() as db:
            db.executemany("DELETE FROM login_failures WHERE key = ?", [(k,) for k in keys])

    def users(self) -> list[tuple[User, int]]:
        """Every user with their number of submissions."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT u.id, u.role, COUNT(s.id) AS n FROM users u LEFT JOIN submissions s ON s.student = u.id "
                "GROUP BY u.id ORDER BY u.role DESC, u.id"
            ).fetchall()
        return [(User(r["id"], r["role"]), r["n"]) for r in rows]

    def authenticate(self, user_id: str, token: str) -> User | None:
        with self.connect() as db:
            row = db.execute("SELECT id, role, token_hash FROM users WHERE id = ?", (user_id,)).fetchone()
        # Compare even for an unknown id, so timing does not tell which ids exist.
        stored = row["token_hash"] if row is not None else hash_token("")
        ok = check_token(token, stored)
        return User(row["id"], row["role"]) if row is not None and ok else None

    def token_hash(self, user_id: str) -> str | None:
        with self.connect() as db:
            row = db.execute("SELECT token_hash FROM users WHERE id = ?", (user_id,)).fetchone()
        return str(row["token_hash"]) if row is not None else None

    def user(self, user_id: str) -> User | None:
        with self.connect() as db:
            row = db.execute("SELECT id, role FROM users WHERE id = ?", (user_id,)).fetchone()
        return User(row["id"], row["role"]) if row is not None else None


ID_RULE = "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"


def valid_user_id(user_id: str) -> bool:
    """An id is also a folder's name (exports, `judge grade`'s student folders) and a word on a
    command line: it starts with a letter or digit, so it is never '.', '..', hidden or an option."""
    return (
        0 < len(user_id) <= 64
        and user_id[0].isascii()
        and user_id[0].isalnum()
        and all(c.isascii() and (c.isalnum() or c in "._-") for c in user_id)
    )


def _session_hash(session_id: str) -> str:
    # A session id is 256 random bits: a plain hash keeps a stolen database from logging in.
    return hashlib.sha256(session_id.encode()).hexdigest()


def hash_token(token: str) -> str:
    # Tokens are random (144 bits): a salted SHA-256 is enough; no password stretching needed.
    salt = secrets.token_hex(8)
    return f"{salt}${hashlib.sha256((salt + token).encode()).hexdigest()}"


def check_token(token: str, stored: str) -> bool:
    salt, _, digest = stored.partition("$")
    return hmac.compare_digest(hashlib.sha256((salt + token).encode()).hexdigest(), digest)
