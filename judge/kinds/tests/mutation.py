"""Mutants of a reference (pure: no I/O): the classic operators, each mutant one small change
named by its operator and the reference's line, e.g. `mutant: line 12, < for <=` (`<` where the
reference has `<=`). Python through `ast`; C and C++ through a token-level rewrite that leaves
comments, strings, preprocessor lines and template brackets alone. Deterministic: the same
text gives the same mutants in the same order."""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

OPERATORS = ("compare", "constant", "negate", "drop")
FAMILIES = ("python", "c", "cpp")  # the language families whose references can be mutated
SWAPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
SLUGS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}


@dataclass(frozen=True)
class Mutant:
    """One mutant: the reference's text with one change."""

    operator: str
    line: int  # of the reference
    what: str  # "< for <=", "11 for 10", "condition negated", "statement dropped"
    slug: str  # the same for a group's name: "12-lt-for-le"
    text: str
    occurrence: int = 1  # the nth change of the same name on its line
    file: str = ""  # which file of a reference of several (a unit problem's modules); "" of one

    @property
    def name(self) -> str:
        again = f" ({self.occurrence})" if self.occurrence > 1 else ""
        where = f"{self.file} line" if self.file else "line"
        return f"mutant: {where} {self.line}, {self.what}{again}"

    @property
    def group(self) -> str:
        again = f"-{self.occurrence}" if self.occurrence > 1 else ""
        where = re.sub(r"[^a-z0-9]+", "-", PurePosixPath(self.file).stem.lower()).strip("-") + "-" if self.file else ""
        return f"mutant-{where}{self.slug}{again}"


def in_files(files: Sequence[tuple[str, str]], operators: Sequence[str]) -> tuple[Mutant, ...]:
    """The mutants of a Python reference of several files (name, text): each file's, named by it."""
    return tuple(replace(mutant, file=name) for name, text in files for mutant in mutants_of("python", text, operators))


def mutants_of(family: str, text: str, operators: Sequence[str]) -> tuple[Mutant, ...]:
    """Every mutant of a reference in `family` by the chosen operators, numbered where a line
    has two of one name; () when the text cannot be read (Python that does not parse)."""
    made = list(_python(text, operators) if family == "python" else _clike(text, operators, family == "cpp"))
    seen: dict[str, int] = {}
    numbered = []
    for mutant in sorted(made, key=lambda m: (m.line, OPERATORS.index(m.operator))):
        key = mutant.name
        seen[key] = seen.get(key, 0) + 1
        numbered.append(Mutant(mutant.operator, mutant.line, mutant.what, mutant.slug, mutant.text, seen[key]))
    return tuple(numbered)


def ordered(mutants: Sequence[Mutant], seed: str) -> tuple[Mutant, ...]:
    """The order mutants are tried in: the operators in turn (so a cap keeps some of each), each
    operator's in an order fixed by the seed (the reference's hash) and their names."""

    def rank(mutant: Mutant) -> str:
        return hashlib.sha256(f"{seed}\0{mutant.name}".encode()).hexdigest()

    queues = [sorted((m for m in mutants if m.operator == op), key=rank) for op in OPERATORS]
    found: list[Mutant] = []
    while any(queues):
        for queue in queues:
            if queue:
                found.append(queue.pop(0))
    return tuple(found)


# --- Python ------------------------------------------------------------------------------

_PY_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}
_PY_SIGNS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_DROPPED = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Break, ast.Continue)


def _main_guard(node: ast.AST) -> bool:
    # `if __name__ == "__main__"`: negating it drops the whole program, which any test catches.
    return any(isinstance(n, ast.Name) and n.id == "__name__" for n in ast.walk(node))


def _python_sites(tree: ast.Module, operators: Sequence[str]) -> Iterator[tuple[int, str, int, str]]:
    """(node index in ast.walk order, operator, line, detail) of each place a mutant can be made."""
    for index, node in enumerate(ast.walk(tree)):
        if isinstance(node, ast.Compare) and "compare" in operators and not _main_guard(node):
            for position, op in enumerate(node.ops):
                if type(op) in _PY_SWAPS:
                    yield index, "compare", node.lineno, str(position)
        elif isinstance(node, ast.Constant) and "constant" in operators:
            if isinstance(node.value, int) and not isinstance(node.value, bool):
                yield index, "constant", node.lineno, "+1"
                yield index, "constant", node.lineno, "-1"
        elif isinstance(node, ast.If | ast.While) and "negate" in operators and not _main_guard(node.test):
            yield index, "negate", node.lineno, ""
        if "drop" in operators:
            for field in ("body", "orelse", "finalbody"):
                for position, statement in enumerate(getattr(node, field, None) or ()):
                    if isinstance(statement, _DROPPED) and not _docstring(statement):
                        yield index, "drop", statement.lineno, f"{field}:{position}"


