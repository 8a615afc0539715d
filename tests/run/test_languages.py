from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.run import languages


def test_the_four_languages() -> None:
    table = languages.load()
    assert set(table.languages) == {"c", "cpp", "python3", "java"}
    assert table.detect(Path("a/b/sol.CPP")).id == "cpp"
    assert table.detect(Path("x.py")).id == "python3"
    java = table.by_id("java")
    assert java.source_name("Solver") == "Solver.java"
    assert java.run_argv(256, "Solver")[:2] == ["java", "-Xmx256m"]
    assert "-XX:ActiveProcessorCount=1" in java.run_argv(256, "Solver")
    assert not java.address_space_limit and java.jvm_allowance_mib > 0
    assert table.by_id("c").compile_argv() == ["gcc", "-O2", "-std=gnu11", "-pipe", "-o", "main", "main.c", "-lm"]


def test_java_main_class() -> None:
    assert languages.java_main_class(b"class Helper {}\npublic final class Main { }") == "Main"
    assert languages.java_main_class(b"class Only { public static void main(String[] a) {} }") == "Only"
    assert languages.java_main_class(b"// nothing here") == "Main"


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        (
            "x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: ['{nope}']\n  version: [x]\n",
            "unknown placeholder {nope}",
        ),
        ("x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: ['./{binary}']\n  version: [x]\n", "has no `binary`"),
        ("x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: [a]\n  version: [x]\n  colour: red\n", "colour"),
        ("x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: []\n  version: [x]\n", "run"),
    ],
)
def test_bad_language_tables_are_refused(tmp_path: Path, yaml_text: str, message: str) -> None:
    path = tmp_path / "languages.yaml"
    path.write_text(yaml_text)
    with pytest.raises(JudgeError, match=message.replace("{", r"\{").replace("}", r"\}")):
        languages.load(path)
