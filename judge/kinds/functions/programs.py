"""The program a function problem runs in the sandbox, per language: the language's harness
beside the student's file, and what the harness needs of the signature (pure: files as bytes).

A function's harness makes one call; a class's harness plays a scenario (the constructor, then
each method call in turn) and writes each step's outcome. Either way the result is one marked
line (harness_python.MARK); the judge reads it outside the sandbox.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from judge.kinds.functions import types

FUNCTION_FILE = "function.json"  # the function's or class's name, for the Python harness
Files = tuple[str, dict[str, bytes]]  # the entry and every file of the program
_CPP = {"int": "int", "long": "long long", "float": "double", "bool": "bool", "str": "std::string"}


@lru_cache(maxsize=8)
def harness(name: str) -> bytes:
    return (Path(__file__).parent / name).read_bytes()


def cpp_type(written: types.Type) -> str:
    """The type in C++: long long, double, std::string, std::vector, std::map, std::optional."""
    if written.of is not None:
        inner = cpp_type(written.of)
        return {"list": f"std::vector<{inner}>", "dict": f"std::map<std::string, {inner}>"}.get(
            written.name, f"std::optional<{inner}>"
        )
    return _CPP.get(written.name, "void")


_JAVA = {"int": "int", "long": "long", "float": "double", "bool": "boolean", "str": "String"}
_BOXED = {"int": "Integer", "long": "Long", "double": "Double", "boolean": "Boolean"}


def java_type(written: types.Type, boxed: bool = False) -> str:
    """The type in Java: a list is an array (int[], String[][]), a dict a Map<String, T>, an
    optional scalar its boxed class."""
    if written.name == "list":
        assert written.of is not None
        return java_type(written.of) + "[]"
    if written.name == "dict":
        assert written.of is not None
        return f"Map<String, {java_type(written.of, boxed=True)}>"
    if written.name == "optional":
        assert written.of is not None
        return java_type(written.of, boxed=True)
    plain = _JAVA.get(written.name, "void")
    return _BOXED.get(plain, plain) if boxed else plain


def _cpp_reads(params: tuple[types.Param, ...], source: str, first: int, indent: str) -> str:
    return "".join(
        f"{indent}auto a{i} = judge_harness::As<{cpp_type(p.type)}>::from({source}.items[{i + first}]);\n"
        for i, p in enumerate(params)
    )


def _cpp_call(called: str, returns: types.Type, indent: str) -> str:
    """Statements that call and set `got` to what came of it (an unserializable value included)."""
    if returns.name == "none":
        return f'{indent}{called};\n{indent}got = "{{\\"returned\\":null}}";\n'
    return (
        f"{indent}auto value = {called};\n"
        f'{indent}try {{ got = "{{\\"returned\\":" + judge_harness::dump(value) + "}}"; }}\n'
        f"{indent}catch (const judge_harness::Unserializable &u) {{\n"
        f'{indent}    got = "{{\\"unserializable\\":" + judge_harness::quote(u.what) + "}}";\n'
        f"{indent}}}\n"
    )


_CPP_CATCH = (
    "        } catch (const std::exception &error) {\n"
    "            got = judge_harness::raised(judge_harness::type_name(typeid(error)), error.what());\n"
    "        } catch (...) {\n"
    '            got = judge_harness::raised("an exception of no std::exception type", "");\n'
    "        }\n"
)


def _cpp_main(signature: types.Signature) -> str:
    """main.cpp of a C++ function: each argument read as its type, the call, what came of it."""
    arguments = ", ".join(f"a{i}" for i in range(len(signature.params)))
    return (
        '#include "harness.hpp"\n#include "solution.hpp"\n\nint main() {\n'
        "    judge_harness::Value call = judge_harness::arguments();\n"
        "    std::string got;\n    {\n        try {\n"
        + _cpp_reads(signature.params, "call", 0, "            ")
        + _cpp_call(f"{signature.name}({arguments})", signature.returns, "            ")
        + _CPP_CATCH
        + "    }\n    judge_harness::report(got);\n}\n"
    )


def _cpp_class_main(api: types.ClassSignature) -> str:
    """main.cpp of a C++ class: the scenario's steps in turn, each by its method's name."""
    made = ", ".join(f"a{i}" for i in range(len(api.constructor)))
    branches = [
        "            if (i == 0) {\n"
        + _cpp_reads(api.constructor, "step", 1, "                ")
        + f"                self = std::make_unique<{api.name}>({made});\n"
        + '                got = "{\\"returned\\":null}";\n            }'
    ]
    for method in api.methods:
        arguments = ", ".join(f"a{i}" for i in range(len(method.params)))
        branches.append(
            f' else if (name == "{method.name}") {{\n'
            + _cpp_reads(method.params, "step", 1, "                ")
            + _cpp_call(f"self->{method.name}({arguments})", method.returns, "                ")
            + "            }"
        )
    return (
        '#include "harness.hpp"\n#include "solution.hpp"\n#include <memory>\n\nint main() {\n'
        "    judge_harness::Value call = judge_harness::arguments();\n"
        f"    std::unique_ptr<{api.name}> self;\n"
        '    std::string out = "{\\"steps\\":[";\n'
        "    for (size_t i = 0; i < call.items.size(); i++) {\n"
        "        const judge_harness::Value &step = call.items[i];\n"
        "        const std::string &name = step.items[0].text;\n"
        "        std::string got;\n        try {\n"
        + "".join(branches)
        + "\n"
        + _CPP_CATCH
        + '        out += (i ? "," : "") + got;\n'
        "        if (!self) break;  // the constructor raised: the scenario ends there\n"
        "    }\n"
        '    judge_harness::report(out + "]}");\n}\n'
    )


def _cpp_files(api: types.Api, module: bytes) -> Files:
    """(entry, files): main.cpp made from the signature, the harness's header, the student's
    file as a header it includes (so it is compiled once, with main.cpp)."""
    main = _cpp_class_main(api) if isinstance(api, types.ClassSignature) else _cpp_main(api)
    files = {"main.cpp": main.encode(), "harness.hpp": harness("harness_cpp.hpp")}
    return "main.cpp", {**files, "solution.hpp": module}


# C: a scalar's type, its reader and its writer's name; a list is a pointer and its length.
_C = {
    "int": ("int", "jh_int", "int"),
    "long": ("long long", "jh_long", "long"),
    "float": ("double", "jh_double", "double"),
    "bool": ("bool", "jh_bool", "bool"),
    "str": ("const char *", "jh_str", "str"),
}


def c_unoffered(api: types.Api) -> str:
    """Why C cannot hold this function ("" when it can): C has scalars and lists of them."""
    if isinstance(api, types.ClassSignature):
        return "a class is not offered in C (it has none): write it in another language"
    for written in [p.type for p in api.params] + [api.returns]:
        plain = written.of if written.name == "list" else written
        if plain is None or (plain.name not in _C and not (written is api.returns and plain.name == "none")):
            return f"{written} is not offered in C (scalars and lists of scalars are): write it in another language"
    return ""


def c_declaration(signature: types.Signature) -> str:
    """The C prototype a student writes: `long long max_sum(const int *xs, int xs_len)`."""
    params = []
    for p in signature.params:
        if p.type.name == "list":
            assert p.type.of is not None
            params.append(f"const {_C[p.type.of.name][0].removeprefix('const ')} *{p.name}, int {p.name}_len")
        else:
            params.append(f"{_C[p.type.name][0]} {p.name}".replace("* ", "*"))
    returns = signature.returns
    if returns.name == "list":
        assert returns.of is not None
        params.append("int *return_len")
        result = _C[returns.of.name][0].removeprefix("const ") + " *"
    else:
        result = "void " if returns.name == "none" else _C[returns.name][0].removeprefix("const ") + " "
    return f"{result}{signature.name}({', '.join(params) or 'void'})".replace("  ", " ").replace("* ", "*")


def _c_main(signature: types.Signature) -> str:
    """main.c of a C function: each argument read, the call, the value written."""
    lines = [
        '#include "harness.h"',
        '#include "solution.h"',
        "",
        "int main(void) {",
        "    jh_value call = jh_arguments();",
    ]
    arguments = []
    for i, p in enumerate(signature.params):
        if p.type.name == "list":
            assert p.type.of is not None
            kind = _C[p.type.of.name]
            lines.append(f"    {kind[0]} *a{i} = {kind[1]}_list(&call.items[{i}]);")
            arguments += [f"a{i}", f"call.items[{i}].count"]
        else:
            lines.append(f"    {_C[p.type.name][0]} a{i} = {_C[p.type.name][1]}(&call.items[{i}]);")
            arguments.append(f"a{i}")
    returns = signature.returns
    if returns.name == "list":
        assert returns.of is not None
        lines += [
            "    int return_len = 0;",
            f"    void *value = {signature.name}({', '.join([*arguments, '&return_len'])});",
        ]
        lines.append(f'    jh_put("{{\\"returned\\":"); jh_dump_{_C[returns.of.name][2]}_list(value, return_len);')
    elif returns.name == "none":
        lines += [f"    {signature.name}({', '.join(arguments)});", '    jh_put("{\\"returned\\":null");']
    else:
        kind = _C[returns.name]
        lines.append(f"    {kind[0].removeprefix('const ')} value = {signature.name}({', '.join(arguments)});")
        lines.append(f'    jh_put("{{\\"returned\\":"); jh_dump_{kind[2]}(value);')
    lines += ['    jh_put("}");', "    jh_report();", "}", ""]
    return "\n".join(lines)


def _c_files(api: types.Api, module: bytes) -> Files:
    assert isinstance(api, types.Signature)  # compile_check refuses a class in C first
    files = {"main.c": _c_main(api).encode(), "harness.h": harness("harness_c.h")}
    return "main.c", {**files, "solution.h": module}


def _python_files(api: types.Api, module: bytes) -> Files:
    """(entry, files): the harness as the entry, the student's module as solution.py."""
    said = json.dumps({"name": api.name, "class": isinstance(api, types.ClassSignature)}).encode()
    return "harness.py", {"harness.py": harness("harness_python.py"), "solution.py": module, FUNCTION_FILE: said}


