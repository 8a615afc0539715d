"""class.csv: ids alone as before, or with a header naming name, email, section and role."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.web.state.roster import Enrolment, read_ids, read_roster
from judge.web.state.store import Store


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "class.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_of_ids_reads_as_before(tmp_path: Path) -> None:
    assert read_ids(_csv(tmp_path, "student\nada\n\nbo,ignored\n")) == ["ada", "bo"]
    assert read_roster(_csv(tmp_path, "ada\nbo\n")) == [Enrolment("ada"), Enrolment("bo")]


def test_a_header_names_the_columns_in_any_order(tmp_path: Path) -> None:
    text = "id,section,Email,name,role\nada,A1,ada@uni.edu,Ada Lovelace,\ntom,A1,tom@uni.edu,Tom T,TA\nbo,,,,\n"
    assert read_roster(_csv(tmp_path, text)) == [
        Enrolment("ada", "Ada Lovelace", "ada@uni.edu", "A1", "student"),
        Enrolment("tom", "Tom T", "tom@uni.edu", "A1", "ta"),
        Enrolment("bo"),
    ]


def test_a_bad_role_or_id_is_one_line_naming_the_file_and_line(tmp_path: Path) -> None:
    path = _csv(tmp_path, "id,role\nada,student\neve,teacher\n")
    with pytest.raises(JudgeError, match=r"class\.csv:3: role 'teacher' is not one of student, ta$"):
        read_roster(path)
    with pytest.raises(JudgeError, match=r"class\.csv:2: 'a b' is not an id"):
        read_roster(_csv(tmp_path, "id,name\na b,X\n"))


def test_details_are_kept_and_an_empty_value_keeps_the_old(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.add_user("ada")
    store.add_user("tom", "ta")
    store.set_details("ada", "Ada Lovelace", "ada@uni.edu", "A1")
    store.set_details("ada", "", "", "B2")
    people = store.people()
    assert (people["ada"].name, people["ada"].email, people["ada"].section) == ("Ada Lovelace", "ada@uni.edu", "B2")
    assert people["ada"].label == "Ada Lovelace (ada)" and people["tom"].label == "tom"
    assert people["tom"].role == "ta" and store.students() == ["ada"]


def test_an_lms_name_is_used_where_class_csv_gave_none(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.add_user("ada")
    store.add_user("bo")
    store.set_details("bo", "Bo From CSV")
    with store.transaction() as db:
        db.executemany(
            "INSERT INTO lti_people (issuer, sub, user, name, email) VALUES ('iss', ?, ?, ?, ?)",
            [("1", "ada", "Ada L", "ada@lms"), ("2", "bo", "Bo From LMS", "bo@lms")],
        )
    people = store.people()
    assert (people["ada"].name, people["ada"].email) == ("Ada L", "ada@lms")
    assert (people["bo"].name, people["bo"].email) == ("Bo From CSV", "bo@lms")
