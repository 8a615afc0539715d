"""The tests of a unit-test problem, found statically in the teacher's files (pure: texts in,
tests out). Each test function or method is a case with a name, points and visibility.

Points and visibility come from the spec's per-test table, else from the decorators teachers
already write for Gradescope (`@weight(2)`, `@visibility("hidden")`, `@number("1.2")`) and
PrairieLearn (`@points(3)`, `@name("...")`), else from the folder (`public/`, else secret) and
the spec's default points. They are read here, from the source, and never from what a run
reports: a submission cannot award itself points.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

PUBLIC_FOLDER = "public"
# Gradescope's visibilities: only `visible` shows a test as it runs; the others hide it until
# a date or for good, which is what a secret case is here.
_SHOWN = {"visible": True, "hidden": False, "after_due_date": False, "after_published": False}
_TEST_FILE = re.compile(r"(^test.*|.*_test)\.py$")


@dataclass(frozen=True)
class PerTest:
    """A test's line of the spec's per-test table."""

    points: float | None = None
    public: bool | None = None


class _Line(Protocol):
    """A line of the spec's per-test table as the spec's model holds it."""

    @property
    def points(self) -> float | None: ...

    @property
    def visibility(self) -> str | None: ...


def per_test_table(lines: Mapping[str, _Line]) -> dict[str, PerTest]:
    """The spec's per-test lines as the readers below take them."""
    return {
        key: PerTest(line.points, None if line.visibility is None else line.visibility == "public")
        for key, line in lines.items()
    }


@dataclass(frozen=True)
class UnitTest:
    id: str  # public/test_stack.py::TestStack::test_push: the file, then pytest's node path
    points: float
    public: bool
    title: str = ""  # a name the teacher gave it (@name, @number), shown beside the id
    # Skipped by the teacher in the source (@pytest.mark.skip, @unittest.skip, @Disabled), or
    # a Gradescope leaderboard column (which Gradescope scores nothing): not a case at all,
    # since neither earns anything; `judge verify` lists it.
    skipped: bool = False
    leaderboard: bool = False
    # @partial_credit(N): the test sets its own score, which the judge gives whole (verify says so).
    partial: bool = False

    @property
    def file(self) -> str:
        return self.id.split("::", 1)[0]


class FoundError(ValueError):
    """A test file that cannot be read as one; .line is 1-based (0: the file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def is_test_file(name: str) -> bool:
    """Whether pytest collects the file by its name (test_*.py or *_test.py)."""
    return bool(_TEST_FILE.match(name.rsplit("/", 1)[-1]))


def read_tests(
    path: str, text: str, default_points: float, table: Mapping[str, PerTest] | None = None
) -> list[UnitTest]:
    """The tests of one file (`path` relative to the tests folder, e.g. public/test_stack.py),
    in the order of the source. FoundError when it is not Python."""
    try:
        tree = ast.parse(text, path)
    except SyntaxError as err:
        raise FoundError(err.lineno or 0, f"not Python: {err.msg}") from None
    except (ValueError, RecursionError, MemoryError):
        # A student's file nested beyond the parser's depth (3,000 unary minuses) or holding a
        # null byte: refused like a syntax error, never a traceback that stops a class's grading.
        raise FoundError(0, "not Python the judge can read (nested too deep, or a null byte)") from None
    try:
        return _tests_of(tree, path, default_points, table)
    except RecursionError:  # parsed, but too deep for a walk of the tree
        raise FoundError(0, "not Python the judge can read (nested too deep)") from None


def _tests_of(
    tree: ast.Module, path: str, default_points: float, table: Mapping[str, PerTest] | None
) -> list[UnitTest]:
    folder_public = path.split("/", 1)[0] == PUBLIC_FOLDER
    _check_imports(tree)
    # By id: a name defined again (or one NFKC folds into another, as the parser does) is one
    # test, the last definition at the first one's place, as pytest collects it from the
    # module's namespace (a dict keeps a key where it was first set).
    found: dict[str, UnitTest] = {}
    whole_file = _module_skipped(tree)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            found[f"{path}::{node.name}"] = _test(f"{path}::{node.name}", [node], folder_public, default_points, table)
        elif isinstance(node, ast.ClassDef) and _is_test_class(node):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name.startswith("test"):
                    test_id = f"{path}::{node.name}::{item.name}"
                    found[test_id] = _test(test_id, [node, item], folder_public, default_points, table)
    return [replace(test, skipped=True) if whole_file else test for test in found.values()]


# What the judge's stand-ins offer of each helper module a test file may import (pairs.py):
# a name beyond these would fail the file's collection, an IE on every submission.
_HELPERS = {
    "gradescope_utils.autograder_utils.decorators": frozenset(
        ("weight", "visibility", "number", "tags", "hide_errors", "partial_credit", "leaderboard")
    ),
    "gradescope_utils.autograder_utils.files": frozenset(("check_submitted_files",)),
    "pl_helpers": frozenset(("name", "points", "not_repeated")),
    "gradescope_utils": frozenset(("autograder_utils",)),
    "gradescope_utils.autograder_utils": frozenset(("decorators", "files")),
}
# PrairieLearn's harness runs the student's code in a namespace of its own (PLTestCase's self.st,
# self.ref from ans.py) and scores by Feedback.set_score: tests written on it have no module to
# import here, so they are refused with the way out rather than failing every submission.
_PRAIRIELEARN_HARNESS = ("pl_unit_test", "code_feedback", "pl_execute")
_HARNESS_WAY_OUT = (
    "PrairieLearn's PLTestCase and Feedback are not supported (the judge has no self.st or"
    " Feedback.set_score): import the student's module and use plain asserts in a unittest or"
    " pytest file; `from pl_helpers import name, points` works (docs/unit.md)"
)


def _check_imports(tree: ast.Module) -> None:
    """FoundError at an import the tests' sandbox cannot serve: PrairieLearn's harness, or a
    name the judge's stand-in for gradescope-utils or pl_helpers does not have."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules, names = [node.module], [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            if module.split(".", 1)[0] in _PRAIRIELEARN_HARNESS:
                raise FoundError(node.lineno, f"imports {module}: {_HARNESS_WAY_OUT}")
            if module.startswith("gradescope_utils.") and module not in _HELPERS:
                raise FoundError(
                    node.lineno,
                    f"imports {module}: the judge runs the tests itself and offers"
                    " gradescope_utils' decorators and files alone",
                )
            offered = _HELPERS.get(module)
            unknown = [name for name in names if offered is not None and name not in offered and name != "*"]
            if unknown:
                raise FoundError(
                    node.lineno,
                    f"{module} has no {unknown[0]!r} here (the judge's stand-in offers {', '.join(sorted(offered or ()))})",
                )


