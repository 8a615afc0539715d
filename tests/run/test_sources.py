"""A program's files: one file, a folder, or an archive read under the untrusted-archive rules,
its language and its entry point by the language's convention (no processes here)."""

from __future__ import annotations

import gzip
import io
import os
import re
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from judge.run import sources
from judge.run.sources import Caps, NoLanguage, SourceError

MAIN_JAVA = "public class Solution { public static void main(String[] a) { System.out.println(Adder.add(1, 2)); } }\n"
ADDER_JAVA = "public class Adder { static int add(int a, int b) { return a + b; } }\n"


def _folder(root: Path, files: dict[str, str | bytes], name: str = "sub") -> Path:
    folder = root / name
    for relative, content in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    folder.mkdir(exist_ok=True)
    return folder


def _zip(path: Path, entries: dict[str, bytes], links: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, "/etc/passwd")
    return path


def _tar(path: Path, entries: dict[str, bytes], link: tuple[str, str, bytes] | None = None) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        if link is not None:
            info = tarfile.TarInfo(link[0])
            info.type = tarfile.SYMTYPE if link[2] == b"sym" else tarfile.LNKTYPE
            info.linkname = link[1]
            tar.addfile(info)
    return path


def test_one_file_runs_under_its_languages_own_name(tmp_path: Path) -> None:
    path = tmp_path / "student07.py"
    path.write_text("print(1)\n")
    found = sources.read(path)
    assert found.single and found.language.id == "python3"
    assert found.box_files() == [("main.py", b"print(1)\n")]
    assert found.run_argv(256) == ["python3", "-S", "main.py"]
    assert found.content == b"print(1)\n"  # a file's hash is of its bytes, as before


def test_an_es_module_runs_as_main_mjs_and_its_modules_keep_their_names(tmp_path: Path) -> None:
    one = tmp_path / "sol.mjs"
    one.write_text("console.log(1);\n")
    assert sources.read(one).box_files() == [("main.mjs", b"console.log(1);\n")]
    folder = _folder(tmp_path, {"main.mjs": 'import "./module.mjs";\n', "module.mjs": "export {};\n"})
    found = sources.read(folder)
    assert found.language.id == "javascript" and found.main == "main.mjs"
    assert dict(found.box_files()).keys() == {"main.mjs", "module.mjs"}
    assert found.run_argv(256)[-1] == "main.mjs"


def test_java_the_class_with_main_is_the_entry_and_every_file_is_compiled(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"Adder.java": ADDER_JAVA, "Solution.java": MAIN_JAVA, "README.md": "notes\n"})
    found = sources.read(folder)
    assert (found.language.id, found.main, found.mainclass) == ("java", "Solution.java", "Solution")
    compile_argv = found.compile_argv()
    assert compile_argv is not None and compile_argv[-2:] == ["Solution.java", "Adder.java"]
    assert found.run_argv(256)[-1] == "Solution"
    assert [name for name, _ in found.listing()] == ["Adder.java", "Solution.java", "README.md"]


def test_java_with_two_mains_takes_main_else_asks(tmp_path: Path) -> None:
    other = "public class Other { public static void main(String[] a) {} }\n"
    main = "public class Main { public static void main(String[] a) {} }\n"
    both = _folder(tmp_path, {"Main.java": main, "Other.java": other}, "both")
    assert sources.read(both).main == "Main.java"
    neither = _folder(tmp_path, {"Solution.java": MAIN_JAVA, "Other.java": other}, "neither")
    with pytest.raises(SourceError, match=r"neither: 2 files with a main \(Other.java, Solution.java\)"):
        sources.read(neither)


@pytest.mark.parametrize(
    ("files", "entry"),
    [
        ({"main.py": "import helper\n", "helper.py": "x = 1\n"}, "main.py"),
        ({"lanqiao.py": "import helper\n", "helper.py": "x = 1\n"}, "lanqiao.py"),  # named after its folder
        ({"solve.py": "print(1)\n", "notes.txt": "hi\n"}, "solve.py"),  # the only one
    ],
)
def test_python_runs_main_py_or_the_folders_name_or_the_only_file(
    tmp_path: Path, files: dict[str, str], entry: str
) -> None:
    found = sources.read(_folder(tmp_path, dict(files), "lanqiao"))
    assert found.main == entry
    assert found.run_argv(64) == ["python3", "-S", "main.py"]
    assert ("main.py", files[entry].encode()) in found.box_files()


