"""Runs (issue 59) as stored: one at a time per student, a per-minute cap, never a submission,
claimed by one worker, taken again when its worker is long gone, and only the newest kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.grade import results
from judge.web.state.queueing import PendingError, RateError
from judge.web.state.runs import KEPT, STALE_S, RunOffError, Runs, TriedCase, TriedResult
from judge.web.state.store import Store

PROGRAM = ("python3", "pasted", b"print(1)\n", b"")
JUDGED = results.failed("ada", "sums", "a.py", "python3", "h", 100.0, "test", "none")
DONE = TriedResult("", "", (TriedCase("samples/1", "AC", "", 0.01, "1\n", "1\n", "1\n", ""),))


def _runs(tmp_path: Path) -> tuple[Store, Runs]:
    store = Store(tmp_path / "data")
    store.add_user("ada")
    return store, Runs(store)


def test_a_run_is_no_submission_and_waits_for_the_last_one(tmp_path: Path) -> None:
    store, runs = _runs(tmp_path)
    first = runs.ask("ada", "sums", PROGRAM, None, per_minute=5, now=100.0)
    assert store.used("ada", "sums") == 0 and store.of_student("ada") == []  # not a submission
    with pytest.raises(PendingError):
        runs.ask("ada", "sums", PROGRAM, "7\n", per_minute=5, now=101.0)
    taken = runs.claim(worker=9, now=102.0)
    assert taken is not None and taken.claim.id == first and taken.own_input is None
    assert runs.claim(worker=8, now=103.0) is None  # one worker's
    assert not runs.finish(first, worker=8, result=DONE)  # a stale worker stores nothing
    assert runs.finish(first, worker=9, result=DONE, now=104.0)
    found = runs.get(first)
    assert found is not None and found.status == "done" and found.result == DONE
    second = runs.ask("ada", "sums", PROGRAM, "7\n", per_minute=5, now=105.0)
    found = runs.get(second)
    assert found is not None and found.own_input == "7\n" and found.status == "queued"


def test_the_per_minute_cap_holds_and_zero_is_no_run(tmp_path: Path) -> None:
    _, runs = _runs(tmp_path)
    for k in range(3):
        made = runs.ask("ada", "sums", PROGRAM, None, per_minute=3, now=100.0 + k)
        assert runs.claim(worker=1, now=100.0 + k) is not None
        runs.finish(made, 1, DONE)
    with pytest.raises(RateError) as caught:
        runs.ask("ada", "sums", PROGRAM, None, per_minute=3, now=110.0)
    assert caught.value.count == 3 and caught.value.wait_s == pytest.approx(50.0)
    assert runs.ask("ada", "sums", PROGRAM, None, per_minute=3, now=161.0) > 0  # a minute on
    with pytest.raises(RunOffError):
        runs.ask("ada", "sums", PROGRAM, None, per_minute=0, now=300.0)


def test_a_run_whose_worker_is_gone_is_taken_again_and_old_runs_go(tmp_path: Path) -> None:
    _, runs = _runs(tmp_path)
    made = runs.ask("ada", "sums", PROGRAM, None, per_minute=100, now=100.0)
    assert runs.claim(worker=1, now=100.0) is not None
    again = runs.claim(worker=2, now=100.0 + STALE_S + 1)
    assert again is not None and again.claim.id == made
    assert runs.finish(made, 2, DONE)
    for k in range(KEPT + 3):
        runs.ask("ada", "sums", PROGRAM, None, per_minute=1000, now=1000.0 + k)
        taken = runs.claim(worker=3, now=1000.0 + k)
        assert taken is not None
        runs.finish(taken.claim.id, 3, DONE)
    assert runs.get(made) is None  # only the newest are kept


def test_a_run_and_a_submission_of_one_student_never_go_together(tmp_path: Path) -> None:
    """A run beside the student's own submission could time its secret cases or read what they
    leave in the page cache: each waits for the other, either way round."""
    store, runs = _runs(tmp_path)
    store.submit("ada", "sums", "python3", "a.py", b"print(1)\n", now=100.0)
    with pytest.raises(PendingError, match="is being judged; Run when it is done"):
        runs.ask("ada", "sums", PROGRAM, None, per_minute=5, now=101.0)
    store.add_user("bo")
    runs.ask("bo", "sums", PROGRAM, None, per_minute=5, now=101.0)  # another student's is no matter
    with pytest.raises(PendingError, match=r"your run \d+ is still going"):
        store.submit("bo", "sums", "python3", "b.py", b"print(1)\n", now=102.0)
    assert runs.get(2**63) is None and runs.get(0) is None


def test_runs_take_at_most_the_workers_they_are_given(tmp_path: Path) -> None:
    """A started run holds its worker to its end: runs are judged on `most` workers at once,
    so with two workers one always stays free for the submissions that count."""
    store, runs = _runs(tmp_path)
    store.add_user("bo")
    runs.ask("ada", "sums", PROGRAM, None, per_minute=5, now=100.0)
    runs.ask("bo", "sums", PROGRAM, None, per_minute=5, now=100.0)
    first = runs.claim(worker=1, now=101.0, most=1)
    assert first is not None
    assert runs.claim(worker=2, now=101.0, most=1) is None  # the other worker stays free
    assert runs.claim(worker=2, now=101.0, most=2) is not None


def test_a_run_yields_only_when_a_submission_would_wait_behind_it(tmp_path: Path) -> None:
    """A run gives its worker up when a submission is queued and every worker is busy; put
    back, it is the first run claimed again, and its page can tell it yielded."""
    store, runs = _runs(tmp_path)
    store.add_user("bo")
    store.add_user("cy")
    store.add_user("di")
    run_id = runs.ask("ada", "sums", PROGRAM, None, per_minute=5, now=100.0)
    taken = runs.claim(worker=1, now=101.0, most=1)
    assert taken is not None
    assert not runs.must_yield(workers=1, now=102.0)  # nothing waits
    store.submit("bo", "sums", "python3", "b.py", b"print(1)\n", now=102.0)
    assert runs.must_yield(workers=1, now=102.0)  # the one worker is the run's
    assert not runs.must_yield(workers=2, now=102.0)  # a free worker takes it
    assert store.claim(worker=2, now=103.0) is not None  # now judged on the second worker...
    store.submit("cy", "sums", "python3", "c.py", b"print(1)\n", now=103.0)
    assert runs.must_yield(workers=2, now=104.0)  # ...and a third would wait behind the run
    assert not runs.requeue(run_id, worker=7)  # not that worker's
    assert runs.requeue(run_id, worker=1)
    found = runs.get(run_id)
    assert found is not None and found.status == "queued" and found.yielded
    runs.ask("di", "sums", PROGRAM, None, per_minute=5, now=105.0)
    again = runs.claim(worker=1, now=106.0, most=1)
    assert again is not None and again.claim.id == run_id  # first among runs again
    assert runs.finish(run_id, worker=1, result=DONE, now=107.0)
    done = runs.get(run_id)
    assert done is not None and not done.yielded


def test_a_students_doors_stay_shut_until_their_result_is_shown(tmp_path: Path) -> None:
    """A second submission or a run, asked every 0.2 s, once opened the moment judging ended
    and so timed it to the poll, where the result shows it only in whole result steps: both
    doors now wait for the end of the step (queueing.judging), as the result does."""
    store, runs = _runs(tmp_path)
    store.submit("ada", "sums", "python3", "a.py", b"print(1)\n", now=100.0)
    claim = store.claim(now=100.0)
    assert claim is not None and store.finish(claim, JUDGED, now=101.2)  # shown at 105
    for now in (101.3, 104.9):
        with pytest.raises(PendingError, match="Run when it is done"):
            runs.ask("ada", "sums", PROGRAM, None, per_minute=5, now=now, held_s=5.0)
        with pytest.raises(PendingError, match="still being judged"):
            store.submit("ada", "sums", "python3", "a.py", b"print(1)\n", now=now, held_s=5.0)
    runs.ask("ada", "sums", PROGRAM, None, per_minute=5, now=101.3)  # a teacher's: no step
    ran = runs.claim(worker=1, now=101.4)
    assert ran is not None and runs.finish(ran.claim.id, 1, DONE)
    runs.ask("ada", "sums", PROGRAM, None, per_minute=5, now=105.0, held_s=5.0)
