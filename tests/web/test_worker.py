"""A worker keeps each problem it loaded (and the digest taken of it) while its folder is
unchanged, and loads it again once a file of it changes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from judge.kinds.table import load_problem
from judge.web.worker import LoadedProblems
from tests.conftest import PROBLEMS


def test_a_problem_is_loaded_again_only_when_a_file_of_it_changed(tmp_path: Path) -> None:
    folder = tmp_path / "lanqiao"
    shutil.copytree(PROBLEMS / "lanqiao", folder)
    loaded = LoadedProblems()
    first = loaded.get(folder)
    digest = first.digest
    assert loaded.get(folder) is first  # nothing changed: the same problem, its digest kept
    answer = next((folder / "tests").rglob("*.ans"))
    answer.write_text("17\n")  # the teacher fixes an answer
    info = answer.stat()
    os.utime(answer, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    again = loaded.get(folder)
    assert again is not first and again.digest != digest


def test_a_function_problem_is_judged_from_an_upload(tmp_path: Path) -> None:
    """The web path: a student's uploaded module, judged by its own name from the stored bytes."""
    from judge.author import scaffold
    from judge.author.making import generate, write
    from judge.kinds.table import load_problem
    from judge.problem.tables import TableStore
    from judge.run import sandbox
    from judge.web.state.store import Store
    from judge.web.worker import judge_claim

    if not sandbox.detect().isolated:
        return
    made = (
        scaffold.create(tmp_path / "problems", "maxf", "python3", kind="functions")
        if ((tmp_path / "problems").mkdir() is None)
        else None
    )
    assert made is not None
    problem = load_problem(made.directory)
    write(problem, generate(problem, TableStore()))
    store = Store(tmp_path / "data")
    store.add_user("ada")
    source = (made.directory / "solutions" / "wrong_answer" / "off_by_one.py").read_bytes()
    store.submit("ada", "maxf", "python3", "my answer.py", source)
    claim = store.claim(worker=1)
    assert claim is not None
    record = judge_claim(claim, problem, store)
    assert record is not None and record.verdict == "WA" and record.source == "my answer.py"
    # A public call names itself and says what differs (issue 59).
    assert record.cases[1].message == "max_sum([-5, -1, -8]): expected -1, got 0"


def test_a_worker_judges_the_program_the_door_identified_never_identifying_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A submission kept with the door's identification is judged from it: with the rules of
    identification out of reach, the claim is still judged (a row from before is not)."""
    from judge.run import sandbox, sources
    from judge.web.state.store import Store
    from judge.web.worker import judge_claim

    if not sandbox.detect().isolated:
        pytest.skip("needs a sandbox that isolates")
    problem = load_problem(PROBLEMS / "eight-digits")
    source = (PROBLEMS / "eight-digits" / "solutions" / "accepted" / "astar.py").read_bytes()
    program = sources.from_upload("mine.py", source, language_id="python3")
    store = Store(tmp_path / "data")
    store.add_user("ada")
    store.submit("ada", "eight-digits", "python3", "mine.py", source, program=sources.as_record(program))

    def refused(*args: object, **kwargs: object) -> sources.Sources:
        raise AssertionError("the upload was identified again")

    monkeypatch.setattr(sources, "from_upload", refused)
    claim = store.claim(worker=1)
    assert claim is not None and claim.program is not None
    record = judge_claim(claim, problem, store)
    assert record is not None and record.verdict == "AC" and record.source == "mine.py"
