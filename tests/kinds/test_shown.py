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
