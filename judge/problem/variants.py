"""Per-student variants of a problem, as data (pure): which variant a student gets, its seed,
its parameters as the params program printed them, the statement with them filled in, and
the spec whose generators the variant's seed feeds. Making a variant's files is the
author's (judge.author.variants)."""

from __future__ import annotations

import hashlib
import json
import math
import re
import shlex
from dataclasses import dataclass

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from judge.errors import JudgeError
from judge.problem.spec import PARAM_NAME, ProblemSpec, Variants

MAX_PARAMS = 64
MAX_PARAMS_BYTES = 64 << 10
MAX_STATEMENT_BYTES = 1 << 20  # a statement's rendered size: no template fills a page or a disk
MAX_POWER_DIGITS = 4096  # `a ** b` whose result would be longer is refused before it is computed
Value = int | float | str | bool


@dataclass(frozen=True)
class Chosen:
    """The variant a student gets: its label (shown to the teacher) and its seed."""

    label: str
    seed: int


def _number(*words: str) -> int:
    digest = hashlib.sha256("\0".join(words).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def chosen(variants: Variants, salt: str, problem_id: str, student: str) -> Chosen:
    """A student's variant: a digest of the salt (kept secret, so no student can work out
    another's), the problem and the student; the same every time, in every process."""
    drawn = _number("judge-variant", salt, problem_id, student)
    if variants.count is not None:
        return numbered(problem_id, drawn % variants.count)
    seed = drawn & 0x7FFFFFFF
    return Chosen(f"s{seed:08x}", seed)


def numbered(problem_id: str, index: int) -> Chosen:
    """Variant number `index` (0-based) of a problem with a `count`: the same for everyone given it."""
    return Chosen(f"v{index + 1}", _number("judge-variant-index", problem_id, str(index)) & 0x7FFFFFFF)


def sample(variants: Variants, problem_id: str) -> list[Chosen]:
    """The variants `judge verify` checks: the first ones of a count, or as many students' seeds."""
    if variants.count is not None:
        return [numbered(problem_id, i) for i in range(min(variants.count, variants.verify_sample))]
    return [chosen(variants, "judge-verify", problem_id, f"sample-{i}") for i in range(variants.verify_sample)]


BASE_SEED = 0  # the params of tests/, the problem's own unvaried copy (the teacher's)


def group_seed(variant_seed: int, seed: int) -> int:
    """A generated group's seed in a variant: its own per variant, unrelated to its neighbours'."""
    return _number("judge-variant-group", str(variant_seed), str(seed)) & 0x7FFFFFFF


def parse_params(text: str, label: str) -> dict[str, Value]:
    """The params program's output: one JSON object of named numbers, strings and booleans;
    JudgeError in one line naming `label` otherwise."""
    if len(text.encode()) > MAX_PARAMS_BYTES:
        raise JudgeError(f"{label}: more than {MAX_PARAMS_BYTES >> 10} KiB of parameters")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except ValueError as err:
        raise JudgeError(f"{label}: not one JSON object: {err}") from None
    if not isinstance(data, dict) or len(data) > MAX_PARAMS:
        raise JudgeError(f"{label}: not one JSON object of at most {MAX_PARAMS} parameters")
    for name, value in data.items():
        if not re.fullmatch(PARAM_NAME, name):
            raise JudgeError(f"{label}: parameter {name!r}: a name is a lower-case letter, then letters, digits, _")
        if not isinstance(value, int | float | str | bool):
            raise JudgeError(f"{label}: parameter {name!r}: a number, a string or a boolean, not {value!r}")
        if isinstance(value, float) and not math.isfinite(value):  # 1e999 parses as inf
            raise JudgeError(f"{label}: parameter {name!r}: a finite number, not {value!r}")
    return data


def _no_constant(word: str) -> None:
    # NaN, Infinity and -Infinity: no JSON numbers, and no generator's argument.
    raise ValueError(f"{word} is not a number")


class _Bounded(ImmutableSandboxedEnvironment):
    """The sandbox with `**` and `*` refused where their result would be huge: a template's
    size and time are also bounded by the process that renders it (judge.author.variants),
    this says why in the statement's words before that runs out."""

    intercepted_binops = frozenset({"**", "*"})

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: object, right: object) -> object:
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
            if right * math.log10(abs(left)) > MAX_POWER_DIGITS:
                raise JudgeError(f"{left} ** {right} has more than {MAX_POWER_DIGITS} digits")
        if operator == "*":
            for many, times in ((left, right), (right, left)):
                if (
                    isinstance(many, str | list | tuple)
                    and isinstance(times, int)
                    and len(many) * times > MAX_STATEMENT_BYTES
                ):
                    raise JudgeError(f"a repeat longer than {MAX_STATEMENT_BYTES >> 20} MiB")
        return super().call_binop(context, operator, left, right)


