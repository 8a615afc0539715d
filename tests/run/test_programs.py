"""A problem's own programs: files or folders, built once by content hash, run in the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.run import programs, sandbox
from judge.run.programs import ProgramError, Task, ToolLimits
from tests import needs

LIMITS = ToolLimits(time_s=2, memory_mib=256, output_bytes=1 << 20)


def _task(built: programs.Built, stdin: bytes = b"", args: tuple[str, ...] = ()) -> Task:
    return Task(built, args, stdin, LIMITS.sandbox_limits(built))


def test_a_folder_with_its_own_header_builds_once_and_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "check"
    folder.mkdir()
    (folder / "twice.h").write_text("inline long twice(long v) { return 2 * v; }\n")
    (folder / "main.cpp").write_text(
        '#include <cstdio>\n#include "twice.h"\nint main(){long v; std::scanf("%ld",&v); std::printf("%ld\\n", twice(v));}\n'
    )
    built = programs.load_and_build(folder, 256)
    assert programs.run(_task(built, b"21\n")).stdout == b"42\n"

    def no_compiling(*args: object, **kwargs: object) -> sandbox.RunResult:
        raise AssertionError("compiled again")

    monkeypatch.setattr(sandbox, "run", no_compiling)
    assert programs.load_and_build(folder, 256).directory == built.directory  # the cache, by content
    monkeypatch.undo()
    (folder / "twice.h").write_text("inline long twice(long v) { return 3 * v; }\n")
    changed = programs.load_and_build(folder, 256)
    assert changed.directory != built.directory
    assert programs.run(_task(changed, b"21\n")).stdout == b"63\n"


def test_a_python_folder_runs_its_main_with_arguments(tmp_path: Path) -> None:
    folder = tmp_path / "gen"
    folder.mkdir()
    (folder / "helper.py").write_text("def square(v):\n    return v * v\n")
    (folder / "main.py").write_text("import sys\nfrom helper import square\nprint(square(int(sys.argv[1])))\n")
    built = programs.load_and_build(folder, 256)
    assert programs.run(_task(built, args=("12",))).stdout == b"144\n"


@needs.mark("java")
def test_a_java_folder_of_two_packages_runs_its_main_class_by_its_full_name(tmp_path: Path) -> None:
    # As DOMjudge's own example (hello/submissions/accepted/multifile-multipackage) has it.
    folder = tmp_path / "two-packages"
    folder.mkdir()
    (folder / "A.java").write_text(
        'package foo.bar.a;\npublic class A { public static String hi() { return "hi"; } }\n'
    )
    (folder / "B.java").write_text(
        "package zoo.b;\nimport foo.bar.a.A;\n"
        "public class B { public static void main(String[] args) { System.out.println(A.hi()); } }\n"
    )
    built = programs.load_and_build(folder, 256)
    assert built.argv[-1] == "zoo.b.B"
    assert programs.run(_task(built)).stdout == b"hi\n"


def test_a_program_writes_only_into_a_copy_of_its_build(tmp_path: Path) -> None:
    source = tmp_path / "scribble.py"
    source.write_text(
        "import os\n"
        "for attempt in (lambda: open('scribble.py', 'w').write('broken'), lambda: os.remove('scribble.py')):\n"
        "    try:\n        attempt()\n    except OSError:\n        pass\n"
        "open('left-behind', 'w').write('x')\nprint('done')\n"
    )
    built = programs.load_and_build(source, 256)
    assert programs.run(_task(built)).stdout == b"done\n"
    assert programs.run(_task(built)).stdout == b"done\n"  # the cached build is intact
    # The entry file is written under its language's own name (main.py), as a submission's is.
    assert sorted(p.name for p in built.directory.iterdir()) == [".built", "main.py"]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "empty folder"),
        ({"a.py": "print(1)\n", "b.cpp": "int main(){}\n"}, "source files of one language (found: cpp, python3"),
        ({"notes.txt": "hello\n"}, "found: none"),
        ({"src/a.py": "print(1)\n"}, "no Python 3 source at the top of the folder"),
    ],
)
def test_unusable_folders_are_named(tmp_path: Path, files: dict[str, str], message: str) -> None:
    folder = tmp_path / "prog"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    with pytest.raises(ProgramError, match="prog") as caught:
        programs.load(folder)
    assert message in str(caught.value)


def test_a_program_that_does_not_compile_says_why(tmp_path: Path) -> None:
    source = tmp_path / "bad.cpp"
    source.write_text("int main( {\n")
    with pytest.raises(ProgramError, match=r"bad.cpp: does not compile: .*error"):
        programs.load_and_build(source, 256)


def test_failures_are_told_in_a_few_words(tmp_path: Path) -> None:
    loop = tmp_path / "loop.py"
    loop.write_text("while True:\n    pass\n")
    flood = tmp_path / "flood.py"
    flood.write_text("import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n")
    sad = tmp_path / "sad.py"
    sad.write_text("import sys\nprint('no seed given', file=sys.stderr)\nsys.exit(3)\n")
    short = ToolLimits(time_s=0.5, memory_mib=256, output_bytes=1 << 16)
    results = programs.run_all(
        [
            Task(b, (), None, short.sandbox_limits(b))
            for b in (programs.load_and_build(p, 256) for p in (loop, flood, sad))
        ],
        jobs=2,
    )
    assert programs.failure(results[0]) == "went over its time limit"
    assert programs.failure(results[1]).startswith("went over its output limit")
    assert programs.failure(results[2]) == "exited with code 3 (no seed given)"


def test_a_long_stderr_keeps_both_ends() -> None:
    """Python (and C++) say what went wrong last, Java first: a long stderr is cut in the middle."""
    frames = "".join(f'  File "/box/gen.py", line {n}, in f{n}\n    f{n + 1}()\n' for n in range(40))
    python = f"Traceback (most recent call last):\n{frames}ValueError: n must be at most 1000\n".encode()
    shown = programs.stderr_tail(python)
    assert shown.startswith(" (Traceback (most recent call last):") and shown.endswith(
        "ValueError: n must be at most 1000)"
    )
    assert " ... " in shown and len(shown) <= programs.STDERR_SHOWN + 10
    java = (
        b'Exception in thread "main" java.lang.IllegalStateException: bad seed\n' + b"\tat Gen.main(Gen.java:9)\n" * 60
    )
    assert "IllegalStateException: bad seed" in programs.stderr_tail(java)
    assert programs.stderr_tail(b"one line\n") == " (one line)" and programs.stderr_tail(b"\n \n") == ""


def test_a_folder_whose_names_tell_no_entry_runs_its_first_file_as_problemtools_does(tmp_path: Path) -> None:
    folder = tmp_path / "gen"
    folder.mkdir()
    (folder / "b_helper.py").write_text("print('helper')\n")
    (folder / "a_gen.py").write_text("import b_helper\nprint('gen')\n")
    assert programs.load(folder).main == "a_gen.py"
    assert programs.run(_task(programs.load_and_build(folder, 256))).stdout == b"helper\ngen\n"
