"""Finding a unit-test problem's tests in the teacher's files, statically: ids, points and
visibility from the decorators teachers already write, the folder and the spec's table."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.kinds.unit.found import FoundError, PerTest, group_name, is_test_file, read_java_tests, read_tests

GRADESCOPE = """
import unittest
from gradescope_utils.autograder_utils.decorators import number, visibility, weight


class TestStack(unittest.TestCase):
    @weight(2)
    @number("1.1")
    def test_push(self):
        pass

    @weight(0.5)
    @visibility("visible")
    def test_pop(self):
        pass

    @visibility("after_published")
    def test_secret_until_published(self):
        pass

    def helper(self):
        pass


def test_module_level():
    pass


def not_a_test():
    pass


class Helper:
    def test_not_collected(self):
        pass

    def __init__(self):
        pass
"""


def test_tests_are_found_with_the_points_and_visibility_their_decorators_give() -> None:
    found = read_tests("secret/test_stack.py", GRADESCOPE, default_points=1.0)
    assert [(t.id, t.points, t.public, t.title) for t in found] == [
        ("secret/test_stack.py::TestStack::test_push", 2.0, False, "1.1"),
        ("secret/test_stack.py::TestStack::test_pop", 0.5, True, ""),
        ("secret/test_stack.py::TestStack::test_secret_until_published", 1.0, False, ""),
        ("secret/test_stack.py::test_module_level", 1.0, False, ""),
    ]
    assert found[0].file == "secret/test_stack.py"


def test_the_public_folder_shows_a_test_unless_its_decorator_hides_it() -> None:
    text = "from pl_helpers import points\n\n@points(3)\ndef test_a():\n    pass\n\n" + (
        "@visibility('hidden')\ndef test_b():\n    pass\n"
    )
    a, b = read_tests("public/test_x.py", text, default_points=1.0)
    assert (a.points, a.public) == (3.0, True)
    assert (b.points, b.public) == (1.0, False)


def test_the_spec_table_overrides_the_decorators() -> None:
    table = {"public/test_x.py::test_a": PerTest(points=7.0, public=False)}
    (a,) = read_tests("public/test_x.py", "@weight(2)\ndef test_a():\n    pass\n", 1.0, table)
    assert (a.points, a.public) == (7.0, False)


def test_a_class_decorator_applies_to_its_methods_under_their_own() -> None:
    text = "@weight(4)\nclass TestA:\n    def test_one(self):\n        pass\n    @weight(1)\n    def test_two(self):\n        pass\n"
    one, two = read_tests("t/test_a.py", text, 1.0)
    assert (one.points, two.points) == (4.0, 1.0)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("def test_a(:\n", 1, "not Python"),
        ("@weight(x)\ndef test_a():\n    pass\n", 1, "must be written out"),
        ("@weight(-1)\ndef test_a():\n    pass\n", 2, "points must be a number from 0 to 1000"),
        ("@visibility('sometimes')\ndef test_a():\n    pass\n", 2, "@visibility 'sometimes'"),
        ("@weight()\ndef test_a():\n    pass\n", 1, "@weight takes one value"),
    ],
)
def test_a_bad_test_file_names_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FoundError, match=message) as caught:
        read_tests("public/test_bad.py", text, 1.0)
    assert caught.value.line == line


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        # PrairieLearn's harness: a namespace self.st and Feedback.set_score the judge has not.
        (
            "import unittest\nfrom pl_unit_test import PLTestCase\n",
            2,
            "imports pl_unit_test: PrairieLearn's PLTestCase",
        ),
        ("from code_feedback import Feedback\n", 1, "imports code_feedback: PrairieLearn's PLTestCase and Feedback"),
        ("def test_a():\n    import code_feedback\n", 2, "imports code_feedback"),
        # A name the stand-ins do not offer would fail the file's collection on every submission.
        ("from pl_helpers import points, print_student_code\n", 1, "pl_helpers has no 'print_student_code'"),
        ("from gradescope_utils.autograder_utils.decorators import weight, timeout\n", 1, "has no 'timeout'"),
        (
            "from gradescope_utils.autograder_utils.json_test_runner import JSONTestRunner\n",
            1,
            "decorators and files alone",
        ),
        ("from gradescope_utils.autograder_utils import json_test_runner\n", 1, "has no 'json_test_runner'"),
    ],
)
def test_an_import_the_tests_sandbox_cannot_serve_names_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FoundError, match=re.escape(message)) as caught:
        read_tests("public/test.py", text, 1.0)
    assert caught.value.line == line


def test_what_the_stand_ins_offer_is_read_without_error() -> None:
    text = (
        "from pl_helpers import name, not_repeated, points\n"
        "from gradescope_utils.autograder_utils.decorators import hide_errors, leaderboard, number, partial_credit,"
        " tags, visibility, weight\n"
        "from gradescope_utils.autograder_utils.files import check_submitted_files\n"
        "from gradescope_utils.autograder_utils import decorators\n\n\n"
        "@points(2)\n@name('fib')\ndef test_a():\n    pass\n"
    )
    (test,) = read_tests("public/test_pl.py", text, 1.0)
    assert (test.points, test.title) == (2.0, "fib")


GRADESCOPE_MORE = """
import unittest
from gradescope_utils.autograder_utils.decorators import hide_errors, leaderboard, partial_credit, tags, weight


