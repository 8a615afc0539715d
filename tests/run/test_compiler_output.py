"""A Python CE in the student's terms (issue 59): their file and line, not the judge's frames."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.author import scaffold
from judge.grade import judging
from judge.kinds.table import load_problem
from judge.run import build, sources
from judge.run.build import Build
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


def test_a_python_syntax_error_names_the_file_as_the_student_gave_it() -> None:
    """The box's main.py is the student's sum.py: the frame says sum.py (a notebook's module has
    bytes of its own, so nothing maps to it and it stays main.py)."""
    shown = for_student(CHECKED, "python", {"main.py": "sum.py"})
    assert shown.startswith('File "sum.py", line 2\n') and "main.py" not in shown
    assert for_student(CHECKED, "python", {}).startswith('File "main.py", line 2')


@needs.mark("isolation", "python3")
def test_a_real_python_syntax_error_names_the_students_file() -> None:
    built = _compiled("sum.py", "def f(:\n    pass\n", "python3")
    assert not built.ok and built.message.startswith('File "sum.py", line 1'), built.message


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


def _compiled(name: str, text: str, language: str) -> Build:
    """A student's one file, `name`, compiled through the judge's build in a box of its own."""
    program = sources.from_upload(name, text.encode(), language_id=language)
    with build.box() as where:
        return build.compile_submission(program, where)


# Real outputs of the judge's compile steps (Debian 12's toolchains), as the box names them.
RUSTC_HARNESS = """\
error[E0425]: cannot find value `y` in this scope
 --> solution.rs:2:5
  |
2 |     y
  |     ^ not found in this scope

error[E0308]: mismatched types
 --> main.rs:8:42
  |
8 |         judge_harness::returned(&max_sum(a0))
  |                                  ------- ^^ expected `i64`, found `i32`
  |
  = note: expected struct `Vec<i64>`
note: function defined here
 --> solution.rs:1:4
