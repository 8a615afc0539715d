"""A function problem's signature (pure): `name(a: T, b: U) -> R` or a class of methods, its
types, and whether a JSON value is of a type. The judge checks every test input and every
returned value against it, outside the sandbox.

A class problem's signature names the class, its constructor and its methods, one a line:

    class Counter:
      Counter(start: int)
      add(k: int) -> None
      total() -> int

and a case is a scenario of steps, the constructor first: [["Counter", 5], ["add", 2], ["total"]].

Types: int (32-bit signed), long (64-bit), float, bool, str, list[T] (nested to any depth),
dict[str, T], and T | None.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from judge.run.values import QUOTE_CAP, quote, raised

SCALARS = ("int", "long", "float", "bool", "str")
_BOUNDS = {"int": 2**31, "long": 2**63}
_TOKEN = re.compile(r"\s*(->|[A-Za-z_][A-Za-z_0-9]*|[\[\](),:|])")


class SignatureError(ValueError):
    """A signature that cannot be read: what is wrong and at which character (1-based)."""


@dataclass(frozen=True)
class Type:
    name: str  # a scalar, "none" (a function that returns nothing), or "list", "dict", "optional"
    of: Type | None = None  # a list's or dict's values; the type an optional may hold

    def __str__(self) -> str:
        if self.name == "list":
            return f"list[{self.of}]"
        if self.name == "dict":
            return f"dict[str, {self.of}]"
        if self.name == "optional":
            return f"{self.of} | None"
        return "None" if self.name == "none" else self.name


@dataclass(frozen=True)
class Param:
    name: str
    type: Type


@dataclass(frozen=True)
class Signature:
    name: str
    params: tuple[Param, ...]
    returns: Type

    def __str__(self) -> str:
        return f"{self.name}({', '.join(f'{p.name}: {p.type}' for p in self.params)}) -> {self.returns}"


@dataclass(frozen=True)
class ClassSignature:
    name: str
    constructor: tuple[Param, ...]
    methods: tuple[Signature, ...]

    def method(self, name: str) -> Signature | None:
        return next((m for m in self.methods if m.name == name), None)

    @property
    def made(self) -> Signature:
        """The constructor as a call that returns nothing."""
        return Signature(self.name, self.constructor, Type("none"))

    def __str__(self) -> str:
        made = f"  {self.name}({', '.join(f'{p.name}: {p.type}' for p in self.constructor)})"
        return "\n".join([f"class {self.name}:", made, *(f"  {m}" for m in self.methods)])


Api = Signature | ClassSignature  # what a student writes: a function, or a class of methods
_CLASS = re.compile(r"\s*class\s+([A-Za-z_][A-Za-z_0-9]*)\s*:\s*$")


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, int]] = []
        at = 0
        while at < len(text):
            if text[at:].strip() == "":
                break
            match = _TOKEN.match(text, at)
            if match is None:
                raise SignatureError(f"character {at + 1}: unexpected {text[at:].strip()[:1]!r}")
            self.tokens.append((match.group(1), match.start(1) + 1))
            at = match.end()
        self.index = 0

    def peek(self) -> str:
        return self.tokens[self.index][0] if self.index < len(self.tokens) else ""

    def where(self) -> str:
        return f"character {self.tokens[self.index][1]}" if self.index < len(self.tokens) else "the end"

    def take(self, wanted: str | None = None) -> str:
        found = self.peek()
        if not found or (wanted is not None and found != wanted):
            expected = repr(wanted) if wanted is not None else "more"
            raise SignatureError(f"{self.where()}: expected {expected}, found {found or 'nothing'!r}")
        self.index += 1
        return found

    def name(self) -> str:
        found = self.take()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", found):
            self.index -= 1
            raise SignatureError(f"{self.where()}: expected a name, found {found!r}")
        return found

    def type(self) -> Type:
        at = self.where()
        name = self.name()
        if name in SCALARS:
            found = Type(name)
        elif name == "list":
            self.take("[")
            found = Type("list", self.type())
            self.take("]")
        elif name == "dict":
            self.take("[")
            if self.name() != "str":
                raise SignatureError(f"{at}: a dict's keys are str (dict[str, T])")
            self.take(",")
            found = Type("dict", self.type())
            self.take("]")
        else:
            raise SignatureError(f"{at}: unknown type {name!r} (known: {', '.join(SCALARS)}, list[T], dict[str, T])")
        if self.peek() == "|":
            self.take("|")
            if self.take() != "None":
                raise SignatureError(f"{at}: `|` is followed by None only (T | None)")
            found = Type("optional", found)
        return found


def parse_type(text: str) -> Type:
    reader = _Reader(text)
    found = reader.type()
    if reader.peek():
        raise SignatureError(f"{reader.where()}: unexpected {reader.peek()!r} after the type")
    return found


def parse(text: str) -> Signature:
    """`name(a: T, ...) -> R`; SignatureError saying what and where when it is not one."""
    reader = _Reader(text)
    name, params = _head(reader)
    reader.take("->")
    returns = Type("none") if reader.peek() == "None" else reader.type()
    if returns.name == "none":
        reader.take("None")
    if reader.peek():
        raise SignatureError(f"{reader.where()}: unexpected {reader.peek()!r} after the return type")
    return Signature(name, params, returns)


def parse_api(text: str) -> Api:
    """A function's signature, or a class's (`class Name:` and its members, a line each)."""
    lines = text.strip("\n").splitlines()
    head = _CLASS.match(lines[0]) if lines else None
    if head is None:
        return parse(text)
    name = head.group(1)
    constructor: tuple[Param, ...] | None = None
    methods: list[Signature] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            reader = _Reader(line)
            if reader.peek() == name:
                params = _head(reader)[1]
                if reader.peek():
                    raise SignatureError(f"{reader.where()}: a constructor returns nothing (no `->`)")
                if constructor is not None:
                    raise SignatureError(f"a second constructor of {name}")
                constructor = params
                continue
            method = parse(line)
        except SignatureError as err:
            raise SignatureError(f"line {number}, {err}") from None
        if any(m.name == method.name for m in methods):
            raise SignatureError(f"line {number}: method {method.name!r} twice")
        methods.append(method)
    if not methods:
        raise SignatureError(f"class {name} has no methods (one a line below it: name(a: T) -> R)")
    return ClassSignature(name, constructor or (), tuple(methods))


def _head(reader: _Reader) -> tuple[str, tuple[Param, ...]]:
    """`name(a: T, ...)`: the name and the parameters."""
    name = reader.name()
    reader.take("(")
    params: list[Param] = []
    while reader.peek() != ")":
        if params:
            reader.take(",")
        param = reader.name()
        if any(p.name == param for p in params):
            raise SignatureError(f"{reader.where()}: parameter {param!r} twice")
        reader.take(":")
        params.append(Param(param, reader.type()))
    reader.take(")")
    return name, tuple(params)


def kind_of(value: object) -> str:
    """A JSON value's kind as a student would name it."""
    if value is None:
        return "None"
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", dict: "dict"}.get(
        type(value), type(value).__name__
    )


