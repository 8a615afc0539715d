"""A Python CE in the student's terms (issue 59): their file and line, not the judge's frames."""

from __future__ import annotations

from judge.run.compiler_output import for_student

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
