"""Mutants of a reference, made without running anything: each operator in Python, C and C++,
named by line and change, and the same every time."""

from __future__ import annotations

import ast

from judge.kinds.tests import mutation

PYTHON = """import sys


def main():
    n = int(sys.stdin.readline())
    total = 0
    for i in range(n):
        if i % 2 == 0:
            total += i
    print(total)


if __name__ == "__main__":
    main()
"""

CPP = r"""#include <bits/stdc++.h>
#define LIMIT(a, b) ((a) < (b))
using namespace std;
// i < n in a comment, and a "<=" in a string stay as they are
template <typename T> bool less_than(T a, T b) { return a < b; }
int main() {
    int n; cin >> n;
    vector<pair<int, int>> v(n);
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0) total += i;
    }
    cout << total << "<=" << '\n';
    return 0;
}
"""


def named(mutants: tuple[mutation.Mutant, ...]) -> set[str]:
    return {m.name for m in mutants}


def test_python_mutants_by_each_operator_named_by_line_and_change() -> None:
    made = mutation.mutants_of("python", PYTHON, mutation.OPERATORS)
    assert {
        "mutant: line 8, != for ==",
        "mutant: line 8, 3 for 2",
        "mutant: line 8, 1 for 2",
        "mutant: line 6, 1 for 0",
        "mutant: line 6, -1 for 0",
        "mutant: line 8, condition negated",
        "mutant: line 9, statement dropped",
        "mutant: line 10, statement dropped",
    } <= named(made)
    # The main guard is left alone: changing it drops the whole program, which any test sees.
    assert not [m for m in made if m.line == 13]
    by_name = {m.name: m for m in made}
    assert "if i % 2 != 0:" in by_name["mutant: line 8, != for =="].text
    assert "if not i % 2 == 0:" in by_name["mutant: line 8, condition negated"].text
    assert "total += i" not in by_name["mutant: line 9, statement dropped"].text
    assert by_name["mutant: line 8, != for =="].group == "mutant-8-ne-for-eq"
    for mutant in made:  # each one program that parses, one change from the reference
        ast.parse(mutant.text)
        assert mutant.text != ast.unparse(ast.parse(PYTHON)) + "\n"


def test_cpp_mutants_leave_templates_comments_strings_and_the_preprocessor_alone() -> None:
    made = mutation.mutants_of("cpp", CPP, mutation.OPERATORS)
    assert {
        "mutant: line 10, <= for <",
        "mutant: line 11, != for ==",
        "mutant: line 9, 1 for 0",
        "mutant: line 9, -1 for 0",
        "mutant: line 11, condition negated",
        "mutant: line 11, statement dropped",
        "mutant: line 7, statement dropped",
        "mutant: line 13, statement dropped",
    } <= named(made)
    lines = {m.line for m in made}
    assert not lines & {1, 2, 3, 4, 8}, "a macro, a comment, a template's brackets or a declaration was changed"
    # `template <typename T>` is a template; `a < b` in its body is a comparison.
    assert {m.name for m in made if m.line == 5} == {"mutant: line 5, <= for <"}
    assert not [m for m in made if m.line == 14], "return 0 of main changes only an exit code"
    by_name = {m.name: m for m in made}
    assert "if (!(i % 2 == 0)) total += i;" in by_name["mutant: line 11, condition negated"].text
    assert "total = (-1);" in by_name["mutant: line 9, -1 for 0"].text
    assert "if (i % 2 == 0) ;" in by_name["mutant: line 11, statement dropped"].text
    assert "int n; ;" in by_name["mutant: line 7, statement dropped"].text


def test_c_has_no_templates_and_two_changes_on_a_line_are_numbered() -> None:
    made = mutation.mutants_of(
        "c", "int main(void) {\n    int a = 1 < 2, b = 3 < 4;\n    return a + b;\n}\n", ("compare",)
    )
    assert [m.name for m in made] == ["mutant: line 2, <= for <", "mutant: line 2, <= for < (2)"]
    assert [m.group for m in made] == ["mutant-2-le-for-lt", "mutant-2-le-for-lt-2"]
    assert made[1].text.count("<=") == 1 and "3 <= 4" in made[1].text


def test_the_same_mutants_in_the_same_order_every_time() -> None:
    first = mutation.ordered(mutation.mutants_of("cpp", CPP, mutation.OPERATORS), "seed")
    again = mutation.ordered(mutation.mutants_of("cpp", CPP, mutation.OPERATORS), "seed")
    assert first == again
    # The operators in turn: a cap keeps some of each.
    assert [m.operator for m in first[:4]] == list(mutation.OPERATORS)
    assert mutation.mutants_of("python", "def broken(:\n", mutation.OPERATORS) == ()


def test_only_the_operators_asked_for() -> None:
    made = mutation.mutants_of("python", PYTHON, ("negate",))
    assert {m.operator for m in made} == {"negate"}


def test_a_reference_of_several_files_names_the_file_of_each_mutant() -> None:
    files = [("shapes.py", "def area(w, h):\n    return w * h if w > 0 else None\n"), ("geo/util.py", "LIMIT = 10\n")]
    made = mutation.in_files(files, ["compare", "constant"])
    assert [(m.file, m.name, m.group) for m in made] == [
        ("shapes.py", "mutant: shapes.py line 2, >= for >", "mutant-shapes-2-ge-for-gt"),
        ("shapes.py", "mutant: shapes.py line 2, 1 for 0", "mutant-shapes-2-1-for-0"),
        ("shapes.py", "mutant: shapes.py line 2, -1 for 0", "mutant-shapes-2-minus-1-for-0"),
        ("geo/util.py", "mutant: geo/util.py line 1, 11 for 10", "mutant-util-1-11-for-10"),
        ("geo/util.py", "mutant: geo/util.py line 1, 9 for 10", "mutant-util-1-9-for-10"),
    ]
    # Each is its own file's text with one change; a mutant of one file leaves the other alone.
    assert all(ast.parse(m.text) for m in made)
    assert made[0].text.startswith("def area(w, h):\n    return w * h if w >= 0 else None")
