"""The program a function problem runs in the sandbox, per family of languages: the family's
harness beside the student's file, and what the harness needs of the signature (pure: files as
bytes, the harness's given). Each family's record (families.py) names its builder, its harness
file and its type map here.

A function's harness makes one call; a class's harness plays a scenario (the constructor, then
each method call in turn) and writes each step's outcome. Either way the result is one marked
line (harness_python.MARK); the judge reads it outside the sandbox.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judge.kinds.functions import types

FUNCTION_FILE = "function.json"  # the function's or class's name, for the Python harness
Files = tuple[str, dict[str, bytes]]  # the entry and every file of the program
# (the signature, the student's module, the family's harness file) -> the program
Build = Callable[[types.Api, bytes, bytes], Files]
Named = Callable[[types.Type], str]  # a signature's type as a language writes it


@lru_cache(maxsize=16)
def harness(name: str) -> bytes:
    return (Path(__file__).parent / name).read_bytes()


@dataclass(frozen=True)
class TypeMap:
    """A language's names of the signature's types: the scalars (int, long, float, bool, str
    in that order), the forms of a list, a dict and a value that may be None around the inner
    type's name, and what a function returning nothing returns."""

    scalars: tuple[str, str, str, str, str]
    listed: str
    keyed: str
    maybe: str
    nothing: str
    nullable: tuple[str, ...] = ()  # endings of names that may hold None already (C#'s string)

    def __call__(self, written: types.Type) -> str:
        if written.of is None:
            return dict(zip(types.SCALARS, self.scalars, strict=True)).get(written.name, self.nothing)
        inner = self(written.of)
        if written.name == "list":
            return self.listed.format(inner)
        if written.name == "dict":
            return self.keyed.format(inner)
        return inner if inner.endswith(self.nullable) else self.maybe.format(inner)


# int and long are both int.
PYTHON_TYPES = TypeMap(("int", "int", "float", "bool", "str"), "list[{}]", "dict[str, {}]", "{} | None", "None")
CPP_TYPES = TypeMap(
    ("int", "long long", "double", "bool", "std::string"),
    "std::vector<{}>",
    "std::map<std::string, {}>",
    "std::optional<{}>",
    "void",
)
GO_TYPES = TypeMap(("int", "int64", "float64", "bool", "string"), "[]{}", "map[string]{}", "*{}", "")
RUST_TYPES = TypeMap(("i32", "i64", "f64", "bool", "String"), "Vec<{}>", "HashMap<String, {}>", "Option<{}>", "()")
CSHARP_TYPES = TypeMap(
    ("int", "long", "double", "bool", "string"),
    "{}[]",
    "Dictionary<string, {}>",
    "{}?",
    "void",
    nullable=("string", "[]", ">"),
)
KOTLIN_TYPES = TypeMap(("Int", "Long", "Double", "Boolean", "String"), "List<{}>", "Map<String, {}>", "{}?", "Unit")
JAVASCRIPT_TYPES: Named = str  # no types of its own: the signature's, in a comment


def said(api: types.Api) -> bytes:
    """What a harness that finds the student's code by reflection reads: the name, and whether
    it is a class or a function."""
    return f"{api.name}\n{'class' if isinstance(api, types.ClassSignature) else 'function'}\n".encode()


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


def _arguments(params: tuple[types.Param, ...]) -> str:
    """The arguments of a call, as the reads before it name them: a0, a1, ..."""
    return ", ".join(f"a{i}" for i in range(len(params)))


