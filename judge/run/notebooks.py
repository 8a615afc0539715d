"""A Jupyter notebook (.ipynb) as a Python module (pure): its code cells in order, read with
nbformat. A shell (`!ls`) or magic (`%time`, `%%bash`) line is IPython, not Python: it is
refused with its cell and line rather than run as something else.

Each cell starts with a comment line naming it, so a compiler's line number leads back to it.

A notebook is the student's file, read with bounds before nbformat sees it (judge.run.bounded):
strict UTF-8, no lone surrogate in any string, at most MAX_BYTES and MAX_DEPTH levels of JSON,
an object at the top. What breaks one is a NotebookError of one line, never a traceback.
"""

from __future__ import annotations

import re

from judge.run import bounded

SUFFIX = ".ipynb"
_IPYTHON = re.compile(r"^\s*(!|%)")  # a shell or magic line


class NotebookError(ValueError):
    """Why a notebook cannot be a module: one line, its cell and line where it has them."""


def module_name(name: str) -> str:
    """notes/moves.ipynb -> notes/moves.py."""
    return name[: -len(SUFFIX)] + ".py"


def module_of(data: bytes) -> bytes:
    """The module a notebook's code cells make, in order."""
    import nbformat  # 140 ms to import: paid by who reads a notebook, not by every judge's start

    try:
        top = bounded.loads(data)
    except bounded.OutOfBounds as err:
        raise NotebookError(str(err) if err.bound == "text" else f"not a readable notebook ({err})") from None
    if type(top) is not dict:
        raise NotebookError(f"not a readable notebook (a JSON {_kind(top)} at the top, not an object)")
    try:
        # Read, brought to format 4 and checked against its schema: what is left is well formed.
        notebook = nbformat.convert(nbformat.reader.reads(data.decode("utf-8")), 4)  # type: ignore[no-untyped-call]
        nbformat.validate(notebook)
    except Exception as err:  # nbformat raises JSON, schema and version errors of many types
        said = str(err).strip().splitlines()[0][:120] if str(err).strip() else type(err).__name__
        raise NotebookError(f"not a readable notebook ({said})") from None
    parts = []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type != "code":
            continue
        text = str(cell.source)
        for line_number, line in enumerate(text.splitlines(), start=1):
            if _IPYTHON.match(line):
                kind = "shell" if line.lstrip().startswith("!") else "magic"
                raise NotebookError(
                    f"cell {number}, line {line_number}: a {kind} line is IPython, not Python ({line.strip()[:60]!r});"
                    " remove it"
                )
        parts.append(f"# cell {number}\n{text.rstrip()}\n")
    if not parts:
        raise NotebookError("no code cell")
    return "\n".join(parts).encode("utf-8")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "list"}.get(type(value), "value")
