"""A teacher's real-world shapes of unit tests, judged and then checked against their own
framework run directly on the same files: Gradescope's (unittest classes with gradescope-utils'
decorators, a setUp, a helper module, printed output checked, scored by Gradescope's own
JSONTestRunner) and PrairieLearn's (`pl_helpers`' @points and @name, scored as PrairieLearn
scores a test: its points when it passes). What the judge does not take of them (PLTestCase,
Feedback) is a spec error naming the file and line."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from judge.grade import judging
from judge.kinds import table
from judge.kinds.table import load_problem
from judge.problem.spec import Problem
from tests import needs
from tests.test_cli import judge

needs_sandbox = needs.mark("isolation")
needs_pytest = needs.mark("pytest")
GRADESCOPE_UTILS = importlib.util.find_spec("gradescope_utils")
needs_gradescope_utils = pytest.mark.skipif(
    GRADESCOPE_UTILS is None, reason="gradescope-utils is not installed (the test extra has it)"
)
SYSTEM_PYTHON = "/usr/bin/python3"

SPEC = """\
id: {id}
title: Shapes
source: a teacher of the judge
statement: statement.md
kind: unit
unit:
  framework: {framework}
  student_files: [{module}.py]
  tests: unit
  per_test_time_s: 2
  default_points: {default_points}
limits: {{time_s: 2.0, memory_mib: 256}}
reference: solutions/accepted/{module}.py
"""


def make_problem(
    problems: Path, name: str, framework: str, module: str, files: dict[str, str], default_points: float = 1
) -> Path:
    """A unit problem in `problems/name`, its tests under unit/public/ (and their helpers)."""
    folder = problems / name
    (folder / "unit" / "public").mkdir(parents=True)
    (folder / "solutions" / "accepted").mkdir(parents=True)
    spec = SPEC.format(id=name, framework=framework, module=module, default_points=default_points)
    (folder / "problem.yaml").write_text(spec)
    (folder / "statement.md").write_text("Write the module the tests use.\n")
    for path, text in files.items():
        (folder / path).write_text(text)
    return folder


def judged(problem: Problem, source: str, tmp_path: Path, module: str) -> tuple[dict[str, tuple[str, bool]], float]:
    """The judge's verdict and visibility of each test (by group name), and the score."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / f"{module}.py").write_text(source)
    record = judging.judge(judging.identify(problem, tmp_path / f"{module}.py", "ann"), full=True)
    return {c.group: (c.verdict, c.public) for c in record.cases}, record.score


# --- Gradescope ---------------------------------------------------------------------------

