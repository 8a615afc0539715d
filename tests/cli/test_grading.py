"""`judge grade` on a problem of variants (judge/cli/grading.py): each student judged on their own
variant, drawn and cached in the web judge's data folder (--data), named in every report; and
refused, in one line, without that folder."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from judge.author import making
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.web import variants
from tests import needs
from tests.author.test_variants import fixed, m_of, scaled
from tests.test_cli import judge


def _class_of(tmp_path: Path, program: str) -> Path:
    """ada and bob, each handing in `program` for the problem of variants."""
    klass = tmp_path / "class"
    for who in ("ada", "bob"):
        (klass / who).mkdir(parents=True)
        (klass / who / "scaled.py").write_text(program)
    return klass


@needs.mark("isolation")
def test_each_student_is_graded_on_their_own_variant_as_the_web_judge_would(tmp_path: Path) -> None:
    problems, web_data, data = tmp_path / "problems", tmp_path / "web-data", tmp_path / "data"
    problems.mkdir()
    base = load_problem(scaled(problems))
    making.write(base, making.generate(base))
    # The web judge's data folder elsewhere, and a copy of its salt alone: `judge grade` makes
    # the variants itself and must make the ones the web judge made (same seed, same tests).
    web_ada, web_bob = (variants.of_student(base, who, web_data) for who in ("ada", "bob"))
    assert m_of(web_ada) != m_of(web_bob)
    (data / "variants").mkdir(parents=True)
    shutil.copy(web_data / "variants" / "salt", data / "variants" / "salt")
    klass, out = _class_of(tmp_path, fixed(m_of(web_ada))), tmp_path / "out"

    graded = judge("--problems", str(problems), "grade", str(klass), "--data", str(data), "-o", str(out))
    assert graded.returncode == 0, graded.stderr
    records = {r["student"]: r for r in json.loads((out / "results.json").read_text())["submissions"]}
    assert {who: r["verdict"] for who, r in records.items()} == {"ada": "AC", "bob": "WA"}
    assert records["ada"]["variant"] == web_ada.variant and records["bob"]["variant"] == web_bob.variant
    # Made lazily into DATA, where the web judge reads them: the same tests as the web's own.
    for who, web in (("ada", web_ada), ("bob", web_bob)):
        mine = variants.of_student(base, who, data)
        assert mine.tests_dir.is_relative_to(data / "variants")
        pairs = zip(testdata.load_cases(mine), testdata.load_cases(web), strict=True)
        assert all(a.input.read_bytes() == b.input.read_bytes() for a, b in pairs)
    # Each report names the variant: the CSV's column, the class page, the submission's page.
    rows = {row["student"]: row for row in csv.DictReader((out / "grades.csv").open())}
    assert rows["ada"]["scaled variant"] == web_ada.variant and rows["bob"]["scaled variant"] == web_bob.variant
    assert web_bob.variant is not None and web_bob.variant in (out / "index.html").read_text()
    assert f"variant <strong>{web_ada.variant}</strong>" in (out / "submissions" / "ada" / "scaled.html").read_text()


@needs.mark("isolation")
def test_a_class_of_a_variants_problem_without_data_is_refused_in_one_line(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    base = load_problem(scaled(problems))
    making.write(base, making.generate(base))
    klass, out = _class_of(tmp_path, fixed(7)), tmp_path / "out"
    refused = judge("--problems", str(problems), "grade", str(klass), "-o", str(out))
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "problem.yaml" in lines[0] and "--data" in lines[0], refused.stderr
    assert not (out / "results").exists()  # nobody judged on tests/ instead
