"""The similarity page: the pairs above a threshold, both sources side by side with the
parts they share marked, and what the score does and does not mean."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from judge.grade.reports import environment
from judge.similar.score import Pair, Similarity

DEFAULT_THRESHOLD = 0.5
MAX_SHOWN = 30  # pairs per problem on the page


def parts(source: str, shared: Sequence[tuple[int, int]]) -> list[tuple[str, bool]]:
    """The source cut into (text, shared?) pieces, for marking."""
    pieces: list[tuple[str, bool]] = []
    at = 0
    for start, end in shared:
        if start > at:
            pieces.append((source[at:start], False))
        pieces.append((source[start:end], True))
        at = end
    if at < len(source):
        pieces.append((source[at:], False))
    return pieces


def _shown(index: int, pair: Pair, root: Path | None) -> dict[str, object]:
    return {
        "anchor": f"pair-{index}",
        "score": pair.score,
        "a": pair.a.student,
        "b": pair.b.student,
        "a_language": pair.a.language,
        "b_language": pair.b.language,
        "a_path": str(pair.a.path.relative_to(root) if root is not None else pair.a.path),
        "b_path": str(pair.b.path.relative_to(root) if root is not None else pair.b.path),
        "a_parts": parts(pair.a.source, pair.a_shared),
        "b_parts": parts(pair.b.source, pair.b_shared),
    }


def similarity_html(
    found: Similarity,
    threshold: float = DEFAULT_THRESHOLD,
    back: tuple[str, str] = ("index.html", "class"),
    root: Path | None = None,
) -> str:
    """The page; `back` is its first link (the class report's, beside it, unless the web judge
    shows it), `root` the folder the submissions' paths are shown from (None: as found)."""
    problems = []
    count = 0
    for problem in sorted({p.problem for p in found.pairs}):
        mine = [p for p in found.pairs if p.problem == problem]
        shown: list[dict[str, object]] = []
        for pair in (p for p in mine if p.score >= threshold):
            if len(shown) == MAX_SHOWN:
                break
            shown.append(_shown(count, pair, root))
            count += 1
        problems.append({"id": problem, "shown": shown, "highest": mine[0].score if mine else 0.0})
    return (
        environment()
        .get_template("similarity.html.j2")
        .render(
            problems=problems,
            back=back,
            programs=len(found.programs),
            threshold=threshold,
            boilerplate=[str(b) for b in found.boilerplate],
            skipped=[(str(path), why) for path, why in found.skipped],
        )
    )
