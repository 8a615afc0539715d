"""A class list from a CSV file, as teachers export one: the ids in its first column, and when a
header row names them, the columns name, email, section and role (student or ta)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.web.state.accounts import ID_RULE, valid_user_id

HEADERS = ("id", "student", "student_id")  # a first row naming the id column, skipped
COLUMNS = ("name", "email", "section", "role")  # read only when the header row names them
ROSTER_ROLES = ("student", "ta")  # a teacher is made by `judge roster add --teacher`, never a file


@dataclass(frozen=True)
class Enrolment:
    id: str
    name: str = ""
    email: str = ""
    section: str = ""
    role: str = "student"


def _text(csv_file: Path) -> str:
    try:
        return csv_file.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise JudgeError(f"{csv_file}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise JudgeError(f"{csv_file}: not UTF-8 text") from None


def _entry(csv_file: Path, number: int, row: list[str], where: dict[str, int]) -> Enrolment:
    value = row[0].strip()
    if not valid_user_id(value):
        raise JudgeError(f"{csv_file}:{number}: {value!r} is not an id ({ID_RULE})")
    found = {c: row[i].strip() if i < len(row) else "" for c, i in where.items()}
    role = found.get("role", "").lower() or "student"
    if role not in ROSTER_ROLES:
        raise JudgeError(f"{csv_file}:{number}: role {role!r} is not one of {', '.join(ROSTER_ROLES)}")
    return Enrolment(value, found.get("name", ""), found.get("email", ""), found.get("section", ""), role)


def read_roster(csv_file: Path) -> list[Enrolment]:
    """Each row's id and what the header names of it (blank rows skipped); a bad id or role is
    an error naming its line. A file of ids alone, with or without a header, reads as before."""
    where: dict[str, int] = {}
    entries: list[Enrolment] = []
    for number, row in enumerate(csv.reader(_text(csv_file).splitlines()), start=1):
        if not row or not row[0].strip():
            continue
        if number == 1 and row[0].strip().lower() in HEADERS:
            named = [cell.strip().lower() for cell in row]
            where = {c: named.index(c) for c in COLUMNS if c in named}
            continue
        entries.append(_entry(csv_file, number, row, where))
    return entries


def read_ids(csv_file: Path) -> list[str]:
    """The ids of the first column (blank rows skipped); a bad id is an error naming its line."""
    return [entry.id for entry in read_roster(csv_file)]