# One line, so the student's line numbers stay theirs: the writer, the exit, the reader and
# the JSON functions, taken before the student's code can replace them.
_JS_FIRST = (
    'const {writeSync: __judgeWrite, readFileSync: __judgeRead} = require("fs"), '
    "__judgeExit = process.exit.bind(process), __judgeParse = JSON.parse, __judgeJson = JSON.stringify; "
)


def _javascript_files(api: types.Api, module: bytes) -> Files:
    """(entry, files): one main.js, the student's code between the harness's first line and its
    end, so `node --check` finds a syntax error in it (a CE, at its own line)."""
    rest = harness("harness_javascript.js").decode("utf-8").replace("__JUDGE_FUNCTION__", api.name)
    rest = rest.replace("__JUDGE_CLASS__", "true" if isinstance(api, types.ClassSignature) else "false")
    return "main.js", {"main.js": _JS_FIRST.encode() + module + b"\n" + rest.encode()}


def java_file(api: types.Api) -> str:
    """The file a Java student's class goes in: Solution.java, or the class problem's own."""
    return f"{api.name}.java" if isinstance(api, types.ClassSignature) else "Solution.java"


def _java_files(api: types.Api, module: bytes) -> Files:
    """(entry, files): the harness as class Main, the student's class in its own file."""
    said = f"{api.name}\n{'class' if isinstance(api, types.ClassSignature) else 'function'}\n"
    files = {"Main.java": harness("harness_java.java"), "function.txt": said.encode()}
    return "Main.java", {**files, java_file(api): module}