def _docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


def _python(text: str, operators: Sequence[str]) -> Iterator[Mutant]:
    try:
        sites = list(_python_sites(ast.parse(text), operators))
    except (SyntaxError, ValueError):
        return
    for index, operator, line, detail in sites:
        tree = ast.parse(text)
        node = next(n for i, n in enumerate(ast.walk(tree)) if i == index)
        what, slug = _python_change(node, operator, detail)
        yield Mutant(operator, line, what, f"{line}-{slug}", ast.unparse(ast.fix_missing_locations(tree)) + "\n")


def _python_change(node: ast.AST, operator: str, detail: str) -> tuple[str, str]:
    """Make the change on `node` (in place); (what, slug) it is."""
    if isinstance(node, ast.Compare):
        position = int(detail)
        old = type(node.ops[position])
        node.ops[position] = _PY_SWAPS[old]()
        new_sign, old_sign = _PY_SIGNS[_PY_SWAPS[old]], _PY_SIGNS[old]
        return f"{new_sign} for {old_sign}", f"{SLUGS[new_sign]}-for-{SLUGS[old_sign]}"
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, int)
        old_value = node.value
        node.value = old_value + (1 if detail == "+1" else -1)
        return f"{node.value} for {old_value}", f"{_number_slug(node.value)}-for-{_number_slug(old_value)}"
    if isinstance(node, ast.If | ast.While) and operator == "negate":
        node.test = ast.UnaryOp(ast.Not(), node.test)
        return "condition negated", "negated"
    field, place = detail.split(":")
    body = getattr(node, field)
    body[int(place)] = ast.copy_location(ast.Pass(), body[int(place)])
    return "statement dropped", "dropped"


def _number_slug(value: int) -> str:
    return f"minus-{-value}" if value < 0 else str(value)


# --- C and C++: tokens -------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    kind: str  # "name", "number", "punct"
    text: str
    start: int
    end: int