def test_a_folder_without_an_entry_says_which_names_it_looks_for(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"a.py": "print(1)\n", "b.py": "print(2)\n"}, "task")
    with pytest.raises(SourceError, match=r"task: 2 Python 3 files and none named main.py or task.py"):
        sources.read(folder)
    nested = _folder(tmp_path, {"src/main.py": "print(1)\n"}, "nested")
    with pytest.raises(SourceError, match=r"no Python 3 source at the top of the folder \(src/main.py"):
        sources.read(nested)


def test_c_compiles_every_source_together_with_its_headers_beside(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"add.h": "int add(int, int);\n", "add.c": "int add(int a, int b){return a+b;}\n"})
    (folder / "prog.c").write_text('#include "add.h"\nint main(void){return add(0, 0);}\n')
    found = sources.read(folder)
    assert found.main == ""  # no entry: one binary of all
    compile_argv = found.compile_argv()
    assert compile_argv is not None and compile_argv[-3:-1] == ["add.c", "prog.c"]
    assert ("add.h", b"int add(int, int);\n") in found.box_files()


def test_languages_are_one_per_program(tmp_path: Path) -> None:
    mixed = _folder(tmp_path, {"a.py": "print(1)\n", "b.rb": "puts 1\n"}, "mixed")
    with pytest.raises(SourceError, match=r"found: python3, ruby"):
        sources.read(mixed)
    with pytest.raises(NoLanguage, match="found: none"):
        sources.read(_folder(tmp_path, {"notes.txt": "hi\n"}, "none"))
    c_in_cpp = _folder(tmp_path, {"main.cpp": "int main(){}\n", "old.c": "int f(void){return 0;}\n"}, "cpp")
    assert sources.read(c_in_cpp).language.id == "cpp"
    assert sources.read(c_in_cpp, language_id="cpp20").language.id == "cpp20"


def test_a_bad_file_is_named_with_its_line(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"main.py": "import x\n", "x.py": b"a = 1\nb = '\xff'\n"}, "bad")
    with pytest.raises(SourceError, match=r"bad/x.py:2: not UTF-8 text"):
        sources.read(folder)
    binary = _folder(tmp_path, {"main.py": b"print(1)\0\n"}, "binary")
    with pytest.raises(SourceError, match=r"binary/main.py: binary file, not source code"):
        sources.read(binary)
    empty = tmp_path / "empty.py"
    empty.write_text("  \n")
    with pytest.raises(SourceError, match=r"empty.py: empty submission"):
        sources.read(empty)


def test_a_zip_of_a_folder_is_the_folder_and_leftovers_are_ignored(tmp_path: Path) -> None:
    archive = _zip(
        tmp_path / "lanqiao.zip",
        {
            "lanqiao/main.py": b"import helper\n",
            "lanqiao/helper.py": b"x = 1\n",
            "lanqiao/__pycache__/helper.cpython-311.pyc": b"\0\0",
            "__MACOSX/lanqiao/._main.py": b"\0",
            "lanqiao/.DS_Store": b"\0",
        },
    )
    found = sources.read(archive)
    assert [name for name, _ in found.files] == ["helper.py", "main.py"]
    assert not found.single and found.main == "main.py"


def test_a_tar_gz_reads_as_a_zip_does(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "x.tar.gz", {"main.py": b"import helper\n", "helper.py": b"x = 1\n"})
    assert [name for name, _ in sources.read(archive).files] == ["helper.py", "main.py"]
    dotted = _tar(tmp_path / "y.tgz", {"./main.py": b"import helper\n", "./helper.py": b"x = 1\n"})  # tar -C dir .
    assert [name for name, _ in sources.read(dotted).files] == ["helper.py", "main.py"]


