"""The student's side of a unit-test problem in `mode: apart`: the entry point of the program the
sandbox runs beside the student's modules. It holds the student's objects and does what the
teacher's tests, running in another sandbox, ask of them: import a module, read or set an
attribute, call, compare... one request a line, one reply a line (JSON), on the pipes the judge
laid between the two sandboxes.

Nothing here decides anything: a reply is only what the student's code did (a value, or the
exception it raised, and what it printed). A student who writes a reply of their own on the pipe
says no more than their function could have returned; the assertions, the points and the time
(the kernel's figure for this process, which the judge publishes) are in the other sandbox.

Run with `--guarded` first, the module is the teacher's (a reference or a bug, under a
student's own tests: kind tests): then the other side is the student's, and every request is
hostile. A Guard answers only the module's own public names, hands over as handles only the
module's own functions, classes, their objects and bound methods, and refuses every dunder or
private name, so nothing reaches the module's globals, `__builtins__` or `open`; nothing it
hands over carries an address of this process (docs/tests.md).

Standard library only; written into the box as it is (a copy of this file), as main.py.
"""

from __future__ import annotations

import ast
import builtins
import gc
import importlib
import io
import json
import operator
import os
import random
import re
import sys
import traceback
import types
from typing import Any

GUARDED = "--guarded"
# Guarded, written once the module side is ready: the tests' process is started only then, by
# the judge, which takes these bytes off the pipe (judge/run/exchange.py, Gate).
GATE = b"%judge-gate%\n"

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


# What a student's test may name as a built-in when the module is the teacher's: plain types
# and exceptions, never a function (`eval`, `open`) the teacher's code could be made to call.
_SAFE_BUILTINS = frozenset("int float str bool list tuple dict set frozenset bytes bytearray object".split())
# Iterators of plain data a guarded side may hand over (`iter(obj)`): none has a public attribute.
_PLAIN_ITERABLES: tuple[Any, ...] = ([], (), "", {}, set(), range(0), {}.items(), {}.values())
_ITERATORS: frozenset[type] = frozenset({type(reversed([])), *(type(iter(each)) for each in _PLAIN_ITERABLES)})


# An address CPython writes into a default repr (`<function push at 0x7f…>`, `<stack.Stack object
# at 0x…>`, a generator's, an iterator's): its low bits are the same in every run of one module
# and differ on another, so a guarded side's string never carries one (docs/tests.md).
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def unaddressed(text: str) -> str:
    return ADDRESS.sub("", text)


def identity_hash(value: Any, objects: Objects) -> int:
    """hash() of a module's object, guarded: a hash of the object's own (__hash__ of its class) is
    behaviour; one by identity (object's, a function's, a generator's, a bound method's) would be
    its address, so it is the object's handle number, the same on every run for the same uses."""
    if isinstance(value, types.MethodType):
        return identity_hash(value.__self__, objects) ^ identity_hash(value.__func__, objects)
    if objects.guard is not None and not objects.guard.allowed(value):
        raise TypeError("hash() is asked here only of the module's own objects")
    hashing: Any = type(value).__hash__
    if hashing is object.__hash__:
        return objects.handle(value)
    return hash(value)


def own_names(module: types.ModuleType) -> frozenset[str]:
    """The public names the module itself defines, as it is loaded: no dunder, no private name,
    nothing imported into it (an import statement's name, a module, a function or class of
    another module)."""
    imported: set[str] = set()
    try:
        with open(str(module.__file__), encoding="utf-8") as source:
            tree = ast.parse(source.read())
    except (OSError, SyntaxError, ValueError, TypeError):
        tree = ast.Module(body=[], type_ignores=[])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    found = set()
    for name, value in vars(module).items():
        if name.startswith("_") or name in imported or isinstance(value, types.ModuleType):
            continue
        home = getattr(value, "__module__", None) if isinstance(value, type) or callable(value) else module.__name__
        if home == module.__name__:
            found.add(name)
    return frozenset(found)