_TOKEN = re.compile(
    r"""(?P<space>\s+)
    | (?P<comment>//[^\n]*|/\*.*?\*/)
    | (?P<raw>R"(?P<delim>[^(\s]{0,16})\(.*?\)(?P=delim)")
    | (?P<string>(?:u8|[uUL])?"(?:\\.|[^"\\\n])*"|(?:u8|[uUL])?'(?:\\.|[^'\\\n])*')
    | (?P<number>\.?\d(?:[\w.']|[eEpP][+-])*)
    | (?P<name>[A-Za-z_]\w*)
    | (?P<punct><<=|>>=|->\*|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|.)""",
    re.VERBOSE | re.DOTALL,
)
_DECIMAL = re.compile(r"^(0|[1-9]\d*)([uUlL]*)$")
# What a template's angle brackets may hold; anything else makes `<` a comparison.
_IN_TEMPLATE = {"::", ",", "*", "&", "&&", "(", ")", "[", "]"}
_STATEMENT_SECOND = {"=", "++", "--", "(", "[", ".", "->", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^="}
_STATEMENT_SECOND |= {"<<=", ">>="}
_KEYWORDS = {
    "return", "if", "for", "while", "else", "do", "switch", "case", "default", "goto", "const", "static",
    "struct", "class", "using", "typedef", "template", "typename", "namespace", "public", "private",
    "protected", "auto", "unsigned", "signed", "long", "short", "int", "char", "double", "float", "bool",
    "void", "operator", "new", "delete", "throw", "try", "catch", "sizeof", "enum", "union",
}  # fmt: skip


def tokens(text: str) -> list[Token]:
    """The code's tokens, without comments, strings, character literals and preprocessor lines."""
    found: list[Token] = []
    line_start = True
    position = 0
    while position < len(text):
        if line_start and text[position:].lstrip(" \t").startswith("#"):
            position = _line_end(text, position)  # a preprocessor line, with its continuations
            continue
        match = _TOKEN.match(text, position)
        assert match is not None  # the last alternative takes any character
        kind = match.lastgroup if match.lastgroup != "delim" else "raw"
        if kind in ("number", "name", "punct"):
            found.append(Token(kind, match.group(), match.start(), match.end()))
        line_start = kind in ("space", "comment") and (line_start or "\n" in match.group())
        if kind in ("number", "name", "punct", "string", "raw"):
            line_start = False
        position = match.end()
    return found


def _line_end(text: str, position: int) -> int:
    while True:
        end = text.find("\n", position)
        if end < 0:
            return len(text)
        if not text[:end].rstrip("\r").endswith("\\"):
            return end + 1
        position = end + 1


def _template_brackets(found: list[Token]) -> set[int]:
    """Indexes of `<` and `>` tokens that are a template's brackets (vector<int>, template <class T>)."""
    brackets: set[int] = set()
    for index, token in enumerate(found):
        if token.text != "<" or index == 0 or found[index - 1].kind != "name":
            continue
        if found[index - 1].text == "operator":
            brackets.add(index)
            continue
        depth, opened, scan = 1, [index], index + 1
        while scan < len(found) and depth:
            text = found[scan].text
            if text == "<":
                depth += 1
                opened.append(scan)
            elif text in (">", ">>"):
                depth -= 1 if text == ">" else 2
                opened.append(scan)
            elif found[scan].kind == "punct" and text not in _IN_TEMPLATE:
                break
            scan += 1
        if depth <= 0:
            brackets.update(opened)
    return brackets


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _clike(text: str, operators: Sequence[str], cpp: bool) -> Iterator[Mutant]:
    found = tokens(text)
    template = _template_brackets(found) if cpp else set()
    inside = _in_body(found)

    def made(operator: str, start: int, end: int, new: str, what: str, slug: str) -> Mutant:
        line = _line_of(text, start)
        return Mutant(operator, line, what, f"{line}-{slug}", text[:start] + new + text[end:])

    for index, token in enumerate(found):
        previous = found[index - 1].text if index else ""
        if "compare" in operators and token.text in SWAPS and index not in template and previous != "operator":
            new = SWAPS[token.text]
            yield made("compare", token.start, token.end, new, f"{new} for {token.text}", _swap_slug(new, token.text))
        number = _DECIMAL.match(token.text) if token.kind == "number" else None
        if previous == "return" and index + 1 < len(found) and found[index + 1].text == ";":
            number = None  # `return 0;` of main: its change is an exit code, which any test sees
        if "constant" in operators and number:
            value, suffix = int(number.group(1)), number.group(2)
            for step in (1, -1):
                new_value = value + step
                shown = f"{new_value}{suffix}" if new_value >= 0 else f"({new_value}{suffix})"
                slug = f"{_number_slug(new_value)}-for-{value}"
                yield made("constant", token.start, token.end, shown, f"{new_value} for {value}", slug)
        if "negate" in operators and token.text in ("if", "while") and index + 1 < len(found):
            close = _closing(found, index + 1)
            if close is not None and found[index + 1].text == "(":
                inner = text[found[index + 1].end : found[close].start]
                yield made(
                    "negate", found[index + 1].start, found[close].end, f"(!({inner}))", "condition negated", "negated"
                )
        if "drop" in operators:
            end = _statement_end(found, index) if inside[index] else None
            if end is not None:
                yield made("drop", token.start, found[end].end, ";", "statement dropped", "dropped")


def _swap_slug(new: str, old: str) -> str:
    return f"{SLUGS[new]}-for-{SLUGS[old]}"


def _closing(found: list[Token], opening: int) -> int | None:
    """The index of the `)` closing the `(` at `opening`."""
    depth = 0
    for index in range(opening, len(found)):
        depth += {"(": 1, ")": -1}.get(found[index].text, 0)
        if depth == 0:
            return index
    return None


def _statement_end(found: list[Token], index: int) -> int | None:
    """The `;` ending an expression statement that starts at `index` in a body (after `;`,
    `{`, `}`, `)` or `else`; a name then an assignment, a call, an index, a shift; `++x`; break,
    continue), else None. A declaration is never dropped: what follows would not compile."""
    previous = found[index - 1].text if index else ""
    if previous not in (";", "{", "}", ")", "else"):  # `)`: the body of an if, for or while
        return None
    token = found[index]
    if token.text in ("break", "continue"):
        return index + 1 if index + 1 < len(found) and found[index + 1].text == ";" else None
    scan = index
    if token.text in ("++", "--"):
        scan += 1
    elif token.kind != "name" or token.text in _KEYWORDS:
        return None
    else:
        while scan + 2 < len(found) and found[scan + 1].text == "::" and found[scan + 2].kind == "name":
            scan += 2
        if scan + 1 >= len(found) or found[scan + 1].text not in _STATEMENT_SECOND:
            return None
    depth = 0
    for end in range(scan, len(found)):
        text = found[end].text
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(text, 0)
        if depth < 0:
            return None
        if text == ";" and depth == 0:
            return end
    return None


def _in_body(found: list[Token]) -> list[bool]:
    """Of each token: inside braces and outside parentheses (a for's header is no statement)."""
    braces = parens = 0
    inside = []
    for token in found:
        inside.append(braces > 0 and parens == 0)
        braces += {"{": 1, "}": -1}.get(token.text, 0)
        parens += {"(": 1, ")": -1}.get(token.text, 0)
    return inside
