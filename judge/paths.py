"""Where the judge's own files are (templates, beside the code) and the user's cache.

os.path, not pathlib: `judge solve` reads the cache and must start fast.
"""

from __future__ import annotations

import os

PACKAGE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(PACKAGE, "templates")
CACHE_ENV = "JUDGE_CACHE_DIR"
PROBLEMS_ENV = "JUDGE_PROBLEMS"  # the folder of problems, when not ./problems


def cache_dir() -> str:
    """$JUDGE_CACHE_DIR, else $XDG_CACHE_HOME/judge, else ~/.cache/judge."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "judge")