"""
OTHERS = {
    "go": (
        "# command-line-arguments\n./main.go:9:32: cannot use a0 as type []int64\n./solution.go:4:9: undefined: y\n",
        "cannot use a0 as type []int64\nmine.go:4:9: undefined: y\n",
    ),
    "csharp": (
        "Compilation failed: 1 error(s), 0 warnings\nSolution.cs(2,50): error CS0103: The name `y' does not exist\n",
        "Compilation failed: 1 error(s), 0 warnings\nmine.cs(2,50): error CS0103: The name `y' does not exist\n",
    ),
    "pascal": (
        "Free Pascal Compiler version 3.2.2+dfsg-20 [2023/03/30] for x86_64\n"
        "Copyright (c) 1993-2021 by Florian Klaempfl and others\n"
        'main.pas(3,11) Error: Identifier not found "y"\nFatal: Compilation aborted\n'
        "Error: /usr/bin/ppcx64 returned an error exitcode\n",
        'mine.pas(3,11) Error: Identifier not found "y"\nFatal: Compilation aborted\n',
    ),
    "haskell": (
        "[1 of 1] Compiling Main             ( Main.hs, /tmp/ghc/Main.o )\n\n"
        "Main.hs:2:14: error: Variable not in scope: y\n  |\n2 | main = print y\n",
        "mine.hs:2:14: error: Variable not in scope: y\n  |\n2 | main = print y\n",
    ),
    "fortran": (
        "main.f90:3:12:\n\n    3 |   print *, y\n      |            1\nError: Symbol 'y' at (1) has no IMPLICIT type\n",
        "mine.f90:3:12:\n\n    3 |   print *, y\n      |            1\nError: Symbol 'y' at (1) has no IMPLICIT type\n",
    ),
    "ocaml": (
        'File "main.ml", line 2, characters 12-13:\nError: Unbound value y\n',
        'File "mine.ml", line 2, characters 12-13:\nError: Unbound value y\n',
    ),
    "typescript": (
        "main.ts(2,13): error TS2304: Cannot find name 'y'.\n",
        "mine.ts(2,13): error TS2304: Cannot find name 'y'.\n",
    ),
    "kotlin": (
        "OpenJDK 64-Bit Server VM warning: Options -Xverify:none and -noverify were deprecated\n"
        "Main.kt:2:13: error: unresolved reference: y\n",
        "mine.kt:2:13: error: unresolved reference: y\n",
    ),
    "scala": (
        "Main.scala:3: error: not found: value y\n    println(y)\n            ^\none error found\n",
        "mine.scala:3: error: not found: value y\n    println(y)\n            ^\none error found\n",
    ),
    "javascript": (
        "/box/main.js:3\n\nSyntaxError: Unexpected end of input\n"
        "    at wrapSafe (node:internal/modules/cjs/loader:1464:18)\nNode.js v20.20.2\n",
        "mine.js:3\n\nSyntaxError: Unexpected end of input\n",
    ),
}


def test_rustc_names_the_students_file_and_cuts_the_harness_block() -> None:
    shown = for_student(RUSTC_HARNESS, "rust", {"solution.rs": "mine.rs"}, ("main.rs", "judge_harness.rs"))
    assert shown == (
        "error[E0425]: cannot find value `y` in this scope\n --> mine.rs:2:5\n  |\n2 |     y\n"
        "  |     ^ not found in this scope\n\nerror[E0308]: mismatched types\n"
        "note: function defined here\n --> mine.rs:1:4\n"
    )


@pytest.mark.parametrize("family", sorted(OTHERS))
def test_each_compilers_places_take_the_students_names(family: str) -> None:
    given, shown = OTHERS[family]
    box = {
        "go": "solution.go",
        "csharp": "Solution.cs",
        "haskell": "Main.hs",
        "kotlin": "Main.kt",
        "scala": "Main.scala",
    }
    student = box.get(family, "main." + {"pascal": "pas", "fortran": "f90", "ocaml": "ml", "typescript": "ts",
                                         "javascript": "js"}.get(family, ""))  # fmt: skip
    judges = ("main.go",) if family == "go" else ()
    assert for_student(given, family, {student: "mine." + student.rsplit(".", 1)[1]}, judges) == shown


# A stdio program's compile error in each compiled language: the student's file name, never the box's.
PROGRAMS = {
    "rust": ("sum.rs", 'fn main() {\n    println!("{}", y);\n}\n', "main.rs"),
    "go": ("sum.go", 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(y)\n}\n', "main.go"),
    "csharp": ("sum.cs", "class P { static void Main() {\n  System.Console.WriteLine(y);\n} }\n", "main.cs"),
    "haskell": ("sum.hs", "main :: IO ()\nmain = print y\n", "Main.hs"),
    "pascal": ("sum.pas", "program p;\nbegin\n  writeln(y);\nend.\n", "main.pas"),
    "fortran": ("sum.f90", "program p\n  implicit none\n  print *, y\nend program p\n", "main.f90"),
    "ocaml": ("sum.ml", "let () =\n  print_int y\n", "main.ml"),
    "kotlin": ("sum.kt", "fun main() {\n    println(y)\n}\n", "Main.kt"),
    "typescript": ("sum.ts", "console.log(y);\n", "main.ts"),
    "javascript": ("sum.js", "function f( {\n}\n", "main.js"),
}


@pytest.mark.parametrize(
    "language", [pytest.param(lang, marks=needs.mark("isolation", lang)) for lang in sorted(PROGRAMS)]
)
def test_a_programs_compile_error_names_the_students_file(language: str) -> None:
    name, text, box = PROGRAMS[language]
    made = _compiled(name, text, language)
    assert not made.ok and name in made.message and box not in made.message, made.message


HARNESSED = {
    "go": ("mine.go", "package main\n\nfunc max_sum(xs []int) int {\n\treturn y\n}\n", ("main.go", "judge_harness")),
    "rust": ("mine.rs", "fn max_sum(xs: Vec<i32>) -> i64 {\n    y\n}\n", ("main.rs", "solution.rs", "judge_harness")),
    "csharp": ("mine.cs", "public class Solution {\n  public static long max_sum(int[] xs) { return y; }\n}\n",
               ("main.cs", "Solution.cs")),
}  # fmt: skip


@pytest.mark.parametrize(
    "language", [pytest.param(lang, marks=needs.mark("isolation", lang)) for lang in sorted(HARNESSED)]
)
def test_a_function_in_go_rust_or_csharp_names_the_students_file_only(tmp_path: Path, language: str) -> None:
    name, text, judges = HARNESSED[language]
    shown = _judged(tmp_path, name, text)
    assert f"{name}:" in shown or f"{name}(" in shown, shown
    for judge_file in judges:
        assert judge_file not in shown, shown


# Real outputs of the interpreters' syntax checks and GNAT through the judge (Debian 12's
# toolchains), a student's sum.<ext> in the box as main.<ext>: (what the box said, what is shown).
CHECKS = {
    "ruby": (
        "main.rb:2: syntax error, unexpected integer literal, expecting ')'\n  puts 1\n       ^\n",
        "sum.rb:2: syntax error, unexpected integer literal, expecting ')'\n  puts 1\n       ^\n",
    ),
    "php": (
        '\nFatal error: Cannot redeclare f() (previously declared in main.php:2) in main.php on line 3\n'
        "Errors parsing main.php\n",
        "Fatal error: Cannot redeclare f() (previously declared in sum.php:2) in sum.php on line 3\n",
    ),
    "perl": (
        'syntax error at main.pl line 2, near "+;"\nmain.pl had compilation errors.\n',
        'syntax error at sum.pl line 2, near "+;"\n',
    ),
    "lua": ("luac5.4: main.lua:1: unexpected symbol near ')'\n", "sum.lua:1: unexpected symbol near ')'\n"),
    "prolog": (
        "Warning: /box/main.pl:2:\nWarning:    Singleton variables: [X]\n"
        "ERROR: /box/main.pl:3:8: Syntax error: Operator expected\n"
        "Warning: Halting with status 1 due to 1 errors and 1 warnings\n",
        "Warning: sum.pl:2:\nWarning:    Singleton variables: [X]\nERROR: sum.pl:3:8: Syntax error: Operator expected\n",
    ),
    "lisp": (
        '; compiling file "/box/main.lisp" (written 07 DEC 2026 09:17:17 AM):\n\n'
        "; compilation aborted after 0:00:00.000\n; \n; caught ERROR:\n;   READ error during COMPILE-FILE:\n;   \n"
        ';     end of file on #<SB-INT:FORM-TRACKING-STREAM for "file /box/main.lisp" {10013623A3}>\n;   \n'
        ";     (in form starting at line: 1, column: 0, position: 0)\n; \n; compilation unit aborted\n"
        ";   caught 1 fatal ERROR condition\n;   caught 1 ERROR condition\n",
        "; caught ERROR:\n;   READ error during COMPILE-FILE:\n;   \n;     end of file on sum.lisp\n;   \n"
        ";     (in form starting at line: 1, column: 0, position: 0)\n",
    ),
    "bash": (
        "main.sh: line 3: syntax error: unexpected end of file\n",
        "sum.sh: line 3: syntax error: unexpected end of file\n",
    ),
    "awk": (
        "gawk: main.awk:1: BEGIN { print 1 +; }\ngawk: main.awk:1:                  ^ syntax error\n",
        "sum.awk:1: BEGIN { print 1 +; }\nsum.awk:1:                  ^ syntax error\n",
    ),
    "r": (
        "Error in parse(file = \"main.R\") : \n  main.R:1:6: unexpected INCOMPLETE_STRING\n1: x <- 'abc\n"
        "         ^\nExecution halted\n",
        "sum.R:1:6: unexpected INCOMPLETE_STRING\n1: x <- 'abc\n         ^\n",
    ),
    "ada": (
        'main.adb:4:06: error: missing ";"\nmain.adb: parse errors detected\nmain.adb: chop may not be successful\n',
        'sum.adb:4:06: error: missing ";"\nsum.adb: parse errors detected\n',
    ),
}  # fmt: skip


@pytest.mark.parametrize("family", sorted(CHECKS))
def test_each_interpreters_check_names_the_students_file_without_its_noise(family: str) -> None:
    given, shown = CHECKS[family]
    ext = {"ruby": "rb", "perl": "pl", "prolog": "pl", "r": "R", "bash": "sh", "ada": "adb"}.get(family, family)
    assert for_student(given, family, {f"main.{ext}": f"sum.{ext}"}) == shown


def test_an_r_error_on_the_line_of_its_call_loses_the_judges_frame() -> None:
    given = (
        "Error in parse(file = \"main.R\") : main.R:2:9: unexpected ')'\n1: x <- 1 +\n2: print(x))\nExecution halted\n"
    )
    assert for_student(given, "r", {"main.R": "sum.r"}) == "sum.r:2:9: unexpected ')'\n1: x <- 1 +\n2: print(x))\n"


ADA_ONE = b"-- my sum\n\nwith Ada.Text_IO;\nprocedure Hello is\nbegin\n   Ada.Text_IO.Put_Line (Y);\nend Hello;\n"
ADA_NESTED = b"procedure Sum is\n   procedure Show is\n   begin\n      null;\n   end Show;\nbegin\n   Show;\nend Sum;\n"


def test_a_gnat_units_file_is_the_students_only_where_it_holds_that_unit_alone() -> None:
    from judge.run.compiler_output import ada_units

    one = ada_units([("main.adb", ADA_ONE)], {"main.adb": "sum.adb"})
    assert one == {"main.adb": "sum.adb", "hello.adb": "sum.adb", "hello.ads": "sum.adb"}
    given = 'hello.adb:6:26: error: "Y" is undefined\ngnatmake: "hello.adb" compilation error\n'
    assert for_student(given, "ada", one) == 'sum.adb:6:26: error: "Y" is undefined\n'
    # Two units in one file (here a nested procedure): gnatchop's lines are the unit's, not the file's.
    assert ada_units([("main.adb", ADA_NESTED)], {"main.adb": "mine.adb"}) == {"main.adb": "mine.adb"}
    # Two files claiming one unit (a spec and a body of `procedure P`) name neither.
    two = [("main.adb", b"procedure P is\nbegin\n null;\nend P;\n"), ("p.ads", b"procedure P;\n")]
    assert ada_units(two, {"main.adb": "x.adb", "p.ads": "y.ads"}) == {"main.adb": "x.adb", "p.ads": "y.ads"}


# A broken program in each interpreted language (and Ada) judged for real: the student's file
# named, never the box's main.<ext> nor the tool's noise.
BROKEN = {
    "ruby": ("sum.rb", "def f(\n  puts 1\nend end\n", "sum.rb:2:"),
    "php": ("sum.php", "<?php\necho 1 +;\n", "in sum.php on line 2"),
    "perl": ("sum.pl", "#!/usr/bin/perl\nmy $x = 1 +;\nprint $x;\n", "at sum.pl line 2"),
    "lua": ("sum.lua", "print(1 +)\n", "sum.lua:1:"),
    "prolog": ("sum.pl", "main :- X is 1 +, write(X).\n", "ERROR: sum.pl:1:"),
    "lisp": ("sum.lisp", "(defun f (x) (+ x 1)\n(print (f 2)\n", "end of file on sum.lisp"),
    "bash": ("sum.sh", "if true; then\n  echo 1\n", "sum.sh: line 3:"),
    "awk": ("sum.awk", "BEGIN { print 1 +; }\n", "sum.awk:1:"),
    "r": ("sum.r", "x <- 1 +\nprint(x))\n", "sum.r:2:9:"),
    "ada": ("mine.adb", "with Ada.Text_IO;\nprocedure Sum is\nbegin\n   Ada.Text_IO.Put_Line (Y);\nend Sum;\n",
            "mine.adb:4:26:"),
}  # fmt: skip
NOISE = ("main.", "/box/", "luac", "gawk:", "Errors parsing", "compilation errors", "Halting", "Execution halted",
         "compiling file", "caught 1", "Error in parse", "gnatmake", "sum.adb")  # fmt: skip


@pytest.mark.parametrize(
    "language", [pytest.param(lang, marks=needs.mark("isolation", lang)) for lang in sorted(BROKEN)]
)
def test_an_interpreters_real_syntax_error_names_the_students_file(language: str) -> None:
    name, text, where = BROKEN[language]
    made = _compiled(name, text, language)
    assert not made.ok and where in made.message, made.message
    for noise in NOISE:
        assert noise not in made.message, made.message
