"""The function kind: a student writes a function of a typed signature, and each case is one call.

The program the sandbox runs is the language's harness (harness_python.py) beside the student's
module: it reads the call's arguments, calls the function and writes what came of it after a
mark, as the last line of its output. The judge reads that line outside the sandbox, checks the
value against the signature's return type and compares it with the answer there: the expected
value never enters the box. Languages: Python (python3, pypy3), C++ (cpp, cpp20), Java, C and JavaScript for now.
"""

from __future__ import annotations

import ast
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from judge.errors import JudgeError
from judge.problem.kinds.base import CaseRun, Kind, Starter, run_on_stdin
from judge.problem.kinds.functions import types, values
from judge.run import languages, sandbox
from judge.run.checkers import CheckResult
from judge.run.sources import Sources
from judge.run.verdicts import CaseVerdict, Verdict, judge_run

if TYPE_CHECKING:
    from judge.problem.spec import Problem

MARK = b"\x1ejudge-result\x1e "  # harness_python.MARK: what starts the result line
FUNCTION_FILE = "function.json"  # the function's name, for the Python harness
_CPP = {"int": "int", "long": "long long", "float": "double", "bool": "bool", "str": "std::string"}


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


def _cpp_main(signature: types.Signature) -> str:
    """main.cpp of a C++ function: each argument read as its type, the call, what came of it."""
    reads = "".join(
        f"    auto a{i} = judge_harness::As<{cpp_type(p.type)}>::from(call.items[{i}]);\n"
        for i, p in enumerate(signature.params)
    )
    arguments = ", ".join(f"a{i}" for i in range(len(signature.params)))
    if signature.returns.name == "none":
        called = f'        {signature.name}({arguments});\n        judge_harness::report("{{\\"returned\\":null}}");\n'
    else:
        called = (
            f"        auto value = {signature.name}({arguments});\n"
            "        std::string text;\n"
            "        try { text = judge_harness::dump(value); }\n"
            "        catch (const judge_harness::Unserializable &u) {\n"
            '            judge_harness::report("{\\"unserializable\\":" + judge_harness::quote(u.what) + "}");\n'
            "        }\n"
            '        judge_harness::report("{\\"returned\\":" + text + "}");\n'
        )
    return (
        '#include "harness.hpp"\n#include "solution.hpp"\n\nint main() {\n'
        "    judge_harness::Value call = judge_harness::arguments();\n"
        + reads
        + "    try {\n"
        + called
        + "    } catch (const std::exception &error) {\n"
        "        judge_harness::report(judge_harness::raised(judge_harness::type_name(typeid(error)), error.what()));\n"
        "    } catch (...) {\n"
        '        judge_harness::report(judge_harness::raised("an exception of no std::exception type", ""));\n'
        "    }\n}\n"
    )


# C: a scalar's type, its reader and its writer's name; a list is a pointer and its length.
_C = {
    "int": ("int", "jh_int", "int"),
    "long": ("long long", "jh_long", "long"),
    "float": ("double", "jh_double", "double"),
    "bool": ("bool", "jh_bool", "bool"),
    "str": ("const char *", "jh_str", "str"),
}


def c_unoffered(signature: types.Signature) -> str:
    """Why C cannot hold this function ("" when it can): C has scalars and lists of them."""
    for written in [p.type for p in signature.params] + [signature.returns]:
        plain = written.of if written.name == "list" else written
        if plain is None or (plain.name not in _C and not (written is signature.returns and plain.name == "none")):
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


def _c_files(signature: types.Signature, module: bytes) -> tuple[str, dict[str, bytes]]:
    files = {"main.c": _c_main(signature).encode(), "harness.h": _harness("harness_c.h")}
    return "main.c", {**files, "solution.h": module}


def _python_files(signature: types.Signature, module: bytes) -> tuple[str, dict[str, bytes]]:
    """(entry, files): the harness as the entry, the student's module as solution.py."""
    name = json.dumps({"name": signature.name}).encode()
    return "harness.py", {"harness.py": _harness("harness_python.py"), "solution.py": module, FUNCTION_FILE: name}