def test_an_archive_too_big_to_hold_the_cap_is_not_even_read(tmp_path: Path) -> None:
    archive = tmp_path / "big.zip"
    archive.write_bytes(b"\0" * (3 << 20))
    with pytest.raises(SourceError, match=r"big.zip: 3145728 bytes, over 1 MiB of files"):
        sources.read(archive)


@pytest.mark.parametrize(
    ("entries", "links", "message"),
    [
        ({"../evil.py": b"x\n", "main.py": b"x\n"}, (), "would be written outside its folder"),
        ({"/etc/cron.d/x.py": b"x\n"}, (), "would be written outside its folder"),
        ({"main.py": b"x\n"}, ("helper.py",), "is a symbolic link; refused"),
        ({f"f{i}.py": b"x\n" for i in range(101)}, (), "101 files, more than 100"),
        ({"main.py": b"#" * (2 << 20)}, (), "unpacks to over 1 MiB; refused"),
        ({"main.py": b"x\n", "MAIN.py/../main.py": b"y\n"}, (), "would be written outside"),
    ],
)
def test_hostile_zips_are_refused_before_anything_is_used(
    tmp_path: Path, entries: dict[str, bytes], links: tuple[str, ...], message: str
) -> None:
    archive = _zip(tmp_path / "s.zip", entries, links)
    with pytest.raises(SourceError, match=message):
        sources.read(archive)


@pytest.mark.parametrize(
    ("entries", "link", "message"),
    [
        ({"main.py": b"x\n"}, ("helper.py", "/etc/passwd", b"sym"), "is a link or a device; refused"),
        ({"main.py": b"x\n"}, ("helper.py", "main.py", b"hard"), "is a link or a device; refused"),
        ({"../main.py": b"x\n"}, None, "would be written outside its folder"),
        ({"main.py": b"\0" * (8 << 20)}, None, "unpacks to over 1 MiB; refused"),  # a gzip bomb, cut at the cap
    ],
)
def test_hostile_tars_are_refused(
    tmp_path: Path, entries: dict[str, bytes], link: tuple[str, str, bytes] | None, message: str
) -> None:
    archive = _tar(tmp_path / "s.tar.gz", entries, link)
    with pytest.raises(SourceError, match=message):
        sources.read(archive)


def test_broken_archives_say_so_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.zip").write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(SourceError, match=r"a.zip: not a readable zip file"):
        sources.read(tmp_path / "a.zip")
    (tmp_path / "a.tar.gz").write_bytes(gzip.compress(b"not a tar at all" * 40))
    with pytest.raises(SourceError, match=r"a.tar.gz: not a readable .tar.gz file"):
        sources.read(tmp_path / "a.tar.gz")


def test_a_folder_with_a_link_out_is_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"main.py": "print(1)\n"})
    (folder / "answers.py").symlink_to("/etc/passwd")
    with pytest.raises(SourceError, match=r"answers.py: a symbolic link"):
        sources.read(folder)


def test_a_build_script_only_where_the_problem_allows_it(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"main.c": "int main(void){return 0;}\n", "build": "gcc -o main main.c\n"})
    with pytest.raises(SourceError, match="has a `build` script, which this problem does not allow"):
        sources.read(folder)
    allowed = sources.read(folder, build_scripts="use")
    assert allowed.compile_argv() == ["sh", "build"]
    assert allowed.run_argv(64) == ["./main"]  # the language's own, as no `run` script came
    (folder / "run").write_text("exec ./main fast\n")
    assert sources.read(folder, build_scripts="use").run_argv(64) == ["sh", "run"]
    ignored = sources.read(folder, build_scripts="ignore")
    assert ignored.compile_argv() is not None and ignored.compile_argv() != ["sh", "build"]


