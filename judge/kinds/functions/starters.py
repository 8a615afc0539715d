"""A function or class per language, from the signature (pure): the student's starting file
(each body raises "not written yet") and the judge's constant decoy (each body returns the
type's plainest value: 0, "", an empty list), which `judge verify` expects the tests to fail.
"""

from __future__ import annotations

from collections.abc import Callable

from judge.kinds.functions import programs, types

# A body: the statement(s) on one line, for what a function returns (None: a constructor of
# the class named second).
Fill = Callable[[types.Type | None, str], str]


class Unoffered(ValueError):
    """The language cannot hold this signature (C and a class, or a dict)."""


def _params(params: tuple[types.Param, ...], typed: str) -> str:
    if typed == "python":
        return ", ".join(f"{p.name}: {types.python(p.type)}" for p in params)
    if typed in ("java", "cpp", "csharp"):
        named = {"java": programs.java_type, "cpp": programs.cpp_type, "csharp": programs.csharp_type}[typed]
        return ", ".join(f"{named(p.type)} {p.name}" for p in params)
    if typed in ("kotlin", "rust"):
        named = programs.kotlin_type if typed == "kotlin" else programs.rust_type
        return ", ".join(f"{p.name}: {named(p.type)}" for p in params)
    if typed == "go":
        return ", ".join(f"{p.name} {programs.go_type(p.type)}" for p in params)
    return ", ".join(p.name for p in params)


