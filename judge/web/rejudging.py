"""A rejudge that shows whose score moves: every judged submission of some problems judged again
on the problems' current data, by the workers' own judging (worker.submitted_of, judging.judge),
into a proposal (state/proposal.py) that writes nothing to the submissions; whose counted score
it moves (course/moved.py, by the gradebook's one rule); and its commit, which stores exactly
those results.

A dry run never keeps a student waiting: before each submission, and between two of its cases,
it waits while a student's submission is queued (the workers take it), as explanations do."""

from __future__ import annotations

import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from multiprocessing.context import SpawnProcess
from pathlib import Path

from judge.course import gradebook
from judge.course.moved import Judging, ScoreMove, Verdicts, moves
from judge.course.spec import Course
from judge.errors import JudgeError
from judge.grade import judging, runner
from judge.grade.results import GradeRecord
from judge.kinds.table import load_problem
from judge.problem.spec import Problem
from judge.run import lifecycle
from judge.web import variants, worker
from judge.web.state import proposal
from judge.web.state.proposal import DryRunProgress, Judged, Proposal, Stored
from judge.web.state.queueing import Claim
from judge.web.state.review import Reviews
from judge.web.state.store import Store
from judge.web.state.teams import TeamBook

log = logging.getLogger("judge.web")

LOOK_S = 0.5  # how often a dry run looks at the queue between two cases
STUCK_S = 30.0  # a queue that has not moved this long has no worker (no server): go on


class Yielding:
    """Whether a student's submission waits (asked at most every LOOK_S), and waiting until none
    does; a queue unchanged for STUCK_S is taken as having no worker, and no longer waited for."""

    def __init__(self, store: Store, sleep: Callable[[float], None] = time.sleep) -> None:
        self.store, self.sleep = store, sleep
        self.looked = -LOOK_S
        self.seen: tuple[int, ...] = ()
        self.since = time.monotonic()

    def waiting(self) -> bool:
        now = time.monotonic()
        if now - self.looked < LOOK_S:
            return False
        self.looked = now
        queued = proposal.students_waiting(self.store)
        if queued != self.seen:
            self.seen, self.since = queued, now
        return bool(queued) and now - self.since < STUCK_S

    def wait(self) -> None:
        while True:
            self.looked = -LOOK_S
            if not self.waiting():
                return
            self.sleep(LOOK_S)


def judge_stored(
    stored: Stored, problem: Problem, yielding: Yielding | None = None, data_dir: Path | None = None
) -> GradeRecord:
    """One submission judged as a worker judges it (without the live page and saved output),
    on its student's variant where the problem has variants (kept in `data_dir`); its cases
    paused while a student's submission waits, and resumed after."""
    claim = _claim_of(stored)
    done: tuple[runner.CaseResult, ...] = ()
    while True:
        try:
            own = problem if data_dir is None else variants.of_student(problem, stored.student, data_dir)
            submitted = worker.submitted_of(claim, own)
            return judging.judge(submitted, done=done, pause=yielding.waiting if yielding is not None else None)
        except runner.Paused as paused:
            done = paused.done
            assert yielding is not None
            yielding.wait()
        except JudgeError as err:
            return worker.failed_record(claim, str(err))


def judged_again(stored: Stored, problem: Problem, yielding: Yielding | None, data_dir: Path) -> Judged:
    """A dry run's judging of one submission. Where its student's variant cannot be made (a
    broken params program, say) it is not judged: the reason is logged and kept, and a commit
    leaves the submission as it was, rather than an IE that would move its score."""
    try:
        own = variants.of_student(problem, stored.student, data_dir)
    except JudgeError as err:
        why = f"{problem.id}, variant {variants.label(problem, stored.student, data_dir)}: {err}"
        log.error("rejudge of submission %d: could not be judged: %s", stored.id, why)
        return Judged(stored.id, stored.finished, worker.failed_record(_claim_of(stored), why), why)
    return Judged(stored.id, stored.finished, judge_stored(stored, own, yielding))


def _claim_of(stored: Stored) -> Claim:
    return Claim(
        stored.id,
        0,
        stored.student,
        stored.problem,
        stored.language,
        stored.filename,
        stored.source,
        (),
        stored.program,
    )


def load_problems(problems_dir: Path, ids: list[str]) -> dict[str, Problem]:
    """The problems as they are now on disk, found where the workers find them."""
    found = {}
    for problem_id in ids:
        if not (problems_dir / problem_id).is_dir():
            raise JudgeError(f"{problems_dir / problem_id}: no such problem")
        found[problem_id] = load_problem(problems_dir / problem_id)
    return found


def dry_run(
    store: Store,
    problems_dir: Path,
    ids: list[str],
    on_progress: Callable[[int, int], None] = lambda judged, total: None,
    yielding: Yielding | None = None,
) -> Proposal:
    """Judge every judged submission of these problems again, writing nothing of them: the
    proposal, which `commit` stores."""
    problems = load_problems(problems_dir, ids)
    stored = proposal.to_judge(store, ids)
    judged = []
    on_progress(0, len(stored))
    for index, row in enumerate(stored):
        if yielding is not None:
            yielding.wait()
        judged.append(judged_again(row, problems[row.problem], yielding, store.data_dir))
        on_progress(index + 1, len(stored))
    digests = tuple((p, problems[p].digest) for p in ids)
    return Proposal(tuple(ids), digests, time.time(), tuple(judged))


