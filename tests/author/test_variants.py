"""A student's variant made from the problem's programs: its own tests and statement, the
same every time, answered by the reference; and verify's sample of variants."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from judge.author import rendering, verify
from judge.author import variants as making_variants
from judge.errors import JudgeError
from judge.grade import runner
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.problem.spec import Problem
from judge.run.verdicts import Verdict

SPEC = """\
id: scaled
title: Scaled sum
source: the judge's tests
limits: {time_s: 2, memory_mib: 256}
reference: solutions/accepted/ref.py
variants: {per_student: true, params: "params.py {seed}", verify_sample: 2}
groups:
  - {name: samples, visibility: public, cases: [{input: "3\\n0 0\\n", answer: "0\\n"}]}
  - {name: secret, points: 100, generate: "gen.py {m} {seed}", count: 2, seed: 1}
"""
PARAMS = "import json, random, sys\nprint(json.dumps({'m': random.Random(int(sys.argv[1])).randint(2, 10**6)}))\n"
GEN = (
    "import random, sys\nr = random.Random(int(sys.argv[2]))\n"
    "print(sys.argv[1]); print(' '.join(str(r.randint(1, 100)) for _ in range(4)))\n"
)
REF = "m = int(input()); print(m * sum(map(int, input().split())))\n"


def scaled(root: Path) -> Path:
    """A problem of variants: multiply the sum by the variant's m (given on the first line)."""
    folder = root / "scaled"
    for name, text in {
        "problem.yaml": SPEC,
        "statement.md": "# Scaled sum\n\nMultiply the sum by {{ m }}.\n",
        "generators/params.py": PARAMS,
        "generators/gen.py": GEN,
        "solutions/accepted/ref.py": REF,
    }.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def fixed(m: int) -> str:
    """A program right for a variant of that m only: it reads the m of the input but not its own."""
    return f"input(); print({m} * sum(map(int, input().split())))\n"


def m_of(problem: Problem) -> int:
    secret = [c for c in testdata.load_cases(problem) if not c.public]
    return int(secret[0].input.read_text().split()[0])


def verdict_of(problem: Problem, program: Path) -> Verdict:
    result = runner.judge_submission(problem, runner.load_for(problem, program), testdata.load_cases(problem))
    return result.verdict


def test_two_students_get_their_own_tests_and_statements(tmp_path: Path) -> None:
    base = load_problem(scaled(tmp_path))
    cache = tmp_path / "cache"
    alice = making_variants.for_student(base, "alice", cache)
    bob = making_variants.for_student(base, "bob", cache)
    assert alice.variant != bob.variant and alice.variant is not None
    m_alice, m_bob = m_of(alice), m_of(bob)
    assert m_alice != m_bob
    assert f"by {m_alice}." in alice.statement_path.read_text()
    assert f"by {m_bob}." in bob.statement_path.read_text()
    assert "{{" not in alice.statement_path.read_text()
    secret_inputs = {c.input.read_text() for c in testdata.load_cases(alice) if not c.public}
    assert secret_inputs.isdisjoint(c.input.read_text() for c in testdata.load_cases(bob))
    assert alice.digest != bob.digest
    # The reference answered each variant, and a program right for one fails the other.
    reference = base.directory / "solutions/accepted/ref.py"
    assert verdict_of(alice, reference) is Verdict.AC and verdict_of(bob, reference) is Verdict.AC
    right_for_alice = tmp_path / "alice.py"
    right_for_alice.write_text(fixed(m_alice))
    assert verdict_of(alice, right_for_alice) is Verdict.AC
    assert verdict_of(bob, right_for_alice) is Verdict.WA


def test_the_same_student_gets_the_same_variant_in_another_process(tmp_path: Path) -> None:
    folder = scaled(tmp_path)
    cache = tmp_path / "cache"
    here = making_variants.for_student(load_problem(folder), "alice", cache)
    made = sorted(p.name for p in (cache / "scaled").iterdir() if not p.name.startswith("."))
    assert made == [here.tests_dir.parent.name]  # made once, kept
    code = (
        "import sys; from pathlib import Path; from judge.author import variants; from judge.kinds.table import"
        " load_problem; p = variants.for_student(load_problem(Path(sys.argv[1])), 'alice', Path(sys.argv[2]));"
        " print(p.variant, p.tests_dir)"
    )
    there = subprocess.run(
        [sys.executable, "-c", code, str(folder), str(cache)], capture_output=True, text=True, check=True
    ).stdout.split()
    assert there == [here.variant, str(here.tests_dir)]
    # A fresh cache (the salt kept) makes the same variant's same files again.
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / making_variants.SALT_FILE).write_text((cache / making_variants.SALT_FILE).read_text())
    again = making_variants.for_student(load_problem(folder), "alice", fresh)
    assert again.variant == here.variant
    assert [c.input.read_text() for c in testdata.load_cases(again)] == [
        c.input.read_text() for c in testdata.load_cases(here)
    ]


def test_a_problem_without_variants_is_itself(tmp_path: Path) -> None:
    folder = scaled(tmp_path)
    spec = folder / "problem.yaml"
    spec.write_text(spec.read_text().replace("variants:", "#").replace("{m} {seed}", "7 {seed}"))
    problem = load_problem(folder)
    assert making_variants.for_student(problem, "alice", tmp_path / "cache") is problem