def _cpp_files(signature: types.Signature, module: bytes) -> tuple[str, dict[str, bytes]]:
    """(entry, files): main.cpp made from the signature, the harness's header, the student's
    file as a header it includes (so it is compiled once, with main.cpp)."""
    files = {"main.cpp": _cpp_main(signature).encode(), "harness.hpp": _harness("harness_cpp.hpp")}
    return "main.cpp", {**files, "solution.hpp": module}


# One line, so the student's line numbers stay theirs: the writer, the exit, the reader and
# the JSON functions, taken before the student's code can replace them.
_JS_FIRST = (
    'const {writeSync: __judgeWrite, readFileSync: __judgeRead} = require("fs"), '
    "__judgeExit = process.exit.bind(process), __judgeParse = JSON.parse, __judgeJson = JSON.stringify; "
)


def _javascript_files(signature: types.Signature, module: bytes) -> tuple[str, dict[str, bytes]]:
    """(entry, files): one main.js, the student's code between the harness's first line and its
    end, so `node --check` finds a syntax error in it (a CE, at its own line)."""
    rest = _harness("harness_javascript.js").decode("utf-8").replace("__JUDGE_FUNCTION__", signature.name)
    return "main.js", {"main.js": _JS_FIRST.encode() + module + b"\n" + rest.encode()}


def _java_files(signature: types.Signature, module: bytes) -> tuple[str, dict[str, bytes]]:
    """(entry, files): the harness as class Main, the student's class Solution in its own file."""
    files = {"Main.java": _harness("harness_java.java"), "function.txt": signature.name.encode()}
    return "Main.java", {**files, "Solution.java": module}


# The languages a function can be written in: how each one's program is made.
HARNESSES = {
    "python3": _python_files,
    "pypy3": _python_files,
    "cpp": _cpp_files,
    "cpp20": _cpp_files,
    "java": _java_files,
    "c": _c_files,
    "javascript": _javascript_files,
}
_JAVA_CLASS = re.compile(rb"\bclass\s+Solution\b")


@lru_cache(maxsize=4)
def _harness(name: str) -> bytes:
    return (Path(__file__).parent / name).read_bytes()


@lru_cache(maxsize=64)
def signature_of(text: str) -> types.Signature:
    return types.parse(text)


def _signature(problem: Problem) -> types.Signature:
    assert problem.spec.signature is not None  # the spec's loader requires it of this kind
    return signature_of(problem.spec.signature)


def rule_of(problem: Problem) -> values.Tolerance:
    """How the problem compares values: exactly (value), a tolerance (float), in any order (unordered)."""
    checker = problem.spec.checker
    if checker.type == "float":
        return values.Tolerance(checker.abs_tol, checker.rel_tol)
    return values.Tolerance(unordered=checker.type == "unordered")