_GO = {"int": "int", "long": "int64", "float": "float64", "bool": "bool", "str": "string"}


def go_type(written: types.Type) -> str:
    """The type in Go: []T, map[string]T, *T for a value that may be None."""
    if written.of is not None:
        inner = go_type(written.of)
        return {"list": f"[]{inner}", "dict": f"map[string]{inner}"}.get(written.name, f"*{inner}")
    return _GO.get(written.name, "")


def go_constructor(api: types.ClassSignature) -> str:
    """A Go class is a struct made by New<Name>, which returns a pointer to it."""
    return f"New{api.name[:1].upper()}{api.name[1:]}"


def _go_reads(params: tuple[types.Param, ...], source: str, first: int) -> str:
    return "".join(
        f"\t\tvar a{i} {go_type(p.type)}\n\t\tjudgeRead({source}[{i + first}], &a{i})\n" for i, p in enumerate(params)
    )


def _go_call(called: str, returns: types.Type) -> str:
    if returns.name == "none":
        return f'\t\t{called}\n\t\treturn `{{"returned":null}}`\n'
    return f"\t\treturn judgeReturned({called})\n"


def _go_main(api: types.Api) -> str:
    """main.go: each argument read as its Go type, the call (or each step), what came of it."""
    if isinstance(api, types.Signature):
        arguments = ", ".join(f"a{i}" for i in range(len(api.params)))
        return (
            "package main\n\nfunc main() {\n\tcall := judgeArguments()\n\t_ = call\n"
            "\tjudgeReport(judgeCall(func() string {\n"
            + _go_reads(api.params, "call", 0)
            + _go_call(f"{api.name}({arguments})", api.returns)
            + "\t}))\n}\n"
        )
    made = ", ".join(f"a{i}" for i in range(len(api.constructor)))
    cases = "".join(
        f'\t\tcase "{m.name}":\n'
        + _go_reads(m.params, "step", 1)
        + _go_call(f"self.{m.name}({', '.join(f'a{i}' for i in range(len(m.params)))})", m.returns)
        for m in api.methods
    )
    return (
        f"package main\n\nfunc main() {{\n\tvar self *{api.name}\n\tvar said []string\n"
        "\tfor i, step := range judgeSteps() {\n\t\tvar name string\n\t\tjudgeRead(step[0], &name)\n"
        "\t\tgot := judgeCall(func() string {\n\t\tif i == 0 {\n"
        + _go_reads(api.constructor, "step", 1)
        + f'\t\tself = {go_constructor(api)}({made})\n\t\treturn `{{"returned":null}}`\n\t\t}}\n'
        "\t\tswitch name {\n" + cases + '\t\t}\n\t\treturn judgeRaised("no method " + name)\n\t\t})\n'
        "\t\tsaid = append(said, got)\n"
        "\t\tif self == nil {\n\t\t\tbreak // the constructor panicked: the scenario ends there\n\t\t}\n"
        "\t}\n\tjudgeReport(judgeScenario(said))\n}\n"
    )


