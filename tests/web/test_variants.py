"""Variants on the web: each student reads their own statement and public cases, is judged on
their own variant (a rejudge too), and the teacher sees which variant a student had."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.author import making
from judge.course.spec import implicit
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.run import sandbox
from judge.web import rejudging, variants
from judge.web.serving.app import Settings, create_app
from judge.web.state import proposal
from judge.web.state.store import Store
from judge.web.worker import LoadedProblems, claimed_problem, failed_record, judge_claim
from tests.author.test_variants import fixed, m_of, scaled


def _client(data: Path, problems: Path, user: str, token: str) -> TestClient:
    client = TestClient(create_app(Settings(problems_dir=problems, data_dir=data), start_workers=False))
    assert client.post("/login", data={"user": user, "token": token}, follow_redirects=False).status_code == 303
    return client


def test_each_student_reads_and_is_judged_on_their_own_variant(tmp_path: Path) -> None:
    if not sandbox.detect().isolated:
        return
    problems, data = tmp_path / "problems", tmp_path / "data"
    problems.mkdir()
    base = load_problem(scaled(problems))
    making.write(base, making.generate(base))
    store = Store(data)
    tokens = {who: store.add_user(who) for who in ("ada", "bob")}
    tokens["tea"] = store.add_user("tea", "teacher")
    ada, bob, teacher = (_client(data, problems, who, tokens[who]) for who in ("ada", "bob", "tea"))
    page_ada, page_bob = ada.get("/problems/scaled").text, bob.get("/problems/scaled").text
    # The first visit made each variant; the page shows its own parameter and no other's.
    mine, theirs = (variants.of_student(base, who, data) for who in ("ada", "bob"))
    m_ada, m_bob = m_of(mine), m_of(theirs)
    assert f"by {m_ada}." in page_ada and f"by {m_bob}." not in page_ada
    assert f"by {m_bob}." in page_bob and "{{" not in page_bob
    # Nothing of a classmate's variant reaches a student: no teacher page, no case of theirs.
    assert ada.get("/teacher/students/bob").status_code in (403, 404)
    for case in testdata.load_cases(theirs):
        if not case.public:
            assert case.input.read_text().strip() not in page_ada
    # The same program: right on ada's variant, wrong on bob's.
    program = fixed(m_ada).encode()
    for who in ("ada", "bob"):
        store.submit(who, "scaled", "python3", "sum.py", program)
    verdicts = {}
    loaded = LoadedProblems()
    for _ in range(2):
        claim = store.claim(worker=1)
        assert claim is not None
        record = judge_claim(claim, claimed_problem(claim, loaded, problems, data), store)
        assert record is not None
        store.finish(claim, record)
        verdicts[claim.student] = record.verdict
    assert verdicts == {"ada": "AC", "bob": "WA"}
    # A rejudge judges each on the same variant again.
    again = {
        row.student: rejudging.judge_stored(row, base, None, data).verdict
        for row in proposal.to_judge(store, ["scaled"])
    }
    assert again == verdicts
    # The teacher sees which variant each had; a student's own page does not name it.
    ada_id = next(row.id for row in proposal.to_judge(store, ["scaled"]) if row.student == "ada")
    label = variants.label(base, "ada", data)
    assert label == mine.variant and f"variant <strong>{label}</strong>" in teacher.get(f"/submissions/{ada_id}").text
    assert f"scaled {label}" in teacher.get("/teacher/students/ada").text
    assert 'id="variant"' not in ada.get(f"/submissions/{ada_id}").text


def test_a_rejudge_that_cannot_make_a_variant_says_why_and_leaves_the_result(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    problems, data = tmp_path / "problems", tmp_path / "data"
    problems.mkdir()
    folder = scaled(problems)
    store = Store(data)
    token = store.add_user("tea", "teacher")
    store.add_user("ada")
    store.submit("ada", "scaled", "python3", "sum.py", b"print(0)\n")
    claim = store.claim(worker=1)
    assert claim is not None
    accepted = dataclasses.replace(failed_record(claim, ""), verdict="AC", score=100.0, max_score=100.0)
    assert store.finish(claim, accepted)
    before = [(s.id, s.verdict, s.score, s.finished) for s in store.all()]
    (folder / "generators/params.py").write_text("print('not json')\n")  # the teacher's slip
    with caplog.at_level(logging.ERROR):
        plan = rejudging.dry_run(store, problems, ["scaled"])
    [judged] = plan.judged
    label = variants.label(load_problem(folder), "ada", data)
    assert judged.unjudged.startswith(f"scaled, variant {label}: ") and "not one JSON object" in judged.unjudged
    assert f"submission {judged.id}: could not be judged: scaled, variant {label}" in caplog.text
    # No score moves by it: it was AC, and no IE is offered in its place.
    assert rejudging.moved(store, implicit(["scaled"]), {"scaled": 100.0}, plan) == ()
    proposal.save(data, plan)
    teacher = _client(data, problems, "tea", token)
    page = teacher.get("/teacher/rejudging").text
    assert f"submission {judged.id}</a>: could not be judged: scaled, variant {label}" in page
    assert rejudging.commit(store, problems).written == 0
    assert [(s.id, s.verdict, s.score, s.finished) for s in store.all()] == before