def issue(value: object, expected: Type, where: str = "") -> str:
    """Why a JSON value is not of the type ("" when it is); `where` names its place."""
    at = f"{where}: " if where else ""
    name = expected.name
    if name == "none":
        return "" if value is None else f"{at}expected None, got {kind_of(value)}"
    if name == "optional":
        assert expected.of is not None
        return "" if value is None else issue(value, expected.of, where)
    if name in ("int", "long"):
        if type(value) is not int:
            return f"{at}expected {name}, got {kind_of(value)}"
        bound = _BOUNDS[name]
        return "" if -bound <= value < bound else f"{at}{quote(value)} is out of range for {name}"
    if name == "float":
        if type(value) not in (int, float):
            return f"{at}expected float, got {kind_of(value)}"
        return "" if math.isfinite(float(value)) else f"{at}{value} is not a finite float"  # type: ignore[arg-type]
    if name in ("bool", "str"):
        return "" if type(value) is {"bool": bool, "str": str}[name] else f"{at}expected {name}, got {kind_of(value)}"
    assert expected.of is not None
    if name == "list":
        if type(value) is not list:
            return f"{at}expected {expected}, got {kind_of(value)}"
        return next((found for i, v in enumerate(value) if (found := issue(v, expected.of, f"{where}[{i}]"))), "")
    if type(value) is not dict:
        return f"{at}expected {expected}, got {kind_of(value)}"
    return next((found for k, v in value.items() if (found := issue(v, expected.of, f"{where}[{_key(k)}]"))), "")