class Guard:
    """What the other side may reach of the teacher's modules: their own public names, and as
    handles only their own functions, classes, objects, bound methods and plain iterators."""

    def __init__(self, modules: frozenset[str], offered: dict[str, frozenset[str]] | None = None) -> None:
        self.modules = modules
        self.own: dict[str, frozenset[str]] = {}
        # Each module's names as the reference defines them (kind tests): the same list for
        # every bug, so a bug's own extra name does not tell it apart; one it lacks is missing.
        self.offered = offered or {}
        # Each module imported before the first request (`preload`): what it printed, and its
        # error. A test's `import` then costs no module's import time: timed, it would tell a
        # bug whose imports or top-level work take longer from the reference (a fifth review).
        self.preloaded: dict[str, tuple[types.ModuleType | None, BaseException | None, str]] = {}

    def preload(self) -> None:
        """Import every module now, each once, its output and error kept for its request."""
        real_stdout = sys.stdout
        for name in sorted(self.modules):
            printed = io.StringIO()
            sys.stdout = printed
            try:
                self.preloaded[name] = (self.load_now(name), None, printed.getvalue())
            except BaseException as err:  # as a request's import would have raised it
                if isinstance(err, KeyboardInterrupt):
                    raise
                self.preloaded[name] = (None, err, printed.getvalue())
            finally:
                sys.stdout = real_stdout

    def load(self, name: str) -> types.ModuleType:
        if name not in self.preloaded:
            return self.load_now(name)
        module, error, printed = self.preloaded[name]
        self.preloaded[name] = (module, error, "")
        print(printed, end="")  # into the request's reply, as an import's own output went
        if error is not None:
            raise error
        assert module is not None
        return module

    def load_now(self, name: str) -> types.ModuleType:
        module = importlib.import_module(name)
        own = own_names(module)
        self.own.setdefault(name, own & self.offered[name] if name in self.offered else own)
        return module

    def listed(self, name: str) -> list[str]:
        """What `from module import *` takes: the reference's names, else the module's own."""
        return sorted(self.offered.get(name, self.own.get(name, ())))

    def allowed(self, value: Any) -> bool:
        if isinstance(value, types.ModuleType):
            return value.__name__ in self.own and sys.modules.get(value.__name__) is value
        if isinstance(value, types.MethodType):
            return self.allowed(value.__func__) and self.allowed(value.__self__)
        if isinstance(value, types.FunctionType):
            return value.__module__ in self.own and value.__globals__ is vars(sys.modules[value.__module__])
        if isinstance(value, type):
            return self.is_own_class(value)
        if type(value) in _ITERATORS or isinstance(value, types.GeneratorType):
            return True
        return self.is_own_class(type(value))

    def is_own_class(self, value: Any) -> bool:
        return isinstance(value, type) and value.__module__ in self.own

    def attribute(self, target: Any, name: str) -> Any:
        """getattr, for a public name only; of a module, only one it defines."""
        if isinstance(target, types.ModuleType):
            if name not in self.own.get(target.__name__, frozenset()):
                raise AttributeError(f"module {target.__name__!r} has no public name {name!r}")
        elif name.startswith("_"):
            raise AttributeError(f"{name!r}: a private or special name is not reachable")
        return getattr(target, name)

    def settable(self, target: Any, name: str) -> None:
        if isinstance(target, types.ModuleType) or name.startswith("_"):
            raise AttributeError(f"{name!r} cannot be set or deleted here")

    def builtin(self, name: str) -> Any:
        found = getattr(builtins, name, None)
        if name in _SAFE_BUILTINS or (isinstance(found, type) and issubclass(found, BaseException)):
            return found
        raise TypeError(f"{name!r} is not a plain built-in type")


class Objects:
    """The student's objects the other side holds a handle of, by number."""

    def __init__(self, guard: Guard | None = None) -> None:
        self.by_id: dict[int, Any] = {}
        self.ids: dict[int, int] = {}  # id(obj) -> handle
        self.guard = guard

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
    if kind is str and objects.guard is not None:
        return unaddressed(value)
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
        items = list(value) if objects.guard is None else set_order(value, objects)
        return {f"${kind.__name__}": [encode(v, objects) for v in items]}
    if kind is bytes:
        return {"$bytes": value.decode("latin-1")}
    if value is NotImplemented or value is Ellipsis:
        return {"$const": repr(value)}
    if isinstance(value, type) and value.__module__ == "builtins":
        return {"$builtin": value.__name__}
    guard = objects.guard
    if guard is not None and not guard.allowed(value):
        if isinstance(value, type):  # a class of another module (an exception): its built-in base
            return {"$builtin": next(c for c in value.__mro__ if c.__module__ == "builtins").__name__}
        raise TypeError(f"a {type(value).__name__} is not a value of the module's that can be handed over")
    return _reference(value, objects)


