"""The student's side of a unit-test problem in `mode: apart`: the entry point of the program the
sandbox runs beside the student's modules. It holds the student's objects and does what the
teacher's tests, running in another sandbox, ask of them: import a module, read or set an
attribute, call, compare... one request a line, one reply a line (JSON), on the pipes the judge
laid between the two sandboxes.

Nothing here decides anything: a reply is only what the student's code did (a value, or the
exception it raised, and what it printed). A student who writes a reply of their own on the pipe
says no more than their function could have returned; the assertions, the points and the time
(the kernel's figure for this process, which the judge publishes) are in the other sandbox.

Standard library only; written into the box as it is (a copy of this file), as main.py.
"""

from __future__ import annotations

import builtins
import importlib
import io
import json
import operator
import os
import sys
import traceback
from typing import Any

_CONTAINERS = (list, dict, set)
# What the tests' side may apply to a student's object: the built-ins behind Python's syntax.
_APPLY: dict[str, Any] = {
    "len": len,
    "str": str,
    "repr": repr,
    "bool": bool,
    "hash": hash,
    "iter": iter,
    "next": next,
    "int": int,
    "float": float,
    "index": operator.index,
    "abs": abs,
    "neg": operator.neg,
    "reversed": reversed,
    "isinstance": isinstance,
    "contains": operator.contains,
    "getitem": operator.getitem,
    "setitem": operator.setitem,
    "delitem": operator.delitem,
    **{
        name: getattr(operator, name)
        for name in ("eq ne lt le gt ge add sub mul truediv floordiv mod pow and_ or_ xor matmul".split())
    },
}


class Objects:
    """The student's objects the other side holds a handle of, by number."""

    def __init__(self) -> None:
        self.by_id: dict[int, Any] = {}
        self.ids: dict[int, int] = {}  # id(obj) -> handle

    def handle(self, value: Any) -> int:
        known = self.ids.get(id(value))
        if known is not None and self.by_id[known] is value:
            return known
        number = len(self.by_id) + 1
        self.by_id[number] = value
        self.ids[id(value)] = number
        return number