def _key(key: str) -> str:
    """A dict's key as a message names it: its repr, cut (a key may be the whole value)."""
    return repr(key if len(key) <= QUOTE_CAP else key[: QUOTE_CAP - 3] + "...")


def arguments_issue(signature: Signature, value: object) -> str:
    """Why a test input is not a call of the signature ("" when it is)."""
    if type(value) is not list:
        return f"expected a JSON array of the {len(signature.params)} argument(s), got {kind_of(value)}"
    if len(value) != len(signature.params):
        return f"{len(value)} argument(s), {signature.name} takes {len(signature.params)}"
    for index, (param, given) in enumerate(zip(signature.params, value, strict=True), start=1):
        found = issue(given, param.type, f"argument {index} ({param.name})")
        if found:
            return found
    return ""


def call_issue(api: Api, value: object) -> str:
    """Why a test input is not a call of the function, or a scenario of the class ("" when it is)."""
    if isinstance(api, Signature):
        return arguments_issue(api, value)
    if type(value) is not list or not value:
        return f'expected a JSON array of steps ([["{api.name}", ...], ["method", ...], ...]), got {kind_of(value)}'
    for number, step in enumerate(value, start=1):
        if type(step) is not list or not step or type(step[0]) is not str:
            return f'step {number}: expected ["name", arguments...], got {values_text(step)}'
        called = step_signature(api, number, step[0])
        if called is None:
            expected = f'the constructor ["{api.name}", ...]' if number == 1 else "a method of " + api.name
            return f"step {number}: {step[0]!r} is not {expected}"
        found = arguments_issue(called, step[1:])
        if found:
            return f"step {number} ({step[0]}): {found}"
    return ""


def step_signature(api: ClassSignature, number: int, name: str) -> Signature | None:
    """What a scenario's step (1-based) calls: the constructor first, then methods."""
    if number == 1:
        return api.made if name == api.name else None
    return api.method(name)


def answer_issue(api: Api, call: object, answer: object) -> str:
    """Why a case's answer is not of what the call returns ("" when it is); an exception
    ({"$raised": T}) is an answer any call may have. When the constructor raised, the
    scenario ends there: its answer is that one step."""
    if isinstance(api, Signature):
        return "" if raised(answer) is not None else issue(answer, api.returns, "the answer")
    assert isinstance(call, list)
    if type(answer) is not list:
        return f"the answer: expected a list of each step's value, got {kind_of(answer)}"
    made_raised = bool(answer) and raised(answer[0]) is not None
    if len(answer) != len(call) and not (made_raised and len(answer) == 1):
        return f"the answer: {len(answer)} value(s) for {len(call)} step(s)"
    for number, (step, value) in enumerate(zip(call, answer, strict=False), start=1):
        called = step_signature(api, number, step[0])
        if called is not None and raised(value) is None:
            found = issue(value, called.returns, f"the answer of step {number} ({step[0]})")
            if found:
                return found
    return ""


def values_text(value: object) -> str:
    return kind_of(value) if type(value) is not list else "[]"
