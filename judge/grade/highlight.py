"""A submission's source as highlighted HTML lines (pure; Pygments): what its pages number.
Each line is balanced HTML (Pygments closes a token's span at each line end), so a page can
put each in an element of its own. A file Pygments has no lexer for is shown plain."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from functools import lru_cache

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename
from pygments.util import ClassNotFound

# The judge's language ids that are not a Pygments alias of the same language.
_ALIASES = {"python3": "python", "pypy3": "python", "cpp20": "cpp", "csharp": "csharp", "javascript": "js"}
STYLE = "default"  # Pygments' default style keeps 4.5:1 contrast on a light background
MAX_BYTES = 256 << 10  # past this a file is shown plain: highlighting is for reading, not for logs


def _lexer(name: str, language: str) -> Lexer:
    try:
        found: Lexer = get_lexer_for_filename(name, stripnl=False, ensurenl=False)
        return found
    except ClassNotFound:
        pass
    try:
        named: Lexer = get_lexer_by_name(_ALIASES.get(language, language), stripnl=False, ensurenl=False)
        return named
    except ClassNotFound:
        plain: Lexer = TextLexer(stripnl=False, ensurenl=False)
        return plain


def lines_of(text: str, name: str, language: str = "") -> list[str]:
    """One file's lines as HTML, highlighted by its name (else by the judge's language id)."""
    if len(text) > MAX_BYTES:
        return [html.escape(line) for line in text.splitlines()]
    shown = highlight(text, _lexer(name, language), HtmlFormatter(nowrap=True))
    return shown.rstrip("\n").split("\n") if text.strip("\n") else []


def files_lines(files: Sequence[tuple[str, str]], language: str = "") -> list[str]:
    """Several files as one numbered listing: each after a `==> name <==` line (as head(1)
    shows several files); a single file alone."""
    if len(files) == 1:
        return lines_of(files[0][1], files[0][0], language)
    lines: list[str] = []
    for name, text in files:
        lines += [f'<b class="file">==&gt; {html.escape(name)} &lt;==</b>', *lines_of(text, name, language), ""]
    return lines


@lru_cache(maxsize=1)
def stylesheet() -> str:
    """The colours of the highlighted tokens, for pages' stylesheet (scoped to pre.source)."""
    css = str(HtmlFormatter(style=STYLE).get_style_defs("pre.source"))  # type: ignore[no-untyped-call]
    return re.sub(r"\s*/\*.*?\*/", "", css)  # token names in comments: noise in every page
