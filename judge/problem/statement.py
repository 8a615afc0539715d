"""Statements between LaTeX and Markdown (pure): a package's LaTeX statement as Markdown for
the students' page, and the judge's Markdown statement as LaTeX for the legacy package format.

Not a TeX engine: the macros ICPC/Kattis statements use (problemtools' \\problemname, sections,
lists, emphasis, verbatim, tables, figures, inline and display math with the common symbols)
are converted; any other macro gives its arguments' text. It never reads a file, which a TeX
interpreter (plasTeX, say) would do for \\input or \\include: a package's statement is
untrusted, and the web judge renders it on its own host.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from markdown_it import MarkdownIt
from markdown_it.token import Token

# Kept apart before anything else is read: their contents are taken as they are.
_VERBATIM = re.compile(r"\\begin\{(verbatim\*?|lstlisting|Verbatim|minted)\}(\[[^\]\n]*\]|\{[^}\n]*\})*")
_VERB = re.compile(r"\\verb\*?([^a-zA-Z\s])(.*?)\1")
_COMMENT = re.compile(r"(?<!\\)%.*$", re.M)
_DOCUMENT = re.compile(r"\\begin\{document\}(.*?)(?:\\end\{document\}|\Z)", re.S)
MAX_NESTING = 16  # groups and environments inside each other (statements nest 3 or 4): past this, text
_STASHED = re.compile("\x00(\\d+)\x00")
_NAME = re.compile(r"[A-Za-z]+")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")

_SYMBOLS = {
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "lt": "<",
    "gt": ">",
    "cdot": "·",
    "times": "×",
    "div": "÷",
    "pm": "±",
    "mp": "∓",
    "infty": "∞",
    "approx": "≈",
    "equiv": "≡",
    "sim": "∼",
    "in": "∈",
    "notin": "∉",
    "subset": "⊂",
    "subseteq": "⊆",
    "cup": "∪",
    "cap": "∩",
    "emptyset": "∅",
    "forall": "∀",
    "exists": "∃",
    "neg": "¬",
    "lnot": "¬",
    "land": "∧",
    "wedge": "∧",
    "lor": "∨",
    "vee": "∨",
    "oplus": "⊕",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "Rightarrow": "⇒",
    "Leftarrow": "⇐",
    "leftrightarrow": "↔",
    "Leftrightarrow": "⇔",
    "implies": "⇒",
    "iff": "⇔",
    "mapsto": "↦",
    "uparrow": "↑",
    "downarrow": "↓",
    "ldots": "…",
    "dots": "…",
    "cdots": "⋯",
    "vdots": "⋮",
    "sum": "∑",
    "prod": "∏",
    "int": "∫",
    "sqrt": "√",
    "partial": "∂",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "langle": "⟨",
    "rangle": "⟩",
    "mid": "|",
    "vert": "|",
    "lvert": "|",
    "rvert": "|",
    "circ": "∘",
    "bullet": "•",
    "deg": "°",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "varphi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Pi": "Π",
    "Sigma": "Σ",
    "Phi": "Φ",
    "Omega": "Ω",
    "log": "log",
    "ln": "ln",
    "max": "max",
    "min": "min",
    "gcd": "gcd",
    "bmod": "mod",
    "mod": "mod",
    "sin": "sin",
    "cos": "cos",
    "lg": "lg",
    "quad": "  ",
    "qquad": "    ",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "textasciitilde": "~",
    "textbackslash": "\\",
    "S": "§",
    "textasciicircum": "^",
    "textless": "<",
    "textgreater": ">",
    "copyright": "©",
}
_ESCAPED_CHARS = {"%": "%", "$": "$", "&": "&", "#": "#", "_": "_", "{": "{", "}": "}", " ": " ", ",": " ", ";": " ",
                  ":": " ", "!": "", "/": "", "-": ""}  # fmt: skip
_SUPERSCRIPT = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_SUBSCRIPT = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
_SUPERSCRIPTABLE = set("0123456789+-=()n")
_SUBSCRIPTABLE = set("0123456789+-=()")
_DROPPED = {
    "label", "vspace", "hspace", "noindent", "medskip", "bigskip", "smallskip", "centering", "clearpage",
    "newpage", "pagebreak", "linebreak", "raggedright", "small", "large", "Large", "footnotesize",
    "normalsize", "tiny", "huge", "displaystyle", "limits", "left", "right", "big", "Big", "bigl",
    "bigr", "Bigl", "Bigr", "hline", "cline", "toprule", "midrule", "bottomrule", "protect",
    "nolimits", "usepackage", "documentclass", "maketitle", "index", "nopagebreak", "sampletable",
}  # fmt: skip
_SECTIONS = {"section": "##", "subsection": "###", "subsubsection": "####", "paragraph": "####"}
_SPAN = {"emph": "*", "textit": "*", "textsl": "*", "mathit": "*", "textbf": "**", "mathbf": "**", "bf": "**"}
_PLAIN = {"text", "textrm", "mathrm", "mbox", "textnormal", "textsf", "mathsf", "operatorname", "hbox", "mathcal",
          "mathbb", "boldsymbol", "underline", "textup", "textsc", "uppercase"}  # fmt: skip
_LISTS = {"itemize": "- ", "enumerate": "1. ", "description": "- "}
_MATH_ENVS = {"equation", "equation*", "align", "align*", "displaymath", "math", "eqnarray", "eqnarray*", "gather",
              "gather*", "multline", "multline*"}  # fmt: skip


def to_markdown(source: str) -> str:
    """A LaTeX statement (a whole document or a problemtools body) as CommonMark, tables
    as GitHub's pipe tables."""
    kept: list[str] = []

    def stash(markdown: str) -> str:
        kept.append(markdown)
        return f"\x00{len(kept) - 1}\x00"

    # NUL marks what is kept apart; taken out of the source, a stash only names earlier ones.
    text = source.replace("\r\n", "\n").replace("\x00", "")
    text = _stash_verbatim(text, stash)
    text = _VERB.sub(lambda m: stash(_code_span(m.group(2))), text)
    text = _COMMENT.sub("", text)
    body = _DOCUMENT.search(text)
    if body:
        title = re.search(r"\\problemname\{", text[: body.start()])
        end = _group_end(text, title.end() - 1) if title else -1
        text = (text[title.start() : end] + "\n\n" if title and end != -1 else "") + body.group(1)
    # LaTeX ignores a line's indentation; Markdown reads four spaces as code.
    text = "\n".join(line.strip() for line in text.split("\n"))
    markdown = _Converter().convert(text)
    markdown = "\n".join(line.rstrip(" \t") for line in markdown.split("\n"))  # (a regex is quadratic on spaces)
    markdown = re.sub(r"\n{3,}", "\n\n", markdown).strip() + "\n"
    while _STASHED.search(markdown):
        markdown = _STASHED.sub(lambda m: kept[int(m.group(1))], markdown)
    return re.sub(r"\n{3,}", "\n\n", markdown).strip() + "\n"


