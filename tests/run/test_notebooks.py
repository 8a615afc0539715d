"""A Jupyter notebook as a Python module: code cells in order, IPython lines refused with their
cell and line, a broken notebook one line naming its file."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from judge.run import notebooks, sources


def notebook(*cells: tuple[str, str]) -> bytes:
    made = nbformat.v4.new_notebook()
    for kind, text in cells:
        made.cells.append(nbformat.v4.new_code_cell(text) if kind == "code" else nbformat.v4.new_markdown_cell(text))
    return nbformat.writes(made).encode()


def test_the_code_cells_in_order_are_the_module() -> None:
    data = notebook(
        ("markdown", "# Moves\nprint('not code')"), ("code", "import math"), ("code", "def f(x):\n    return x")
    )
    assert notebooks.module_of(data) == b"# cell 2\nimport math\n\n# cell 3\ndef f(x):\n    return x\n"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("x = 1\n!pip install numpy", "cell 2, line 2: a shell line is IPython, not Python ('!pip install numpy')"),
        ("%timeit f(3)", "cell 2, line 1: a magic line is IPython"),
        ("%%bash\nls", "cell 2, line 1: a magic line is IPython"),
    ],
)
def test_shell_and_magic_lines_are_refused_with_cell_and_line(text: str, said: str) -> None:
    with pytest.raises(notebooks.NotebookError) as raised:
        notebooks.module_of(notebook(("markdown", "intro"), ("code", text)))
    assert str(raised.value).startswith(said)


def test_a_broken_notebook_is_one_line_naming_its_file(tmp_path: Path) -> None:
    for data, said in (
        (b"{not json", "not a readable notebook"),
        (b'{"cells": 3}', "not a readable notebook"),
        (notebook(("markdown", "only words")), "no code cell"),
    ):
        (tmp_path / "mine.ipynb").write_bytes(data)
        with pytest.raises(sources.SourceError) as raised:
            sources.read(tmp_path / "mine.ipynb")
        assert str(raised.value).startswith(f"{tmp_path / 'mine.ipynb'}: {said}"), str(raised.value)
        assert "\n" not in str(raised.value)


def test_a_notebook_is_read_as_a_python_program_from_disk_and_upload(tmp_path: Path) -> None:
    data = notebook(("code", "print(sum(map(int, input().split())))"))
    (tmp_path / "sums.ipynb").write_bytes(data)
    for found in (sources.read(tmp_path / "sums.ipynb"), sources.from_upload("sums.ipynb", data)):
        assert found.language.id == "python3" and found.files == (
            ("sums.py", b"# cell 1\n" + b"print(sum(map(int, input().split())))\n"),
        )
        assert found.main == "sums.py" and found.path.name == "sums.ipynb"
