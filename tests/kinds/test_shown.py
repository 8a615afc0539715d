from __future__ import annotations

from pathlib import Path

from judge.kinds.shown import page_parts, statement_html
from judge.kinds.table import load_problem
from tests.author.test_parts import make_problem
from tests.conftest import PROBLEMS


def test_an_imported_statement_is_shown_escaped(tmp_path: Path) -> None:
    directory = make_problem(tmp_path)
    (directory / "problem.tex").write_text("Sum \\emph{<script>alert(1)</script>}\n")
    spec = directory / "problem.yaml"
    spec.write_text(spec.read_text().replace("title: Sum of Two", "title: Sum <i>of</i> Two\nstatement: problem.tex"))
    html = statement_html(load_problem(directory))
    assert "<h1>Sum &lt;i&gt;of&lt;/i&gt; Two</h1>" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    assert "<em>&lt;script&gt;" in html  # LaTeX rendered, not shown as source


def test_a_latex_statement_reaches_students_rendered(tmp_path: Path) -> None:
    directory = make_problem(tmp_path)
    (directory / "problem.tex").write_text(
        "Add $a$ and $b$ ($1 \\le a, b \\le 10^9$).\n\\section*{Input}\nTwo numbers:\n"
        "\\begin{verbatim}\n1 2\n\\end{verbatim}\n\\begin{tabular}{ll} n & points \\\\ 1 & 20 \\end{tabular}\n"
    )
    spec = directory / "problem.yaml"
    spec.write_text(spec.read_text().replace("title: Sum of Two", "title: Sum of Two\nstatement: problem.tex"))
    html = statement_html(load_problem(directory))
    assert "<h1>Sum of Two</h1>" in html  # no \\problemname: the spec's title
    assert "<em>1 ≤ a, b ≤ 10⁹</em>" in html and "<h2>Input</h2>" in html
    assert "<pre><code>1 2\n</code></pre>" in html and "<td>20</td>" in html
    assert "\\begin" not in html and "\\section" not in html and "$" not in html


def test_a_stdio_page_shows_the_specs_samples_in_place_of_the_statements_own() -> None:
    problem = load_problem(PROBLEMS / "eight-digits")
    html, samples = page_parts(problem)
    assert [s.name for s in samples] == ["samples/01", "samples/02"] and samples[0].answer.strip() == "19"
    assert "<h2>Sample</h2>" not in html and "<h2>Output</h2>" in html  # the rest of the statement stays
    assert "<h2>Sample</h2>" in statement_html(problem)  # the statement's own, where nothing replaces it


POSITIVE = """\
id: positive
title: Positive
source: a test
statement: statement.md
kind: functions
signature: "is_positive(x: int) -> bool"
limits: {time_s: 1.0, memory_mib: 256}
checker: {type: value}
reference: solutions/accepted/ref.py
groups:
  - name: samples
    visibility: public
    cases:
      - {call: [3], answer: true}
      - {call: [-1], answer: false}
"""


def make_positive(problems: Path) -> Path:
    """A function problem whose samples are spelled apart by language: Python's True, JSON's true."""
    from tests.test_cli import judge

    folder = problems / "positive"
    (folder / "solutions" / "accepted").mkdir(parents=True)
    (folder / "problem.yaml").write_text(POSITIVE)
    (folder / "statement.md").write_text("# Positive\n\nSay whether `x` is above 0.\n")
    (folder / "solutions" / "accepted" / "ref.py").write_text("def is_positive(x):\n    return x > 0\n")
    assert judge("--problems", str(problems), "gen", "positive").returncode == 0
    return folder


def test_a_functions_sample_calls_are_spelled_in_every_language_offered(tmp_path: Path) -> None:
    """Issue 59: the page switches a call's spelling with the language picked, from these."""
    problem = load_problem(make_positive(tmp_path))
    _, samples = page_parts(problem, "python3", ("python3", "cpp"))
    assert (samples[0].call, samples[0].returns) == ("is_positive(3)", "True")  # the page's language
    assert samples[0].returned() == {"": "true", "python3": "True", "cpp": "true"}
    assert samples[1].calls() == {"": "is_positive(-1)", "python3": "is_positive(-1)", "cpp": "is_positive(-1)"}
    assert page_parts(problem)[1][0].spelled == ()  # nothing offered: no spellings