def _stash_verbatim(text: str, stash: Callable[[str], str]) -> str:
    """Verbatim environments as fenced code, kept apart; an unclosed one runs to the end."""
    out: list[str] = []
    index = 0
    while found := _VERBATIM.search(text, index):
        closing = f"\\end{{{found.group(1)}}}"
        end = text.find(closing, found.end())
        end = len(text) if end == -1 else end
        out += [text[index : found.start()], stash("\n\n" + _fence(text[found.end() : end].strip("\n")) + "\n\n")]
        index = min(len(text), end + len(closing))
    return "".join(out) + text[index:]


def _fence(code: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{code}\n{fence}"


def _code_span(code: str) -> str:
    if not code:
        return ""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def _group_end(text: str, start: int) -> int:
    """The index just past the brace group that opens at `start`; -1 when it never closes."""
    depth = 0
    index = start
    while index < len(text):
        closing = text[index] == "}"
        index, depth = _brace_step(text, index, depth)
        if closing and depth == 0:
            return index
    return -1


def _brace_step(text: str, index: int, depth: int) -> tuple[int, int]:
    """Past the character at `index`: the next index and the brace depth there (a backslash
    takes the character after it along)."""
    char = text[index]
    if char == "\\":
        return index + 2, depth
    if char == "{":
        return index + 1, depth + 1
    if char == "}":
        return index + 1, depth - 1
    return index + 1, depth


def _split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """`text` cut at each `separator` outside braces and nested environments."""
    pieces: list[str] = []
    depth = 0
    start = index = 0
    while index < len(text):
        if text.startswith("\\begin{", index):
            depth += 1
        elif text.startswith("\\end{", index):
            depth -= 1
        if depth == 0 and (found := separator.match(text, index)) and not _escaped(text, index):
            pieces.append(text[start:index])
            start = index = found.end()
            continue
        index, depth = _brace_step(text, index, depth)
    pieces.append(text[start:])
    return pieces


def _escaped(text: str, index: int) -> bool:
    slashes = 0
    while index - slashes - 1 >= 0 and text[index - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


class _Converter:
    """One pass over LaTeX text, macros taken as they come, nesting counted."""

    def __init__(self) -> None:
        self.depth = 0

    def convert(self, text: str, math: bool = False) -> str:
        if self.depth >= MAX_NESTING:
            return _escape(text)  # deeper than any statement nests: its text, unread
        self.depth += 1
        try:
            return self._convert(text, math)
        finally:
            self.depth -= 1

    def _convert(self, text: str, math: bool) -> str:
        out: list[str] = []
        reader = _Reader(text)
        while not reader.done():
            char = reader.peek()
            if char == "\\":
                out.append(self._macro(reader, math))
            elif char == "$" and not math:
                out.append(self._dollar_math(reader))
            elif char == "{":
                out.append(self.convert(reader.group() or "", math))
            elif char == "}":
                reader.pos += 1
            elif char == "~":
                reader.pos += 1
                out.append("\u00a0")
            elif math:
                out.append(self._math_char(reader))
            else:
                out.append(self._text_char(reader))
        return "".join(out)

    def _text_char(self, reader: _Reader) -> str:
        for latex, shown in (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”")):
            if reader.text.startswith(latex, reader.pos):
                reader.pos += len(latex)
                return shown
        char = reader.take()
        if char == "&":
            return " "
        if char == "\n" and reader.text.startswith(("-", "+", "="), reader.pos):
            return "\n\\"  # a line of text that Markdown would take for a list or a heading
        return _MARKDOWN_SPECIAL.sub(r"\\\1", char)

    def _math_char(self, reader: _Reader) -> str:
        char = reader.take()
        if char in "^_":
            argument = reader.group()
            raw = argument if argument is not None else (reader.take() if not reader.done() else "")
            inner = self.convert(raw, math=True).strip()
            table, allowed = (_SUPERSCRIPT, _SUPERSCRIPTABLE) if char == "^" else (_SUBSCRIPT, _SUBSCRIPTABLE)
            if inner and set(inner) <= allowed:
                return inner.translate(table)
            mark = "^" if char == "^" else "\\_"
            return f"{mark}{inner}" if len(inner) == 1 else f"{mark}({inner})"
        if char in "&":
            return " "
        if char in " \n\t":
            return " "
        return _MARKDOWN_SPECIAL.sub(r"\\\1", char)

    def _dollar_math(self, reader: _Reader) -> str:
        display = reader.text.startswith("$$", reader.pos)
        mark = "$$" if display else "$"
        end = reader.text.find(mark, reader.pos + len(mark))
        while end != -1 and _escaped(reader.text, end):
            end = reader.text.find(mark, end + 1)
        if end == -1:
            reader.pos += len(mark)
            return "$"
        inner = reader.text[reader.pos + len(mark) : end]
        reader.pos = end + len(mark)
        return self._math(inner, display)

    def _math(self, inner: str, display: bool) -> str:
        shown = re.sub(r"\s+", " ", self.convert(inner, math=True)).strip()
        shown = re.sub(r"(?<=\S) (?=[,.;:)])", "", shown)
        if not shown:
            return ""
        # Math is set in italics, as TeX sets its letters; a display on its own line.
        italic = f"*{shown}*" if not shown.startswith(("*", " ")) and not shown.endswith(("*", "\\")) else shown
        return f"\n\n{italic}\n\n" if display else italic

    def _macro(self, reader: _Reader, math: bool) -> str:
        reader.pos += 1
        if reader.done():
            return ""
        if not reader.peek().isalpha():
            char = reader.take()
            if char == "(":
                return self._until(reader, "\\)", display=False)
            if char == "[":
                return self._until(reader, "\\]", display=True)
            if char == "\\":
                reader.optional()
                return " " if math else "\\\n"  # a forced line break (CommonMark's backslash break)
            shown = _ESCAPED_CHARS.get(char, char)
            return shown if math else _MARKDOWN_SPECIAL.sub(r"\\\1", shown)
        name = reader.name()
        reader.star()
        if name == "begin":
            return self._environment(reader)
        if name == "end":
            reader.group()
            return ""
        if name == "problemname":
            return f"# {self.convert(reader.group() or '').strip()}\n\n"
        if name in _SECTIONS:
            reader.optional()
            return f"\n\n{_SECTIONS[name]} {self.convert(reader.group() or '').strip()}\n\n"
        if name in _SPAN:
            mark = _SPAN[name]
            inner = self.convert(reader.group() or "", math).strip()
            return f"{mark}{inner}{mark}" if inner else ""
        if name == "texttt" or name == "mathtt":
            return _code_span(_unescape(self.convert(reader.group() or "", math)))
        if name in ("url", "nolinkurl"):
            url = reader.group() or ""
            return f"<{url}>" if re.fullmatch(r"[^\s<>]+", url) else _code_span(url)
        if name == "href":
            url, label = reader.group() or "", self.convert(reader.group() or "")
            return f"[{label}](<{url}>)" if re.fullmatch(r"[^\s<>]+", url) else label
        if name in ("includegraphics", "illustration"):
            reader.optional()
            width_or_file = reader.group() or ""
            if name == "illustration":
                file, caption = reader.group() or "", self.convert(reader.group() or "").strip()
                return f"\n\n*(figure {_escape(file)}{': ' + caption if caption else ''})*\n\n"
            return f"*(figure {_escape(width_or_file)})*"
        if name == "caption":
            return f"\n\n*{self.convert(reader.group() or '').strip()}*\n\n"
        if name == "footnote":
            return f" ({self.convert(reader.group() or '').strip()})"
        if name in ("frac", "dfrac", "tfrac", "binom"):
            top, bottom = self.convert(reader.group() or "", True), self.convert(reader.group() or "", True)
            return f"{_wrap(top)}/{_wrap(bottom)}" if name != "binom" else f"C({top}, {bottom})"
        if name == "sqrt":
            reader.optional()
            return f"√{_wrap(self.convert(reader.group() or '', True))}"
        if name in ("item", "ref", "cite"):
            reader.group()
            return ""
        if name in _SYMBOLS:
            shown = _SYMBOLS[name]
            return shown if math else _MARKDOWN_SPECIAL.sub(r"\\\1", shown)
        if name in _PLAIN:
            return self.convert(reader.group() or "", math)
        if name in _DROPPED:
            reader.optional()
            if name in ("label", "vspace", "hspace", "usepackage", "documentclass", "index", "cline"):
                reader.group()
            return ""
        # An unknown macro: its arguments' text, as the likeliest reading.
        reader.optional()
        parts = []
        while (argument := reader.group()) is not None:
            parts.append(self.convert(argument, math))
        return " ".join(parts)

    def _until(self, reader: _Reader, closing: str, display: bool) -> str:
        end = reader.text.find(closing, reader.pos)
        end = len(reader.text) if end == -1 else end
        inner = reader.text[reader.pos : end]
        reader.pos = min(len(reader.text), end + len(closing))
        return self._math(inner, display)

    def _environment(self, reader: _Reader) -> str:
        name = reader.group() or ""
        body = reader.environment_body(name)
        if name in _LISTS:
            return self._list(name, body)
        if name in ("tabular", "tabular*", "array", "tabularx"):
            if name in ("tabular*", "tabularx"):
                reader_args = _Reader(body)
                reader_args.group()
                body = body[reader_args.pos :]
            return self._table(body)
        if name in _MATH_ENVS:
            return self._math(body.replace("&", " "), display=True)
        inner = self.convert(body).strip()
        if name in ("quote", "quotation"):
            return "\n\n" + "\n".join(f"> {line}" for line in inner.split("\n")) + "\n\n"
        return f"\n\n{inner}\n\n"

    def _list(self, name: str, body: str) -> str:
        items = _split_top(body, re.compile(r"\\item\b\s*"))[1:]
        marker = _LISTS[name]
        lines: list[str] = []
        for index, item in enumerate(items, start=1):
            item_reader = _Reader(item)
            label = item_reader.optional() if item.startswith("[") else None
            text = self.convert(item[item_reader.pos :] if label is not None else item).strip()
            text = re.sub(r"\n{2,}", "\n\n", text)
            bullet = f"{index}. " if name == "enumerate" else marker
            if label is not None:
                text = f"**{self.convert(label).strip()}** {text}"
            pad = " " * len(bullet)
            shown = "\n".join(pad + line if line and n else line for n, line in enumerate(text.split("\n")))
            lines.append(bullet + shown)
        return "\n\n" + "\n".join(lines) + "\n\n"

    def _table(self, body: str) -> str:
        body_reader = _Reader(body)
        body_reader.group()  # the column spec
        rows = []
        for row in _split_top(body[body_reader.pos :], re.compile(r"\\\\(\[[^\]]*\])?")):
            row = re.sub(r"\\(hline|toprule|midrule|bottomrule)\b|\\cline\{[^}]*\}", "", row).strip()
            if not row:
                continue
            cells = [self.convert(c).strip().replace("\n", " ") for c in _split_top(row, re.compile("&"))]
            rows.append(cells)
        if not rows:
            return ""
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
        lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        return "\n\n" + "\n".join(lines) + "\n\n"


def _wrap(text: str) -> str:
    text = text.strip()
    return text if re.fullmatch(r"[\w.·⁰-⁹₀-₉]+", text) else f"({text})"


def _escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _unescape(text: str) -> str:
    return re.sub(r"\\([\\`*_\[\]<>#|])", r"\1", text)


class _Reader:
    """A position in LaTeX text, and the ways to read a macro's name and arguments from it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def done(self) -> bool:
        return self.pos >= len(self.text)

    def peek(self) -> str:
        return self.text[self.pos]

    def take(self) -> str:
        char = self.text[self.pos]
        self.pos += 1
        return char

    def name(self) -> str:
        found = _NAME.match(self.text, self.pos)
        assert found is not None
        self.pos = found.end()
        return found.group(0)

    def star(self) -> None:
        if self.text.startswith("*", self.pos):
            self.pos += 1

    def _skip_space(self) -> int:
        index = self.pos
        while index < len(self.text) and self.text[index] in " \t":
            index += 1
        if index < len(self.text) and self.text[index] == "\n" and not self.text.startswith("\n\n", index):
            index += 1
            while index < len(self.text) and self.text[index] in " \t":
                index += 1
        return index

    def group(self) -> str | None:
        """The next brace group's inside (spaces before it skipped), or None when none follows."""
        index = self._skip_space()
        if index >= len(self.text) or self.text[index] != "{":
            return None
        end = _group_end(self.text, index)
        if end == -1:  # never closed: the rest of the text is the group
            self.pos = len(self.text)
            return self.text[index + 1 :]
        self.pos = end
        return self.text[index + 1 : end - 1]

    def optional(self) -> str | None:
        index = self._skip_space()
        if index >= len(self.text) or self.text[index] != "[":
            return None
        depth = 0
        for end in range(index, len(self.text)):
            if self.text[end] == "{":
                depth += 1
            elif self.text[end] == "}":
                depth -= 1
            elif self.text[end] == "]" and depth == 0:
                self.pos = end + 1
                return self.text[index + 1 : end]
        return None

    def environment_body(self, name: str) -> str:
        """The text up to the \\end{name} that closes this environment (nested ones counted)."""
        # One pass over the begins and ends of this name: linear, however they nest.
        depth = 1
        for found in re.finditer(r"\\(begin|end)\{" + re.escape(name) + r"\}", self.text[self.pos :]):
            depth += 1 if found.group(1) == "begin" else -1
            if depth == 0:
                body = self.text[self.pos : self.pos + found.start()]
                self.pos += found.end()
                return body
        body, self.pos = self.text[self.pos :], len(self.text)
        return body


LATEX_SPECIAL = {
    "\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "&": "\\&", "#": "\\#", "%": "\\%",
    "_": "\\_", "^": "\\textasciicircum{}", "~": "\\textasciitilde{}", "<": "\\textless{}", ">": "\\textgreater{}",
}  # fmt: skip
_MATH_SPAN = re.compile(r"(\$\$.+?\$\$|\$[^$\n]+?\$)", re.S)


def to_latex(markdown: str) -> str:
    """A Markdown statement as the body of a problemtools LaTeX statement: headings as
    sections, lists, emphasis, code as \\texttt and verbatim, links, tables; `$...$` math kept
    as it is, which is how both formats write it. The first level-one heading is dropped: the
    title goes in \\problemname."""
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = parser.parse(markdown)
    out: list[str] = []
    lists: list[str] = []
    title_dropped = False
    skip_inline = False
    for token in tokens:
        kind = token.type
        if kind == "heading_open":
            if token.tag == "h1" and not title_dropped:
                title_dropped = skip_inline = True
                continue
            level = {"h1": "section", "h2": "section", "h3": "subsection"}.get(token.tag, "subsubsection")
            out.append(f"\\{level}*{{")
        elif kind == "heading_close":
            if skip_inline:
                skip_inline = False
                continue
            out.append("}\n\n")
        elif kind == "inline":
            if not skip_inline:
                out.append(_latex_inline(token.children or []))
        elif kind == "paragraph_close":
            out.append("\n" if lists and token.hidden else "\n\n")
        elif kind in ("bullet_list_open", "ordered_list_open"):
            lists.append("itemize" if kind == "bullet_list_open" else "enumerate")
            out.append(f"\\begin{{{lists[-1]}}}\n")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            out.append(f"\\end{{{lists.pop()}}}\n\n")
        elif kind in _LATEX_BLOCKS:
            out.append(_LATEX_BLOCKS[kind])
        elif kind in ("fence", "code_block"):
            code = token.content.replace("\\end{verbatim}", "\\end {verbatim}")
            out.append("\\begin{verbatim}\n" + code.rstrip("\n") + "\n\\end{verbatim}\n\n")
        elif kind == "table_open":
            out.append(_latex_table(tokens, tokens.index(token)))
    text = "".join(out)
    text = re.sub(r"\\begin\{(itemize|enumerate)\}\n\\end\{\1\}\n", "", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


# What a token of these kinds always becomes, whatever it holds.
_LATEX_BLOCKS = {
    "list_item_open": "\\item ",
    "blockquote_open": "\\begin{quote}\n",
    "blockquote_close": "\\end{quote}\n\n",
    "hr": "\\bigskip\\hrule\\bigskip\n\n",
}
_LATEX_INLINES = {
    "em_open": "\\emph{",
    "strong_open": "\\textbf{",
    "em_close": "}",
    "strong_close": "}",
    "link_close": "}",
    "softbreak": "\n",
    "hardbreak": "\\\\\n",
}


def _latex_table(tokens: list[Token], start: int) -> str:
    rows: list[list[str]] = []
    for token in _until_close(tokens, start, "table_close"):
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append(_latex_inline(token.children or []))
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    lines = [" & ".join(r + [""] * (width - len(r))) + " \\\\" for r in rows]
    return "\\begin{tabular}{" + "l" * width + "}\n" + "\n".join(lines) + "\n\\end{tabular}\n\n"


def _until_close(tokens: list[Token], start: int, closing: str) -> Iterator[Token]:
    for token in tokens[start + 1 :]:
        if token.type == closing:
            return
        yield token


def _latex_text(text: str) -> str:
    """Plain text in LaTeX: specials escaped, `$...$` math passed as it is."""
    pieces = _MATH_SPAN.split(text)
    return "".join(
        piece if n % 2 else "".join(LATEX_SPECIAL.get(c, c) for c in piece) for n, piece in enumerate(pieces)
    )


def _latex_inline(children: list[Token]) -> str:
    out: list[str] = []
    for child in children:
        kind = child.type
        if kind == "text":
            out.append(_latex_text(child.content))
        elif kind == "code_inline":
            out.append("\\texttt{" + "".join(LATEX_SPECIAL.get(c, c) for c in child.content) + "}")
        elif kind in _LATEX_INLINES:
            out.append(_LATEX_INLINES[kind])
        elif kind == "link_open":
            href = str(child.attrs.get("href", ""))
            out.append("\\href{" + "".join(LATEX_SPECIAL.get(c, c) for c in href if c not in "{}") + "}{")
        elif kind == "image":
            out.append(_latex_text(child.content or str(child.attrs.get("src", ""))))
        elif kind == "html_inline":
            out.append(_latex_text(child.content))
    return "".join(out)