def test_pack_and_read_back_give_the_same_files(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"Adder.java": ADDER_JAVA, "Solution.java": MAIN_JAVA, "lib/data.txt": "1 2\n"})
    name, data = sources.pack(folder)
    assert name == "sub.zip"
    assert sources.pack(folder) == (name, data)  # stable: the same bytes every time
    (tmp_path / name).write_bytes(data)
    assert sources.read(tmp_path / name).files == sources.read(folder).files
    before = sources.fingerprint(folder)
    (folder / "Adder.java").write_text(ADDER_JAVA.replace("a + b", "b + a"))
    assert sources.fingerprint(folder) != before


def test_caps_are_the_callers(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"main.py": "x = 1\n" * 100})
    with pytest.raises(SourceError, match="over 100 bytes of files together"):
        sources.read(folder, Caps(bytes=100, files=10))


@pytest.mark.parametrize("suffix", ["zip", "tar.gz"])
def test_an_archive_whose_file_is_another_entrys_folder_is_refused_in_one_line(tmp_path: Path, suffix: str) -> None:
    entries = {"main.py": b"print(1)\n", "a": b"x", "a/b.txt": b"y"}
    archive = (_zip if suffix == "zip" else _tar)(tmp_path / f"s.{suffix}", entries)
    with pytest.raises(SourceError, match=r"entries 'a' and 'a/b.txt' collide \('a' is a file and a folder\)"):
        sources.read(archive)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        # tarfile reads a name that is not UTF-8 with its bad bytes as lone surrogates
        (b"bad\xff.py", "entry 'bad\\udcff.py': its name is not UTF-8 text; refused"),
        (b"a/" * 40 + b"main.py", "is more than 32 folders deep; refused"),
        (b"x" * 256 + b".py", "its name is too long for a file system; refused"),
        (b"main\r.py", "entry 'main\\r.py': a control character in its name; refused"),
    ],
)
def test_an_entry_whose_name_no_box_or_report_holds_is_refused_in_one_line(
    tmp_path: Path, name: bytes, said: str
) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.GNU_FORMAT, errors="surrogateescape") as tar:
        info = tarfile.TarInfo(name.decode("utf-8", "surrogateescape"))
        info.size = 2
        tar.addfile(info, io.BytesIO(b"1\n"))
    (tmp_path / "s.tar.gz").write_bytes(buffer.getvalue())
    for read in (
        lambda: sources.read(tmp_path / "s.tar.gz"),
        lambda: sources.from_upload("s.tar.gz", buffer.getvalue()),
    ):
        with pytest.raises(SourceError) as raised:
            read()
        assert said in str(raised.value) and "\n" not in str(raised.value), str(raised.value)
    if name.isascii():  # a zip's names are Unicode (or cp437): the same rules
        with pytest.raises(SourceError, match=re.escape(said)):
            sources.read(_zip(tmp_path / "s.zip", {name.decode(): b"1\n"}))


def test_a_folder_whose_file_name_is_not_utf8_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "main.py").write_text("print(1)\n")
    with open(os.path.join(os.fsencode(folder), b"caf\xe9.py"), "wb") as stream:
        stream.write(b"x = 1\n")
    with pytest.raises(SourceError, match=r"entry 'caf\\udce9.py': its name is not UTF-8 text; refused"):
        sources.read(folder)


def test_a_kept_identification_comes_back_exactly_and_says_when_its_language_left() -> None:
    """What the web judge's door identified is what a worker judges: as_record then from_record
    gives the same program (files, entry, main class, flags), an archive's entries included."""
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("app/Main.java", "public class Main { public static void main(String[] a) {} }\n")
        archive.writestr("app/Helper.java", "class Helper {}\n")
        archive.writestr("app/data.bin", b"\0\1\2")
    for name, data in (("mine.py", b"print(1)\n"), ("mine.zip", packed.getvalue())):
        program = sources.from_upload(name, data)
        assert sources.from_record(sources.as_record(program)) == program
    kept = sources.as_record(sources.from_upload("mine.py", b"print(1)\n")).replace(b'"python3"', b'"cobol85"')
    with pytest.raises(SourceError, match=r"^mine\.py: language 'cobol85' is no longer known to this judge$"):
        sources.from_record(kept)
