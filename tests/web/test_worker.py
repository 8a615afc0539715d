"""A worker keeps each problem it loaded (and the digest taken of it) while its folder is
unchanged, and loads it again once a file of it changes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from judge.kinds.table import load_problem
from judge.web.worker import LoadedProblems, failed_record
from tests import needs
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


def test_a_worker_s_problems_never_mix_and_a_file_added_or_removed_is_seen(tmp_path: Path) -> None:
    lanqiao, eight = tmp_path / "lanqiao", tmp_path / "eight-digits"
    shutil.copytree(PROBLEMS / "lanqiao", lanqiao)
    shutil.copytree(PROBLEMS / "eight-digits", eight)
    loaded = LoadedProblems()
    first_l, first_e = loaded.get(lanqiao), loaded.get(eight)
    assert (first_l.id, first_e.id) == ("lanqiao", "eight-digits")
    assert loaded.get(lanqiao) is first_l and loaded.get(eight) is first_e  # each its own, in turn
    added = eight / "tests" / "random" / "note.txt"  # deep in the folder: seen
    added.write_text("a file the teacher added\n")
    again_e = loaded.get(eight)
    assert again_e is not first_e and loaded.get(lanqiao) is first_l  # the other problem kept
    added.unlink()
    assert loaded.get(eight) is not again_e
    assert loaded.get(lanqiao) is first_l


def test_a_claim_commits_without_a_flush_and_a_result_with_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim a power cut undoes leaves its submission queued, as a restart does; the result
    must outlive one (a student was shown it)."""
    from contextlib import AbstractContextManager

    from judge.grade import results
    from judge.web.state.store import Store

    store = Store(tmp_path / "data")
    store.add_user("ada")
    store.submit("ada", "p", "c", "main.c", b"x")
    said: list[bool] = []
    real = Store.transaction

    def spied(self: Store, durable: bool = True) -> AbstractContextManager[object]:
        said.append(durable)
        return real(self, durable)

    monkeypatch.setattr(Store, "transaction", spied)
    claim = store.claim(worker=1)
    assert claim is not None and said == [False]
    said.clear()
    assert store.finish(claim, results.failed("ada", "p", "main.c", "c", "", 0.0, "why", "none"))
    assert said == [True]


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


def test_a_run_gives_its_worker_up_to_a_waiting_submission(tmp_path: Path) -> None:
    """Ordering, no clock: a run under way when a submission waits and no worker is free stops,
    goes back to the queue saying so, and the worker's next claim is the submission."""
    from judge.run import sandbox
    from judge.web.state.runs import RunClaim, Runs, TriedResult
    from judge.web.state.store import Store
    from judge.web.worker import serve_run

    store = Store(tmp_path / "data")
    for student in ("ada", "bo"):
        store.add_user(student)
    runs = Runs(store)
    seen: list[bool] = []

    def slow(taken: RunClaim, stop: sandbox.Stop) -> TriedResult:
        seen.append(stop.is_set())  # nothing waits yet
        store.submit("bo", "sums", "python3", "b.py", b"print(1)\n")  # a classmate submits meanwhile
        seen.append(stop.is_set())  # the sandbox, asking as it watches, ends the run here
        return TriedResult("", "", ())

    run_id = runs.ask("ada", "sums", ("python3", "pasted", b"print(1)\n", b""), None, per_minute=5)
    assert serve_run(runs, slow, most=1, workers=1, every_s=0.0)  # asked at each look
    found = runs.get(run_id)
    assert seen == [False, True] and found is not None and found.status == "queued" and found.yielded
    claim = store.claim(worker=os.getpid())
    assert claim is not None and claim.student == "bo"  # the submission first
    store.finish(claim, failed_record(claim, "judged"))  # done: the run is taken again
    assert serve_run(runs, lambda taken, stop: TriedResult("", "", ()), most=1, workers=1)
    done = runs.get(run_id)
    assert done is not None and done.status == "done" and not done.yielded


def test_with_a_free_worker_a_run_goes_on(tmp_path: Path) -> None:
    from judge.run import sandbox
    from judge.web.state.runs import RunClaim, Runs, TriedResult
    from judge.web.state.store import Store
    from judge.web.worker import serve_run

    store = Store(tmp_path / "data")
    for student in ("ada", "bo"):
        store.add_user(student)
    runs = Runs(store)

    def slow(taken: RunClaim, stop: sandbox.Stop) -> TriedResult:
        store.submit("bo", "sums", "python3", "b.py", b"print(1)\n")
        assert not stop.is_set()  # the other worker takes it
        return TriedResult("", "", ())

    run_id = runs.ask("ada", "sums", ("python3", "pasted", b"print(1)\n", b""), None, per_minute=5)
    assert serve_run(runs, slow, most=1, workers=2, every_s=0.0)
    done = runs.get(run_id)
    assert done is not None and done.status == "done"


@needs.mark("isolation", "python3")
def test_a_sleeping_run_in_the_sandbox_stops_for_a_submission(tmp_path: Path) -> None:
    """The real thing: a run sleeping in the sandbox (its wall limit far off) is stopped when a
    classmate's submission comes, and waits in the queue; without the stop it ran to its TLE."""
    import threading

    from judge.author import scaffold
    from judge.run import sources
    from judge.web.state.runs import Runs
    from judge.web.state.store import Store
    from judge.web.worker import run_judge, serve_run
    from tests.test_cli import judge

    problems = tmp_path / "problems"
    problems.mkdir()
    made = scaffold.create(problems, "maxsum", "python3")
    spec = made.directory / "problem.yaml"
    spec.write_text(spec.read_text().replace("time_s: 1.0", "time_s: 10.0"))
    assert judge("--problems", str(problems), "gen", "maxsum").returncode == 0
    store = Store(tmp_path / "data")
    for student in ("ada", "bo"):
        store.add_user(student)
    runs = Runs(store)
    source = b"import time\ntime.sleep(120)\n"
    record = sources.as_record(sources.from_upload("s.py", source, language_id="python3"))
    run_id = runs.ask("ada", "maxsum", ("python3", "s.py", source, record), None, 5)

    def classmate() -> None:
        for _ in range(6000):  # until the run is under way (a bound, not a time asserted)
            found = runs.get(run_id)
            if found is not None and found.status == "running":
                break
            threading.Event().wait(0.01)
        store.submit("bo", "maxsum", "python3", "b.py", b"print(1)\n")

    thread = threading.Thread(target=classmate)
    thread.start()
    served = serve_run(runs, run_judge(LoadedProblems(), problems, store.data_dir), most=1, workers=1)
    thread.join()
    found = runs.get(run_id)
    assert served and found is not None and found.status == "queued" and found.yielded