def encode(value: Any, objects: Objects) -> Any:
    """A value as JSON: plain data by value (exact types), anything else as a handle."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value if value - value == 0 else {"$float": repr(value)}
    if kind is list:
        return [encode(v, objects) for v in value]
    if kind is tuple:
        return {"$tuple": [encode(v, objects) for v in value]}
    if kind is dict:
        return {"$dict": [[encode(k, objects), encode(v, objects)] for k, v in value.items()]}
    if kind in (set, frozenset):
        return {f"${kind.__name__}": [encode(v, objects) for v in value]}
    if kind is bytes:
        return {"$bytes": value.decode("latin-1")}
    if value is NotImplemented or value is Ellipsis:
        return {"$const": repr(value)}
    if isinstance(value, type) and value.__module__ == "builtins":
        return {"$builtin": value.__name__}
    return _reference(value, objects)


def _reference(value: Any, objects: Objects) -> dict[str, Any]:
    found: dict[str, Any] = {"$ref": objects.handle(value), "type": type(value).__name__}
    if isinstance(value, type):
        found["kind"] = "class"
        found["name"] = value.__name__
        found["module"] = value.__module__
        found["exception"] = issubclass(value, BaseException)
        found["bases"] = [encode(base, objects) for base in value.__bases__]
    elif callable(value):
        found["kind"] = "callable"
        found["name"] = getattr(value, "__name__", type(value).__name__)
    elif type(value).__name__ == "module":
        found["kind"] = "module"
    else:
        found["kind"] = "object"
        found["class"] = encode(type(value), objects)
    return found


def decode(value: Any, objects: Objects) -> Any:
    if isinstance(value, list):
        return [decode(v, objects) for v in value]
    if not isinstance(value, dict):
        return value
    ((tag, inner),) = value.items()
    if tag == "$ref":
        return objects.by_id[inner]
    if tag == "$builtin":
        return getattr(builtins, inner)
    if tag == "$float":
        return float(inner)
    if tag == "$const":
        return {"NotImplemented": NotImplemented, "Ellipsis": Ellipsis}[inner]
    if tag == "$bytes":
        return inner.encode("latin-1")
    if tag == "$dict":
        return {decode(k, objects): decode(v, objects) for k, v in inner}
    made = [decode(v, objects) for v in inner]
    return {"$tuple": tuple, "$set": set, "$frozenset": frozenset}[tag](made)


def _raised(err: BaseException, objects: Objects) -> dict[str, Any]:
    frames = traceback.extract_tb(err.__traceback__)[1:]  # the first is this file's own call
    shown = [f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}" for f in frames if f.filename != __file__]
    try:
        message = str(err)
    except Exception:
        message = "(its message could not be made)"
    try:
        args = encode(list(err.args), objects)
        json.dumps(args)
    except Exception:
        args = [message]
    attributes: dict[str, Any] = {}
    for name, value in list(getattr(err, "__dict__", {}).items())[:50]:
        try:
            encoded = encode(value, objects)
            json.dumps(encoded)
        except Exception:
            continue
        attributes[str(name)] = encoded
    return {
        "class": encode(type(err), objects),
        "message": message[:2000],
        "args": args,
        "attributes": attributes,
        "where": shown[-5:],
    }


def perform(request: dict[str, Any], objects: Objects, modules: frozenset[str]) -> Any:
    """The student's code doing what one request asks."""
    op = request["op"]
    if op == "import":
        if request["name"] not in modules:
            raise ImportError(f"no module named {request['name']!r} among the student's")
        return importlib.import_module(request["name"])
    target: Any = objects.by_id[request["ref"]] if "ref" in request else None
    args = decode(request.get("args", []), objects)
    if op == "getattr":
        return getattr(target, request["name"])
    if op == "setattr":
        setattr(target, request["name"], args[0])
        return None
    if op == "names":  # what `from module import *` takes
        return list(getattr(target, "__all__", [n for n in dir(target) if not n.startswith("_")]))
    if op == "delattr":
        delattr(target, request["name"])
        return None
    kwargs = {k: decode(v, objects) for k, v in request.get("kwargs", {}).items()}
    if op == "call":
        result = target(*args, **kwargs)
    elif op == "apply":
        result = _APPLY[request["fn"]](*args)
    else:
        raise ValueError(f"unknown request {op!r}")
    # Lists, dicts and sets passed in come back as they are now: a function that sorts its
    # argument in place has sorted the test's list.
    request["_after"] = [encode(a, objects) if type(a) in _CONTAINERS else None for a in args]
    request["_kwafter"] = {k: encode(v, objects) for k, v in kwargs.items() if type(v) in _CONTAINERS}
    return result


def serve(requests: Any, reply_fd: int, modules: frozenset[str]) -> None:
    objects = Objects()
    real_stdout = sys.stdout
    for line in requests:
        try:
            request = json.loads(line)
        except ValueError:
            return
        printed = io.StringIO()
        sys.stdout = printed
        reply: dict[str, Any]
        try:
            value = perform(request, objects, modules)
            reply = {"ok": encode(value, objects)}
            if "_after" in request:
                reply["after"], reply["kwafter"] = request["_after"], request["_kwafter"]
        except BaseException as err:
            if isinstance(err, KeyboardInterrupt):
                raise
            reply = {"raised": _raised(err, objects)}
        finally:
            sys.stdout = real_stdout
        reply["printed"] = printed.getvalue()[-65536:]
        data = (json.dumps(reply, separators=(",", ":")) + "\n").encode("utf-8", errors="replace")
        while data:
            data = data[os.write(reply_fd, data) :]


def main() -> None:
    # The pipes are the protocol's alone: the student's code reads an empty stdin, and what it
    # writes to file descriptor 1 by itself goes to stderr.
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace")
    reply_fd = os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    serve(requests, reply_fd, frozenset(sys.argv[1:]))


if __name__ == "__main__":
    main()
