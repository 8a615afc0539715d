"""A Jupyter notebook as a Python module: code cells in order, IPython lines refused with their
cell and line, a broken notebook one line naming its file."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from judge.grade import judging
from judge.kinds.table import load_problem
from judge.run import notebooks, sources
from tests.conftest import PROBLEMS


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


def _with_code(source: str) -> bytes:
    """A notebook whose one code cell is `source` as JSON text (an escape such as \\ud800 kept as written)."""
    made = json.loads(notebook(("code", "PLACE")))
    return json.dumps(made).replace("PLACE", source).encode()


@pytest.mark.parametrize(
    ("data", "said"),
    [
        # Valid JSON, no Unicode text: nbformat would read it, and no file or database could hold it.
        (_with_code("x = '\\ud800'"), "not Unicode text: a lone surrogate (\\ud800) in a string"),
        (_with_code("x = 1").replace(b'"metadata": {}', b'"metadata": {"\\udfff": 1}', 1), "not Unicode text"),
        (_with_code("x = 'caf\xe9'").replace("caf\xe9".encode(), b"caf\xe9"), "not UTF-8 text (byte"),
        (b"[" * 200_000 + b"]" * 200_000, "not a readable notebook (nested deeper than 100 levels)"),
        (b'{"cells": ' + b"[" * 150 + b"]" * 150 + b"}", "not a readable notebook (nested deeper than 100 levels)"),
        (b"[]", "not a readable notebook (a JSON list at the top, not an object)"),
        (b'"cells"', "not a readable notebook (a JSON string at the top, not an object)"),
        (b"null", "not a readable notebook (a JSON null at the top, not an object)"),
        (b"3", "not a readable notebook (a JSON number at the top, not an object)"),
        (b'{"cells": [], "nbformat": NaN}', "not a readable notebook (not JSON (NaN is not JSON))"),
    ],
)
def test_a_notebook_out_of_bounds_is_one_line_naming_its_file(tmp_path: Path, data: bytes, said: str) -> None:
    (tmp_path / "mine.ipynb").write_bytes(data)
    for read, named in (
        (lambda: sources.read(tmp_path / "mine.ipynb"), tmp_path / "mine.ipynb"),
        (lambda: sources.from_upload("mine.ipynb", data), Path("mine.ipynb")),
    ):
        with pytest.raises(sources.SourceError) as raised:
            read()
        assert str(raised.value).startswith(f"{named}: {said}"), str(raised.value)
        assert "\n" not in str(raised.value)


def test_a_huge_notebook_is_refused_without_reading_it_as_json() -> None:
    with pytest.raises(notebooks.NotebookError, match=r"not a readable notebook \(over 16 MiB of JSON\)"):
        notebooks.module_of(b'{"cells": [], "pad": "' + b"x" * (16 << 20) + b'"}')


def test_an_unreadable_notebook_is_the_students_ng_not_an_error_of_the_judge() -> None:
    problem = load_problem(PROBLEMS / "lanqiao")
    for data in (_with_code("x = '\\ud800'"), b"[1, 2]"):
        submitted = judging.identify(problem, ("answer.ipynb", data), "nb")
        assert submitted.sources is None and submitted.error.startswith("answer.ipynb: not "), submitted.error
        record = judging.judge(submitted)
        assert record.verdict == "NG" and record.error == submitted.error