def _verdicts(records: Mapping[int, GradeRecord]) -> Verdicts:
    return Verdicts(
        {i: Judging(r.verdict, r.score) for i, r in records.items()},
        {i: {c.name: c.verdict for c in r.cases} for i, r in records.items()},
    )


def moved(store: Store, course: Course, max_scores: Mapping[str, float], plan: Proposal) -> tuple[ScoreMove, ...]:
    """Whose counted score the proposal moves, if committed now: the gradebook of the store as it
    is, against the same with the proposal's results in place of those it replaces."""
    rows = store.all()
    # A submission judged again since the dry run keeps its result: the commit leaves it alone.
    finished = {row.id: row.finished for row in rows if row.status == "done"}
    new = {j.id: j.record for j in plan.judged if not j.unjudged and j.id in finished and finished[j.id] == j.finished}
    old = {i: r for i in new if (r := store.record(i)) is not None}
    before = [row.attempt_record for row in rows]
    after = [
        gradebook.Attempt(a.id, a.student, a.problem, a.received, new[a.id].verdict, new[a.id].score)
        if a.id in new
        else a
        for a in before
    ]
    roster = store.students()
    manual = Reviews(store).counted(course, every=True)  # hand grades count as in the teacher's book
    teams = TeamBook(store).teams()  # and a team submission in each member's row
    book_before = gradebook.build(course, roster, before, max_scores, manual, teams)
    book_after = gradebook.build(course, roster, after, max_scores, manual, teams)
    return moves(book_before, book_after, _verdicts(old), _verdicts(new))


@dataclass(frozen=True)
class Committed:
    written: int
    left: int  # judged again since the dry run: left as they are


def commit(store: Store, problems_dir: Path, now: float | None = None) -> Committed:
    """Store the waiting proposal's results, once its problems are still as it judged them."""
    plan = proposal.load(store.data_dir)
    if plan is None:
        raise JudgeError(f"{store.data_dir}: no dry run to commit (run `judge rejudge --dry-run` first)")
    current = load_problems(problems_dir, list(plan.problems))
    changed = [p for p, digest in plan.digests if current[p].digest != digest]
    if changed:
        raise JudgeError(f"{', '.join(changed)} changed since the dry run: run it again before committing")
    written, left = proposal.apply(store, plan, now)
    proposal.discard(store.data_dir)
    return Committed(written, left)


def run_and_keep(
    data_dir: Path, problems_dir: Path, ids: list[str], say: Callable[[int, int], None] = lambda j, t: None
) -> Proposal:
    """A dry run that keeps its progress and then its proposal in the data folder (the teacher's
    page reads both, whoever started it); what stops it is kept as its error, and raised.
    `say`: its progress, told as it goes (the command prints it)."""
    store = Store(data_dir)
    pid = os.getpid()

    def progress(judged: int, total: int) -> None:
        proposal.save_progress(data_dir, DryRunProgress("running", tuple(ids), judged, total, pid))
        say(judged, total)

    try:
        plan = dry_run(store, problems_dir, ids, progress, Yielding(store))
    except JudgeError as err:
        proposal.save_progress(data_dir, DryRunProgress("failed", tuple(ids), 0, 0, pid, str(err)))
        raise
    proposal.save(data_dir, plan)
    proposal.save_progress(data_dir, DryRunProgress("done", tuple(ids), len(plan.judged), len(plan.judged), pid))
    return plan


def another_running(data_dir: Path) -> None:
    """JudgeError while a dry run is being made: one at a time, its files are one."""
    held = proposal.load_progress(data_dir)
    if held is not None and held.running:
        raise JudgeError(f"a dry run of {', '.join(held.problems)} is still running")


def _background(data_dir: Path, problems_dir: Path, ids: list[str], parent: int) -> None:
    lifecycle.handle_sigterm()
    lifecycle.die_with_parent(parent)
    try:
        run_and_keep(data_dir, problems_dir, ids)
    except JudgeError:
        pass  # kept as its error, for the page
    except Exception as err:  # a bug of the judge: said on the page
        proposal.save_progress(
            data_dir, DryRunProgress("failed", tuple(ids), 0, 0, os.getpid(), f"internal error: {err}")
        )


def start(data_dir: Path, problems_dir: Path, ids: list[str]) -> SpawnProcess:
    """A dry run in a process of its own (spawned, as the workers are), for the teacher's page;
    JudgeError while another is running."""
    another_running(data_dir)
    multiprocessing.active_children()  # reaps dry runs that ended
    proposal.discard(data_dir)
    context = multiprocessing.get_context("spawn")
    process = context.Process(
        target=_background, args=(data_dir, problems_dir, ids, os.getpid()), name="judge-dry-run", daemon=True
    )
    process.start()
    proposal.save_progress(data_dir, DryRunProgress("running", tuple(ids), 0, 0, process.pid or 0))
    return process
