"""The bound docs/feedback.md gives for each feedback level holds against a program that
encodes what it read of a secret case in its verdict, its CPU time and its memory, judged for
real: the symbols a student can tell apart at a level never exceed 2 ** feedback.bits."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path

import pytest

from judge.grade import feedback, runner
from judge.grade.results import from_result
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.problem.spec import Problem
from judge.run import build
from tests import needs
from tests.test_cli import judge

# The encoder: on its first secret case it acts out SYMBOL (a verdict, a CPU time in seconds and a
# peak memory as a fraction of the limit); on every other case it answers right. The CPU limit
# is 2 s, so each figure sits well inside its quarter (0.05 s in the first, 0.6 s in the second)
# and no run ends at the wall limit however busy the machine is.
ENCODER = """
import sys, time
VERDICT, CPU, MEMORY = {symbol!r}
data = sys.stdin.read()
if data.startswith("secret 1"):
    held = bytearray(int(MEMORY * 256) << 20)
    end = time.process_time() + CPU * 1.0
    while time.process_time() < end:
        pass
    if VERDICT == "RE":
        sys.exit(3)
    if VERDICT == "OLE":
        sys.stdout.write("x" * (2 << 20))
    print("wrong" if VERDICT == "WA" else "ok")
else:
    print("ok")
"""
SYMBOLS = list(itertools.product(("WA", "RE", "OLE"), (0.05, 0.6), (0.05, 0.6)))


@pytest.fixture(scope="module")
def problem(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    root = tmp_path_factory.mktemp("channels") / "problems"
    folder = root / "enc"
    (folder / "solutions").mkdir(parents=True)
    (folder / "statement.md").write_text("Print ok.\n")
    (folder / "solutions" / "reference.py").write_text("print('ok')\n")
    (folder / "problem.yaml").write_text(
        "id: enc\ntitle: Encoder\nsource: the judge's tests\nreference: solutions/reference.py\n"
        "limits: {time_s: 2.0, memory_mib: 256, output_mib: 1}\ngroups:\n"
        '  - {name: samples, visibility: public, cases: [{input: "sample\\n"}]}\n'
        '  - {name: edge, points: 40, cases: [{input: "secret 1\\n"}, {input: "secret 2\\n"}]}\n'
        '  - {name: more, points: 60, scoring: per_case, cases: [{input: "secret 3\\n"}, {input: "secret 4\\n"}]}\n'
    )
    made = judge("--problems", str(root), "gen")
    assert made.returncode == 0, made.stdout + made.stderr
    return load_problem(folder)


def secret_part(shown: feedback.Shown) -> str:
    """What the student sees that is about the secret cases (the sample's own figures vary
    from run to run, and the student knows that input anyway)."""
    groups = [g for g in shown.groups if not g.public]
    cases = [c for c in shown.cases if not c.public]
    return repr((shown.verdict, shown.score, groups, cases))


@needs.mark("isolation")
def test_what_an_encoder_reads_back_stays_within_each_levels_bound(problem: Problem, tmp_path: Path) -> None:
    cases = testdata.load_cases(problem)
    records = []
    for index, symbol in enumerate(SYMBOLS):
        source = tmp_path / f"s{index}" / "main.py"
        source.parent.mkdir()
        source.write_text(ENCODER.format(symbol=symbol))
        result = runner.judge_submission(problem, build.load_submission(source), cases)
        records.append(from_result("ana", str(index), result))
    # The judge itself tells every symbol apart (the teacher's view): the encoder works.
    assert [r.cases[1].verdict for r in records] == [v for v, _, _ in SYMBOLS]
    counts = Counter(case.group for case in cases)
    told: dict[str, int] = {}
    for level in feedback.LEVELS:
        level_problem = Problem(problem.directory, problem.spec.model_copy(update={"feedback": level}))
        shown = {secret_part(feedback.for_student(r, level_problem)) for r in records}
        told[level] = len(shown)
        assert math.log2(len(shown)) <= feedback.bits(level_problem, level, counts), level
    # verdict and groups: the headline verdict only (three symbols); cases: the bands too
    assert told == {"verdict": 3, "groups": 3, "cases": 12}