def set_order(value: set[Any] | frozenset[Any], objects: Objects) -> list[Any]:
    """A set's elements in an order that says nothing of the module process's addresses (a
    set of objects hashed by identity iterates by address, which differs between a bug's run
    and the reference's): plain values as the set holds them, objects already handed over by
    their handle's number, new ones and tuples holding objects in a random order (so neither
    their order nor their handles' numbers carry any)."""
    plain, known, new = [], [], []
    for item in value:
        number = objects.ids.get(id(item))
        if plain_data(item, 0):
            plain.append(item)
        elif number is not None and objects.by_id.get(number) is item:
            known.append((number, item))
        else:
            new.append(item)
    random.SystemRandom().shuffle(new)
    return plain + [item for _, item in sorted(known, key=lambda pair: pair[0])] + new


def plain_data(item: Any, depth: int) -> bool:
    """Whether `item` hashes by its value alone: None, a number, a string, bytes, or a tuple or
    frozenset of such. A tuple holding an object hashes by that object's address (an eighth
    review ordered a set of (1, object) pairs by the module's memory layout): such an element
    is ordered as a new object is, at random."""
    if item is None or type(item) in (bool, int, float, str, bytes):
        return True
    if type(item) in (tuple, frozenset) and depth < 20:
        return all(plain_data(inner, depth + 1) for inner in item)
    return False


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
        return objects.guard.builtin(inner) if objects.guard is not None else getattr(builtins, inner)
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
    if objects.guard is not None:
        message = unaddressed(message)
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
        # The teacher's module's lines are not the student's to see.
        "where": shown[-5:] if objects.guard is None else [],
    }


def perform(request: dict[str, Any], objects: Objects, modules: frozenset[str]) -> Any:
    """The student's code doing what one request asks."""
    op = request["op"]
    guard = objects.guard
    if op == "import":
        if request["name"] not in modules:
            raise ImportError(f"no module named {request['name']!r} among the student's")
        return importlib.import_module(request["name"]) if guard is None else guard.load(request["name"])
    target: Any = objects.by_id[request["ref"]] if "ref" in request else None
    args = decode(request.get("args", []), objects)
    if op == "getattr":
        return getattr(target, request["name"]) if guard is None else guard.attribute(target, str(request["name"]))
    if op in ("setattr", "delattr") and guard is not None:
        guard.settable(target, str(request["name"]))
    if op == "setattr":
        setattr(target, request["name"], args[0])
        return None
    if op == "names":  # what `from module import *` takes
        if guard is not None:
            return guard.listed(getattr(target, "__name__", ""))
        return list(getattr(target, "__all__", [n for n in dir(target) if not n.startswith("_")]))
    if op == "delattr":
        delattr(target, request["name"])
        return None
    kwargs = {k: decode(v, objects) for k, v in request.get("kwargs", {}).items()}
    if op == "call":
        result = target(*args, **kwargs)
    elif op == "apply" and request["fn"] == "hash" and guard is not None:
        result = identity_hash(args[0], objects)
    elif op == "apply":
        result = _APPLY[request["fn"]](*args)
    else:
        raise ValueError(f"unknown request {op!r}")
    # Lists, dicts and sets passed in come back as they are now: a function that sorts its
    # argument in place has sorted the test's list.
    request["_after"] = [encode(a, objects) if type(a) in _CONTAINERS else None for a in args]
    request["_kwafter"] = {k: encode(v, objects) for k, v in kwargs.items() if type(v) in _CONTAINERS}
    return result


def serve(
    requests: Any,
    reply_fd: int,
    modules: frozenset[str],
    guarded: bool = False,
    offered: dict[str, frozenset[str]] | None = None,
) -> None:
    objects = Objects(Guard(modules, offered) if guarded else None)
    if objects.guard is not None:
        objects.guard.preload()
        # What the imports left (a bug's extra module is thousands of objects) is set aside
        # for good, and the collector starts from nothing: else the calls at which it runs, and
        # so which are slow, told a bug from the reference (a sixth review).
        gc.collect()
        gc.freeze()
        gc.collect()
        # Only now do the tests start: how long the imports took is not theirs to time (the
        # start gate; a bug's slow import was caught by the tests' own clocks before).
        os.write(reply_fd, GATE)
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
        if guarded:
            reply["printed"] = unaddressed(reply["printed"])
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
    guarded = sys.argv[1:2] == [GUARDED]
    # A module given as NAME=a,b (guarded): the names of it the other side may reach.
    given = [arg.partition("=") for arg in (sys.argv[2:] if guarded else sys.argv[1:])]
    offered = {name: frozenset(filter(None, names.split(","))) for name, has, names in given if has}
    serve(requests, reply_fd, frozenset(name for name, _, _ in given), guarded, offered)


if __name__ == "__main__":
    main()