def _go_files(api: types.Api, module: bytes) -> Files:
    """(entry, files): main.go made from the signature, the harness's helpers, the student's file."""
    files = {"main.go": _go_main(api).encode(), "judge_harness.go": harness("harness_go.go")}
    return "main.go", {**files, "solution.go": module}


_RUST = {"int": "i32", "long": "i64", "float": "f64", "bool": "bool", "str": "String"}


def rust_type(written: types.Type) -> str:
    """The type in Rust: Vec<T>, HashMap<String, T>, Option<T>."""
    if written.of is not None:
        inner = rust_type(written.of)
        return {"list": f"Vec<{inner}>", "dict": f"HashMap<String, {inner}>"}.get(written.name, f"Option<{inner}>")
    return _RUST.get(written.name, "()")


def _rust_reads(params: tuple[types.Param, ...], source: str, first: int, indent: str) -> str:
    return "".join(
        f"{indent}let a{i} = <{rust_type(p.type).replace('HashMap', 'std::collections::HashMap')}"
        f" as judge_harness::FromJudge>::from_judge(&{source}.items()[{i + first}]);\n"
        for i, p in enumerate(params)
    )


def _rust_main(api: types.Api) -> str:
    """main.rs: the harness as a module, the student's file included at the crate root, and the
    call (or each step of the scenario) made with Rust's own types."""
    head = 'mod judge_harness;\ninclude!("solution.rs");\n\nfn main() {\n'
    if isinstance(api, types.Signature):
        arguments = ", ".join(f"a{i}" for i in range(len(api.params)))
        return (
            head
            + "    let call = judge_harness::arguments();\n    let got = judge_harness::call(|| {\n"
            + _rust_reads(api.params, "call", 0, "        ")
            + f"        judge_harness::returned(&{api.name}({arguments}))\n    }});\n"
            "    judge_harness::report(&got);\n}\n"
        )
    arms = "".join(
        f'                "{m.name}" => {{\n'
        + _rust_reads(m.params, "step", 1, "                    ")
        + f"                    judge_harness::returned(&me.{m.name}({', '.join(f'a{i}' for i in range(len(m.params)))}))\n"
        "                }\n"
        for m in api.methods
    )
    made = ", ".join(f"a{i}" for i in range(len(api.constructor)))
    return (
        head + f"    let steps = judge_harness::arguments();\n    let mut this: Option<{api.name}> = None;\n"
        "    let mut said: Vec<String> = Vec::new();\n"
        "    for (i, step) in steps.items().iter().enumerate() {\n"
        "        let name = step.items()[0].text().to_string();\n"
        "        let got = judge_harness::call(|| {\n            if i == 0 {\n"
        + _rust_reads(api.constructor, "step", 1, "                ")
        + f"                this = Some({api.name}::new({made}));\n"
        '                return "{\\"returned\\":null}".to_string();\n            }\n'
        '            let me = this.as_mut().expect("the object");\n            match name.as_str() {\n'
        + arms
        + '                _ => panic!("no method {}", name),\n            }\n        });\n'
        "        said.push(got);\n"
        "        if this.is_none() {\n            break; // the constructor panicked: the scenario ends there\n        }\n"
        "    }\n    judge_harness::report(&judge_harness::scenario(&said));\n}\n"
    )


