"""The rule that puts fast cases of one build into one task."""

from __future__ import annotations

from judge.grade.batching import BATCH_MAX, BATCH_S, DEFER_SCAN, Pace, Queue, Sent, beside, ending
from judge.kinds.table import load_problem
from judge.problem.spec import Problem
from tests.conftest import PROBLEMS


def test_a_build_is_not_batched_before_its_pace_is_known_nor_when_its_cases_are_slow() -> None:
    pace = Pace()
    assert pace.size("a", waiting=100, workers=2) == 1
    pace.observe("a", 2 * BATCH_S, 1)
    assert pace.size("a", waiting=100, workers=2) == 1


def test_fast_cases_fill_a_batch_up_to_its_time_its_cap_and_a_fair_share() -> None:
    pace = Pace()
    pace.observe("a", BATCH_S / 10 * 4, 4)  # 4 cases in the time of 4/10 of a batch
    assert pace.size("a", waiting=100, workers=2) == 10
    assert pace.size("a", waiting=7, workers=2) == 4  # the other worker gets the rest
    assert pace.size("a", waiting=1, workers=2) == 1
    pace.observe("b", 0.0, 3)
    assert pace.size("b", waiting=10_000, workers=1) == BATCH_MAX
    pace.forget("a")
    assert pace.size("a", waiting=100, workers=2) == 1


def test_the_pace_follows_the_newer_batches() -> None:
    pace = Pace()
    pace.observe("a", BATCH_S / 20, 1)
    for _ in range(20):
        pace.observe("a", 2 * BATCH_S, 1)  # the submission's later cases are slow
    assert pace.size("a", waiting=100, workers=1) == 1


def test_a_batch_is_the_next_cases_of_one_build_in_rank_order_without_dropped_ones() -> None:
    dropped = {"a3"}
    queue: Queue[str] = Queue(lambda job: job in dropped)
    queue.push((0, 2), "a2", build="a")
    queue.push((0, 0), "a0", build="a")
    queue.push((1, 0), "b0", build="b")
    queue.push((0, 3), "a3", build="a")
    queue.push((0, 1), "a1", build="a")
    queue.push((0, 4), "a4", build="a")
    queue.push((-1, 0), "compile", build=None)
    asked: list[tuple[object, int]] = []

    def size(build: object, waiting: int) -> int:
        asked.append((build, waiting))
        return 3

    assert queue.pop(size) == (None, ["compile"])  # not a case: alone, whatever the size
    assert queue.pop(size) == ("a", ["a0", "a1", "a2"])
    assert queue.pop(size) == ("a", ["a4"])  # a3 was dropped; b0 is another build's
    assert queue.pop(size) == ("b", ["b0"])
    assert asked == [("a", 5), ("a", 1), ("b", 1)]
    assert queue.pop(size) == (None, []) and not queue and not queue.waiting


def test_jobs_that_may_wait_go_after_the_others_and_first_when_nothing_else_is_left() -> None:
    queue: Queue[str] = Queue(lambda job: False)
    for rank, job in enumerate(("a0", "a1", "b0", "b1")):
        queue.push((rank,), job, build=job[0])
    waits = {"a0", "a1"}  # say, beside a case of their group that is running
    assert queue.pop(lambda build, waiting: 1, lambda build, job: job in waits) == ("b", ["b0"])
    assert queue.pop(lambda build, waiting: 1, lambda build, job: job in waits) == ("b", ["b1"])
    assert queue.waiting == {"a": 2}  # the deferred are still queued, in their order
    assert queue.pop(lambda build, waiting: 1, lambda build, job: job in waits) == ("a", ["a0"])
    assert queue.pop(lambda build, waiting: 2, lambda build, job: False) == ("a", ["a1"])
    assert not queue and not queue.waiting


def test_only_a_group_that_may_end_early_makes_its_cases_wait_and_not_with_full() -> None:
    problem = load_problem(PROBLEMS / "lanqiao")
    assert ending(problem, "edge", full=False) == "edge"  # on_reject: break (scoring: all)
    assert ending(problem, "random", full=False) == "random"  # give_up_after_tle and _mle
    assert ending(problem, "edge", full=True) is None  # --full: no group ends early
    for kept in ("give_up_after_tle", "give_up_after_mle", None):
        update = {k: None for k in ("give_up_after_tle", "give_up_after_mle") if k != kept}
        groups = [g.model_copy(update=update) for g in problem.spec.groups]
        changed = Problem(problem.directory, problem.spec.model_copy(update={"groups": groups}))
        # per case: never ends early, unless it gives up on a streak of either kind
        assert ending(changed, "random", full=False) == ("random" if kept else None)


def test_a_case_waits_beside_a_running_one_of_its_build_and_ending_group() -> None:
    running = [Sent(["a:edge", "a:random"], "a", 0.0), Sent(["compile"], None, 0.0)]
    waits = beside(running, lambda job: job.partition(":")[2] or None)
    assert waits("a", "a:edge") and waits("a", "a:random")
    assert not waits("b", "b:edge")  # another build's
    assert not waits("a", "a:hardest")  # nothing of its group runs
    assert not waits("a", "a:")  # a group that never ends early
    assert not waits(None, "compile")


def test_the_look_past_jobs_that_may_wait_is_bounded() -> None:
    queue: Queue[int] = Queue(lambda job: False)
    for rank in range(DEFER_SCAN + 1):
        queue.push((rank,), rank, build="a")  # all may wait
    queue.push((DEFER_SCAN + 1,), -1, build="b")  # out of reach
    assert queue.pop(lambda build, waiting: 1, lambda build, job: job >= 0) == ("a", [0])
    assert queue.pop(lambda build, waiting: 1) == ("a", [1])  # one fewer that may wait: "b" in reach
    assert queue.pop(lambda build, waiting: 1, lambda build, job: job >= 0) == ("b", [-1])