def _module_skipped(tree: ast.Module) -> bool:
    """`pytestmark = pytest.mark.skip` (or a list holding it): every test of the file skipped."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            marks = node.value.elts if isinstance(node.value, ast.List | ast.Tuple) else [node.value]
            if any(_last_name(mark) == "skip" for mark in marks):
                return True
    return False


def _is_test_class(node: ast.ClassDef) -> bool:
    """A class pytest collects: Test* (without __init__), or a unittest.TestCase subclass."""
    case = any(_last_name(base).endswith("TestCase") for base in node.bases)
    has_init = any(isinstance(item, ast.FunctionDef) and item.name == "__init__" for item in node.body)
    return case or (node.name.startswith("Test") and not has_init)


def _last_name(node: ast.expr) -> str:
    """`weight` of `weight`, `decorators.weight`, `weight(2)`."""
    if isinstance(node, ast.Call):
        return _last_name(node.func)
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _decorations(nodes: Sequence[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef]) -> dict[str, object]:
    """The literal first argument of each known decorator, the function's own over its class's."""
    said: dict[str, object] = {}
    for node in nodes:
        for decorator in node.decorator_list:
            name = _last_name(decorator)
            if name == "leaderboard":
                said.setdefault("leaderboard", True)
                continue
            if name == "skip":  # @pytest.mark.skip, @unittest.skip(...): unconditional
                said["skip"] = True
                continue
            if name == "hide_errors":  # Gradescope shows its message in place of the failure's
                said["hide_errors"] = True
                continue
            if name not in ("weight", "points", "partial_credit", "visibility", "number", "name"):
                continue
            if not isinstance(decorator, ast.Call) or len(decorator.args) != 1:
                raise FoundError(decorator.lineno, f"@{name} takes one value")
            try:
                said[name] = ast.literal_eval(decorator.args[0])
            except ValueError:
                raise FoundError(decorator.lineno, f"@{name}: its value must be written out (a literal)") from None
    return said


def _test(
    test_id: str,
    nodes: Sequence[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef],
    folder_public: bool,
    default_points: float,
    table: Mapping[str, PerTest] | None,
) -> UnitTest:
    said = _decorations(nodes)
    line = nodes[-1].lineno
    points: object = said.get("weight", said.get("partial_credit", said.get("points", default_points)))
    if isinstance(points, bool) or not isinstance(points, int | float) or not 0 <= points <= 1000:
        raise FoundError(line, f"{test_id}: points must be a number from 0 to 1000, not {points!r}")
    public = folder_public
    if "visibility" in said:
        shown = said["visibility"]
        if shown not in _SHOWN:
            raise FoundError(line, f"{test_id}: @visibility {shown!r} (known: {', '.join(_SHOWN)})")
        public = _SHOWN[str(shown)]
    if "hide_errors" in said:
        # Its failure's text is not for students: a secret test shows its name and verdict alone.
        public = False
    title = " ".join(str(said[k]) for k in ("number", "name") if k in said)
    override = (table or {}).get(test_id)
    if override is not None:
        points = override.points if override.points is not None else points
        public = override.public if override.public is not None else public
    # Gradescope scores a leaderboard column nothing and lists it apart from the tests: no case.
    leaderboard = "leaderboard" in said
    return UnitTest(
        test_id,
        float(points),
        public,
        title,
        skipped="skip" in said or leaderboard,
        leaderboard=leaderboard,
        partial="partial_credit" in said,
    )


GROUP_NAME_LIMIT = 64  # a Slug's length
GROUP_NAME_BASE = 55  # a shortened one: room for a "-NNN" that makes it unique


def readable(test_id: str) -> str:
    """A test's name for people where the teacher gave none: its function's, without `test_`
    and with spaces (public/test_bank.py::TestMore::test_negative_deposit: "negative deposit")."""
    function = test_id.rsplit("::", 1)[-1].split("[", 1)[0]
    words = re.sub(r"^test_?", "", function).replace("_", " ").strip()
    return words or function


_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)(?:\s|$)")


def title_of(test: UnitTest) -> str:
    """What a reader knows a test by: its @number and @name; a number alone gets the readable
    name of its function beside it ("1.2 peek leaves the top"); neither, that name alone."""
    if not test.title:
        return readable(test.id)
    number = _NUMBER.match(test.title)
    if number is not None and number.group(1) == test.title.strip():
        return f"{test.title.strip()} {readable(test.id)}"
    return test.title


def title_order(title: str) -> tuple[int, tuple[int, ...]]:
    """Titles that start with a @number in its order ("1.2" before "1.10"), the others after."""
    number = _NUMBER.match(title)
    if number is None:
        return (1, ())
    return (0, tuple(int(part) for part in number.group(1).split(".")))


def group_name(test_id: str, taken: set[str]) -> str:
    """A group name (a slug) for a test: its file's stem and its node path, made unique. One
    over 64 characters keeps its start and ends in a digest of the test's id, the same on every
    run (a name that fits is never changed: a course's records are kept by it)."""
    file, _, rest = test_id.partition("::")
    stem = file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    base = re.sub(r"[^a-z0-9_-]+", "-", f"{stem}-{rest.replace('::', '-')}".lower()).strip("-_") or "test"
    if len(base) > GROUP_NAME_LIMIT:
        base = _shortened(base, test_id)
    name, n = base, 2
    while name in taken:
        suffix = f"-{n}"
        fits = len(base) + len(suffix) <= GROUP_NAME_LIMIT
        name, n = (base if fits else _shortened(base, test_id)) + suffix, n + 1
    taken.add(name)
    return name


def _shortened(base: str, test_id: str) -> str:
    digest = hashlib.sha256(test_id.encode("utf-8", errors="replace")).hexdigest()[:8]
    return f"{base[: GROUP_NAME_BASE - 9].rstrip('-_')}-{digest}"


# --- JUnit 5 -----------------------------------------------------------------------------

_JAVA_TEST_FILE = re.compile(r"^(Test.*|.*Tests?)\.java$")
_JAVA_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_JAVA_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
_JAVA_CLASS = re.compile(r"\bclass\s+([A-Za-z_$][\w$]*)")
_JAVA_TEST_ANNOTATIONS = ("Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate")
# A method and the annotations before it: @Name or @Name(...) (one level of parentheses).
_JAVA_METHOD = re.compile(
    r"((?:@[\w.]+(?:\s*\((?:[^()]|\([^()]*\))*\))?\s*)+)"
    r"(?:(?:public|protected|private|static|final|synchronized)\s+)*"
    r"[\w<>\[\],.? ]+?\s+([A-Za-z_$][\w$]*)\s*\("
)
_JAVA_ANNOTATION = re.compile(r"@([\w.]+)(?:\s*\(((?:[^()]|\([^()]*\))*)\))?")
_POINTS_TAG = re.compile(r'^\s*"points\s*=\s*([0-9]+(?:\.[0-9]+)?)"\s*$')


_JAVA_LITERALS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
_JAVA_CLASS_OR_BRACE = re.compile(r"\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)|[{}]")


@dataclass(frozen=True)
class JavaClass:
    """A class's body in a Java file: where it opens and closes, its binary name (Outer$Inner,
    as JUnit names a @Nested class), and whether it or a class around it is @Disabled."""

    start: int
    end: int
    binary: str
    disabled: bool


def _java_classes(code: str) -> list[JavaClass]:
    """Every class body of `code` (comments already blanked; its literals are blanked here, so
    a brace in a string is no brace)."""
    code = _JAVA_LITERALS.sub(lambda m: " " * len(m.group(0)), code)
    found: list[JavaClass] = []
    stack: list[tuple[int, str, bool] | None] = []  # a class's (start, binary, disabled), or a block
    pending: str | None = None
    pending_disabled = False
    for token in _JAVA_CLASS_OR_BRACE.finditer(code):
        if token.group(1):
            pending = token.group(1)
            before = code[: token.start()].rsplit(";", 1)[-1].rsplit("}", 1)[-1].rsplit("{", 1)[-1]
            pending_disabled = any(
                m.group(1).rsplit(".", 1)[-1] == "Disabled" for m in _JAVA_ANNOTATION.finditer(before)
            )
        elif token.group(0) == "{":
            if pending is None:
                stack.append(None)
            else:
                around = [entry for entry in stack if entry is not None]
                binary = "$".join([entry[1] for entry in around][-1:] + [pending]) if around else pending
                disabled = pending_disabled or any(entry[2] for entry in around)
                stack.append((token.start(), binary, disabled))
            pending = None
        elif stack:
            entry = stack.pop()
            if entry is not None:
                found.append(JavaClass(entry[0], token.start(), entry[1], entry[2]))
    return found


def is_java_test_file(name: str) -> bool:
    """Whether JUnit's console launcher takes the file's class by its name (Test*, *Test, *Tests)."""
    return bool(_JAVA_TEST_FILE.match(name.rsplit("/", 1)[-1]))


def read_java_tests(
    path: str, text: str, default_points: float, table: Mapping[str, PerTest] | None = None
) -> list[UnitTest]:
    """The JUnit 5 tests of one Java file: its methods annotated @Test (or @ParameterizedTest,
    @RepeatedTest, ...: one case each), `FILE::CLASS::METHOD` with the class by its package;
    points from @Tag("points=N"), a title from @DisplayName."""
    code = _JAVA_COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    declared = _JAVA_CLASS.search(code)
    if declared is None:
        raise FoundError(0, "no class in the file")
    package = _JAVA_PACKAGE.search(code)
    owner = f"{package.group(1)}.{declared.group(1)}" if package else declared.group(1)
    folder_public = path.split("/", 1)[0] == PUBLIC_FOLDER
    # @Disabled on the class (among the annotations just before its declaration) skips every test.
    before_class = code[: declared.start()].rsplit(";", 1)[-1].rsplit("}", 1)[-1]
    class_disabled = any(m.group(1).rsplit(".", 1)[-1] == "Disabled" for m in _JAVA_ANNOTATION.finditer(before_class))
    classes = _java_classes(code)
    found: list[UnitTest] = []
    for method in _JAVA_METHOD.finditer(code):
        annotations = {
            m.group(1).rsplit(".", 1)[-1]: m.group(2) or "" for m in _JAVA_ANNOTATION.finditer(method.group(1))
        }
        tags = [m.group(2) or "" for m in _JAVA_ANNOTATION.finditer(method.group(1)) if m.group(1).endswith("Tag")]
        if not any(name in annotations for name in _JAVA_TEST_ANNOTATIONS):
            continue
        line = code.count("\n", 0, method.start(2)) + 1
        inside = [c for c in classes if c.start < method.start() < c.end]
        nested = max(inside, key=lambda c: c.start) if inside else None
        name = f"{package.group(1)}.{nested.binary}" if package and nested else nested.binary if nested else owner
        test_id = f"{path}::{name}::{method.group(2)}"
        points: float = default_points
        for tag in tags:
            said = _POINTS_TAG.match(tag)
            if said:
                points = float(said.group(1))
            elif tag.strip().startswith('"points'):
                raise FoundError(line, f'{test_id}: @Tag({tag.strip()}): points are written @Tag("points=N")')
        if not 0 <= points <= 1000:
            raise FoundError(line, f"{test_id}: points must be a number from 0 to 1000, not {points:g}")
        title = annotations.get("DisplayName", "").strip().strip('"')
        override = (table or {}).get(test_id)
        public = folder_public
        if override is not None:
            points = override.points if override.points is not None else points
            public = override.public if override.public is not None else public
        skipped = class_disabled or "Disabled" in annotations or any(c.disabled for c in inside)
        found.append(UnitTest(test_id, float(points), public, title, skipped=skipped))
    return found


Reader = Callable[[str, str, float, "Mapping[str, PerTest] | None"], list[UnitTest]]
# Per framework: which files hold tests, and how their tests are read.
FRAMEWORKS: dict[str, tuple[Callable[[str], bool], Reader]] = {
    "pytest": (is_test_file, read_tests),
    "unittest": (is_test_file, read_tests),
    "junit5": (is_java_test_file, read_java_tests),
}