class TestShop(unittest.TestCase):
    @partial_credit(4)
    def test_partial(self, set_score=None):
        set_score(4)

    @leaderboard("fastest")
    def test_speed(self, set_leaderboard_value=None):
        set_leaderboard_value(3)

    @weight(2)
    @leaderboard("items", "asc")
    def test_weighted_column(self, set_leaderboard_value=None):
        set_leaderboard_value(1)

    @weight(1)
    @hide_errors("Your receipt is wrong")
    def test_hidden_errors(self):
        pass

    @weight(1)
    @tags("printing", "receipts")
    def test_tagged(self):
        pass
"""


def test_gradescope_partial_credit_leaderboards_and_hidden_errors() -> None:
    partial, speed, column, hidden, tagged = read_tests("public/test_shop.py", GRADESCOPE_MORE, 1.0)
    assert (partial.points, partial.partial, partial.skipped) == (4.0, True, False)
    # Gradescope lists a leaderboard column apart from the tests and scores it nothing, even
    # with a weight: no case here either.
    assert (speed.leaderboard, speed.skipped, column.leaderboard, column.skipped) == (True, True, True, True)
    # @hide_errors puts the teacher's text where the failure's would be: its message is secret.
    assert (hidden.public, hidden.skipped) == (False, False)
    assert (tagged.public, tagged.points, tagged.partial, tagged.leaderboard) == (True, 1.0, False, False)


def test_test_files_and_group_names() -> None:
    assert is_test_file("public/test_stack.py") and is_test_file("stack_test.py")
    assert not is_test_file("conftest.py") and not is_test_file("helpers.py")
    taken: set[str] = set()
    assert group_name("public/test_stack.py::TestStack::test_push", taken) == "test_stack-teststack-test_push"
    assert group_name("secret/test_stack.py::TestStack::test_push", taken) == "test_stack-teststack-test_push-2"


JUNIT = """
package shapes.tests;

import org.junit.jupiter.api.*;

/* @Test void notInAComment() {} */
class CircleTest {
    @Test
    @Tag("points=2.5")
    @DisplayName("area of a unit circle")
    void area() {}

    // @Test void commentedOut() {}

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    public void radius(int r) {}

    void helper() {}

    @Test @Tag("fast") @Tag("points=0")
    void free() {}
}
"""


def test_junit_tests_are_found_with_their_points_tags() -> None:
    from judge.kinds.unit.found import is_java_test_file, read_java_tests

    found = read_java_tests("secret/CircleTest.java", JUNIT, 1.0)
    assert [(t.id, t.points, t.public, t.title) for t in found] == [
        ("secret/CircleTest.java::shapes.tests.CircleTest::area", 2.5, False, "area of a unit circle"),
        ("secret/CircleTest.java::shapes.tests.CircleTest::radius", 1.0, False, ""),
        ("secret/CircleTest.java::shapes.tests.CircleTest::free", 0.0, False, ""),
    ]
    assert is_java_test_file("CircleTest.java") and is_java_test_file("TestCircle.java")
    assert not is_java_test_file("Circle.java")
    with pytest.raises(FoundError, match=r'points are written @Tag\("points=N"\)'):
        read_java_tests("public/ATest.java", 'class ATest {\n  @Test @Tag("points=lots")\n  void a() {}\n}\n', 1.0)


def test_a_test_the_teacher_skips_in_its_source_is_marked_and_no_other() -> None:
    text = (
        "import pytest, unittest\n\n\n@pytest.mark.skip(reason='later')\ndef test_a():\n    pass\n\n\n"
        "@pytest.mark.skipif(True, reason='a condition: decided at run time')\ndef test_b():\n    pass\n\n\n"
        "@unittest.skip('later')\nclass TestC(unittest.TestCase):\n    def test_c(self):\n        pass\n\n\n"
        "def test_d():\n    pytest.skip('at run time: a case, which earns nothing')\n"
    )
    skipped = {t.id.split("::", 1)[1]: t.skipped for t in read_tests("public/test_x.py", text, 1)}
    assert skipped == {"test_a": True, "test_b": False, "TestC::test_c": True, "test_d": False}
    whole = read_tests(
        "public/test_y.py", "import pytest\npytestmark = [pytest.mark.skip]\n\n\ndef test_e():\n    pass\n", 1
    )
    assert [t.skipped for t in whole] == [True]


def test_a_disabled_junit_test_or_class_is_marked() -> None:
    from judge.kinds.unit.found import read_java_tests

    text = (
        'import org.junit.jupiter.api.*;\n\nclass ATest {\n    @Test\n    @Disabled("later")\n    void off() {}\n\n'
        "    @Test\n    void on() {}\n}\n"
    )
    assert [(t.id.rsplit("::", 1)[1], t.skipped) for t in read_java_tests("public/ATest.java", text, 1)] == [
        ("off", True),
        ("on", False),
    ]
    whole = "import org.junit.jupiter.api.*;\n\n@Disabled\nclass BTest {\n    @Test\n    void on() {}\n}\n"
    assert [t.skipped for t in read_java_tests("public/BTest.java", whole, 1)] == [True]


@given(st.lists(st.text(min_size=1, max_size=300), min_size=1, max_size=20))
def test_every_group_name_is_a_slug_of_at_most_64_characters_unique_and_stable(ids: list[str]) -> None:
    """A test's id of any length (a class and test named as teachers name them passes 64 with
    its file) makes a valid group name: the Slug's pattern and length, unique in
    the problem, and the same name on every run."""
    taken: set[str] = set()
    names = [group_name(f"public/test_bank.py::{i}", taken) for i in ids]
    again: set[str] = set()
    assert names == [group_name(f"public/test_bank.py::{i}", again) for i in ids]
    assert len(set(names)) == len(names)
    for name in names:
        assert len(name) <= 64 and re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name), name


def test_a_long_group_name_keeps_its_start_and_ends_in_a_digest() -> None:
    long_id = "public/test_bank_accounts.py::TestTransferBetweenAccounts::test_transfer_too_much_changes_nothing"
    other = long_id.replace("nothing", "neither")
    first, second = group_name(long_id, set()), group_name(other, set())
    assert first.startswith("test_bank_accounts-testtransferbetween") and first != second
    assert len(first) <= 64 and re.fullmatch(r".*-[0-9a-f]{8}", first)
    # A name that fits is kept as it is; one made unique past 64 is shortened, alone.
    fits = "public/test_stack.py::" + "t" * 53
    taken: set[str] = set()
    assert group_name(fits, taken) == "test_stack-" + "t" * 53  # 64 characters
    assert len(group_name(fits.replace("public", "secret"), taken)) <= 64


NESTED = """import org.junit.jupiter.api.*;

