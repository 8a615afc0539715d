"""Light helpers shared by the reference modules (no imports beyond the standard core)."""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # the typing module costs `judge solve` 20 ms to import
if TYPE_CHECKING:
    from judge.problem.refs.base import InputIssue


def lines_if_clean(text: str) -> list[str] | None:
    """The lines of `text` when it ends with a newline and holds no control characters
    but those newlines (so no CR and no tab); else None. The quick test before a full check."""
    if not text.endswith("\n"):
        return None
    lines = text[:-1].split("\n")
    return lines if all(line.isprintable() for line in lines) else None


def validate_with(
    text: str, accepts: Callable[[str], bool], diagnose: Callable[[str], list[InputIssue]]
) -> list[InputIssue]:
    """Every reason `text` breaks the format, in line order (empty when it is valid).

    `diagnose` is a second, independent reading of the format; the tests check that it
    finds a reason exactly when `accepts` refuses, so the fallback below never shows.
    """
    if accepts(text):
        return []
    from judge.problem.refs.base import InputIssue

    issues = sorted(diagnose(text), key=lambda issue: issue.line)
    return issues or [InputIssue(1, "not in the input format")]


def validator(
    accepts: Callable[[str], bool], diagnose: Callable[[str], list[InputIssue]]
) -> Callable[[str], list[InputIssue]]:
    """A reference's `validate`, from its quick `accepts` and its rule-by-rule `diagnose`:
    every reason an input breaks the format (empty when it is valid)."""

    def validate(text: str) -> list[InputIssue]:
        return validate_with(text, accepts, diagnose)

    return validate
