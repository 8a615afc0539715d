"""The package's layers: every import in judge/ points down the stages (README, Layout), and
judge/ itself holds only the few modules every stage shares."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "judge"
# Lowest first; a module may import its own layer and those before it, never one after.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "paths", "__init__"),
    ("run",),
    ("problem",),
    ("kinds",),  # every kind of problem: reads problem data, runs in run/, used by grade/
    ("course", "grade"),  # side by side: neither imports the other (test below)
    ("author",),  # what a problem's writer runs (new, gen, validate, solve, verify): it grades solutions
    ("interop", "explain", "similar", "cluster"),
    ("web",),
    ("cli", "__main__"),
)
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def _stage(module: str) -> str:
    """judge.run.sandbox -> run; judge.errors -> errors; judge -> __init__."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "judge":
                found += [(node.lineno, f"judge.{alias.name}") for alias in node.names]
            elif node.module.startswith("judge."):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "judge"]
    return found


def test_every_import_points_down_the_stages() -> None:
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = _stage(".".join(path.relative_to(REPO).with_suffix("").parts))
        for line, module in _imports(path):
            there = _stage(module)
            if there == "__version__":
                there = "__init__"
            if RANK[there] > RANK[here]:
                upward.append(f"{path.relative_to(REPO)}:{line}: {here} imports {module}")
    assert upward == []


def test_course_and_grade_stand_side_by_side() -> None:
    """The README puts them at one level: a course's rules need no judging, and judging no course."""
    for here, there in (("course", "grade"), ("grade", "course")):
        crossing = [
            f"{path.relative_to(REPO)}:{line}"
            for path in sorted((PACKAGE / here).rglob("*.py"))
            for line, module in _imports(path)
            if _stage(module) == there
        ]
        assert crossing == [], f"{here} imports {there}"


def test_the_top_of_the_package_holds_only_what_every_stage_shares() -> None:
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert modules == ["__init__.py", "__main__.py", "errors.py", "paths.py"]
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"} == {
        *(name for names in LAYERS for name in names if (PACKAGE / name).is_dir()),
        "templates",
    }


def _module_graph() -> dict[str, set[str]]:
    modules = {
        ".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__") for p in PACKAGE.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("judge") and not node.level:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    targets.add(full if full in modules else node.module)
        graph[name] = {t for t in targets if t in modules and t != name and t != "judge"}
    return graph


def test_no_module_imports_itself_round_a_cycle() -> None:
    graph = _module_graph()
    cycles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_no_two_records_share_a_name() -> None:
    """A name means one thing across the package (a Limits of the spec and another of the
    sandbox had readers guess); private helpers aside."""
    where: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(str(path.relative_to(REPO)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}


def _naming(word: str) -> set[str]:
    return {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if word in p.read_text(encoding="utf-8").lower()}


def test_only_the_interactive_kind_the_spec_and_the_package_formats_name_the_interactor() -> None:
    """A kind of problem is one module behind kinds.table, not a branch in every stage."""
    outside = {
        name
        for name in _naming("interactor")
        if not name.startswith("kinds/interactive/") and not name.startswith("interop/")
    }
    assert outside == {"problem/spec.py"}


def test_no_function_is_over_a_hundred_lines() -> None:
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > 100:
                    long.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.name} is {length} lines")
    assert long == []


def test_no_stage_asks_a_kind_its_name() -> None:
    """Kinds are asked what they can do (a flag or method of kinds.base.Kind), never which they
    are: `kind.name == "stdio"` outside kinds/ would break when a fifth kind behaves as stdio."""
    names = {"stdio", "interactive", "functions", "unit", "tests"}
    asking = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(PACKAGE / "kinds"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "name" for s in sides) and any(
                isinstance(s, ast.Constant) and s.value in names for s in sides
            ):
                asking.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert asking == []


def test_the_kinds_use_only_the_sandboxs_face() -> None:
    """A kind starts sandboxes through judge.run.sandbox and run/'s modules (run.exchange pipes
    two programs together), never through the sandbox's own modules (procs, watch, records)."""
    behind = [
        f"{path.relative_to(REPO)}:{line}: {module}"
        for path in sorted((PACKAGE / "kinds").rglob("*.py"))
        for line, module in _imports(path)
        if module.startswith("judge.run.sandbox.")
    ]
    assert behind == []
