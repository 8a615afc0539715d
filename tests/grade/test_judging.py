"""One way to judge a submission: from a file of the class or from an upload's bytes, the same
identification, the same hash, the student's own file name in every message and record."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.grade import judging
from judge.kinds.table import load_problem
from judge.problem.spec import Problem
from tests.grade.test_grading import PROGRAMS, small_problems


@pytest.fixture(scope="module")
def problem(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    return load_problem(small_problems(tmp_path_factory.mktemp("problems") / "problems") / "sicily-rotations")


def test_an_upload_and_the_same_file_in_the_class_are_the_same_submission(problem: Problem, tmp_path: Path) -> None:
    source = (PROGRAMS / "sicily_ok.cpp").read_bytes()
    on_disk = tmp_path / "sicily-rotations.cpp"
    on_disk.write_bytes(source)
    from_class = judging.identify(problem, on_disk, "ada")
    uploaded = judging.identify(problem, ("sicily-rotations.cpp", source), "ada", "cpp")
    assert from_class.content_hash == uploaded.content_hash and from_class.language == uploaded.language == "cpp"
    assert uploaded.shown == "sicily-rotations.cpp" and uploaded.sources is not None
    assert from_class.sources is not None and uploaded.sources.files == from_class.sources.files
    # Judged in full is another judging: its result is not reused for a lazy one.
    assert judging.identify(problem, on_disk, "ada", full=True).content_hash != from_class.content_hash


def test_a_kept_identification_is_the_same_submission_as_the_upload(problem: Problem) -> None:
    """The web judge keeps what its door identified; judged from that, the submission is the
    one identify makes of the upload: same program, hash and name."""
    from judge.run import sources

    source = (PROGRAMS / "sicily_ok.cpp").read_bytes()
    upload = ("sicily-rotations.cpp", source)
    uploaded = judging.identify(problem, upload, "ada", "cpp")
    assert uploaded.sources is not None
    kept = judging.identified(problem, sources.as_record(uploaded.sources), upload, "ada", "cpp")
    assert kept == uploaded


def test_an_upload_is_named_by_its_own_name_never_a_path_of_the_judge(problem: Problem, tmp_path: Path) -> None:
    binary = judging.identify(problem, ("../../etc/Solution.py", b"print(1)\0\n"), "bo", "python3")
    assert binary.sources is None and binary.error == "Solution.py: binary file, not source code"
    record = judging.unrunnable(binary)
    assert record is not None and record.verdict == "NG" and record.source == "Solution.py"
    assert record.error == binary.error and record.hash == binary.content_hash
    assert list(tmp_path.iterdir()) == []  # and nothing was written anywhere to read it


def test_an_archive_upload_is_read_from_its_bytes(problem: Problem) -> None:
    import io
    import zipfile

    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as zf:
        zf.writestr("work/main.cpp", (PROGRAMS / "sicily_ok.cpp").read_bytes())
    submitted = judging.identify(problem, ("mine.zip", packed.getvalue()), "cy")
    assert submitted.sources is not None and not submitted.sources.single
    assert [name for name, _ in submitted.sources.files] == ["main.cpp"] and submitted.language == "cpp"


def test_an_uploaded_submission_is_judged_into_a_record_under_its_own_name(problem: Problem) -> None:
    source = (PROGRAMS / "sicily_zero.c").read_bytes()
    record = judging.judge(judging.identify(problem, ("zero.c", source), "di", "c"))
    assert record.verdict == "WA" and record.source == "zero.c" and record.student == "di"
    assert record.max_score == problem.max_score and record.cases
