"""A statement's Markdown as HTML (pure): CommonMark with tables, `$...$` and `$$...$$` math as
MathML (latex2mathml, so the page needs no script and keeps its strict CSP), a small subset of
raw HTML (`<sub>`, `<sup>`, `<br>`, tables...), and everything else removed by a sanitizer
(nh3). A statement may come from an imported package: it is untrusted, and so is the TeX in
it (latex2mathml copies `\\text{...}` as it is), so the sanitizer runs on the whole page,
MathML included.

Also the statement's own samples: the fenced blocks under a heading named StatementSample(s) or
Example(s), read as input, output, input, output..., for `judge verify` to hold them against
the spec's public cases, and left out of the page where the spec's samples are shown instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import nh3
from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

_SAMPLE_HEADING = re.compile(r"^\s*(samples?|examples?|sample (input|output)s?|样例.*|输入输出样例.*)\s*$", re.I)

_HTML_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "details", "div", "dl", "dt", "em",
    "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre",
    "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
    "thead", "tr", "u", "ul", "var",
}  # fmt: skip
_MATHML_TAGS = {
    "math", "menclose", "merror", "mfrac", "mi", "mmultiscripts", "mn", "mo", "mover", "mpadded", "mphantom",
    "mprescripts", "mroot", "mrow", "ms", "mspace", "msqrt", "mstyle", "msub", "msubsup", "msup", "mtable",
    "mtd", "mtext", "mtr", "munder", "munderover", "none", "semantics", "annotation",
}  # fmt: skip
_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "td": {"colspan", "rowspan", "style"},
    "th": {"colspan", "rowspan", "style"},
    "code": {"class"},
    "math": {"display", "xmlns"},
    "mo": {"stretchy", "fence", "separator", "lspace", "rspace", "form", "largeop", "movablelimits"},
    "mi": {"mathvariant"},
    "mstyle": {"displaystyle", "scriptlevel", "mathvariant"},
    "mspace": {"width"},
    "mfrac": {"linethickness"},
    "mtable": {"columnalign", "rowspacing", "columnspacing"},
    "mtd": {"columnalign"},
    "menclose": {"notation"},
    "mpadded": {"width", "lspace", "voffset"},
}
# Only relative links and the web: a statement's `javascript:` or `data:` link is dropped.
_URL_SCHEMES = {"http", "https", "mailto"}
# markdown-it aligns table columns with a style attribute: only these are let through.
_ALIGN = re.compile(r'style="text-align:(left|right|center)"')


def _math(content: str, options: dict[str, Any]) -> str:
    try:
        return str(latex_to_mathml(content, display="block" if options.get("display_mode") else "inline"))
    except Exception:  # latex2mathml raises many kinds on TeX it cannot read: shown as TeX then
        return f'<code class="tex">{_escape(content)}</code>'


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    md.use(dollarmath_plugin, allow_labels=False, allow_digits=False, renderer=_math)
    return md


def _clean_style(tag: str, name: str, value: str) -> str | None:
    if name == "style":
        return value if _ALIGN.fullmatch(f'style="{value}"') else None
    return value


def sanitize(html: str) -> str:
    """HTML cut to the statement subset: no script, style, form, frame or event attribute."""
    return nh3.clean(
        html,
        tags=_HTML_TAGS | _MATHML_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=_URL_SCHEMES,
        attribute_filter=_clean_style,
        link_rel="noopener noreferrer nofollow",
    )


@lru_cache(maxsize=64)
def render(text: str) -> str:
    """Markdown (with math and the safe HTML subset) as sanitized HTML. Cached: a page view
    costs nothing once its statement was rendered."""
    return sanitize(str(_parser().render(text)))


@dataclass(frozen=True)
class StatementSample:
    input: str
    output: str
    line: int  # 1-based line of the input block in the statement


def _sample_sections(text: str) -> list[tuple[int, int]]:
    """(first, end) 0-based line ranges of the statement's StatementSample(s)/Example(s) sections."""
    tokens = _parser().parse(text)
    headings = [
        (i, int(t.tag[1:]), t.map[0]) for i, t in enumerate(tokens) if t.type == "heading_open" and t.map is not None
    ]
    sections = []
    for n, (i, level, first) in enumerate(headings):
        if not _SAMPLE_HEADING.match(tokens[i + 1].content):
            continue
        end = len(text.split("\n"))
        for _, other_level, other_first in headings[n + 1 :]:
            if other_level <= level:
                end = other_first
                break
        sections.append((first, end))
    return sections


def samples(text: str) -> tuple[list[StatementSample], str]:
    """The statement's samples in order, and "" or why they cannot be read as pairs."""
    tokens = _parser().parse(text)
    sections = _sample_sections(text)
    blocks = [
        (t.content, t.map[0] + 1)
        for t in tokens
        if t.type in ("fence", "code_block")
        and t.map is not None
        and any(first <= t.map[0] < end for first, end in sections)
    ]
    if len(blocks) % 2:
        return [], f"its sample section has {len(blocks)} code blocks, not input and output pairs"
    pairs = [StatementSample(blocks[k][0], blocks[k + 1][0], blocks[k][1]) for k in range(0, len(blocks), 2)]
    return pairs, ""


def without_samples(text: str) -> str:
    """The statement with its sample sections left out (the page shows the spec's instead)."""
    sections = _sample_sections(text)
    if not sections:
        return text
    lines = text.split("\n")
    return "\n".join(line for k, line in enumerate(lines) if not any(first <= k < end for first, end in sections))