def _rust_files(api: types.Api, module: bytes) -> Files:
    files = {"main.rs": _rust_main(api).encode(), "judge_harness.rs": harness("harness_rust.rs")}
    return "main.rs", {**files, "solution.rs": module}


_CSHARP = {"int": "int", "long": "long", "float": "double", "bool": "bool", "str": "string"}


def csharp_type(written: types.Type) -> str:
    """The type in C#: T[] for a list, Dictionary<string, T>, T? for a value that may be None."""
    if written.of is not None:
        inner = csharp_type(written.of)
        if written.name == "list":
            return f"{inner}[]"
        if written.name == "dict":
            return f"Dictionary<string, {inner}>"
        return inner if inner == "string" or inner.endswith(("[]", ">")) else f"{inner}?"
    return _CSHARP.get(written.name, "void")


def _csharp_files(api: types.Api, module: bytes) -> Files:
    """(entry, files): the harness (class JudgeHarness, with Main), the student's class beside it."""
    said = f"{api.name}\n{'class' if isinstance(api, types.ClassSignature) else 'function'}\n"
    owner = api.name if isinstance(api, types.ClassSignature) else "Solution"
    files = {"JudgeHarness.cs": harness("harness_csharp.cs"), "function.txt": said.encode()}
    return "JudgeHarness.cs", {**files, f"{owner}.cs": module}


_KOTLIN = {"int": "Int", "long": "Long", "float": "Double", "bool": "Boolean", "str": "String"}


def kotlin_type(written: types.Type) -> str:
    """The type in Kotlin: List<T>, Map<String, T>, T? for a value that may be None."""
    if written.of is not None:
        inner = kotlin_type(written.of)
        return {"list": f"List<{inner}>", "dict": f"Map<String, {inner}>"}.get(written.name, f"{inner}?")
    return _KOTLIN.get(written.name, "Unit")


def _kotlin_files(api: types.Api, module: bytes) -> Files:
    """(entry, files): the harness as Main.kt, the student's file as solution.kt (so its
    top-level functions are class SolutionKt's)."""
    said = f"{api.name}\n{'class' if isinstance(api, types.ClassSignature) else 'function'}\n"
    files = {"Main.kt": harness("harness_kotlin.kt"), "function.txt": said.encode()}
    return "Main.kt", {**files, "solution.kt": module}


# The languages a function can be written in: how each one's program is made.
HARNESSES: dict[str, Callable[[types.Api, bytes], Files]] = {
    "python3": _python_files,
    "pypy3": _python_files,
    "cpp": _cpp_files,
    "cpp20": _cpp_files,
    "java": _java_files,
    "c": _c_files,
    "javascript": _javascript_files,
    "go": _go_files,
    "rust": _rust_files,
    "csharp": _csharp_files,
    "kotlin": _kotlin_files,
}