def test_a_params_program_that_fails_is_named(tmp_path: Path) -> None:
    folder = scaled(tmp_path)
    (folder / "generators/params.py").write_text("print('not json')\n")
    with pytest.raises(JudgeError, match=r"problem.yaml: variants.params \(s[0-9a-f]{8}\): not one JSON object"):
        making_variants.for_student(load_problem(folder), "alice", tmp_path / "cache")
    assert not [
        p for p in (tmp_path / "cache" / "scaled").iterdir() if not p.name.endswith(".lock")
    ]  # nothing half made


def test_verify_checks_a_sample_of_variants(tmp_path: Path) -> None:
    folder = scaled(tmp_path)
    (folder / "solutions/wrong_answer").mkdir()
    checks = verify.variant_checks(load_problem(folder))
    assert [c.failures for c in checks] == [()]
    assert "2 variants" in checks[0].detail
    # An accepted solution right for one variant only fails verify on the others.
    m = m_of(making_variants.made(load_problem(folder), verify.sampled(load_problem(folder))[0], tmp_path / "c"))
    (folder / "solutions/accepted/one.py").write_text(fixed(m))
    [check] = verify.variant_checks(load_problem(folder))
    assert len(check.failures) == 1 and "accepted/one.py: expected AC, got WA" in check.failures[0]


def test_spec_names_what_a_variant_lacks(tmp_path: Path) -> None:
    folder = scaled(tmp_path)
    spec = folder / "problem.yaml"
    # A {name} of the variant's parameters in `generate` is known only when the params program ran.
    spec.write_text(SPEC.replace("{m} {seed}", "{k} {seed}"))
    with pytest.raises(JudgeError, match=r"\{k\} is not a parameter of the variant \(known: m\)"):
        making_variants.for_student(load_problem(folder), "alice", tmp_path / "cache")
    # Without variants such a placeholder is refused when the spec loads, as before.
    plain = "".join(line for line in SPEC.splitlines(keepends=True) if not line.startswith("variants"))
    spec.write_text(plain.replace("{m} {seed}", "{k} {seed}"))
    with pytest.raises(JudgeError, match=r"generate: unknown placeholder \{k\}"):
        load_problem(folder)
    spec.write_text(SPEC.replace('params: "params.py {seed}", ', "").replace("{m} {seed}", "5 {seed}"))
    load_problem(folder)  # a generated group: each variant has its own tests
    spec.write_text(
        SPEC.replace('params: "params.py {seed}", ', "").replace(
            'generate: "gen.py {m} {seed}", count: 2, seed: 1', 'cases: [{input: "2\\\\n1 1\\\\n"}]'
        )
    )
    with pytest.raises(JudgeError, match=r"problem.yaml:6: variants: every variant would be the same"):
        load_problem(folder)


def test_first_visits_at_once_make_a_variant_once(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    problem = load_problem(scaled(tmp_path))
    cache = tmp_path / "cache"
    with ThreadPoolExecutor(4) as pool:
        made = list(
            pool.map(lambda who: making_variants.for_student(problem, who, cache), ["ada", "ada", "bob", "ada"])
        )
    assert len({p.tests_dir for p in made}) == 2 and made[0].tests_dir == made[1].tests_dir == made[3].tests_dir
    # Two folders, whole, and nothing half made beside them.
    assert sorted(p.name[0] for p in (cache / "scaled").iterdir() if not p.name.endswith(".lock")) == ["s", "s"]


def test_a_template_that_never_ends_is_stopped_and_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rendering, "CPU_S", 1)
    folder = scaled(tmp_path)
    (folder / "statement.md").write_text(
        "{% for i in 'ab' * 100000 %}{% for j in 'ab' * 100000 %}{% endfor %}{% endfor %}"
    )
    with pytest.raises(JudgeError, match=r"statement.md: statement template: took more than"):
        making_variants.for_student(load_problem(folder), "alice", tmp_path / "cache")


def test_a_variant_being_made_holds_up_no_other_students(tmp_path: Path) -> None:
    import fcntl
    import os
    import threading

    problem = load_problem(scaled(tmp_path))
    cache = tmp_path / "cache"
    choice = making_variants.chosen_for(problem, "alice", cache)
    assert choice is not None
    # alice's variant is being made (its lock held) when bob's first visit comes.
    (cache / "scaled").mkdir(parents=True)
    held = os.open(cache / "scaled" / f".{choice.label}.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        made: list[Problem] = []
        bob = threading.Thread(target=lambda: made.append(making_variants.for_student(problem, "bob", cache)))
        bob.start()
        bob.join(120)  # for ever before: one lock per problem
        assert made and made[0].variant != choice.label
    finally:
        os.close(held)
        bob.join()


def test_a_change_to_what_a_variant_is_made_from_makes_it_again(tmp_path: Path) -> None:
    folder = scaled(tmp_path)
    cache = tmp_path / "cache"
    first = making_variants.for_student(load_problem(folder), "alice", cache)
    assert "Multiply the sum by" in first.statement_path.read_text()
    m = m_of(first)
    (folder / "statement.md").write_text("# Scaled\n\nTimes {{ m }}.\n")
    second = making_variants.for_student(load_problem(folder), "alice", cache)
    assert second.statement_path.read_text() == f"# Scaled\n\nTimes {m}.\n"  # the same seed
    assert not first.tests_dir.exists()  # the old version's folder removed once the new one is in place
    (folder / "generators/params.py").write_text(PARAMS.replace("10**6)", "10**6) * 0 + 77"))
    third = making_variants.for_student(load_problem(folder), "alice", cache)
    assert m_of(third) == 77 and third.variant == first.variant
    assert [p.name for p in (cache / "scaled").iterdir() if not p.name.startswith(".")] == [third.tests_dir.parent.name]
