"""A student's starting file per language (pure): the function, or the class and its methods,
with the signature in the language's own types and a body that raises "not written yet"."""

from __future__ import annotations

from judge.problem.kinds.functions import programs, types


class Unoffered(ValueError):
    """The language cannot hold this signature (C and a class, or a dict)."""


def _params(params: tuple[types.Param, ...], typed: str) -> str:
    if typed == "python":
        return ", ".join(f"{p.name}: {types.python(p.type)}" for p in params)
    if typed == "java":
        return ", ".join(f"{programs.java_type(p.type)} {p.name}" for p in params)
    if typed == "cpp":
        return ", ".join(f"{programs.cpp_type(p.type)} {p.name}" for p in params)
    if typed == "kotlin":
        return ", ".join(f"{p.name}: {programs.kotlin_type(p.type)}" for p in params)
    if typed == "csharp":
        return ", ".join(f"{programs.csharp_type(p.type)} {p.name}" for p in params)
    if typed == "go":
        return ", ".join(f"{p.name} {programs.go_type(p.type)}" for p in params)
    if typed == "rust":
        return ", ".join(f"{p.name}: {programs.rust_type(p.type)}" for p in params)
    return ", ".join(p.name for p in params)


def _python(api: types.Api, title: str) -> tuple[str, str]:
    if isinstance(api, types.Signature):
        text = (
            f"def {api.name}({_params(api.params, 'python')}) -> {types.python(api.returns)}:\n"
            f'    """{title}: see the statement."""\n'
            "    raise NotImplementedError\n"
        )
        return f"{api.name}.py", text
    made = ", ".join(["self", *(f"{p.name}: {types.python(p.type)}" for p in api.constructor)])
    parts = [f'class {api.name}:\n    """{title}: see the statement."""\n\n    def __init__({made}) -> None:\n']
    parts.append("        raise NotImplementedError\n")
    for m in api.methods:
        params = ", ".join(["self", *(f"{p.name}: {types.python(p.type)}" for p in m.params)])
        parts.append(f"\n    def {m.name}({params}) -> {types.python(m.returns)}:\n        raise NotImplementedError\n")
    return f"{api.name.lower()}.py", "".join(parts)


def _java(api: types.Api, title: str) -> tuple[str, str]:
    body = '        throw new UnsupportedOperationException("not written yet");\n    }\n'
    if isinstance(api, types.Signature):
        members = [f"    public {programs.java_type(api.returns)} {api.name}({_params(api.params, 'java')}) {{\n{body}"]
        owner = "Solution"
    else:
        owner = api.name
        members = [f"    public {api.name}({_params(api.constructor, 'java')}) {{\n{body}"]
        members += [
            f"\n    public {programs.java_type(m.returns)} {m.name}({_params(m.params, 'java')}) {{\n{body}"
            for m in api.methods
        ]
    text = f"// {title}: see the statement.\nimport java.util.*;\n\npublic class {owner} {{\n{''.join(members)}}}\n"
    return programs.java_file(api), text


def _cpp(api: types.Api, title: str) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n#include <bits/stdc++.h>\n\n"
    body = '    throw std::logic_error("not written yet");\n'
    if isinstance(api, types.Signature):
        made = f"{programs.cpp_type(api.returns)} {api.name}({_params(api.params, 'cpp')}) {{\n{body}}}\n"
        return f"{api.name}.cpp", head + made
    members = [f"    {api.name}({_params(api.constructor, 'cpp')}) {{\n    {body}    }}\n"]
    members += [
        f"    {programs.cpp_type(m.returns)} {m.name}({_params(m.params, 'cpp')}) {{\n    {body}    }}\n"
        for m in api.methods
    ]
    return f"{api.name.lower()}.cpp", f"{head}class {api.name} {{\n  public:\n{''.join(members)}}};\n"


def _javascript(api: types.Api, title: str) -> tuple[str, str]:
    body = '    throw new Error("not written yet");\n'
    if isinstance(api, types.Signature):
        said = ", ".join(f"{p.name}: {p.type}" for p in api.params)
        text = (
            f"// {title}: see the statement. {api.name}({said}) -> {api.returns}\n"
            f"function {api.name}({_params(api.params, 'js')}) {{\n{body}}}\n"
        )
        return f"{api.name}.js", text
    members = [f"  constructor({_params(api.constructor, 'js')}) {{\n  {body}  }}\n"]
    members += [f"\n  // {m}\n  {m.name}({_params(m.params, 'js')}) {{\n  {body}  }}\n" for m in api.methods]
    return f"{api.name.lower()}.js", f"// {title}: see the statement.\nclass {api.name} {{\n{''.join(members)}}}\n"


