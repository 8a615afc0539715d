"""What a submission's live page may show while it is judged (pure): each judged case's
verdict, cut to its reader.

A teacher sees every case the moment it is judged. A student sees the state as it was at the
last whole step of judging time (Settings.result_step_s), as the result itself is released:
the moment a case ends is a clock the program controls, and each reading of it is a channel
for the secret inputs. Public cases are shown with their verdicts; secret cases only at the
`cases` feedback level (where their verdicts are shown in the end anyway); at any other level
the student learns of the secret cases nothing before the result, not even how many ended, since
a group that stops at its first failure would tell where that was. Once a case is an IE (the
judge's failure), the secret cases are shown at no level.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class JudgedCase:
    """One case as the worker judged it: stored in the submission's `live` column."""

    name: str
    verdict: str
    public: bool
    at: float  # seconds since the epoch when its verdict was known


@dataclass(frozen=True)
class LiveView:
    cases: tuple[tuple[str, str], ...]  # (name, verdict) of each judged case the reader may see
    done: int  # judged cases counted for the reader ("case 7 of 17")
    total: int  # cases counted for the reader (0: no count is shown)
    secret_note: str  # what is said instead of the secret cases ("" when they are shown)
    # Every public case shown and secret ones still to come, at a level that hides them: the page
    # says the hidden tests are being judged (it looked stuck at "case 2 of 2 judged").
    hidden_running: bool = False


def dumps(entries: Sequence[JudgedCase]) -> str:
    return json.dumps([[e.name, e.verdict, e.public, round(e.at, 3)] for e in entries])


def loads(text: str | None) -> tuple[JudgedCase, ...]:
    """The stored entries; a damaged column reads as none (the result page is unaffected)."""
    if not text:
        return ()
    try:
        return tuple(JudgedCase(str(n), str(v), bool(p), float(t)) for n, v, p, t in json.loads(text))
    except (ValueError, TypeError):
        return ()


def cutoff(started: float | None, now: float, step_s: float) -> float:
    """The moment a student's view is taken at: the end of the last whole step of judging."""
    if step_s <= 0 or started is None:
        return now
    return started + math.floor(max(0.0, now - started) / step_s) * step_s


def for_teacher(entries: Sequence[JudgedCase], total: int) -> LiveView:
    return LiveView(tuple((e.name, e.verdict) for e in entries), len(entries), total, "")


def for_student(entries: Sequence[JudgedCase], public_total: int, total: int, level: str, seen_at: float) -> LiveView:
    """The cases a student may see at feedback `level`, as judged by the moment `seen_at`."""
    seen = [e for e in entries if e.at <= seen_at]
    # A judging that has failed (an IE) will show nothing of its secret cases (grade.feedback):
    # from then on its live view shows none either.
    failed = any(e.verdict == "IE" for e in seen)  # as of the step, as the rest of the view
    if level == "cases" and not failed:
        return LiveView(tuple((e.name, e.verdict) for e in seen), len(seen), total, "")
    public = [e for e in seen if e.public]
    hidden = total > public_total
    note = "The secret cases' results come with the result of the whole submission." if hidden else ""
    cases = tuple((e.name, e.verdict) for e in public)
    return LiveView(cases, len(public), public_total, note, hidden and not failed and len(public) >= public_total)
