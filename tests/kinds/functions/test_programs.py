"""What each family's program is made of, from the signature (pure)."""

from __future__ import annotations

from judge.kinds.functions import programs, types
from judge.kinds.functions.families import FAMILIES


def test_c_takes_scalars_and_lists_of_them_and_says_so_of_the_rest() -> None:
    assert programs.c_declaration(types.parse("f(words: list[str], n: int) -> list[str]")) == (
        "char **f(const char **words, int words_len, int n, int *return_len)"
    )
    assert programs.c_declaration(types.parse("g(s: str, ok: bool) -> float")) == "double g(const char *s, bool ok)"
    assert programs.c_unoffered(types.parse("h(d: dict[str, int]) -> int")) == (
        "dict[str, int] is not offered in C (scalars and lists of scalars are): write it in another language"
    )
    assert programs.c_unoffered(types.parse("h(xs: list[list[int]]) -> int")).startswith(
        "list[list[int]] is not offered"
    )
    counter = types.parse_api("class Counter:\n  Counter(start: int)\n  total() -> int\n")
    assert programs.c_unoffered(counter).startswith("a class is not offered in C")


def test_a_class_program_dispatches_each_method_by_name() -> None:
    counter = types.parse_api("class Counter:\n  Counter(start: int)\n  add(k: int) -> None\n  total() -> long\n")
    entry, files = FAMILIES["cpp"].program(counter, b"class Counter {};")
    main = files[entry].decode()
    assert "std::make_unique<Counter>(a0)" in main
    assert 'name == "add"' in main and "self->add(a0);" in main and "self->total()" in main
    entry, files = FAMILIES["java"].program(counter, b"class Counter {}")
    assert "Counter.java" in files and files["function.txt"] == b"Counter\nclass\n"
    entry, files = FAMILIES["python"].program(counter, b"")
    assert files[programs.FUNCTION_FILE] == b'{"name": "Counter", "class": true}'


def test_a_type_map_names_each_type_in_its_language() -> None:
    written = types.parse_type("dict[str, list[int | None]]")
    assert programs.CPP_TYPES(written) == "std::map<std::string, std::vector<std::optional<int>>>"
    assert programs.GO_TYPES(written) == "map[string][]*int"
    assert programs.RUST_TYPES(written) == "HashMap<String, Vec<Option<i32>>>"
    assert programs.KOTLIN_TYPES(written) == "Map<String, List<Int?>>"
    assert programs.CSHARP_TYPES(written) == "Dictionary<string, int?[]>"
    # What may hold None already is not wrapped again (C#'s string, an array).
    assert programs.CSHARP_TYPES(types.parse_type("str | None")) == "string"
    assert programs.PYTHON_TYPES(types.parse_type("list[long] | None")) == "list[int] | None"
    assert programs.CPP_TYPES(types.Type("none")) == "void" and programs.RUST_TYPES(types.Type("none")) == "()"