SHOP = """\
class CartError(Exception):
    pass


class Cart:
    def __init__(self):
        self._items = {}

    def add(self, name, price, qty=1):
        if price < 0 or qty < 1:
            raise CartError(f"cannot add {qty} of {name} at {price}")
        _, had = self._items.get(name, (price, 0))
        self._items[name] = (price, had + qty)

    def remove(self, name):
        if name not in self._items:
            raise CartError(f"no {name} in the cart")
        del self._items[name]

    def count(self):
        return sum(qty for _, qty in self._items.values())

    def total(self):
        return round(sum(price * qty for price, qty in self._items.values()), 2)

    def receipt(self):
        for name in sorted(self._items):
            price, qty = self._items[name]
            print(f"{name} x{qty}: {price * qty:.2f}")
        print(f"TOTAL: {self.total():.2f}")
"""
# Three students' mistakes, each changing what some tests see.
SHOP_WRONG = {
    # The total forgets the quantities: its tests and both receipts' last lines fail.
    "forgets_quantities": SHOP.replace("sum(price * qty for", "sum(price for"),
    # Refuses only a negative price (half of the partial-credit checks) and raises KeyError for
    # a missing item: Gradescope gives 2 of the 4 partial points, the judge none (given whole).
    "lax_checks": SHOP.replace("if price < 0 or qty < 1:", "if price < 0:").replace(
        'raise CartError(f"no {name} in the cart")', "raise KeyError(name)"
    ),
    # Counts kinds, not items, and leaves the quantity off the receipt's lines.
    "counts_kinds": SHOP.replace("sum(qty for _, qty in self._items.values())", "len(self._items)").replace(
        'print(f"{name} x{qty}: ', 'print(f"{name}: '
    ),
}
CARTS = """\
from shop import Cart


def filled():
    cart = Cart()
    cart.add("apple", 0.5, 4)
    cart.add("bread", 2.25)
    return cart
"""
TEST_CART = '''\
import io
import unittest
from contextlib import redirect_stdout
from unittest import mock

from gradescope_utils.autograder_utils.decorators import (
    hide_errors,
    leaderboard,
    number,
    partial_credit,
    tags,
    visibility,
    weight,
)

from carts import filled
from shop import Cart, CartError


class TestCart(unittest.TestCase):
    def setUp(self):
        self.cart = filled()

    @weight(1)
    @number("1.1")
    def test_count(self):
        """Five items in the cart"""
        self.assertEqual(self.cart.count(), 5)

    @weight(2)
    @number("1.2")
    def test_total(self):
        """The total is the sum of price times quantity"""
        self.assertAlmostEqual(self.cart.total(), 4.25)

    @weight(1)
    @number("1.3")
    @tags("errors")
    def test_remove_missing(self):
        """Removing what is not there raises CartError"""
        with self.assertRaises(CartError):
            self.cart.remove("milk")

    @weight(1)
    @hide_errors("The cart is wrong after a removal")
    def test_remove(self):
        self.cart.remove("apple")
        self.assertEqual(self.cart.count(), 1)

    @weight(2)
    @number("2.1")
    @tags("printing")
    def test_receipt_total_line(self):
        """The receipt ends with the total"""
        out = io.StringIO()
        with redirect_stdout(out):
            self.cart.receipt()
        self.assertEqual(out.getvalue().splitlines()[-1], "TOTAL: 4.25")

    @weight(2)
    @number("2.2")
    @visibility("hidden")
    def test_receipt_lines(self):
        """The receipt, line by line"""
        with mock.patch("sys.stdout", new_callable=io.StringIO) as out:
            self.cart.receipt()
        self.assertEqual(out.getvalue(), "apple x4: 2.00\\nbread x1: 2.25\\nTOTAL: 4.25\\n")

    @weight(1)
    @number("2.3")
    @visibility("after_due_date")
    def test_adding_again_adds_up(self):
        self.cart.add("apple", 0.5)
        self.assertEqual(self.cart.count(), 6)

    def test_an_empty_cart_costs_nothing(self):
        """No @weight: Gradescope writes no score for it, so it is worth nothing there"""
        self.assertEqual(Cart().total(), 0)

    @partial_credit(4)
    @number("3.1")
    def test_bad_items_refused(self, set_score=None):
        """Bad prices and quantities are refused"""
        refused = 0
        for price, qty in [(-1, 1), (1, 0), (1, -2), (-0.01, 3)]:
            try:
                Cart().add("x", price, qty)
            except CartError:
                refused += 1
        set_score(refused)

    @partial_credit(1)
    def test_partial_that_sets_nothing(self, set_score=None):
        """A partial-credit test that passes without setting a score has its weight"""
        self.assertTrue(self.cart.total() > 0)

    @leaderboard("items")
    def test_items_column(self, set_leaderboard_value=None):
        set_leaderboard_value(self.cart.count())
'''


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("gradescope")
    files = {"unit/public/test_cart.py": TEST_CART, "unit/public/carts.py": CARTS, "solutions/accepted/shop.py": SHOP}
    # default_points 0, as `judge import` of an autograder writes: a test without @weight is
    # worth nothing on Gradescope.
    folder = make_problem(problems, "shop", "unittest", "shop", files, default_points=0)
    made = judge("--problems", str(problems), "gen", "shop")
    assert made.returncode == 0, made.stdout + made.stderr
    return load_problem(folder)