def result_of(output: bytes) -> dict[str, object] | None:
    """The harness's result (the last marked line), or None when the program wrote none."""
    at = output.rfind(MARK)
    if at < 0:
        return None
    try:
        found = json.loads(output[at + len(MARK) :].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return found if type(found) is dict else None


def decide(
    problem: Problem, result: dict[str, object] | None, answer: object
) -> tuple[CaseVerdict, CheckResult | None]:
    """The verdict of one call from what the harness said and the answer (pure)."""
    signature = _signature(problem)
    expected_raise = values.raised(answer)
    if result is None:
        return CaseVerdict(
            Verdict.WA, f"{signature.name} returned nothing (the program ended before it returned)"
        ), None
    if "missing" in result:
        return CaseVerdict(Verdict.RE, f"no function {signature.name} in the module"), None
    if "import" in result:
        said = result["import"]
        kind = said.get("raised", "") if isinstance(said, dict) else ""
        return CaseVerdict(Verdict.RE, f"the module raised {kind} when imported"), None
    if "unserializable" in result:
        returns = signature.returns
        return CaseVerdict(Verdict.WA, f"returned a value of type {result['unserializable']}, expected {returns}"), None
    if "raised" in result:
        if expected_raise is not None:
            return CaseVerdict(Verdict.AC, ""), CheckResult(True, "")
        message = str(result.get("message", ""))
        return CaseVerdict(Verdict.RE, f"raised {result['raised']}" + (f": {message}" if message else "")), None
    if "returned" not in result:
        return CaseVerdict(Verdict.WA, f"{signature.name} returned nothing"), None
    returned = result["returned"]
    if expected_raise is not None:
        return CaseVerdict(
            Verdict.WA, f"returned {values.quote(returned)}, expected an exception ({expected_raise})"
        ), None
    wrong_type = types.issue(returned, signature.returns)
    if wrong_type:
        return CaseVerdict(Verdict.WA, f"returned {types.kind_of(returned)}: {wrong_type}"), None
    check = values.compare(returned, answer, rule_of(problem))
    return (CaseVerdict(Verdict.AC, "") if check.accepted else CaseVerdict(Verdict.WA, check.message)), check


def _answer(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise JudgeError(f"{path}: not a JSON answer ({err})") from None


class Functions(Kind):
    name = "functions"
    solves = True
    explains = False  # not yet: explain's search compares printed outputs, not calls

    def program(self, problem: Problem, sources: Sources) -> Sources:
        """The harness as the entry, the student's module as solution.py, and the function's name."""
        made = HARNESSES.get(sources.language.id)
        if made is None:
            return sources  # compile_check says why it cannot be judged
        own = dict(sources.files)
        module = own.pop(sources.main or sources.files[0][0])
        entry, files = made(_signature(problem), module)
        return Sources(
            sources.path, sources.language, tuple(sorted({**own, **files}.items())), entry, "Main", single=False
        )

    def compile_check(self, problem: Problem, sources: Sources) -> str:
        """A language without a harness, or a module with no such function: a CE, before any case."""
        signature = _signature(problem)
        if sources.language.id not in HARNESSES:
            offered = ", ".join(HARNESSES)
            return f"function problems take {offered} for now; {sources.language.name} is not offered yet"
        module = dict(sources.files).get(sources.main or sources.files[0][0], b"")
        if sources.language.id == "java":
            if not _JAVA_CLASS.search(module):
                return f"no class Solution in {sources.path.name} (the method {signature.name} is one of its own)"
            if not re.search(rb"\b" + re.escape(signature.name.encode()) + rb"\s*\(", module):
                return f"no method {signature.name} in class Solution ({sources.path.name})"
            return ""
        if sources.language.id == "c":
            return c_unoffered(signature)  # the compiler names a missing function itself
        if sources.language.id == "javascript" and not re.search(
            rb"\b" + re.escape(signature.name.encode()) + rb"\b", module
        ):
            return f"no function {signature.name} in {sources.path.name}"
        if sources.language.id not in ("python3", "pypy3"):
            return ""
        try:
            tree = ast.parse(module)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return ""  # the compiler says what is wrong, where
        if not any(_binds(node, signature.name) for node in tree.body):
            params = ", ".join(p.name for p in signature.params)
            return f"no function {signature.name}({params}) in {sources.path.name}"
        return ""

    def input_issues(self, problem: Problem, text: str) -> list[str]:
        try:
            arguments = json.loads(text)
        except ValueError as err:
            return [f"not a JSON array of arguments ({err})"]
        found = types.arguments_issue(_signature(problem), arguments)
        return [found] if found else []

    def answer_text(self, output: str, label: str) -> str:
        result = result_of(output.encode("utf-8"))
        if result is not None and "returned" in result:
            return values.canonical(result["returned"]) + "\n"
        if result is not None and "raised" in result:
            return values.canonical({values.RAISED: result["raised"]}) + "\n"
        said = "nothing" if result is None else next(iter(result), "nothing")
        raise JudgeError(f"{label}: the reference's function gave no value ({said})")

    def judge_case(
        self,
        problem: Problem,
        argv: tuple[str, ...],
        where: Path,
        case: tuple[Path, Path],
        limits: sandbox.RunLimits,
        runner: sandbox.CaseRunner | None = None,
        stop: sandbox.Stop | None = None,
    ) -> CaseRun:
        run = run_on_stdin(argv, where, case[0], limits, runner, stop)
        if isinstance(run, CaseRun):
            return run
        memory_limit_kib = limits.memory_mib * 1024
        if run.exit_code != 0 or run.limit_hit is not None or run.memory_kib >= memory_limit_kib:
            decided = judge_run(run, memory_limit_kib, None, languages.memory_marks())
            # Where the reference raised, a program that ended in failure of its own (an abort,
            # a nonzero exit: C's only way) did not return either; a limit is still its verdict.
            if decided.verdict is Verdict.RE and values.raised(_answer(case[1])) is not None:
                decided = CaseVerdict(Verdict.AC, "")
            return CaseRun(run, decided)
        decided, check = decide(problem, result_of(run.stdout), _answer(case[1]))
        return CaseRun(run, decided, check, own_output=False)

    def check_answer(self, problem: Problem, case: tuple[Path, Path], output: bytes) -> CheckResult:
        decided, _ = decide(problem, result_of(output), _answer(case[1]))
        return CheckResult(decided.verdict is Verdict.AC, decided.message)

    def starter_file(self, problem: Problem, language: str) -> tuple[str, str]:
        """(file name, text) of what a student starts from: the signature, an empty body."""
        if language not in HARNESSES:
            raise JudgeError(f"{language!r}: function problems take {', '.join(HARNESSES)} for now")
        signature = _signature(problem)
        if language == "java":
            params = ", ".join(f"{java_type(p.type)} {p.name}" for p in signature.params)
            text = (
                f"// {problem.spec.title}: see the statement.\nimport java.util.*;\n\npublic class Solution {{\n"
                f"    public {java_type(signature.returns)} {signature.name}({params}) {{\n"
                '        throw new UnsupportedOperationException("not written yet");\n    }\n}\n'
            )
            return "Solution.java", text
        if language == "javascript":
            params = ", ".join(p.name for p in signature.params)
            types_said = ", ".join(f"{p.name}: {p.type}" for p in signature.params)
            text = (
                f"// {problem.spec.title}: see the statement. {signature.name}({types_said}) -> {signature.returns}\n"
                f'function {signature.name}({params}) {{\n    throw new Error("not written yet");\n}}\n'
            )
            return f"{signature.name}.js", text
        if language == "c":
            unoffered = c_unoffered(signature)
            if unoffered:
                raise JudgeError(f"{problem.spec_path}: {unoffered}")
            text = (
                f"/* {problem.spec.title}: see the statement. */\n#include <stdbool.h>\n#include <stdlib.h>\n\n"
                f"{c_declaration(signature)} {{\n    abort(); /* not written yet */\n}}\n"
            )
            return f"{signature.name}.c", text
        if language.startswith("cpp"):
            params = ", ".join(f"{cpp_type(p.type)} {p.name}" for p in signature.params)
            text = (
                f"// {problem.spec.title}: see the statement.\n#include <bits/stdc++.h>\n\n"
                f"{cpp_type(signature.returns)} {signature.name}({params}) {{\n"
                '    throw std::logic_error("not written yet");\n}\n'
            )
            return f"{signature.name}.cpp", text
        params = ", ".join(f"{p.name}: {types.python(p.type)}" for p in signature.params)
        text = (
            f"def {signature.name}({params}) -> {types.python(signature.returns)}:\n"
            f'    """{problem.spec.title}: see the statement."""\n'
            "    raise NotImplementedError\n"
        )
        return f"{signature.name}.py", text

    def starter(self, own: str, other: str) -> Starter:
        return Starter(
            "Largest Sum of a Part, as a Function",
            (
                ("functions/problem.yaml.j2", "problem.yaml"),
                ("functions/statement.md.j2", "statement.md"),
                ("functions/gen.py.j2", "generators/gen.py"),
                ("functions/validate.py.j2", "validators/validate.py"),
                ("functions/ref.py.j2", "solutions/accepted/max_sum.py"),
                ("functions/wrong.py.j2", "solutions/wrong_answer/off_by_one.py"),
                ("functions/raises.py.j2", "solutions/run_time_error/raises.py"),
            ),
        )


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
