"""A class list from a CSV file, as teachers export one: the ids in its first column."""

from __future__ import annotations

import csv
from pathlib import Path

from judge.errors import JudgeError
from judge.web.state.accounts import valid_user_id

HEADERS = ("id", "student", "student_id")  # a first row naming the column, skipped


def read_ids(csv_file: Path) -> list[str]:
    """The ids of the first column (blank rows skipped); a bad id is an error naming its line."""
    try:
        text = csv_file.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise JudgeError(f"{csv_file}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise JudgeError(f"{csv_file}: not UTF-8 text") from None
    ids: list[str] = []
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        if not row or not row[0].strip():
            continue
        value = row[0].strip()
        if number == 1 and value.lower() in HEADERS:
            continue
        if not valid_user_id(value):
            raise JudgeError(f"{csv_file}:{number}: {value!r} is not an id (1-64 letters, digits, '.', '_' or '-')")
        ids.append(value)
    return ids
