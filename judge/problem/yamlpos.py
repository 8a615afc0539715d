"""YAML loading that remembers where every value came from.

pydantic reports an error as a path (`groups`, 1, `points`); this module maps such a
path back to the line of the YAML node, so that a teacher reads
`problem.yaml:14: groups[1].points: ...` instead of hunting for the key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

try:  # the C loader is much faster where PyYAML was built with libyaml
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

PathKey = tuple[str | int, ...]
# Values a file may hold once its aliases are expanded: a spec has hundreds; ten lines of
# nested aliases name billions (each `*a` is a copy here), which would hold the process.
MOST_VALUES = 200_000


class YamlError(Exception):
    """A YAML file that cannot be read or parsed; `line` is 1-based (0 when unknown)."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Located:
    """Plain data from a YAML file, plus the line of every key and list item."""

    path: Path
    data: Any
    lines: dict[PathKey, int]

    def line_of(self, loc: Sequence[str | int]) -> int:
        """Line of the deepest node on `loc` that exists (unknown parts, such as a union tag, are skipped)."""
        best = self.lines.get((), 1)
        node: Any = self.data
        here: PathKey = ()
        for part in loc:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                continue
            here = here + (part,)
            best = self.lines.get(here, best)
        return best


def load(path: Path) -> Located:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise YamlError(path, 0, "file not found") from None
    except UnicodeDecodeError as err:
        raise YamlError(path, 0, f"not UTF-8 text ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise YamlError(path, 0, err.strerror or str(err)) from None
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark is not None else 0
        raise YamlError(path, line, f"YAML syntax: {err.problem or err.context}") from None
    except yaml.reader.ReaderError as err:  # a character YAML does not allow (NUL, say)
        line = text.count("\n", 0, err.position) + 1
        code = err.character if isinstance(err.character, int) else ord(err.character)
        raise YamlError(path, line, f"YAML: character U+{code:04X} is not allowed in YAML text") from None
    except yaml.YAMLError as err:
        raise YamlError(path, 0, "YAML: " + " ".join(str(err).split())) from None
    if root is None:
        raise YamlError(path, 1, "the file is empty")
    lines: dict[PathKey, int] = {}
    data = _Converter(path, lines).convert(root, ())
    return Located(path, data, lines)


class _Converter:
    def __init__(self, path: Path, lines: dict[PathKey, int]) -> None:
        self.path = path
        self.lines = lines
        self.count = 0
        # Only used to turn scalar nodes into Python values by the YAML safe rules.
        self.loader = _Loader("")

    def convert(self, node: yaml.Node, here: PathKey) -> Any:
        self.count += 1
        if self.count > MOST_VALUES:
            raise YamlError(
                self.path,
                node.start_mark.line + 1,
                f"more than {MOST_VALUES} values once its aliases (*name) are expanded: write it out, smaller",
            )
        self.lines.setdefault(here, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise YamlError(self.path, key_node.start_mark.line + 1, "a key must be a plain value")
                key = self.scalar(key_node)
                if key in out:
                    raise YamlError(self.path, key_node.start_mark.line + 1, f"duplicate key {key!r}")
                # A key's error is best shown on the key's own line, not its value's.
                self.lines[here + (key,)] = key_node.start_mark.line + 1
                out[key] = self.convert(value_node, here + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, here + (i,)) for i, item in enumerate(node.value)]
        return self.scalar(node)

    def scalar(self, node: yaml.Node) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as err:
            raise YamlError(self.path, node.start_mark.line + 1, f"YAML: {err}") from None