def _c(api: types.Api, title: str) -> tuple[str, str]:
    unoffered = programs.c_unoffered(api)
    if unoffered:
        raise Unoffered(unoffered)
    assert isinstance(api, types.Signature)
    text = (
        f"/* {title}: see the statement. */\n#include <stdbool.h>\n#include <stdlib.h>\n\n"
        f"{programs.c_declaration(api)} {{\n    abort(); /* not written yet */\n}}\n"
    )
    return f"{api.name}.c", text


def _csharp(api: types.Api, title: str) -> tuple[str, str]:
    body = '        throw new NotImplementedException("not written yet");\n    }\n'
    if isinstance(api, types.Signature):
        params = _params(api.params, "csharp")
        members = [f"    public {programs.csharp_type(api.returns)} {api.name}({params}) {{\n{body}"]
        owner = "Solution"
    else:
        owner = api.name
        members = [f"    public {api.name}({_params(api.constructor, 'csharp')}) {{\n{body}"]
        members += [
            f"\n    public {programs.csharp_type(m.returns)} {m.name}({_params(m.params, 'csharp')}) {{\n{body}"
            for m in api.methods
        ]
    head = f"// {title}: see the statement.\nusing System;\nusing System.Collections.Generic;\n\n"
    return f"{owner}.cs", f"{head}public class {owner} {{\n{''.join(members)}}}\n"


def _kotlin(api: types.Api, title: str) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n\n"

    def returns(written: types.Type) -> str:
        return "" if written.name == "none" else ": " + programs.kotlin_type(written)

    if isinstance(api, types.Signature):
        params = _params(api.params, "kotlin")
        text = f'fun {api.name}({params}){returns(api.returns)} {{\n    TODO("not written yet")\n}}\n'
        return f"{api.name}.kt", head + text
    made = f"({_params(api.constructor, 'kotlin')})" if api.constructor else ""
    members = [
        f'    fun {m.name}({_params(m.params, "kotlin")}){returns(m.returns)} {{\n        TODO("not written yet")\n    }}\n'
        for m in api.methods
    ]
    return f"{api.name}.kt", f"{head}class {api.name}{made} {{\n{chr(10).join(members)}}}\n"


def _go(api: types.Api, title: str) -> tuple[str, str]:
    head = f"// {title}: see the statement.\npackage main\n\n"
    body = '\tpanic("not written yet")\n}\n'

    def returns(written: types.Type) -> str:
        return "" if written.name == "none" else " " + programs.go_type(written)

    if isinstance(api, types.Signature):
        return f"{api.name}.go", f"{head}func {api.name}({_params(api.params, 'go')}){returns(api.returns)} {{\n{body}"
    members = [f"type {api.name} struct {{\n}}\n\n"]
    members.append(f"func {programs.go_constructor(api)}({_params(api.constructor, 'go')}) *{api.name} {{\n{body}")
    members += [
        f"\nfunc (self *{api.name}) {m.name}({_params(m.params, 'go')}){returns(m.returns)} {{\n{body}"
        for m in api.methods
    ]
    return f"{api.name.lower()}.go", head + "".join(members)


def _rust(api: types.Api, title: str) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n#[allow(unused_imports)]\nuse std::collections::HashMap;\n\n"

    def returns(written: types.Type) -> str:
        return "" if written.name == "none" else " -> " + programs.rust_type(written)

    if isinstance(api, types.Signature):
        text = f"fn {api.name}({_params(api.params, 'rust')}){returns(api.returns)} {{\n    todo!()\n}}\n"
        return f"{api.name}.rs", head + text
    members = [f"    fn new({_params(api.constructor, 'rust')}) -> Self {{\n        todo!()\n    }}\n"]
    members += [
        f"\n    fn {m.name}({', '.join(['&mut self', *([_params(m.params, 'rust')] if m.params else [])])})"
        f"{returns(m.returns)} {{\n        todo!()\n    }}\n"
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


def starter(api: types.Api, language: str, title: str) -> tuple[str, str]:
    """(file name, text) in a language of programs.HARNESSES; Unoffered when it cannot hold it."""
    family = "python" if language in ("python3", "pypy3") else "cpp" if language.startswith("cpp") else language
    return _WRITERS[family](api, title)
