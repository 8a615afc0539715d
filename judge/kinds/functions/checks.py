"""What a family of languages checks of a student's module before it is compiled (pure): the
function or class the signature names, where the harness would find it missing only by
reflection (a RE on every case) or not at all. "" when there is nothing to say: the compiler
says the rest. Each family's record (families.py) names its check here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from judge.kinds.functions import code_text, programs, types

# (the signature, the student's module, its file's name) -> what is missing, or ""
Check = Callable[[types.Api, bytes, str], str]

_CLASS = re.compile(rb"\bclass\s+([A-Za-z_][A-Za-z_0-9]*)\b")


def _what(api: types.Api) -> str:
    return f"class {api.name}" if isinstance(api, types.ClassSignature) else f"function {api.name}"


def nothing(api: types.Api, module: bytes, name: str) -> str:
    """C++, Go, Rust: the compiler names a missing function itself."""
    return ""


def c(api: types.Api, module: bytes, name: str) -> str:
    """C: whether C can hold the signature at all (the compiler names a missing function)."""
    return programs.c_unoffered(api)


def python(api: types.Api, module: bytes, name: str) -> str:
    """A module that binds no such name at its top level (a syntax error is the compiler's)."""
    try:
        tree = ast.parse(module)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ""  # the compiler says what is wrong, where
    if not any(_binds(node, api.name) for node in tree.body):
        params = "" if isinstance(api, types.ClassSignature) else f"({', '.join(p.name for p in api.params)})"
        return f"no {_what(api)}{params} in {name}"
    return ""


def javascript(api: types.Api, module: bytes, name: str) -> str:
    """A file that names it nowhere in its code (a name in a comment or a string is none)."""
    if not re.search(rb"\b" + re.escape(api.name.encode()) + rb"\b", code_text.code_only(module)):
        return f"no {_what(api)} in {name}"
    return ""


def _binds(node: ast.stmt, name: str) -> bool:
    """Whether a top-level statement defines `name` (a def, an assignment, an import)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name == name
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    if isinstance(node, ast.Import | ast.ImportFrom):
        return any((alias.asname or alias.name.split(".")[0]) == name for alias in node.names)
    if isinstance(node, ast.If | ast.Try):
        return any(_binds(child, name) for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))
    return False


def kotlin(api: types.Api, module: bytes, name: str) -> str:
    """A Kotlin file without the function (or the class and its methods): the harness finds
    them by reflection, so kotlinc would not say."""
    module = code_text.code_only(module)  # a name in a comment or a string is no method
    if isinstance(api, types.ClassSignature):
        if not re.search(rb"\bclass\s+" + re.escape(api.name.encode()) + rb"\b", module):
            return f"no class {api.name} in {name}"
        wanted = [m.name for m in api.methods]
    else:
        wanted = [api.name]
    for function in wanted:
        if not re.search(rb"\bfun\s+" + re.escape(function.encode()) + rb"\s*\(", module):
            return f"no function {function} in {name}"
    return ""


def public_class(api: types.Api, module: bytes, name: str) -> str:
    """A Java or C# file without the class, or the class without a method: said before the
    compiler runs (the harness finds them by reflection, so the compiler would not)."""
    module = code_text.code_only(module)  # a name in a comment or a string is no method
    owner = api.name if isinstance(api, types.ClassSignature) else "Solution"
    if owner.encode() not in _CLASS.findall(module):
        if isinstance(api, types.ClassSignature):
            return f"no class {owner} in {name}"
        return f"no class Solution in {name} (the method {api.name} is one of its own)"
    wanted = [m.name for m in api.methods] if isinstance(api, types.ClassSignature) else [api.name]
    for method in wanted:
        if not re.search(rb"\b" + re.escape(method.encode()) + rb"\s*\(", module):
            return f"no method {method} in class {owner} ({name})"
    return ""
