"""A function or class per family of languages, from the signature (pure): the student's
starting file (each body raises "not written yet") and the judge's constant decoy (each body
returns the type's plainest value: 0, "", an empty list), which `judge verify` expects the tests
to fail. Each family's record (families.py) names its writer here, with its type map.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.kinds.functions import programs, types
from judge.kinds.functions.programs import Named

# A body: the statement(s) on one line, for what a function returns (None: a constructor of
# the class named second).
Fill = Callable[[types.Type | None, str], str]
# (the signature, the problem's title, the bodies, the family's type map) -> (file name, text)
Writer = Callable[[types.Api, str, Fill, Named], tuple[str, str]]


class Unoffered(ValueError):
    """The language cannot hold this signature (C and a class, or a dict)."""


def _returned(written: types.Type, typed: Named, after: str) -> str:
    """A declared return type after `after` (": ", " -> "): nothing where it returns nothing."""
    return "" if written.name == "none" else after + typed(written)


def _params(params: tuple[types.Param, ...], form: str, typed: Named) -> str:
    """The parameters as the language declares them: `form` places {name} and {type}."""
    return ", ".join(form.format(name=p.name, type=typed(p.type)) for p in params)


def python(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    if isinstance(api, types.Signature):
        text = (
            f"def {api.name}({_params(api.params, '{name}: {type}', typed)}) -> {typed(api.returns)}:\n"
            f'    """{title}: see the statement."""\n'
            f"    {fill(api.returns, '')}\n"
        )
        return f"{api.name}.py", text

    def own(params: tuple[types.Param, ...]) -> str:
        return ", ".join(["self", *([_params(params, "{name}: {type}", typed)] if params else [])])

    parts = [
        f'class {api.name}:\n    """{title}: see the statement."""\n\n    def __init__({own(api.constructor)}) -> None:\n'
    ]
    parts.append(f"        {fill(None, api.name)}\n")
    for m in api.methods:
        parts.append(f"\n    def {m.name}({own(m.params)}) -> {typed(m.returns)}:\n        {fill(m.returns, '')}\n")
    return f"{api.name.lower()}.py", "".join(parts)


def _public_class(api: types.Api, fill: Fill, typed: Named) -> tuple[str, str]:
    """Java's and C#'s shape: a public class (Solution, or the problem's class) of public
    methods. (the class's name, its text)."""

    def body(returns: types.Type | None, owner: str = "") -> str:
        return f"        {fill(returns, owner)}\n    }}\n"

    if isinstance(api, types.Signature):
        params = _params(api.params, "{type} {name}", typed)
        members = [f"    public {typed(api.returns)} {api.name}({params}) {{\n{body(api.returns)}"]
        owner = "Solution"
    else:
        owner = api.name
        members = [f"    public {api.name}({_params(api.constructor, '{type} {name}', typed)}) {{\n{body(None, owner)}"]
        members += [
            f"\n    public {typed(m.returns)} {m.name}({_params(m.params, '{type} {name}', typed)}) {{\n{body(m.returns)}"
            for m in api.methods
        ]
    return owner, f"public class {owner} {{\n{''.join(members)}}}\n"


def java(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    _, text = _public_class(api, fill, typed)
    return programs.java_file(api), f"// {title}: see the statement.\nimport java.util.*;\n\n{text}"


def cpp(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n#include <bits/stdc++.h>\n\n"
    if isinstance(api, types.Signature):
        made = f"{typed(api.returns)} {api.name}({_params(api.params, '{type} {name}', typed)}) {{\n"
        return f"{api.name}.cpp", f"{head}{made}    {fill(api.returns, '')}\n}}\n"
    members = [
        f"    {api.name}({_params(api.constructor, '{type} {name}', typed)}) {{\n        {fill(None, api.name)}\n    }}\n"
    ]
    members += [
        f"    {typed(m.returns)} {m.name}({_params(m.params, '{type} {name}', typed)}) {{\n"
        f"        {fill(m.returns, '')}\n    }}\n"
        for m in api.methods
    ]
    return f"{api.name.lower()}.cpp", f"{head}class {api.name} {{\n  public:\n{''.join(members)}}};\n"


def javascript(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    if isinstance(api, types.Signature):
        said = _params(api.params, "{name}: {type}", typed)
        text = (
            f"// {title}: see the statement. {api.name}({said}) -> {typed(api.returns)}\n"
            f"function {api.name}({_params(api.params, '{name}', typed)}) {{\n    {fill(api.returns, '')}\n}}\n"
        )
        return f"{api.name}.js", text
    members = [f"  constructor({_params(api.constructor, '{name}', typed)}) {{\n    {fill(None, api.name)}\n  }}\n"]
    members += [
        f"\n  // {m}\n  {m.name}({_params(m.params, '{name}', typed)}) {{\n    {fill(m.returns, '')}\n  }}\n"
        for m in api.methods
    ]
    return f"{api.name.lower()}.js", f"// {title}: see the statement.\nclass {api.name} {{\n{''.join(members)}}}\n"


def c(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    """C's prototype is its own (a list is a pointer and its length): programs.c_declaration."""
    unoffered = programs.c_unoffered(api)
    if unoffered:
        raise Unoffered(unoffered)
    assert isinstance(api, types.Signature)
    text = (
        f"/* {title}: see the statement. */\n#include <stdbool.h>\n#include <stdlib.h>\n\n"
        f"{programs.c_declaration(api)} {{\n    {fill(api.returns, '')}\n}}\n"
    )
    return f"{api.name}.c", text


def csharp(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    owner, text = _public_class(api, fill, typed)
    head = f"// {title}: see the statement.\nusing System;\nusing System.Collections.Generic;\n\n"
    return f"{owner}.cs", head + text


def kotlin(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n\n"

    if isinstance(api, types.Signature):
        params = _params(api.params, "{name}: {type}", typed)
        text = f"fun {api.name}({params}){_returned(api.returns, typed, ': ')} {{\n    {fill(api.returns, '')}\n}}\n"
        return f"{api.name}.kt", head + text
    made = f"({_params(api.constructor, '{name}: {type}', typed)})" if api.constructor else ""
    members = [
        f"    fun {m.name}({_params(m.params, '{name}: {type}', typed)}){_returned(m.returns, typed, ': ')} {{\n"
        f"        {fill(m.returns, '')}\n    }}\n"
        for m in api.methods
    ]
    return f"{api.name}.kt", f"{head}class {api.name}{made} {{\n{chr(10).join(members)}}}\n"


def go(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    head = f"// {title}: see the statement.\npackage main\n\n"

    if isinstance(api, types.Signature):
        made = (
            f"func {api.name}({_params(api.params, '{name} {type}', typed)}){_returned(api.returns, typed, ' ')} {{\n"
        )
        return f"{api.name}.go", f"{head}{made}\t{fill(api.returns, '')}\n}}\n"
    members = [f"type {api.name} struct {{\n}}\n\n"]
    members.append(
        f"func {programs.go_constructor(api)}({_params(api.constructor, '{name} {type}', typed)}) *{api.name} {{\n"
        f"\t{fill(None, api.name)}\n}}\n"
    )
    members += [
        f"\nfunc (self *{api.name}) {m.name}({_params(m.params, '{name} {type}', typed)}){_returned(m.returns, typed, ' ')} {{\n"
        f"\t{fill(m.returns, '')}\n}}\n"
        for m in api.methods
    ]
    return f"{api.name.lower()}.go", head + "".join(members)


def rust(api: types.Api, title: str, fill: Fill, typed: Named) -> tuple[str, str]:
    head = f"// {title}: see the statement.\n#[allow(unused_imports)]\nuse std::collections::HashMap;\n\n"

    if isinstance(api, types.Signature):
        params = _params(api.params, "{name}: {type}", typed)
        text = f"fn {api.name}({params}){_returned(api.returns, typed, ' -> ')} {{\n    {fill(api.returns, '')}\n}}\n"
        return f"{api.name}.rs", head + "#[allow(unused_variables)]\n" + text
    made = _params(api.constructor, "{name}: {type}", typed)
    members = [f"    fn new({made}) -> Self {{\n        {fill(None, api.name)}\n    }}\n"]
    members += [
        f"\n    #[allow(unused_variables)]\n"
        f"    fn {m.name}({', '.join(['&mut self', *([_params(m.params, '{name}: {type}', typed)] if m.params else [])])})"
        f"{_returned(m.returns, typed, ' -> ')} {{\n        {fill(m.returns, '')}\n    }}\n"
        for m in api.methods
    ]
    return f"{api.name.lower()}.rs", f"{head}struct {api.name} {{}}\n\nimpl {api.name} {{\n{''.join(members)}}}\n"


@dataclass(frozen=True)
class Plainest:
    """How a language writes each type's plainest value, for the judge's constant decoy. The
    forms place {type} (the type's name) and {array} (an array type, its first size 0)."""

    null: str = "null"
    false: str = "false"
    long: str = "0"  # a long's zero (0L where a literal 0 is an int)
    empty_list: str = "nil"
    empty_dict: str = "nil"
    every: str = ""  # the one value of every type (C++'s {}, Rust's Default::default())
    returned: str = "return {value};"  # the statement that returns {value} ({type}: its type)
    made: str = ""  # a constructor's body ({owner}: the class)
    nothing: str = ""  # the body of a function that returns nothing
    fill: Fill | None = None  # bodies of its own (C: a list's length goes out through a pointer)

    def value(self, written: types.Type, typed: Named) -> str:
        """The type's plainest value as the language writes it: 0, "", an empty list, none."""
        name = written.name
        if self.every:
            return self.every
        forms = {"optional": self.null, "list": self.empty_list, "dict": self.empty_dict}
        forms |= {"str": '""', "bool": self.false, "float": "0.0", "long": self.long}
        return forms.get(name, "0").format(type=typed(written), array=typed(written).replace("[]", "[0]", 1))

    def bodies(self, typed: Named) -> Fill:
        """The decoy's bodies: the constructor makes an empty object, every call returns the
        plainest value of its type."""
        if self.fill is not None:
            return self.fill

        def fill(returns: types.Type | None, owner: str) -> str:
            if returns is None:
                return self.made.format(owner=owner)
            if returns.name == "none":
                return self.nothing
            return self.returned.format(value=self.value(returns, typed), type=typed(returns))

        return fill


def c_constant(returns: types.Type | None, owner: str) -> str:
    """C's decoy bodies: a list (its length 0) and a string on the heap, as a student's would be."""
    if returns is None or returns.name == "none":
        return ""
    if returns.name == "list":
        return "*return_len = 0; return malloc(1);"
    return "return calloc(1, 1);" if returns.name == "str" else "return 0;"
