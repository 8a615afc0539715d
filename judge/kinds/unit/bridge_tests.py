"""The tests' side of a unit-test problem in `mode: apart`: pytest runs the teacher's test files
in a sandbox of their own, where `import stack` gives a stand-in. Each thing a test does with it
(a call, an attribute, `len`, `==`, iterating) is sent to the student's process
(bridge_student.py) and its reply brought back: the returned value (plain data by value, any
other object as a handle whose methods are sent on in turn), the exception raised (as a class of
the same name and bases here, so `pytest.raises(stack.EmptyError)` works), the arguments the
call changed in place, and what it printed (written to this stdout, so `capsys` sees it).

The student's code never runs in this process: what it cannot reach here are the assertions,
the outcome of each test and the file of results. Each test's record goes to that file as the
test ends, in the order run, so a run cut short keeps every test it finished. A test's CPU time
is the kernel's figure for the student's process, read on the judge's clock (StudentClock).

Runs as `main.py FEEDBACK_DIR PER_TEST_S WALL_S CLOCK KIT NODE_ID...` (KIT: the folder of the judge's
pytest kit, bound read-only, or "" for the system's pytest) with the judge's stand-in modules
beside it; copied into the box as it is (as _judge_unit.py).
"""

from __future__ import annotations

import builtins
import json
import os
import random
import re
import select
import signal
import sys
import time
import types
from typing import Any

RESULTS = "results.jsonl"
STUDENT_MARK = "_judge_student"  # set on an exception that the student's code raised
# A reply is the student's data: bounded before it is parsed (json recurses, and a line held
# whole costs this process's memory), and so is what the student's code prints into a test.
MAX_REPLY_BYTES = 16 << 20
MAX_DEPTH = 200
MAX_PRINTED_CHARS = 1 << 16
# `--deadline=CPU,WALL` before the ids (kind tests, where the tests are a student's): a test's
# own deadline in this process, its CPU time and its wall time; a stall there ends that test
# as TLE, not the whole run at its limit.
DEADLINE = "--deadline="
SEED = 0  # `random` is seeded so before each test: the same draws on the reference and each bug
NOT_RUN = "it did not run to its end (not run, xfail, pytest.exit or KeyboardInterrupt)"


class StudentGone(Exception):
    """The student's process ended (it exited, crashed or was stopped at a limit)."""


class StudentStuck(Exception):
    """The student's code used up the test's time."""


class Garbled(StudentGone):
    """A reply that is none of the bridge's: the student's code wrote on the channel."""


class Unsupported(Exception):
    """What a stand-in cannot do: the test needs `mode: together`."""