def gradescope_run(student: str, where: Path) -> dict[str, object]:
    """Gradescope's own run of the same files (its sample's run_tests.py: unittest discovery of
    tests/ and gradescope-utils' JSONTestRunner), with the real gradescope-utils: results.json."""
    assert GRADESCOPE_UTILS is not None and GRADESCOPE_UTILS.submodule_search_locations
    (where / "tests").mkdir(parents=True)
    (where / "tests" / "__init__.py").write_text("")
    (where / "tests" / "test_cart.py").write_text(TEST_CART)
    (where / "tests" / "carts.py").write_text(CARTS)
    (where / "shop.py").write_text(student)
    shutil.copytree(GRADESCOPE_UTILS.submodule_search_locations[0], where / "gradescope_utils")
    # Test names by method, not docstring (descriptions=False), to match them with the judge's.
    run_tests = (
        "import unittest\nfrom gradescope_utils.autograder_utils.json_test_runner import JSONTestRunner\n"
        "suite = unittest.defaultTestLoader.discover('tests')\n"
        "with open('results.json', 'w') as f:\n"
        "    JSONTestRunner(visibility='visible', stream=f, descriptions=False).run(suite)\n"
    )
    done = subprocess.run([SYSTEM_PYTHON, "-c", run_tests], cwd=where, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    results: dict[str, object] = json.loads((where / "results.json").read_text())
    return results


def gradescope_group(name: str) -> str:
    """`test_count (test_cart.TestCart.test_count)` (str of a TestCase) as the judge's group."""
    found = re.match(r"(\w+) \(([\w.]+)\)$", name)
    assert found, name
    module, cls = found.group(2).split(".")[:2]  # Python 3.11 adds the method's name after them
    return f"{module}-{cls}-{found.group(1)}".lower()


# Each framework run beside the judge: the slow tier (CI runs it).
@pytest.mark.slow
@needs_sandbox
@needs_pytest
@needs_gradescope_utils
@pytest.mark.parametrize("student", ["right", *SHOP_WRONG])
def test_gradescopes_shape_scores_as_gradescope_scores_it(shop: Problem, tmp_path: Path, student: str) -> None:
    """Test by test, the judge's pass is Gradescope's "passed" and its visibility Gradescope's;
    the score is Gradescope's but for partial credit, which the judge gives whole."""
    source = SHOP if student == "right" else SHOP_WRONG[student]
    verdicts, score = judged(shop, source, tmp_path / "judge", "shop")
    theirs = gradescope_run(source, tmp_path / "gradescope")
    tests = theirs["tests"]
    assert isinstance(tests, list)
    by_group = {gradescope_group(t["name"]): t for t in tests}
    # The leaderboard column is no test on Gradescope, and no case here.
    assert [entry["name"] for entry in theirs["leaderboard"]] == ["items"]  # type: ignore[index, union-attr]
    assert set(verdicts) == set(by_group), (verdicts, by_group)
    for group, test in by_group.items():
        verdict, public = verdicts[group]
        assert (verdict == "AC") == (test["status"] == "passed"), (student, group, verdict, test)
        # visible is shown; hidden, after_due_date and hide_errors' text are not, here.
        assert (group == "test_cart-testcart-test_adding_again_adds_up") == (test.get("visibility") == "after_due_date")
        assert public == (test.get("visibility", "visible") == "visible" and group != "test_cart-testcart-test_remove")
    # A test with no weight has no score on Gradescope (the unweighted one), none here either.
    assert "score" not in by_group["test_cart-testcart-test_an_empty_cart_costs_nothing"]
    whole = sum(t.get("max_score", 0) for t in tests if t["status"] == "passed")
    partial = sum(t.get("score", 0) for t in tests if t["status"] != "passed")
    assert score == pytest.approx(whole)
    assert theirs["score"] == pytest.approx(whole + partial)
    expected = {"right": 15.0, "forgets_quantities": 9.0, "lax_checks": 10.0, "counts_kinds": 11.0}
    assert score == expected[student]
    if student == "lax_checks":
        assert partial == 2.0  # Gradescope's 2 of 4; the judge gives a partial test whole or not at all
        assert verdicts["test_cart-testcart-test_remove_missing"][0] == "RE"  # KeyError, not the CartError asked


@needs_sandbox
@needs_pytest
def test_gradescopes_shape_partial_credit_is_whole_and_a_leaderboard_no_case(shop: Problem, tmp_path: Path) -> None:
    verdicts, score = judged(shop, SHOP_WRONG["lax_checks"], tmp_path, "shop")
    assert "test_cart-testcart-test_items_column" not in verdicts  # the leaderboard column
    assert verdicts["test_cart-testcart-test_bad_items_refused"] == ("WA", True)  # 2 of 4: none here
    assert verdicts["test_cart-testcart-test_partial_that_sets_nothing"] == ("AC", True)  # its weight, as there
    assert verdicts["test_cart-testcart-test_remove_missing"] == ("RE", True)
    assert verdicts["test_cart-testcart-test_receipt_lines"] == ("AC", False)  # printed output, captured
    assert verdicts["test_cart-testcart-test_remove"] == ("AC", False)  # @hide_errors: its message is secret
    assert verdicts["test_cart-testcart-test_adding_again_adds_up"] == ("AC", False)  # after_due_date: secret
    assert verdicts["test_cart-testcart-test_an_empty_cart_costs_nothing"] == ("AC", True)
    assert {g.name: g.points for g in shop.spec.groups}["test_cart-testcart-test_an_empty_cart_costs_nothing"] == 0
    assert score == 10.0


def test_verify_says_what_is_not_a_case_and_what_is_given_whole(shop: Problem) -> None:
    notes = table.of(shop).verify_notes(shop)
    assert (
        "public/test_cart.py::TestCart::test_items_column: a Gradescope leaderboard column, which scores nothing: not a case"
        in notes
    )
    assert any(
        n.startswith("public/test_cart.py::TestCart::test_bad_items_refused: @partial_credit is given whole: 4")
        for n in notes
    )
    # The file holds hidden tests, so students are not shown it whole.
    assert table.of(shop).public_files(shop) == []


# --- PrairieLearn -------------------------------------------------------------------------

USER_CODE = """\
def fib(n):
    if n < 0:
        raise ValueError("n must not be negative")
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def sorted_copy(values):
    return sorted(values)
"""
USER_CODE_WRONG = {
    "off_by_one": USER_CODE.replace("a, b = 0, 1", "a, b = 1, 1"),
    "sorts_in_place": USER_CODE.replace("    return sorted(values)", "    values.sort()\n    return values"),
    "no_check": USER_CODE.replace('        raise ValueError("n must not be negative")', "        return 0"),
}
# PrairieLearn's shape (a class of tests, each with @points and @name from pl_helpers) on the
# student's module imported, which is what the judge runs of it.
TEST_FIB = """\
import unittest

from pl_helpers import name, not_repeated, points

import user_code


class Test(unittest.TestCase):
    @points(1)
    @name("fib of small numbers")
    def test_0(self):
        self.assertEqual([user_code.fib(n) for n in range(6)], [0, 1, 1, 2, 3, 5])

    @points(3)
    @name("fib of 30")
    def test_1(self):
        self.assertEqual(user_code.fib(30), 832040)

    @points(2)
    @name("the list handed in is left as it was")
    @not_repeated
    def test_2(self):
        values = [3, 1, 2]
        self.assertEqual(user_code.sorted_copy(values), [1, 2, 3])
        self.assertEqual(values, [3, 1, 2])

    @name("a negative n raises ValueError")
    def test_3(self):
        with self.assertRaises(ValueError):
            user_code.fib(-1)
"""
# For the direct run: pl_helpers' decorators as PrairieLearn's behave (the points on the
# function's __dict__, kept through @name's wrapper), and PrairieLearn's rule, a test's points
# (1 unless it says) when it passes, recorded beside pytest's verdict.
PL_HELPERS = """\
import functools


def points(value):
    def decorate(f):
        f.__dict__["points"] = value
        return f

    return decorate


def name(text):
    def decorate(f):
        @functools.wraps(f)
        def wrapped(self):
            f(self)

        wrapped.__dict__["name"] = text
        return wrapped

    return decorate


def not_repeated(f):
    @functools.wraps(f)
    def wrapped(self):
        f(self)

    return wrapped
"""
PL_CONFTEST = """\
import pytest


@pytest.fixture(autouse=True)
def _points(request, record_property):
    record_property("points", request.function.__dict__.get("points", 1))
"""
# PrairieLearn's own harness: the student's code run into self.st, Feedback.set_score.
PL_HARNESS_TEST = """\
from code_feedback import Feedback
from pl_helpers import name, points
from pl_unit_test import PLTestCase


class Test(PLTestCase):
    @points(1)
    @name("fib(5)")
    def test_0(self):
        if Feedback.check_scalar("fib(5)", self.ref.fib(5), self.st.fib(5)):
            Feedback.set_score(1)
        else:
            Feedback.set_score(0)
"""


@pytest.fixture(scope="module")
def fib(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("prairielearn")
    files = {"unit/public/test_fib.py": TEST_FIB, "solutions/accepted/user_code.py": USER_CODE}
    folder = make_problem(problems, "fib", "unittest", "user_code", files)
    made = judge("--problems", str(problems), "gen", "fib")
    assert made.returncode == 0, made.stdout + made.stderr
    return load_problem(folder)


def pytest_run(student: str, where: Path) -> tuple[dict[str, bool], float]:
    """pytest run directly by the system's python3 on the same files: each test's pass (by the
    judge's group name) and the points PrairieLearn's rule gives the passes."""
    import xml.etree.ElementTree as ElementTree

    where.mkdir(parents=True)
    for name, text in {
        "test_fib.py": TEST_FIB,
        "pl_helpers.py": PL_HELPERS,
        "conftest.py": PL_CONFTEST,
        "user_code.py": student,
    }.items():
        (where / name).write_text(text)
    report = where / "report.xml"
    subprocess.run(
        [SYSTEM_PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", "test_fib.py"],
        cwd=where,
        capture_output=True,
        timeout=120,
    )
    passed: dict[str, bool] = {}
    score = 0.0
    for case in ElementTree.parse(report).iter("testcase"):
        group = f"test_fib-{case.get('classname', '').rsplit('.', 1)[-1]}-{case.get('name')}".lower()
        ok = not any(case.find(tag) is not None for tag in ("failure", "error", "skipped"))
        passed[group] = ok
        points = [float(p.get("value", "0")) for p in case.iter("property") if p.get("name") == "points"]
        score += points[0] if ok and points else 0.0
    return passed, score


@pytest.mark.slow
@needs_sandbox
@needs_pytest
@needs.mark("system-pytest")  # the reference: the machine's pytest run on the same files
@pytest.mark.parametrize("student", ["right", *USER_CODE_WRONG])
def test_prairielearns_shape_scores_as_pytest_and_its_points_say(fib: Problem, tmp_path: Path, student: str) -> None:
    source = USER_CODE if student == "right" else USER_CODE_WRONG[student]
    verdicts, score = judged(fib, source, tmp_path / "judge", "user_code")
    passed, theirs = pytest_run(source, tmp_path / "pytest")
    assert len(passed) == 4 and {g: v == "AC" for g, (v, _) in verdicts.items()} == passed, (verdicts, passed)
    assert score == theirs
    assert score == {"right": 7.0, "off_by_one": 3.0, "sorts_in_place": 5.0, "no_check": 6.0}[student]


@needs_sandbox
@needs_pytest
def test_prairielearns_not_repeated_runs_its_test(fib: Problem, tmp_path: Path) -> None:
    """@not_repeated is written bare: a stand-in that took it for @not_repeated(...) made the
    test a function that never ran, and passed every student."""
    verdicts, score = judged(fib, USER_CODE_WRONG["sorts_in_place"], tmp_path, "user_code")
    assert verdicts["test_fib-test-test_2"] == ("WA", True)
    assert score == 5.0


def test_prairielearns_own_harness_is_a_spec_error_naming_the_file_and_line(tmp_path: Path) -> None:
    files = {"unit/public/test.py": PL_HARNESS_TEST, "solutions/accepted/user_code.py": USER_CODE}
    make_problem(tmp_path, "plfib", "unittest", "user_code", files)
    made = judge("--problems", str(tmp_path), "gen", "plfib")  # no traceback (judge() checks)
    assert made.returncode != 0
    assert "plfib/unit/public/test.py:1: imports code_feedback: PrairieLearn's PLTestCase and Feedback" in made.stderr
    assert "from pl_helpers import name, points` works" in made.stderr
