from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.run import languages


def test_the_languages_and_their_names_after_kattis() -> None:
    table = languages.load()
    # The ids of Kattis' languages.yaml where it has the language, so imports map by name.
    kattis = {"c", "cpp", "csharp", "go", "haskell", "java", "javascript", "kotlin", "ocaml", "pascal", "php"}
    kattis |= {"prolog", "python3", "ruby", "rust", "scala"}
    assert kattis <= set(table.languages)
    assert {"cpp20", "pypy3", "typescript", "lua", "perl", "fortran"} <= set(table.languages)
    assert all(language.package for language in table.languages.values())
    assert table.detect(Path("a.kt")).id == "kotlin" and table.detect(Path("a.ml")).id == "ocaml"
    assert table.detect(Path("a/b/sol.CPP")).id == "cpp"
    assert table.detect(Path("x.py")).id == "python3"
    java = table.by_id("java")
    assert java.source_name("Solver") == "Solver.java"
    assert java.run_argv(256, "Solver")[:2] == ["java", "-Xmx256m"]
    assert "-XX:ActiveProcessorCount=1" in java.run_argv(256, "Solver")
    assert not java.address_space_limit and java.jvm_allowance_mib > 0
    assert table.by_id("c").compile_argv() == ["gcc", "-O2", "-std=gnu11", "-pipe", "-o", "main", "main.c", "-lm"]


def test_main_classes() -> None:
    java = languages.load().by_id("java")
    assert java.main_class(b"class Helper {}\npublic final class Main { }") == "Main"
    assert java.main_class(b"class Only { public static void main(String[] a) {} }") == "Only"
    assert java.main_class(b"// nothing here") == "Main"
    assert languages.load().by_id("scala").main_class(b"object Solver extends App { }") == "Solver"


def test_a_main_class_in_a_package_runs_by_its_full_name() -> None:
    java = languages.load().by_id("java")
    source = b"/* package comment; */\npackage zoo.goo .b;\nimport foo.A;\npublic class B { }\n"
    assert java.main_class(source) == "zoo.goo.b.B"
    assert java.source_name("zoo.goo.b.B") == "B.java"  # javac wants a public class in its own file
    assert java.run_argv(256, "zoo.goo.b.B")[-1] == "zoo.goo.b.B"
    scala = languages.load().by_id("scala")
    assert scala.main_class(b"package tools.cli\n\nobject Run extends App { }\n") == "tools.cli.Run"


def test_a_language_environment_goes_in_through_env() -> None:
    go = languages.load().by_id("go")
    argv = go.compile_argv()
    assert argv is not None and argv[0] == "env" and "GOCACHE=/tmp/go-cache" in argv
    assert argv[argv.index("go") :] == ["go", "build", "-o", "main", "main.go"]
    # Go's variables are its toolchain's: its runs start the program itself, with no env(1) before it
    assert go.run_argv(256) == ["./main"]
    csharp = languages.load().by_id("csharp")
    assert csharp.run_argv(256)[:2] == ["env", "XDG_CONFIG_HOME=/tmp"]  # mono reads its config at run time


def test_a_missing_toolchain_names_its_package(tmp_path: Path) -> None:
    path = tmp_path / "languages.yaml"
    path.write_text(
        "x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: [no-such-runtime-here]\n  version: [no-such-runtime-here]\n  package: x-runtime\n"
    )
    why = languages.load(path).by_id("x").missing()
    assert why == "no X toolchain here: `no-such-runtime-here` not found (apt-get install x-runtime)"


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        (
            "x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: ['{nope}']\n  version: [x]\n  package: p\n",
            "unknown placeholder {nope}",
        ),
        (
            "x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: ['./{binary}']\n  version: [x]\n  package: p\n",
            "has no `binary`",
        ),
        ("x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: [a]\n  version: [x]\n  colour: red\n", "colour"),
        ("x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: []\n  version: [x]\n", "run"),
        ("x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: [a]\n  version: [x]\n", "package"),
        (
            "x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: [a]\n  version: [x]\n  package: p\n  compile_reads: [var]\n",
            "not an absolute folder",
        ),
        (
            "x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: [a]\n  version: [x]\n  package: p\n  env: {A: '{memory_mib}'}\n",
            "plain text",
        ),
        (
            "x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: [a]\n  version: [x]\n  package: p\n  family: Py 3\n",
            "should match pattern",
        ),
        (
            "x:\n  name: X\n  extensions: [x]\n  source: a.x\n  run: [a]\n  version: [x]\n  package: p\n  keeps_suffix: [y]\n",
            "not in extensions",
        ),
    ],
)
def test_bad_language_tables_are_refused(tmp_path: Path, yaml_text: str, message: str) -> None:
    path = tmp_path / "languages.yaml"
    path.write_text(yaml_text)
    with pytest.raises(JudgeError, match=message.replace("{", r"\{").replace("}", r"\}")):
        languages.load(path)


def test_languages_of_one_source_share_a_family() -> None:
    table = languages.load()
    assert table.by_id("python3").family == table.by_id("pypy3").family == "python"
    assert table.by_id("cpp").family == table.by_id("cpp20").family == "cpp"
    assert table.by_id("haskell").family is None


def test_domjudges_suffixes_name_their_languages() -> None:
    table = languages.load()
    found = {name: table.detect(Path(name), b"x\n").id for name in ("a.p", "a.plg", "a.sh", "a.bash", "a.awk")}
    found |= {name: table.detect(Path(name), b"x\n").id for name in ("a.R", "a.r", "a.adb", "a.mjs")}
    assert found == {
        "a.p": "pascal",
        "a.plg": "prolog",
        "a.sh": "bash",
        "a.bash": "bash",
        "a.awk": "awk",
        "a.R": "r",
        "a.r": "r",
        "a.adb": "ada",
        "a.mjs": "javascript",
    }


def test_an_es_module_keeps_its_suffix_in_the_box() -> None:
    javascript = languages.load().by_id("javascript")
    assert javascript.source_name("Main", "solution.mjs") == "main.mjs"
    assert javascript.source_name("Main", "solution.js") == "main.js"
    assert languages.load().by_id("python3").source_name("Main", "x.mjs") == "main.py"