class StudentClock:
    """The student's process's CPU time as the kernel counts it, never a figure that process
    reports: the judge's watch of its run publishes the cgroup's figure (else its process
    tree's, sampled) as the target of a symbolic link, bound read-only into this sandbox and
    replaced whole at each new figure, at most one look of the watch (10 ms) behind."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.last = float(os.readlink(path))  # none there: the judge laid no clock (an IE)

    def cpu_s(self) -> float:
        try:
            self.last = max(self.last, float(os.readlink(self.path)))
        except (OSError, ValueError):
            pass  # never absent (a rename replaces it); the last figure holds
        return self.last


CPU_LOOK_S = 0.05  # how often a call that has not returned has its test's CPU time looked at


class Channel:
    """The pipes to the student's process, and the current test's time and output."""

    def __init__(self, read_fd: int, write_fd: int, limits: tuple[float, float], clock: StudentClock) -> None:
        self.read_fd, self.write_fd = read_fd, write_fd
        # A test's CPU time and its wall limit (the judge's sandbox.wall_for of it).
        self.per_test_s, self.wall_s = limits
        self.clock = clock
        self.buffer = b""
        self.gone = False
        self.in_test = False
        self.fault: str | None = None  # what the student's module did wrong outside any test
        self.begin()

    def begin(self, fresh: bool = True) -> None:
        """A test starts (`fresh`), or a further run of a parametrized one, which goes on with
        the time and printing room of its runs before: a test is one case, whose limits hold
        for all its runs together (as in `mode: together` and JUnit), so its verdict never
        depends on what its neighbours left of the pair's budget."""
        # Why the student's code ran out of time in this test, even where the test's own code
        # (pytest making a failure's message) swallowed the exception: a request may then be
        # left unanswered on the pipe, so nothing after it in this process can be trusted.
        self.overran: str | None = None
        self.printed: list[str] = []
        if fresh:
            self.started = time.monotonic()
            self.cpu = 0.0
            self.cpu_at_start = self.clock.cpu_s()
            self.printed_chars = 0

    def ask(self, request: dict[str, Any], originals: list[Any]) -> Any:
        """The student's code does `request`: its value, or its exception raised here; the
        `originals` (the test's own arguments) take the changes the call made to them."""
        if self.gone:
            raise StudentGone("the student's process has ended")
        data = (json.dumps(request, separators=(",", ":")) + "\n").encode()
        try:
            while data:
                data = data[os.write(self.write_fd, data) :]
        except OSError:
            self.gone = True
            raise StudentGone("the student's process has ended") from None
        reply = self._reply()
        try:
            printed = reply.get("printed", "")
            room = MAX_PRINTED_CHARS - self.printed_chars
            if isinstance(printed, str) and printed and room > 0:
                self.printed.append(printed[:room])
                self.printed_chars += len(printed[:room])
                sys.stdout.write(printed[:room])
            self.used()
            if "raised" in reply:
                raise _exception(reply["raised"])
            if "after" in reply:
                for original, after in zip(originals, reply["after"], strict=False):
                    _changed_in_place(original, after)
            return from_wire(reply.get("ok"))
        except (StudentStuck, StudentGone):
            raise
        except Exception as err:
            if hasattr(err, STUDENT_MARK):
                raise
            # A reply not of the bridge's making: the student's code wrote on the channel.
            self.gone = True
            raise Garbled("the student's code wrote on the tests' channel (a reply that is not one)") from None

    def used(self) -> float:
        """The student's process's CPU time in this test so far; StudentStuck once it is over."""
        self.cpu = self.clock.cpu_s() - self.cpu_at_start
        if self.cpu > self.per_test_s:
            raise self.stuck(f"the student's code used more than {self.per_test_s:g} s of CPU time")
        return self.cpu

    def stuck(self, message: str) -> StudentStuck:
        """The test is out of time: remembered for the runner, whoever catches the exception."""
        self.overran = self.overran or message
        return StudentStuck(message)

    def _reply(self) -> dict[str, Any]:
        # The wall limit the sandbox would give the test's CPU time: a student's code that waits
        # (sleeps, blocks) runs out of it too. One that computes is stopped once its CPU time is
        # over, as the kernel counts it.
        deadline = self.started + self.wall_s
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self.stuck(f"the student's code did not return within {self.wall_s:g} s")
            if not select.select([self.read_fd], [], [], min(left, CPU_LOOK_S))[0]:
                self.used()
                continue
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                self.gone = True
                raise StudentGone("the student's process ended during this test")
            self.buffer += chunk
            if len(self.buffer) > MAX_REPLY_BYTES and b"\n" not in self.buffer:
                self.gone = True
                raise Garbled(f"the student's code sent a reply of over {MAX_REPLY_BYTES >> 20} MiB")
        line, self.buffer = self.buffer.split(b"\n", 1)
        reply = None
        if len(line) <= MAX_REPLY_BYTES and depth_within(line, MAX_DEPTH):
            try:
                reply = json.loads(line)
            except (ValueError, RecursionError):
                reply = None
        if not isinstance(reply, dict):
            self.gone = True  # out of step: nothing after this can be trusted to match
            raise Garbled("the student's code wrote on the tests' channel (a reply that is not one)")
        return reply


def depth_within(line: bytes, limit: int) -> bool:
    """Whether no list or object of the JSON line nests deeper than `limit` (brackets inside
    its strings do not count): checked before json.loads, which recurses."""
    depth = 0
    for byte in _STRINGS.sub(b'""', line).translate(None, _NOT_BRACKETS):
        depth += 1 if byte in b"[{" else -1
        if depth > limit:
            return False
    return True


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')

