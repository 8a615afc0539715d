from __future__ import annotations

from judge.problem import markup


def test_math_becomes_mathml_and_tex_is_gone() -> None:
    html = markup.render("Find $\\sum_{i=1}^{n} a_i$ for $1 \\le n \\le 200\\,000$.\n\n$$x^2$$\n")
    assert html.count("<math") == 3 and '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in html
    assert "<msubsup><mo>∑</mo>" in html and "<mo>≤</mo>" in html
    assert "$" not in html and "\\sum" not in html and "\\le" not in html


def test_the_safe_html_subset_is_kept_and_the_rest_removed() -> None:
    html = markup.render(
        "*a*<sub>1</sub> and x<sup>2</sup><br>next <script>alert(1)</script>"
        '<a href="javascript:alert(1)">a</a> <img src="x.png" onerror="alert(1)"> <b style="color:red">b</b>\n\n'
        "<iframe src=//evil></iframe><form><input></form>\n"
    )
    assert "<em>a</em><sub>1</sub>" in html and "<sup>2</sup><br>" in html
    for gone in ("<script", "alert(1)</", "javascript:", "onerror", "<iframe", "<form", "<input", "style="):
        assert gone not in html, gone
    assert '<img src="x.png">' in html and "<b>b</b>" in html


def test_tex_cannot_carry_html_past_the_sanitizer() -> None:
    # latex2mathml copies \text{...} as it is: the sanitizer runs after it.
    html = markup.render("$\\text{<img src=x onerror=alert(1)>}$ and $\\text{<script>x</script>}$")
    assert "onerror" not in html and "<script" not in html and "<math" in html


def test_a_table_keeps_only_its_alignment_style() -> None:
    html = markup.render("| a | b |\n|:-|-:|\n| x<br>y | 2 |\n")
    assert '<th style="text-align:left">a</th>' in html and '<td style="text-align:right">2</td>' in html
    assert '<td style="text-align:left">x<br>y</td>' in html


def test_dollars_that_are_money_stay_text() -> None:
    assert markup.render("It costs $5 and $6.") == "<p>It costs $5 and $6.</p>\n"


def test_samples_are_read_in_pairs_and_left_out_of_the_page() -> None:
    text = "# T\n\nBody.\n\n## Samples\n\nInput\n\n```\n1 2\n```\n\nOutput\n\n```\n3\n```\n\n## Notes\n\nEnd.\n"
    found, problem = markup.samples(text)
    assert problem == "" and found == [markup.StatementSample("1 2\n", "3\n", 9)]
    shown = markup.without_samples(text)
    assert "Samples" not in shown and "1 2" not in shown and "## Notes\n\nEnd." in shown and "Body." in shown
    assert markup.samples("# T\n\n## Sample\n\n```\n1\n```\n") == (
        [],
        "its sample section has 1 code blocks, not input and output pairs",
    )
    assert markup.without_samples("# T\n\nno samples\n") == "# T\n\nno samples\n"
