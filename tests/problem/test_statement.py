"""Statements between LaTeX and Markdown: a package's LaTeX as students see it, the judge's
Markdown as the legacy format's LaTeX, and back."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from judge.problem import statement
from tests.conftest import PROBLEMS

RENDER = MarkdownIt("commonmark", {"html": False}).enable("table")

# A statement as problemtools' examples write them (written here for the test).
PROBLEMTOOLS_STYLE = r"""
\problemname{Guess the Number}

% a comment that must not show
I am thinking of an integer $x$ with $1 \le x \le 10^{3}$; find it in at most $10$ guesses ---
each answered with ``lower'', ``higher'' or \emph{correct}. See \url{https://example.com/a_b}.

\section*{Interaction}
  Write a line \texttt{guess\_n}, then read one of:
\begin{itemize}
  \item \texttt{lower}: $x < g$;
  \item \textbf{higher}: $x > g$,
    on two lines;
  \begin{enumerate}
    \item nested one
    \item nested two
  \end{enumerate}
  \item[correct] done
\end{itemize}

\begin{verbatim}
> 500
  \emph{as it is} 50% $x$
\end{verbatim}

\begin{tabular}{|l|r|}
\hline
Group & Points \\ \hline
1 & 20 \\
\end{tabular}

$$\sum_{i=1}^{n} a_i \ne \frac{n}{2}$$
It costs 100\% in \verb|O(n_1)|.\label{gone} \unknownmacro{kept text} 5 * 3 _x_
"""


def test_a_problemtools_statement_becomes_markdown() -> None:
    markdown = statement.to_markdown(PROBLEMTOOLS_STYLE)
    html = RENDER.render(markdown)
    assert markdown.startswith("# Guess the Number\n")
    assert "comment" not in markdown and "gone" not in markdown
    assert "<em>1 ≤ x ≤ 10³</em>" in html and "guesses —\neach" in html and "“lower”" in html
    assert '<a href="https://example.com/a_b">' in html
    assert "<h2>Interaction</h2>" in html and "<code>guess_n</code>" in html
    assert "<li>\n<p><code>lower</code>: <em>x &lt; g</em>;</p>" in html
    assert "<strong>higher</strong>: <em>x &gt; g</em>,\non two lines;" in html
    assert "<ol>\n<li>nested one</li>\n<li>nested two</li>\n</ol>" in html
    assert "<strong>correct</strong> done" in html
    assert "<pre><code>&gt; 500\n  \\emph{as it is} 50% $x$\n</code></pre>" in html  # verbatim kept verbatim
    assert "<th>Group</th>" in html and "<td>20</td>" in html
    assert "<em>∑_(i=1)ⁿ a_i ≠ n/2</em>" in html
    assert "It costs 100% in <code>O(n_1)</code>. kept text 5 * 3 _x_" in html
    # Nothing of the source is left for a student to read as LaTeX.
    outside_code = re.sub(r"<pre>.*?</pre>", "", html, flags=re.S)
    assert "\\" not in outside_code and "$" not in outside_code


def test_a_document_keeps_its_body_and_title() -> None:
    document = (
        "\\documentclass{article}\n\\usepackage{amsmath}\n\\problemname{Two}\n"
        "\\begin{document}\nBody \\textit{text}.\n\\end{document}\nafter\n"
    )
    assert statement.to_markdown(document) == "# Two\n\nBody *text*.\n"


def test_it_never_reads_a_file() -> None:
    # \input would read the judge host's files under a TeX interpreter: here it is text.
    markdown = statement.to_markdown("\\input{/etc/passwd}\\include{/etc/hostname}\\lstinputlisting{/etc/passwd}")
    assert markdown == "/etc/passwd/etc/hostname/etc/passwd\n"  # the paths' text, not the files


PIECES = [*"\\{}[]$%&_^~`'-*#\n ab", "\\begin{itemize}", "\\item", "\\end{itemize}", "\\begin{tabular}",
          "\\end{tabular}", "\\verb|", "\\begin{verbatim}", "\\end{verbatim}", "\\frac", "\\section*", "\\\\"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_converts_without_failing(text: str) -> None:
    assert isinstance(RENDER.render(statement.to_markdown(text)), str)


@pytest.mark.parametrize("problem", ["lanqiao", "eight-digits", "sicily-rotations"])
def test_a_markdown_statement_comes_back_from_latex_as_it_went(problem: str) -> None:
    markdown = (PROBLEMS / problem / "statement.md").read_text()
    latex = statement.to_latex(markdown)
    assert "\\section*{Input}" in latex and "\\begin{verbatim}" in latex and "```" not in latex
    # The title goes in \problemname (the exporter writes it): the rest renders as it did.
    body = markdown.split("\n", 1)[1]
    assert RENDER.render(statement.to_markdown(latex)) == RENDER.render(body)


def test_markdown_becomes_latex_with_its_specials_escaped_and_math_kept() -> None:
    latex = statement.to_latex(
        "# T\n\nCost 50% of $1 \\le n \\le 10^5$ & *more* at [site](https://x.org/a_b) with `a_b`.\n\n"
        "- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    assert "Cost 50\\% of $1 \\le n \\le 10^5$ \\& \\emph{more} at \\href{https://x.org/a\\_b}{site}" in latex
    assert "\\texttt{a\\_b}" in latex
    assert "\\begin{itemize}\n\\item one\n\\item two\n\\end{itemize}" in latex
    assert "\\begin{tabular}{ll}\na & b \\\\\n1 & 2 \\\\\n\\end{tabular}" in latex
    assert "T" not in latex.split("\n")[0]  # the title is \problemname's, not a section


def test_deep_nesting_and_unclosed_environments_are_read_as_text() -> None:
    # A package's statement is untrusted: nesting past any real statement's is not recursed into.
    deep = "\\begin{quote}" * 5000 + "x" + "\\end{quote}" * 5000
    assert "x" in statement.to_markdown(deep)
    assert statement.to_markdown("{" * 50000 + "y").strip().endswith("y")
    unclosed = statement.to_markdown("\\begin{verbatim}\nraw \\emph{a}\n\\begin{itemize}\\item one")
    assert unclosed == "```\nraw \\emph{a}\n\\begin{itemize}\\item one\n```\n"


def test_a_nul_in_the_source_cannot_name_what_is_kept_apart() -> None:
    # Code is kept apart under NUL-numbered marks: a source that writes one must not loop.
    assert statement.to_markdown("\\verb|\x000\x00| and \x000\x00") == "`0` and 0\n"