CHANNEL: Channel | None = None
STUDENTS_TESTS = False  # the tests are a student's (kind tests: run with DEADLINE), the module the teacher's


def _ask(request: dict[str, Any]) -> Any:
    assert CHANNEL is not None, "the stand-in runs only under the judge's runner"
    originals = request.get("args", [])
    sent = dict(request)
    if "args" in request:
        sent["args"] = [to_wire(a) for a in originals]
    if "kwargs" in request:
        sent["kwargs"] = {k: to_wire(v) for k, v in request["kwargs"].items()}
    try:
        return CHANNEL.ask(sent, originals)
    except Exception as err:
        theirs = hasattr(err, STUDENT_MARK) or isinstance(err, StudentGone | StudentStuck)
        if theirs and not CHANNEL.in_test and CHANNEL.fault is None:
            # Outside any test (while pytest collects the files): a file that then fails to
            # collect failed on the student's module, which is a CE, not the teacher's IE.
            CHANNEL.fault = f"the student's module: {type(err).__name__}: {err}"[:2000]
        raise


# --- values between the two sides ----------------------------------------------------------

_remotes: dict[int, Any] = {}  # the student's objects by handle: the same handle, the same object
_classes: dict[int, type] = {}
_handles: dict[int, int] = {}  # id(mirror class) -> handle


def to_wire(value: Any) -> Any:
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value if value - value == 0 else {"$float": repr(value)}
    if kind is list:
        return [to_wire(v) for v in value]
    if kind is tuple:
        return {"$tuple": [to_wire(v) for v in value]}
    if kind is dict:
        return {"$dict": [[to_wire(k), to_wire(v)] for k, v in value.items()]}
    if kind in (set, frozenset):
        return {f"${kind.__name__}": [to_wire(v) for v in value]}
    if kind is bytes:
        return {"$bytes": value.decode("latin-1")}
    if value is NotImplemented or value is Ellipsis:
        return {"$const": repr(value)}
    if isinstance(value, Remote):
        return {"$ref": object.__getattribute__(value, "_handle")}
    if isinstance(value, type) and id(value) in _handles:
        return {"$ref": _handles[id(value)]}
    if isinstance(value, type) and value.__module__ == "builtins":
        return {"$builtin": value.__name__}
    if STUDENTS_TESTS:
        # The test is a student's: what it hands over is its own doing, so it fails itself (on
        # the reference too: an invalid test), never an IE with a hint meant for a teacher.
        raise TypeError(
            f"a value of the test's of type {kind.__name__} cannot be handed to the module"
            " (only plain values and the module's own objects cross)"
        )
    raise Unsupported(
        f"a stand-in cannot hand a {kind.__name__} of the test's to the student's code "
        "(only plain values and the student's own objects): this test needs `mode: together`"
    )