def _environment() -> _Bounded:
    # An empty loader (no include, import or extends can read a file), no globals (no range, lipsum,
    # cycler...), and the sandbox refuses underscored attributes and unsafe calls: a template
    # reaches its parameters and nothing else. StrictUndefined: a misspelt name is an error.
    env = _Bounded(
        loader=jinja2.DictLoader({}), undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True
    )
    env.globals.clear()
    return env


def render_statement(text: str, params: dict[str, Value], label: str) -> str:
    """The statement with the variant's parameters filled in; JudgeError in one line naming
    `label` (the statement file) on a template that does not parse, reaches past the
    parameters, fails as it runs (a filter given the wrong type, say) or makes more than
    MAX_STATEMENT_BYTES."""
    try:
        parts: list[str] = []
        size = 0
        for part in _environment().from_string(text).generate(params):
            size += len(part.encode())
            if size > MAX_STATEMENT_BYTES:
                raise JudgeError(f"more than {MAX_STATEMENT_BYTES >> 20} MiB of statement")
            parts.append(part)
        return "".join(parts)
    except jinja2.TemplateSyntaxError as err:
        raise JudgeError(f"{label}:{err.lineno}: statement template: {err.message}") from None
    except MemoryError:
        raise JudgeError(f"{label}: statement template: ran out of memory") from None
    except Exception as err:  # a filter's TypeError as much as the sandbox's refusal: the teacher's file
        said = " ".join(str(err).split()) or type(err).__name__
        raise JudgeError(f"{label}: statement template: {said}") from None


def variant_spec(spec: ProblemSpec, seed: int | None, params: dict[str, Value], label: str) -> ProblemSpec:
    """The spec of one variant: each generated group's seed its own (kept as it is for the
    seed None: tests/, the teacher's copy), each `generate` command's {name} placeholders the
    variant's parameters (JudgeError naming `label` for one unknown)."""
    groups = []
    for group in spec.groups:
        update: dict[str, object] = {}
        if group.seed is not None and seed is not None:
            update["seed"] = group_seed(seed, group.seed)
        if group.generate is not None:
            update["generate"] = _filled(group.generate, params, f"{label}: groups ({group.name}): generate")
        groups.append(group.model_copy(update=update))
    return spec.model_copy(update={"groups": tuple(groups)})


def _filled(command: str, params: dict[str, Value], label: str) -> str:
    def value(found: re.Match[str]) -> str:
        name = found[1]
        if name in ("seed", "case"):
            return found[0]  # the case's own, filled in when it is generated
        if name not in params:
            known = ", ".join(sorted(params)) or "none"
            raise JudgeError(f"{label}: {{{name}}} is not a parameter of the variant (known: {known})")
        given = params[name]
        text = json.dumps(given) if isinstance(given, bool) else str(given)
        # One word of the command whatever it holds, and no placeholder of its own.
        return shlex.quote(text).replace("{", "{{").replace("}", "}}")

    return re.sub(r"\{([a-z][a-z0-9_]*)\}", value, command)
