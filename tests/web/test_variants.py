"""Variants on the web: each student reads their own statement and public cases, is judged on
their own variant (a rejudge too), and the teacher sees which variant a student had."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from judge.author import making
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.run import sandbox
from judge.web import rejudging, variants
from judge.web.serving.app import Settings, create_app
from judge.web.state import proposal
from judge.web.state.store import Store
from judge.web.worker import LoadedProblems, claimed_problem, judge_claim
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
