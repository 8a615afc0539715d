"""The judge's harness of a Python function: the entry point of a function problem's program in
the sandbox, beside the student's module (solution.py) and the function's or class's name
(function.json).

It reads one call's arguments (a JSON array on stdin), imports the student's module, calls the
function, and writes what came of it as the last line of stdout after a mark: the returned value
as plain JSON, or the exception's type and message. For a class it reads a scenario instead
([["Counter", 5], ["add", 2], ...]): it makes the object, calls each method in turn and writes
each step's outcome, {"steps": [...]}. Everything it needs is taken before the
student's code runs, and the value is serialized here from its exact types, so nothing the
module replaces changes what is written. The expected value is never here: the judge compares
outside the sandbox, so a result the student's code writes itself is only a guess.

Standard library only; written into the box as it is (a copy of this file).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing's import costs more than a call: its names are for the checker only
if TYPE_CHECKING:
    from typing import Any, NoReturn

MARK = "\x1ejudge-result\x1e "
_write, _exit = os.write, os._exit
_int_repr, _float_repr = int.__repr__, float.__repr__
_ESCAPES = {i: f"\\u{i:04x}" for i in range(32)} | {ord('"'): '\\"', ord("\\"): "\\\\"}
_finite = float.__sub__  # x - x is 0.0 for a finite x, nan otherwise


class Unserializable(Exception):
    """A value of no JSON type of the signature's (an object, a set, a nan)."""


def encode(value: Any) -> str:
    """JSON of a value of exact plain types (subclasses refused: they may be anything)."""
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return _int_repr(value)
    if kind is float:
        if _finite(value, value) != 0.0:
            raise Unserializable("float (not finite)")
        return _float_repr(value)
    if kind is str:
        return '"' + str.translate(value, _ESCAPES) + '"'
    if kind is list or kind is tuple:
        return "[" + ",".join([encode(item) for item in value]) + "]"
    if kind is dict:
        parts = []
        for key, item in dict.items(value):
            if type(key) is not str:
                raise Unserializable("dict with a key of type " + type(key).__name__)
            parts.append(encode(key) + ":" + encode(item))
        return "{" + ",".join(parts) + "}"
    raise Unserializable(kind.__name__)


def report(text: str) -> NoReturn:
    """The result line, then the end: nothing the module left behind (threads, atexit) runs after."""
    try:
        sys.stdout.flush()
    except BaseException:
        pass
    # A lone surrogate can only be in a string: written as its JSON escape (\ud800), which the
    # judge reads and refuses as no Unicode text, saying so (raw, it would be no UTF-8).
    _write(1, ("\n" + MARK + text + "\n").encode("utf-8", "backslashreplace"))
    _exit(0)


def outcome(error: BaseException) -> str:
    message = ""
    try:
        message = str(error)[:500].encode("utf-8", "replace").decode("utf-8")  # no lone surrogate
    except BaseException:
        pass
    return '{"raised":' + encode(type(error).__name__) + ',"message":' + encode(message) + "}"


def returned(value: Any) -> str:
    try:
        return '{"returned":' + encode(value) + "}"
    except Unserializable as kind:
        return '{"unserializable":' + encode(str(kind.args[0])) + "}"
    except RecursionError:
        return '{"unserializable":"a value nested too deep"}'


def scenario(made: Any, steps: list[Any]) -> str:
    """Each step in turn on one object, the constructor first; each outcome as it came."""
    said = []
    try:
        self = made(*steps[0][1:])
        said.append('{"returned":null}')
    except BaseException as error:
        return '{"steps":[' + outcome(error) + "]}"  # no object: the scenario ends here
    for step in steps[1:]:
        try:
            value = getattr(self, step[0])(*step[1:])
        except BaseException as error:
            said.append(outcome(error))
            continue
        said.append(returned(value))
    return '{"steps":[' + ",".join(said) + "]}"


def json_reader() -> Any:
    """A JSON reader without importing json (whose import, through re, costs more than a call):
    CPython's own scanner in _json, or json where it is missing (PyPy)."""
    try:
        import _json
    except ImportError:
        import json

        return json.loads

    def constant(name: str) -> NoReturn:
        raise ValueError("not JSON: " + name)

    class Context:
        strict = True
        object_hook = None
        object_pairs_hook = None
        parse_float = float
        parse_int = int
        parse_constant = staticmethod(constant)

    scan = _json.make_scanner(Context())  # type: ignore[arg-type]

    def loads(text: str) -> Any:
        start = len(text) - len(text.lstrip())
        value, end = scan(text, start)
        if text[end:].strip():
            raise ValueError("more after the JSON value")
        return value

    return loads


def load(name: str) -> Any:
    """The student's module from solution.py, without importlib: compiled under its own name,
    so a traceback names its file and line."""
    with open("solution.py", "rb") as source:
        code = compile(source.read(), "solution.py", "exec")
    module = type(sys)(name)
    module.__file__ = "solution.py"
    sys.modules[name] = module
    exec(code, module.__dict__)
    return module


def main() -> None:
    loads = json_reader()
    with open("function.json", encoding="utf-8") as said:
        asked = loads(said.read())
    name = asked["name"]
    arguments = loads(sys.stdin.read())
    sys.stdin = open(os.devnull)  # the call's arguments are its parameters, not its input
    sys.path.insert(0, os.getcwd())
    try:
        module = load("solution")
    except BaseException as error:
        report('{"import":' + outcome(error) + "}")
    function = getattr(module, name, None)
    if not callable(function):
        report('{"missing":' + encode(name) + "}")
    if asked.get("class"):
        report(scenario(function, arguments))
    try:
        value = function(*arguments)
    except BaseException as error:
        report(outcome(error))
    report(returned(value))


if __name__ == "__main__":
    main()
