"""Light helpers shared by the reference modules (no imports beyond the standard core)."""

from __future__ import annotations

from collections.abc import Callable

# Table name -> table bytes; injected so that reference modules never touch the disk.
TableSource = Callable[[str], bytes]


def lines_if_clean(text: str) -> list[str] | None:
    """The lines of `text` when it ends with a newline and holds no control characters
    but those newlines (so no CR and no tab); else None. The quick test before a full check."""
    if not text.endswith("\n"):
        return None
    lines = text[:-1].split("\n")
    return lines if all(line.isprintable() for line in lines) else None
