"""A rejudge's proposal in the data folder: kept and read back, a damaged file said in one line
naming it, and applied in one transaction only where its submission is as the dry run found it."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.web.state import proposal
from judge.web.state.proposal import Judged, Proposal
from judge.web.state.store import Store
from tests.web.test_course import record


def judged_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    for student in ("ann", "bob"):
        store.add_user(student)
        store.submit(student, "p", "python3", "main.py", b"print(1)\n", now=100.0)
        claim = store.claim(now=100.0)
        assert claim is not None and store.finish(claim, record(student, "p", "WA", 40.0), now=101.0)
    return store


def test_a_proposal_is_kept_and_read_back(tmp_path: Path) -> None:
    store = judged_store(tmp_path)
    assert proposal.load(store.data_dir) is None
    plan = Proposal(("p",), (("p", "abc"),), 5.0, (Judged(1, 101.0, record("ann", "p", "AC", 100.0)),))
    proposal.save(store.data_dir, plan)
    assert proposal.load(store.data_dir) == plan
    assert (store.data_dir / proposal.PROPOSAL_FILE).stat().st_mode & 0o077 == 0  # sources' results: ours alone
    proposal.discard(store.data_dir)
    assert proposal.load(store.data_dir) is None


def test_a_damaged_file_is_one_line_naming_it(tmp_path: Path) -> None:
    (tmp_path / proposal.PROPOSAL_FILE).write_text("{not json")
    with pytest.raises(JudgeError, match=f"{proposal.PROPOSAL_FILE}: not a rejudge file"):
        proposal.load(tmp_path)
    (tmp_path / proposal.PROGRESS_FILE).write_text('{"status": "done"}')
    with pytest.raises(JudgeError, match=f"{proposal.PROGRESS_FILE}: not a rejudge file"):
        proposal.load_progress(tmp_path)


def test_apply_writes_only_submissions_as_the_dry_run_found_them(tmp_path: Path) -> None:
    store = judged_store(tmp_path)
    first, second = store.all()
    plan = Proposal(
        ("p",),
        (),
        5.0,
        (
            Judged(first.id, first.finished, record("ann", "p", "AC", 100.0)),
            Judged(second.id, 55.0, record("bob", "p", "AC", 100.0)),  # judged again since (another end)
        ),
    )
    assert proposal.apply(store, plan, now=500.0) == (1, 1)
    ann, bob = store.all()
    assert (ann.verdict, ann.score, ann.finished) == ("AC", 100.0, 500.0)
    assert ann.finished - (ann.started or 0) == first.finished - (first.started or 0)  # its length kept
    assert (bob.verdict, bob.score, bob.finished) == ("WA", 40.0, second.finished)
    held = store.record(ann.id)
    assert held is not None and held.verdict == "AC"