class BankTest {
    @Test
    void opens() {}

    @Nested
    class Transfers {
        String brace = "}{";

        @Test
        void moves() {}

        @Nested
        @Disabled
        class Later {
            @Test
            void waits() {}
        }
    }

    @Test
    void closes() {}
}
"""


def test_a_nested_junit_class_names_its_tests_as_junit_does() -> None:
    found = {t.id.split("::", 1)[1]: t.skipped for t in read_java_tests("public/BankTest.java", NESTED, 1.0)}
    assert found == {
        "BankTest::opens": False,
        "BankTest$Transfers::moves": False,
        "BankTest$Transfers$Later::waits": True,
        "BankTest::closes": False,
    }


def test_a_tests_title_is_its_number_and_name_else_a_readable_name() -> None:
    """Issue 59, item 4: how a student reads a test, and the order of numbers (1.2 before 1.10)."""
    from judge.kinds.unit.found import UnitTest, title_of, title_order

    assert title_of(UnitTest("public/t.py::test_fib", 1, True, "1.1 fib")) == "1.1 fib"
    assert title_of(UnitTest("public/t.py::TestMore::test_negative_deposit", 1, True, "2")) == "2 negative deposit"
    assert title_of(UnitTest("public/t.py::test_a_b[3]", 1, True)) == "a b"
    assert sorted(["1.10 a", "x", "1.2 b", "2 c"], key=title_order) == ["1.2 b", "1.10 a", "2 c", "x"]


@pytest.mark.parametrize(
    "text",
    [
        "def test_a():\n    x = " + "-" * 3000 + "1\n",  # beyond the parser's depth: RecursionError
        "def test_a():\n    x = " + "(" * 150 + "1" + ")" * 150 + "\n" + "y = " + "+".join("1" * 3000) + "\n",
        "def test_a():\n    pass\n\0",
    ],
)
def test_a_file_the_parser_cannot_take_is_refused_in_one_line(text: str) -> None:
    """A student's tests file must never stop a class's grading with a traceback."""
    with pytest.raises(FoundError, match="not Python") as caught:
        read_tests("test_deep.py", text, 1.0)
    assert caught.value.line in (0, 1, 3)


def test_a_name_defined_twice_is_one_test_the_last_definition_at_the_first_place() -> None:
    # As pytest collects them from the module's namespace: `test_same` once, where first
    # defined, with the second's points; `test_ﬁx` is `test_fix` to the parser (NFKC).
    text = (
        "@weight(1)\ndef test_same():\n    pass\n\n\ndef test_other():\n    pass\n\n\n"
        "@weight(3)\ndef test_same():\n    pass\n\n\ndef test_fix():\n    pass\n\n\ndef test_\ufb01x():\n    pass\n"
    )
    found = read_tests("t.py", text, default_points=1.0)
    assert [(t.id, t.points) for t in found] == [
        ("t.py::test_same", 3.0),
        ("t.py::test_other", 1.0),
        ("t.py::test_fix", 1.0),
    ]