def from_wire(value: Any) -> Any:
    if isinstance(value, list):
        return [from_wire(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$ref" in value:
        return _mirror(value)
    ((tag, inner),) = value.items()
    if tag == "$builtin":
        # Only a built-in type (int, ValueError, ...): a reply naming `eval` or `exit` is none.
        found = getattr(builtins, str(inner))
        if not isinstance(found, type):
            raise ValueError(f"not a built-in type: {inner!r}")
        return found
    if tag == "$float":
        return float(inner)
    if tag == "$const":
        return {"NotImplemented": NotImplemented, "Ellipsis": Ellipsis}[inner]
    if tag == "$bytes":
        return inner.encode("latin-1")
    if tag == "$dict":
        mapping = {}
        for k, v in inner:
            _in_time()
            mapping[from_wire(k)] = from_wire(v)
        return mapping
    made = [from_wire(v) for v in inner]
    if tag == "$tuple":
        return tuple(made)
    if tag not in ("$set", "$frozenset"):
        raise ValueError(f"no value has the tag {tag!r}")  # garbled
    kept: set[Any] = set()
    for item in made:
        _in_time()
        kept.add(item)
    return kept if tag == "$set" else frozenset(kept)


def _in_time() -> None:
    """StudentStuck once the test is past its deadline. A reply's keys made to share one hash
    (ints are not salted: k * (2**61 - 1) all hash to 0) take a set or dict quadratic time,
    in C, where no other check runs: so one is made an item at a time, each in time."""
    channel = CHANNEL
    if channel is not None and time.monotonic() > channel.started + channel.wall_s:
        raise channel.stuck(f"the student's code did not return within {channel.wall_s:g} s")


def _mirror(ref: dict[str, Any]) -> Any:
    handle = ref["$ref"]
    if ref.get("kind") == "class":
        return _mirror_class(ref)
    known = _remotes.get(handle)
    if known is not None:
        return known
    made: Any
    if ref.get("kind") == "callable":
        made = RemoteCallable(handle, str(ref.get("name", "function")))
    else:
        made = Remote(handle, str(ref.get("type", "object")))
    _remotes[handle] = made
    return made


def _mirror_class(ref: dict[str, Any]) -> type:
    """A class of the student's, here: an exception class of the same name and bases (so the
    tests can catch it), else a class whose calls make objects over there."""
    handle = ref["$ref"]
    if handle in _classes:
        return _classes[handle]
    bases = tuple(b for b in (from_wire(b) for b in ref.get("bases", [])) if isinstance(b, type))
    made: type
    if ref.get("exception"):
        # Only below Exception: a student's class on KeyboardInterrupt, SystemExit or
        # GeneratorExit would stop pytest itself here, which is the judge's process.
        bases = tuple(b for b in bases if issubclass(b, Exception)) or (Exception,)
        made = type(str(ref["name"]), bases, {"__module__": str(ref.get("module", "")), "__str__": _said})
    else:
        made = RemoteClass(str(ref["name"]), (), {"__module__": str(ref.get("module", "")), "_handle": handle})
    _classes[handle] = made
    _handles[id(made)] = handle
    return made


SAID = "_judge_said"  # on an exception of the student's class: str() of it over there


def _said(err: BaseException) -> str:
    """str() of an exception of a student's class: its own __str__'s text, as the student's
    process made it (pytest.raises(match=...) reads it), else its arguments'."""
    said = getattr(err, SAID, None)
    return said if isinstance(said, str) else Exception.__str__(err)


def _exception(raised: dict[str, Any]) -> BaseException:
    cls = from_wire(raised.get("class"))
    message = str(raised.get("message", ""))
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        cls = Exception
    elif not issubclass(cls, Exception):
        # SystemExit, KeyboardInterrupt...: the same name, raised as an Exception here.
        cls = type(cls.__name__, (Exception,), {"__module__": cls.__module__})
    err: BaseException
    try:
        err = cls(*from_wire(raised.get("args", [message])))
    except Exception:
        # Its own __init__ takes other arguments: the same class, made without it.
        err = cls.__new__(cls)
        err.args = (message,)
    setattr(err, STUDENT_MARK, [str(w) for w in raised.get("where", [])])
    setattr(err, SAID, message)
    attributes = raised.get("attributes")
    for name, value in (attributes if isinstance(attributes, dict) else {}).items():
        # Its own attributes (excinfo.value.balance), plain values; no name of Python's own.
        if isinstance(name, str) and name.isidentifier() and not name.startswith("_") and name != "args":
            setattr(err, name, from_wire(value))
    return err


def _changed_in_place(original: Any, after: Any) -> None:
    """Bring a list, dict or set the student's code changed over to the test's own object."""
    if after is None:
        return
    _sync(original, from_wire(after))


def _sync(original: Any, now: Any) -> None:
    if type(original) is list and type(now) is list:
        if len(original) == len(now):
            for i, (old, new) in enumerate(zip(original, now, strict=True)):
                if type(old) in (list, dict, set) and type(old) is type(new):
                    _sync(old, new)
                elif old is not new and not (type(old) is type(new) and not isinstance(old, Remote) and old == new):
                    original[i] = new
        else:
            original[:] = now
    elif type(original) is dict and type(now) is dict:
        for key in [k for k in original if k not in now]:
            del original[key]
        for key, new in now.items():
            old = original.get(key)
            if type(old) in (list, dict, set) and type(old) is type(new):
                _sync(old, new)
            else:
                original[key] = new
    elif type(original) is set and type(now) is set and original != now:
        original.clear()
        original.update(now)


# --- stand-ins ------------------------------------------------------------------------------


def _apply(fn: str, *args: Any) -> Any:
    return _ask({"op": "apply", "fn": fn, "args": list(args)})


class Remote:
    """An object of the student's: each use of it is done over there."""

    __slots__ = ("_handle", "_type")

    def __init__(self, handle: int, type_name: str) -> None:
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_type", type_name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _ask({"op": "getattr", "ref": object.__getattribute__(self, "_handle"), "name": name})

    def __setattr__(self, name: str, value: Any) -> None:
        _ask({"op": "setattr", "ref": object.__getattribute__(self, "_handle"), "name": name, "args": [value]})

    def __delattr__(self, name: str) -> None:
        _ask({"op": "delattr", "ref": object.__getattribute__(self, "_handle"), "name": name})

    def __repr__(self) -> str:
        return str(_apply("repr", self))

    def __str__(self) -> str:
        return str(_apply("str", self))

    def __len__(self) -> int:
        return int(_apply("len", self))

    def __bool__(self) -> bool:
        return bool(_apply("bool", self))

    def __hash__(self) -> int:
        return int(_apply("hash", self))

    def __iter__(self) -> Any:
        return _apply("iter", self)

    def __next__(self) -> Any:
        return _apply("next", self)

    def __reversed__(self) -> Any:
        return _apply("reversed", self)

    def __contains__(self, item: Any) -> bool:
        if isinstance(item, Remote):
            return bool(_apply("contains", self, item))
        # A value of the test's is never sent to be looked for: the student's object hands its
        # elements over (iterating it) and each is compared here, as Python does for an object
        # without __contains__. One that cannot be iterated fails the test (TypeError).
        return any(element is item or element == item for element in self)

    def __getitem__(self, key: Any) -> Any:
        return _apply("getitem", self, key)

    def __setitem__(self, key: Any, value: Any) -> None:
        _apply("setitem", self, key, value)

    def __delitem__(self, key: Any) -> None:
        _apply("delitem", self, key)

    def __int__(self) -> int:
        return int(_apply("int", self))

    def __float__(self) -> float:
        return float(_apply("float", self))

    def __index__(self) -> int:
        return int(_apply("index", self))

    def __abs__(self) -> Any:
        return _apply("abs", self)

    def __neg__(self) -> Any:
        return _apply("neg", self)


_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")


def _binary(name: str, swapped: bool = False) -> Any:
    def forward(self: Remote, other: Any) -> Any:
        if name in _COMPARISONS and not isinstance(other, Remote):
            # A comparison with a value of the test's (an expected value above all) is decided
            # here and sends nothing: a student's object equals no plain value, and orders
            # with none (Python's rule for unrelated types). Two of the student's objects
            # compare over there, by the student's own methods.
            return NotImplemented
        if not isinstance(other, Remote):
            # Arithmetic with a value of the test's would hand it to the student's method, whose
            # answer (`mean - 2.5` giving 0) would then decide `abs(...) < eps`: refused.
            raise TypeError(
                f"a student's object and a value of the test's in {name.rstrip('_')!r}: in mode apart only plain"
                " values the student's code returns meet the test's values (docs/unit.md)"
            )
        return _apply(name, other, self) if swapped else _apply(name, self, other)

    return forward


for _name in "eq ne lt le gt ge add sub mul truediv floordiv mod pow and_ or_ xor matmul".split():
    _dunder = _name.rstrip("_")
    setattr(Remote, f"__{_dunder}__", _binary(_name))
    if _name not in _COMPARISONS:
        setattr(Remote, f"__r{_dunder}__", _binary(_name, swapped=True))


class RemoteCallable(Remote):
    """A function (or bound method) of the student's."""

    __slots__ = ()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        handle = object.__getattribute__(self, "_handle")
        return _ask({"op": "call", "ref": handle, "args": list(args), "kwargs": kwargs})


class RemoteClass(type):
    """A class of the student's: calling it makes an object over there."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return _ask({"op": "call", "ref": cls.__dict__["_handle"], "args": list(args), "kwargs": kwargs})

    def __instancecheck__(cls, instance: Any) -> bool:
        if not isinstance(instance, Remote):
            return False
        return bool(_apply("isinstance", instance, cls))

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _ask({"op": "getattr", "ref": cls.__dict__["_handle"], "name": name})


IMPORT_FAILED: dict[str, str] = {}


def _missing(said: str) -> Any:
    def missing(*_args: Any, **_kwargs: Any) -> Any:
        raise AttributeError(said)

    return missing


class StandIn(types.ModuleType):
    """The student's module as the tests import it."""

    def __getattr__(self, name: str) -> Any:
        if name == "__all__":
            return self._star_names(sys._getframe(1).f_globals)
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _ask({"op": "getattr", "ref": self.__dict__["_handle"], "name": name})

    def _star_names(self, importer: dict[str, Any]) -> list[str]:
        """What `from module import *` binds: the names the student's module offers, less any
        the importing test file has already bound (`pytest`, `weight`, a helper), a built-in's
        (`len`, `range`) or a module's: a star import adds the student's names and never
        replaces the test's own."""
        taken = set(importer) | set(dir(builtins)) | {m.split(".", 1)[0] for m in sys.modules}
        wanted = [n for n in self.__dict__["_offered"] if n not in taken]
        for name in wanted:
            try:
                getattr(self, name)
            except AttributeError as err:
                # A name offered that the module lacks (a bug without the reference's function):
                # it fails where it is used, as a missing attribute, not the whole file's import.
                self.__dict__[name] = _missing(str(err))
        return wanted

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("__") or name in ("_handle", "_offered"):
            super().__setattr__(name, value)
            return
        _ask({"op": "setattr", "ref": self.__dict__["_handle"], "name": name, "args": [value]})


def stand_in(name: str) -> None:
    """Make the module being imported (`name`) the student's, over there."""
    module = sys.modules[name]
    try:
        found = _ask({"op": "import", "name": name})
    except (StudentGone, StudentStuck) as err:
        IMPORT_FAILED[name] = str(err)
        raise ImportError(f"importing {name}: {err}") from None
    except Exception as err:
        shown = f"{type(err).__name__}: {err}"
        IMPORT_FAILED[name] = shown
        raise ImportError(f"importing {name} raised {shown}") from None
    if not isinstance(found, Remote):
        IMPORT_FAILED[name] = "the student's code wrote on the tests' channel"
        raise ImportError(f"importing {name}: the student's code wrote on the tests' channel")
    module.__class__ = StandIn
    module.__dict__["_handle"] = object.__getattribute__(found, "_handle")
    try:
        names = _ask({"op": "names", "ref": module.__dict__["_handle"]})
    except Exception:
        names = []
    module.__dict__["_offered"] = [n for n in names if isinstance(n, str) and n.isidentifier()]


# --- the runner -----------------------------------------------------------------------------


def _kind(err: BaseException) -> str:
    if isinstance(err, Garbled):
        return "garbled"
    if isinstance(err, StudentGone):
        return "gone"
    if isinstance(err, StudentStuck):
        return "stuck"
    if isinstance(err, Unsupported):
        return "unsupported"
    if hasattr(err, STUDENT_MARK):
        return "student"
    if isinstance(err, AssertionError):
        return "assert"
    return "error"


def _phase(call: Any) -> dict[str, Any]:
    """One phase's failure: the student's (an exception its code raised, whatever its class is
    named), a skip (pytest's own outcome, raised by the test: earns nothing), else the test's."""
    import pytest

    err = call.excinfo.value
    kind = _kind(err)
    if kind == "error" and isinstance(err, pytest.skip.Exception):
        kind = "skipped"
    message = call.excinfo.exconly()
    if kind in ("assert", "error", "skipped"):
        # pytest's explanation of an assert runs over lines: its first says what failed.
        message = message.strip().splitlines()[0] if message.strip() else message
        message = message.removeprefix("AssertionError: ")
    if kind == "student":
        where = getattr(err, STUDENT_MARK, [])
        message = f"the student's code raised {type(err).__name__}: {err}" + (
            f" (at {', '.join(where)})" if where else ""
        )
    return {"when": call.when, "kind": kind, "message": message[:2000]}


PARAMETERS = re.compile(r"\[.*\]$")  # test_x[1-a]: one run of the parametrized test_x


def _unfinished() -> tuple[type[BaseException], ...]:
    """What ends a test's call before its end: a skip, an xfail, pytest.exit, an interrupt."""
    import pytest

    return (KeyboardInterrupt, pytest.exit.Exception, pytest.skip.Exception, pytest.xfail.Exception)


class Recorder:
    """A pytest plugin writing each listed test's record as it ends. A parametrized test is one
    listed test: its runs (test_x[1], test_x[2]) are gathered into one record, which fails with
    the first of them that fails, and whose time is all of theirs; an xfail is counted as pytest
    counts it."""

    def __init__(self, path: str, deadline: tuple[float, float] = (0.0, 0.0)) -> None:
        self.out = open(path, "a", encoding="utf-8")
        self.open: str | None = None  # the listed test whose runs are being gathered
        self.phases: list[dict[str, Any]] = []
        self.run_phases: list[dict[str, Any]] = []
        self.deadline = deadline
        self.unfinished = 0  # runs of the listed test whose call did not run to its end
        self.cpu = 0.0
        self.printed: list[str] = []
        self.started = time.monotonic()

    def write(self, record: dict[str, Any]) -> None:
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        assert CHANNEL is not None
        listed = PARAMETERS.sub("", nodeid)
        if listed != self.open:
            self.flush()
            # Which test was running, should this process end in it (a limit the student's
            # replies drove it to): the judge gives that test its verdict and runs the rest anew.
            self.write({"start": listed})
            self.open, self.phases, self.cpu, self.printed = listed, [], 0.0, []
            self.started = time.monotonic()
            self.unfinished = 0
            random.seed(SEED)
            CHANNEL.begin()
        else:
            CHANNEL.begin(fresh=False)  # a further run: the test's time goes on
        CHANNEL.in_test = True
        self.run_phases = []
        self.unfinished += 1
        if self.deadline[0] > 0:
            signal.signal(signal.SIGPROF, self.overdue)
            signal.signal(signal.SIGALRM, self.overdue)
            signal.setitimer(signal.ITIMER_PROF, self.deadline[0])
            signal.setitimer(signal.ITIMER_REAL, self.deadline[1])

    def overdue(self, signum: int, _frame: Any) -> None:
        """The test's own deadline passed (a loop of its own): TLE, and a new pair for the rest."""
        cpu = signum == signal.SIGPROF
        said = f"the test ran past its own deadline ({self.deadline[0 if cpu else 1]:g} s of {'CPU' if cpu else 'wall'} time)"
        self.run_phases.append({"when": "call", "kind": "stuck", "message": said})
        self.phases.extend(self.run_phases)
        self.unfinished = 0
        self.flush()
        self.out.close()
        os._exit(43)

    def pytest_runtest_makereport(self, item: Any, call: Any) -> None:
        if call.when == "call" and (call.excinfo is None or not call.excinfo.errisinstance(_unfinished())):
            self.unfinished -= 1  # its call ran to its end: passed, or failed as a test fails
        if call.excinfo is None:
            return
        try:
            self.run_phases.append(_phase(call))
        except Exception:  # a message that cannot be made still fails the test
            self.run_phases.append(
                {"when": call.when, "kind": "error", "message": "(the failure's message could not be made)"}
            )

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.skipped and getattr(report, "wasxfail", None) is not None:
            # An expected failure, as pytest counts it: not a failure.
            self.run_phases = [p for p in self.run_phases if p["when"] != report.when]
        elif report.failed and not any(p["when"] == report.when for p in self.run_phases):
            # A failure pytest made of a pass (a strict xfail that passed).
            said = str(report.longrepr).strip().splitlines()
            self.run_phases.append({"when": report.when, "kind": "assert", "message": (said or ["failed"])[0][:2000]})

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        assert CHANNEL is not None
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        CHANNEL.in_test = False
        try:
            CHANNEL.used()  # to its end: what the student's process did after its last reply
        except StudentStuck:
            pass  # the figure says it: TLE
        self.cpu = CHANNEL.cpu  # the test's so far: its runs share its time
        self.printed.append("".join(CHANNEL.printed))
        if CHANNEL.overran and not any(p["kind"] == "stuck" for p in self.run_phases):
            # Out of time, though the exception was caught on the way (by the test, or by pytest
            # making its message): TLE all the same, and a fresh pair for the tests after it.
            self.run_phases.append({"when": "call", "kind": "stuck", "message": CHANNEL.overran})
        self.phases.extend(self.run_phases)
        if any(p["kind"] in ("gone", "stuck", "garbled") for p in self.run_phases):
            self.flush()
            self.out.close()
            os._exit(43)  # the student's process is lost or stuck: the judge starts another

    def flush(self) -> None:
        """The gathered record of the listed test, once its runs are over."""
        if self.open is None:
            return
        if self.deadline[0] > 0 and self.unfinished > 0 and not any(p["kind"] != "skipped" for p in self.phases):
            # A student's test (kind tests) passes only by its own end: one not run, an xfail, or
            # one stopping the run did not pass (of a teacher's, pytest's count is kept).
            self.phases.append({"when": "call", "kind": "skipped", "message": NOT_RUN})
        record = {
            "id": self.open,
            "phases": self.phases,
            "cpu": round(self.cpu, 4),
            "wall": round(time.monotonic() - self.started, 4),
            "printed": "".join(self.printed)[-4096:],
        }
        self.open = None
        self.write(record)

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            assert CHANNEL is not None
            failed = "; ".join(f"{k}: {v}" for k, v in IMPORT_FAILED.items()) or CHANNEL.fault or ""
            text = str(report.longrepr).strip().splitlines()
            self.write(
                {
                    "collect_error": report.nodeid,
                    "student": bool(failed),
                    "message": (failed or (text[-1] if text else "the file could not be collected"))[:2000],
                }
            )


def same_hashes() -> None:
    """Run again with str hashes seeded alike (PYTHONHASHSEED), so a set's order is the same
    on the reference and each bug: no luck drawn from it."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


def main() -> int:
    global CHANNEL, STUDENTS_TESTS
    same_hashes()
    import site

    site.main()  # the system's packages (python3 -S leaves them out): its pytest, if the judge uses it
    feedback, clock, kit, node_ids = sys.argv[1], sys.argv[4], sys.argv[5], sys.argv[6:]
    limits = float(sys.argv[2]), float(sys.argv[3])  # a test's CPU time, its wall limit
    if kit:
        sys.path.insert(0, kit)  # the judge's pytest kit (pytest_kit.py), before the system's
    reads, writes = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    deadline = (0.0, 0.0)
    if node_ids and node_ids[0].startswith(DEADLINE):
        cpu_s, wall_s = node_ids.pop(0).removeprefix(DEADLINE).split(",")
        deadline = float(cpu_s), float(wall_s)
        STUDENTS_TESTS = True
    recorder = Recorder(os.path.join(feedback, RESULTS), deadline)
    try:
        CHANNEL = Channel(reads, writes, limits, StudentClock(clock))
    except (OSError, ValueError) as err:
        recorder.write({"collect_error": "", "student": False, "message": f"no clock of the student's CPU time: {err}"})
        return 42
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    # A helper module beside the test files (public/helpers.py): importable as pytest's own
    # rootdir-relative run would make it, after the box's own modules.
    for folder in sorted({os.path.dirname(node.split("::", 1)[0]) for node in node_ids} - {""}):
        sys.path.append(os.path.join(here, folder))
    try:
        import pytest
    except ImportError:
        why = "pytest is not installed for the machine's python3 (apt-get install python3-pytest)"
        recorder.write({"collect_error": "", "student": False, "message": why})
        return 42
    pytest.main(
        ["-q", "-p", "no:cacheprovider", "--import-mode=importlib", "--rootdir", here, "--no-header", *node_ids],
        plugins=[recorder],
    )
    recorder.flush()
    recorder.out.close()
    return 42
