"""A problem as its students read it, wherever they read it (the web judge's problem page, the
static report's and the handouts' statement pages): its statement as HTML, and its samples as
the spec's public cases, or what its kind shows instead (a unit problem's public test files).
Reads the problem's files; the rendering itself is judge.problem.markup."""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from judge.errors import JudgeError
from judge.kinds import table as kinds
from judge.problem import markup, statement, testdata
from judge.problem.spec import Problem

STATEMENT_BYTES = 256 << 10


@dataclass(frozen=True)
class Sample:
    name: str  # the case's id, "samples/01"; a file's path
    input: str  # a file's text
    answer: str
    file: bool = False  # a file students are shown whole (a unit problem's public tests), not a case
    call: str = ""  # a function's sample as a call in the reader's language: `max_sum([1, 2])`
    returns: str = ""  # and what it returns (`3`, `raises ValueError`)
    # The call and what it returns in every language the page offers (id, call, returns; ""
    # is "from the file name"), for the page to follow the student's pick without a reload.
    spelled: tuple[tuple[str, str, str], ...] = ()

    def calls(self) -> dict[str, str]:
        return {language: call for language, call, _ in self.spelled}

    def returned(self) -> dict[str, str]:
        return {language: value for language, _, value in self.spelled}


@lru_cache(maxsize=64)
def _latex_as_markdown(text: str) -> str:
    """Converted once per statement text, not on every page view."""
    return statement.to_markdown(text)


def samples(problem: Problem) -> list[Sample]:
    """The spec's public cases, as made in tests/ (none before `judge gen`); or the files a
    kind shows in their place (a unit problem's public tests)."""
    files = kinds.of(problem).public_files(problem)
    if files:
        return [Sample(name, text, "", file=True) for name, text in files]
    try:
        cases = testdata.load_cases(problem)
    except JudgeError:
        return []  # no tests made yet: the statement still shows its own samples
    return [
        Sample(
            c.id,
            c.input.read_text(encoding="utf-8", errors="replace"),
            c.answer.read_text(encoding="utf-8", errors="replace"),
        )
        for c in cases
        if c.public
    ]


def statement_html(problem: Problem, own_samples: bool = True) -> str:
    """The statement as HTML: Markdown with math and the safe HTML subset (judge.problem.markup);
    an imported LaTeX statement converted to Markdown first (never shown as source); a text
    statement shown as it is; anything else named. Titles may come from a package: escaped.
    Without `own_samples`, the statement's sample sections are left out."""
    title = f"<h1>{html.escape(problem.spec.title)}</h1>"
    try:
        data = problem.statement_path.read_bytes()
    except OSError:
        return title
    text = data.decode("utf-8", errors="replace")
    suffix = problem.statement_path.suffix.lower()
    # Past STATEMENT_BYTES a package's LaTeX is shown as it is: the conversion is not for books.
    if suffix == ".tex" and b"\0" not in data and len(data) <= STATEMENT_BYTES:
        converted = _latex_as_markdown(text)
        text = converted if converted.startswith("# ") else f"# {html.escape(problem.spec.title)}\n\n{converted}"
    elif suffix != ".md":
        if b"\0" in data:
            return f"{title}<p>The statement is the file {html.escape(problem.statement_path.name)}.</p>"
        return f'{title}<pre class="statement">{html.escape(text)}</pre>'
    return markup.render(text if own_samples else markup.without_samples(text))


def page_parts(problem: Problem, language: str = "", offered: Iterable[str] = ()) -> tuple[str, list[Sample]]:
    """The statement and the samples a page shows: a stdio problem's samples from the spec once,
    in place of the statement's own; a function's as calls in `language` (a language id, ""
    for none), in place of the statement's own table too (an interaction's are a dialogue:
    its statement keeps its own). A call is spelled in each `offered` language too (Sample.spelled)."""
    shown = samples(problem)
    kind = kinds.of(problem)
    made = [kind.sample_call(problem, s.input, s.answer, language) for s in shown if not s.file]
    if shown and len(made) == len(shown) and all(m is not None for m in made):
        calls = [m for m in made if m is not None]
        shown = [replace(s, call=c, returns=r) for s, (c, r) in zip(shown, calls, strict=True)]
        every = tuple(offered)
        if every:  # and "from the file name"'s spelling, ""
            shown = [replace(s, spelled=_spelled(problem, s, ("", *every))) for s in shown]
        return statement_html(problem, own_samples=False), shown
    own = not shown or not kind.samples_are_cases
    return statement_html(problem, own_samples=own), shown


def _spelled(problem: Problem, sample: Sample, offered: Iterable[str]) -> tuple[tuple[str, str, str], ...]:
    kind = kinds.of(problem)
    found = []
    for language in offered:
        made = kind.sample_call(problem, sample.input, sample.answer, language)
        if made is not None:
            found.append((language, *made))
    return tuple(found)
