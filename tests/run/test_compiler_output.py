"""A Python CE in the student's terms (issue 59): their file and line, not the judge's frames."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.author import scaffold
from judge.grade import judging
from judge.kinds.table import load_problem
from judge.run.compiler_output import for_student
from tests import needs
from tests.test_cli import judge

CHECKED = """\
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "<string>", line 1, in <listcomp>
  File "/usr/lib/python3.11/ast.py", line 50, in parse
    return compile(source, filename, mode, flags,
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "main.py", line 2
    def f(:
          ^
SyntaxError: invalid syntax
"""


def test_a_python_syntax_error_shows_the_students_file_and_line_only() -> None:
    shown = for_student(CHECKED, "python")
    assert shown == 'File "main.py", line 2\n    def f(:\n          ^\nSyntaxError: invalid syntax\n'
    assert "<string>" not in shown and "ast.py" not in shown and "Traceback" not in shown


def test_other_compilers_and_unknown_shapes_are_left_as_they_are() -> None:
    gcc = "main.c:3:5: error: expected ';' before '}' token\n"
    assert for_student(gcc, "c") == gcc
    odd = "Traceback (most recent call last):\n"  # nothing of the student's: kept whole
    assert for_student(odd, "python") == odd


HARNESS_CPP = """\
In file included from main.cpp:2:
solution.hpp: In function 'long long int max_sum(std::vector<int>)':
solution.hpp:3:23: error: expected primary-expression before ';' token
    3 |     return xs.size() +;
      |                       ^
main.cpp: In function 'int main()':
main.cpp:10:26: error: 'max_sum' was not declared in this scope
   10 |             auto value = max_sum(a0);
      |                          ^~~~~~~
"""


def test_a_harness_compile_names_the_students_file_and_cuts_the_judges() -> None:
    shown = for_student(HARNESS_CPP, "cpp", {"solution.hpp": "mine.cpp"}, ("main.cpp", "harness.hpp"))
    assert shown == (
        "mine.cpp: In function 'long long int max_sum(std::vector<int>)':\n"
        "mine.cpp:3:23: error: expected primary-expression before ';' token\n"
        "    3 |     return xs.size() +;\n"
        "      |                       ^\n"
        "error: 'max_sum' was not declared in this scope\n"  # the message kept, the harness's place cut
    )


def _judged(tmp_path: Path, name: str, text: str) -> str:
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "maxf", "python3", kind="functions")
    assert judge("--problems", str(problems), "gen", "maxf").returncode == 0
    (tmp_path / name).write_text(text, encoding="utf-8")
    record = judging.judge(judging.identify(load_problem(problems / "maxf"), tmp_path / name, "bo"))
    assert record.verdict == "CE"
    return record.compile_output


# A real compiler's error in a function's file, compiled with the judge's harness: the student's
# name and line, nothing of the harness (main.c, solution.h, Main.java, harness.hpp).
REAL = {
    "c": ("mine.c", "long long max_sum(const int *xs, int xs_len) {\n    return xs_len +;\n}\n", "mine.c:2:"),
    "cpp": ("mine.cpp", "#include <vector>\nlong long max_sum(std::vector<int> xs) {\n    return xs.size() +;\n}\n",
            "mine.cpp:3:"),
    "java": ("answer.java", "public class Solution {\n    public static long max_sum(int[] xs) {\n"
             "        return xs.length +;\n    }\n}\n", "answer.java:3: error"),
}  # fmt: skip


@pytest.mark.parametrize(
    "language", [pytest.param(lang, marks=needs.mark("isolation", lang)) for lang in ("c", "cpp", "java")]
)
def test_a_real_compile_error_names_the_students_file_only(tmp_path: Path, language: str) -> None:
    name, text, where = REAL[language]
    shown = _judged(tmp_path, name, text)
    assert shown.startswith(where) or f"\n{where}" in shown, shown
    for judges in ("main.c", "solution.h", "Main.java", "harness.h", "In file included"):
        assert judges not in shown, shown