def _python(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    if isinstance(api, types.Signature):
        text = (
            f"def {api.name}({_params(api.params, 'python')}) -> {types.python(api.returns)}:\n"
            f'    """{title}: see the statement."""\n'
            f"    {fill(api.returns, '')}\n"
        )
        return f"{api.name}.py", text
    made = ", ".join(["self", *(f"{p.name}: {types.python(p.type)}" for p in api.constructor)])
    parts = [f'class {api.name}:\n    """{title}: see the statement."""\n\n    def __init__({made}) -> None:\n']
    parts.append(f"        {fill(None, api.name)}\n")
    for m in api.methods:
        params = ", ".join(["self", *(f"{p.name}: {types.python(p.type)}" for p in m.params)])
        parts.append(f"\n    def {m.name}({params}) -> {types.python(m.returns)}:\n        {fill(m.returns, '')}\n")
    return f"{api.name.lower()}.py", "".join(parts)


def _public_class(api: types.Api, fill: Fill, typed: str) -> tuple[str, str]:
    """Java's and C#'s shape: a public class (Solution, or the problem's class) of public
    methods. (the class's name, its text)."""
    named = programs.java_type if typed == "java" else programs.csharp_type

    def body(returns: types.Type | None, owner: str = "") -> str:
        return f"        {fill(returns, owner)}\n    }}\n"

    if isinstance(api, types.Signature):
        params = _params(api.params, typed)
        members = [f"    public {named(api.returns)} {api.name}({params}) {{\n{body(api.returns)}"]
        owner = "Solution"
    else:
        owner = api.name
        members = [f"    public {api.name}({_params(api.constructor, typed)}) {{\n{body(None, owner)}"]
        members += [
            f"\n    public {named(m.returns)} {m.name}({_params(m.params, typed)}) {{\n{body(m.returns)}"
            for m in api.methods
        ]
    return owner, f"public class {owner} {{\n{''.join(members)}}}\n"


def _java(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    _, text = _public_class(api, fill, "java")
    return programs.java_file(api), f"// {title}: see the statement.\nimport java.util.*;\n\n{text}"


def _cpp(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n#include <bits/stdc++.h>\n\n"
    if isinstance(api, types.Signature):
        made = f"{programs.cpp_type(api.returns)} {api.name}({_params(api.params, 'cpp')}) {{\n"
        return f"{api.name}.cpp", f"{head}{made}    {fill(api.returns, '')}\n}}\n"
    members = [f"    {api.name}({_params(api.constructor, 'cpp')}) {{\n        {fill(None, api.name)}\n    }}\n"]
    members += [
        f"    {programs.cpp_type(m.returns)} {m.name}({_params(m.params, 'cpp')}) {{\n"
        f"        {fill(m.returns, '')}\n    }}\n"
        for m in api.methods
    ]
    return f"{api.name.lower()}.cpp", f"{head}class {api.name} {{\n  public:\n{''.join(members)}}};\n"


def _javascript(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    if isinstance(api, types.Signature):
        said = ", ".join(f"{p.name}: {p.type}" for p in api.params)
        text = (
            f"// {title}: see the statement. {api.name}({said}) -> {api.returns}\n"
            f"function {api.name}({_params(api.params, 'js')}) {{\n    {fill(api.returns, '')}\n}}\n"
        )
        return f"{api.name}.js", text
    members = [f"  constructor({_params(api.constructor, 'js')}) {{\n    {fill(None, api.name)}\n  }}\n"]
    members += [
        f"\n  // {m}\n  {m.name}({_params(m.params, 'js')}) {{\n    {fill(m.returns, '')}\n  }}\n" for m in api.methods
    ]
    return f"{api.name.lower()}.js", f"// {title}: see the statement.\nclass {api.name} {{\n{''.join(members)}}}\n"


def _c(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    unoffered = programs.c_unoffered(api)
    if unoffered:
        raise Unoffered(unoffered)
    assert isinstance(api, types.Signature)
    text = (
        f"/* {title}: see the statement. */\n#include <stdbool.h>\n#include <stdlib.h>\n\n"
        f"{programs.c_declaration(api)} {{\n    {fill(api.returns, '')}\n}}\n"
    )
    return f"{api.name}.c", text


def _csharp(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    owner, text = _public_class(api, fill, "csharp")
    head = f"// {title}: see the statement.\nusing System;\nusing System.Collections.Generic;\n\n"
    return f"{owner}.cs", head + text


def _kotlin(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n\n"

    def returns(written: types.Type) -> str:
        return "" if written.name == "none" else ": " + programs.kotlin_type(written)

    if isinstance(api, types.Signature):
        params = _params(api.params, "kotlin")
        text = f"fun {api.name}({params}){returns(api.returns)} {{\n    {fill(api.returns, '')}\n}}\n"
        return f"{api.name}.kt", head + text
    made = f"({_params(api.constructor, 'kotlin')})" if api.constructor else ""
    members = [
        f"    fun {m.name}({_params(m.params, 'kotlin')}){returns(m.returns)} {{\n        {fill(m.returns, '')}\n    }}\n"
        for m in api.methods
    ]
    return f"{api.name}.kt", f"{head}class {api.name}{made} {{\n{chr(10).join(members)}}}\n"


def _go(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    head = f"// {title}: see the statement.\npackage main\n\n"

    def returns(written: types.Type) -> str:
        return "" if written.name == "none" else " " + programs.go_type(written)

    if isinstance(api, types.Signature):
        made = f"func {api.name}({_params(api.params, 'go')}){returns(api.returns)} {{\n"
        return f"{api.name}.go", f"{head}{made}\t{fill(api.returns, '')}\n}}\n"
    members = [f"type {api.name} struct {{\n}}\n\n"]
    members.append(
        f"func {programs.go_constructor(api)}({_params(api.constructor, 'go')}) *{api.name} {{\n"
        f"\t{fill(None, api.name)}\n}}\n"
    )
    members += [
        f"\nfunc (self *{api.name}) {m.name}({_params(m.params, 'go')}){returns(m.returns)} {{\n"
        f"\t{fill(m.returns, '')}\n}}\n"
        for m in api.methods
    ]
    return f"{api.name.lower()}.go", head + "".join(members)


def _rust(api: types.Api, title: str, fill: Fill) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n#[allow(unused_imports)]\nuse std::collections::HashMap;\n\n"

    def returns(written: types.Type) -> str:
        return "" if written.name == "none" else " -> " + programs.rust_type(written)

    if isinstance(api, types.Signature):
        text = (
            f"fn {api.name}({_params(api.params, 'rust')}){returns(api.returns)} {{\n    {fill(api.returns, '')}\n}}\n"
        )
        return f"{api.name}.rs", head + "#[allow(unused_variables)]\n" + text
    members = [f"    fn new({_params(api.constructor, 'rust')}) -> Self {{\n        {fill(None, api.name)}\n    }}\n"]
    members += [
        f"\n    #[allow(unused_variables)]\n    fn {m.name}({', '.join(['&mut self', *([_params(m.params, 'rust')] if m.params else [])])})"
        f"{returns(m.returns)} {{\n        {fill(m.returns, '')}\n    }}\n"
        for m in api.methods
    ]
    return f"{api.name.lower()}.rs", f"{head}struct {api.name} {{}}\n\nimpl {api.name} {{\n{''.join(members)}}}\n"


_WRITERS = {
    "python": _python,
    "java": _java,
    "cpp": _cpp,
    "javascript": _javascript,
    "c": _c,
    "go": _go,
    "rust": _rust,
    "csharp": _csharp,
    "kotlin": _kotlin,
}

# What a student starts from: every body raises (or ends the program) until it is written.
_RAISES = {
    "python": "raise NotImplementedError",
    "java": 'throw new UnsupportedOperationException("not written yet");',
    "cpp": 'throw std::logic_error("not written yet");',
    "javascript": 'throw new Error("not written yet");',
    "c": "abort(); /* not written yet */",
    "go": 'panic("not written yet")',
    "rust": "todo!()",
    "csharp": 'throw new NotImplementedException("not written yet");',
    "kotlin": 'TODO("not written yet")',
}


def _plain(written: types.Type, family: str) -> str:
    """The type's plainest value as the language writes it: 0, "", an empty list, none."""
    name = written.name
    if family == "cpp":
        return "{}"
    if family == "rust":
        return "Default::default()"
    if name == "optional":
        return {"python": "None", "go": "nil", "kotlin": "null", "csharp": "null"}.get(family, "null")
    if name == "list":
        assert written.of is not None
        return {
            "python": "[]",
            "javascript": "[]",
            "kotlin": "emptyList()",
            "java": "new " + programs.java_type(written).replace("[]", "[0]", 1),
            "csharp": "new " + programs.csharp_type(written).replace("[]", "[0]", 1),
        }.get(family, "nil")
    if name == "dict":
        return {
            "python": "{}",
            "javascript": "{}",
            "kotlin": "emptyMap()",
            "java": "new HashMap<>()",
            "csharp": f"new {programs.csharp_type(written)}()",
        }.get(family, "nil")
    if name == "str":
        return '""'
    if name == "bool":
        return {"python": "False"}.get(family, "false")
    if name == "float":
        return "0.0"
    return "0L" if name == "long" and family in ("java", "kotlin") else "0"


def _constant(family: str) -> Fill:
    def fill(returns: types.Type | None, owner: str) -> str:
        if returns is None:  # a constructor: an object with nothing in it
            made = {"python": "pass", "go": f"return &{owner}{{}}", "rust": f"{owner} {{}}"}
            return made.get(family, "")
        if returns.name == "none":
            return {"python": "return None", "rust": ""}.get(family, "")
        if family == "c":
            if returns.name == "list":
                return "*return_len = 0; return malloc(1);"
            return "return calloc(1, 1);" if returns.name == "str" else "return 0;"
        if family == "go":
            return f"var plain {programs.go_type(returns)}; return plain"
        return f"return {_plain(returns, family)}" + ("" if family in ("python", "rust", "kotlin") else ";")

    return fill


def _family(language: str) -> str:
    return "python" if language in ("python3", "pypy3") else "cpp" if language.startswith("cpp") else language


def starter(api: types.Api, language: str, title: str) -> tuple[str, str]:
    """(file name, text) in a language of programs.HARNESSES; Unoffered when it cannot hold it."""
    family = _family(language)
    return _WRITERS[family](api, title, lambda _returns, _owner: _RAISES[family])


def constant(api: types.Api, language: str) -> tuple[str, str]:
    """(file name, text) of a decoy whose every call returns the type's plainest value."""
    family = _family(language)
    return _WRITERS[family](api, "A decoy of the judge's: every call returns a constant", _constant(family))