def _cpp_reads(params: tuple[types.Param, ...], source: str, first: int, indent: str) -> str:
    return "".join(
        f"{indent}auto a{i} = judge_harness::As<{CPP_TYPES(p.type)}>::from({source}.items[{i + first}]);\n"
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
    arguments = _arguments(signature.params)
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
    made = _arguments(api.constructor)
    branches = [
        "            if (i == 0) {\n"
        + _cpp_reads(api.constructor, "step", 1, "                ")
        + f"                self = std::make_unique<{api.name}>({made});\n"
        + '                got = "{\\"returned\\":null}";\n            }'
    ]
    for method in api.methods:
        arguments = _arguments(method.params)
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


def cpp_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    """(entry, files): main.cpp made from the signature, the harness's header, the student's
    file as a header it includes (so it is compiled once, with main.cpp)."""
    main = _cpp_class_main(api) if isinstance(api, types.ClassSignature) else _cpp_main(api)
    files = {"main.cpp": main.encode(), "harness.hpp": harness}
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


def c_type(written: types.Type) -> str:
    """The type in C: a scalar's (long long, double, const char *), a list's a pointer to its
    items (its length goes beside it); void for nothing."""
    if written.name == "list" and written.of is not None:
        return c_type(written.of).removeprefix("const ") + " *"
    return _C[written.name][0] if written.name in _C else "void"


def c_declaration(signature: types.Signature) -> str:
    """The C prototype a student writes: `long long max_sum(const int *xs, int xs_len)`."""
    params = []
    for p in signature.params:
        if p.type.name == "list":
            params.append(f"const {c_type(p.type)}{p.name}, int {p.name}_len")
        else:
            params.append(f"{c_type(p.type)} {p.name}".replace("* ", "*"))
    if signature.returns.name == "list":
        params.append("int *return_len")
    result = c_type(signature.returns).removeprefix("const ") + " "
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


def c_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    assert isinstance(api, types.Signature)  # compile_check refuses a class in C first
    files = {"main.c": _c_main(api).encode(), "harness.h": harness}
    return "main.c", {**files, "solution.h": module}


def python_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    """(entry, files): the harness as the entry, the student's module as solution.py."""
    named = json.dumps({"name": api.name, "class": isinstance(api, types.ClassSignature)}).encode()
    return "harness.py", {"harness.py": harness, "solution.py": module, FUNCTION_FILE: named}


# One line, so the student's line numbers stay theirs: the writer, the exit, the reader and
# the JSON functions, taken before the student's code can replace them.
_JS_FIRST = (
    'const {writeSync: __judgeWrite, readFileSync: __judgeRead} = require("fs"), '
    "__judgeExit = process.exit.bind(process), __judgeParse = JSON.parse, __judgeJson = JSON.stringify; "
)


def javascript_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    """(entry, files): one main.js, the student's code between the harness's first line and its
    end, so `node --check` finds a syntax error in it (a CE, at its own line)."""
    rest = harness.decode("utf-8").replace("__JUDGE_FUNCTION__", api.name)
    rest = rest.replace("__JUDGE_CLASS__", "true" if isinstance(api, types.ClassSignature) else "false")
    return "main.js", {"main.js": _JS_FIRST.encode() + module + b"\n" + rest.encode()}


def java_file(api: types.Api) -> str:
    """The file a Java student's class goes in: Solution.java, or the class problem's own."""
    return f"{api.name}.java" if isinstance(api, types.ClassSignature) else "Solution.java"


def java_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    """(entry, files): the harness as class Main, the student's class in its own file."""
    files = {"Main.java": harness, "function.txt": said(api)}
    return "Main.java", {**files, java_file(api): module}


def go_constructor(api: types.ClassSignature) -> str:
    """A Go class is a struct made by New<Name>, which returns a pointer to it."""
    return f"New{api.name[:1].upper()}{api.name[1:]}"


def _go_reads(params: tuple[types.Param, ...], source: str, first: int) -> str:
    return "".join(
        f"\t\tvar a{i} {GO_TYPES(p.type)}\n\t\tjudgeRead({source}[{i + first}], &a{i})\n" for i, p in enumerate(params)
    )


def _go_call(called: str, returns: types.Type) -> str:
    if returns.name == "none":
        return f'\t\t{called}\n\t\treturn `{{"returned":null}}`\n'
    return f"\t\treturn judgeReturned({called})\n"


def _go_main(api: types.Api) -> str:
    """main.go: each argument read as its Go type, the call (or each step), what came of it."""
    if isinstance(api, types.Signature):
        arguments = _arguments(api.params)
        return (
            "package main\n\nfunc main() {\n\tcall := judgeArguments()\n\t_ = call\n"
            "\tjudgeReport(judgeCall(func() string {\n"
            + _go_reads(api.params, "call", 0)
            + _go_call(f"{api.name}({arguments})", api.returns)
            + "\t}))\n}\n"
        )
    made = _arguments(api.constructor)
    cases = "".join(
        f'\t\tcase "{m.name}":\n'
        + _go_reads(m.params, "step", 1)
        + _go_call(f"self.{m.name}({_arguments(m.params)})", m.returns)
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


def go_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    """(entry, files): main.go made from the signature, the harness's helpers, the student's file."""
    files = {"main.go": _go_main(api).encode(), "judge_harness.go": harness}
    return "main.go", {**files, "solution.go": module}


def _rust_reads(params: tuple[types.Param, ...], source: str, first: int, indent: str) -> str:
    return "".join(
        f"{indent}let a{i} = <{RUST_TYPES(p.type).replace('HashMap', 'std::collections::HashMap')}"
        f" as judge_harness::FromJudge>::from_judge(&{source}.items()[{i + first}]);\n"
        for i, p in enumerate(params)
    )


def _rust_main(api: types.Api) -> str:
    """main.rs: the harness as a module, the student's file included at the crate root, and the
    call (or each step of the scenario) made with Rust's own types."""
    head = 'mod judge_harness;\ninclude!("solution.rs");\n\nfn main() {\n'
    if isinstance(api, types.Signature):
        arguments = _arguments(api.params)
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
        + f"                    judge_harness::returned(&me.{m.name}({_arguments(m.params)}))\n"
        "                }\n"
        for m in api.methods
    )
    made = _arguments(api.constructor)
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


def rust_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    files = {"main.rs": _rust_main(api).encode(), "judge_harness.rs": harness}
    return "main.rs", {**files, "solution.rs": module}


def csharp_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    """(entry, files): the harness (class JudgeHarness, with Main), the student's class beside it."""
    owner = api.name if isinstance(api, types.ClassSignature) else "Solution"
    files = {"JudgeHarness.cs": harness, "function.txt": said(api)}
    return "JudgeHarness.cs", {**files, f"{owner}.cs": module}


def kotlin_files(api: types.Api, module: bytes, harness: bytes) -> Files:
    """(entry, files): the harness as Main.kt, the student's file as solution.kt (so its
    top-level functions are class SolutionKt's)."""
    files = {"Main.kt": harness, "function.txt": said(api)}
    return "Main.kt", {**files, "solution.kt": module}
