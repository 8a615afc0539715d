"""`judge import`: each package format's features mapped onto the judge's spec, bad packages
refused in one line with nothing written, and the imported problems verify."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
import yaml

from judge.interop import importer
from judge.interop.unpack import PackageError
from judge.run import lifecycle
from tests.interop.packages import draft_2023, format_2025, interactive_legacy, legacy, write, zip_folder
from tests.test_cli import judge


@pytest.fixture
def problems(tmp_path: Path) -> Path:
    folder = tmp_path / "problems"
    folder.mkdir()
    return folder


def spec_of(directory: Path) -> dict[str, object]:
    return dict(yaml.safe_load((directory / "problem.yaml").read_text()))


@pytest.mark.slow  # heavy end to end: make test-slow
def test_a_legacy_folder_package(tmp_path: Path, problems: Path) -> None:
    package = legacy(tmp_path / "add-two")
    imported = importer.import_package(package, problems)
    assert imported.problem_id == "add-two" and imported.format == "legacy"
    spec = spec_of(imported.directory)
    assert spec["title"] == "Add Two"
    assert spec["source"] == "Test Contest 2026; https://example.org/contest"
    assert spec["license"] == "cc by-sa" and spec["rights_owner"] == "The Test Committee"
    assert spec["credits"] == {"authors": ["Ada Lovelace", "Alan Turing"]}
    assert spec["checker"] == {"type": "custom", "program": "checker/polite", "args": ["lenient"]}
    assert spec["validators"] == ["validators/check.py"]
    assert spec["reference"] == "solutions/accepted/add.c"  # C before Python
    assert spec["statement"] == "problem_statement/problem.en.tex"  # not Markdown: kept as it is
    limits = spec["limits"]
    assert isinstance(limits, dict) and limits["memory_mib"] == 512 and limits["output_mib"] == 4
    # No time limit in the package: the slowest accepted run x 5, rounded up to a second.
    assert limits["time_s"] == 1.0 and imported.time_limit_from.startswith("the accepted submissions")
    groups = spec["groups"]
    assert isinstance(groups, list)
    assert [(g["name"], g["visibility"], g["files"]) for g in groups] == [
        ("sample", "public", "data/sample"),
        ("secret", "secret", "data/secret"),
    ]
    assert sorted(
        p.relative_to(imported.directory).as_posix() for p in (imported.directory / "solutions").rglob("*.*")
    ) == [
        "solutions/accepted/add.c",
        "solutions/accepted/add.py",
        "solutions/run_time_error/crash.c",
        "solutions/time_limit_exceeded/spin.c",
        "solutions/wrong_answer/sub.py",
    ]
    verified = judge("--problems", str(problems), "verify")
    assert verified.returncode == 0, verified.stdout
    # The custom checker with its flag: a polite answer passes.
    polite = tmp_path / "polite.py"
    polite.write_text("a, b = map(int, input().split())\nprint(a + b, 'thanks')\n")
    ran = judge("--problems", str(problems), "run", str(polite), "-p", "add-two", "--json")
    assert json.loads(ran.stdout)["verdict"] == "AC"


def test_a_2023_draft_zip_with_scoring_groups(tmp_path: Path, problems: Path) -> None:
    package = zip_folder(draft_2023(tmp_path / "pkg"), tmp_path / "Spring-Add.zip", top="addtwo")
    imported = importer.import_package(package, problems)
    assert imported.problem_id == "spring-add" and imported.format == "2023-07-draft"
    spec = spec_of(imported.directory)
    assert spec["title"] == "Add Two"
    assert spec["source"] == "Spring Cup https://example.org/spring"
    assert spec["credits"] == {"authors": ["Grace Hopper"], "testers": ["Edsger Dijkstra <ed@example.org>"]}
    assert spec["statement"] == "statement/problem.en.md"
    assert (imported.directory / "statement" / "problem.en.md").read_text().startswith("# Add Two")
    assert spec["checker"] == {"type": "tokens", "case_sensitive": False}  # the default validator's default
    limits = spec["limits"]
    assert isinstance(limits, dict) and limits["time_s"] == 2 and imported.time_limit_from == "the package"
    groups = {g["name"]: g for g in spec["groups"]}  # type: ignore[attr-defined]
    # min: all or nothing, worth one accept_score; sum: per case, capped by range.
    assert (groups["secret-easy"]["scoring"], groups["secret-easy"]["points"]) == ("all", 30)
    assert (groups["secret-hard"]["scoring"], groups["secret-hard"]["points"]) == ("per_case", 70)
    assert (groups["secret-easy"]["on_reject"], groups["secret-hard"]["on_reject"]) == ("break", "continue")
    assert judge("--problems", str(problems), "verify").returncode == 0


def test_a_2025_package_with_arguments_and_an_unknown_language(tmp_path: Path, problems: Path) -> None:
    package = format_2025(tmp_path / "autumn")
    imported = importer.import_package(package, problems, problem_id="autumn-add")
    assert imported.format == "2025-09"
    spec = spec_of(imported.directory)
    assert spec["checker"] == {"type": "custom", "program": "checker/output_validator", "args": ["lenient"]}
    assert spec["validators"] == ["validators/check"]
    secret = next(g for g in spec["groups"] if g["name"] == "secret")  # type: ignore[attr-defined]
    assert secret["validator_args"] == ["--strict"]
    assert any("Add.cob: no language for '.cob'" in n for n in imported.notes)
    verified = judge("--problems", str(problems), "verify", "--strict")  # a skip is not a warning
    assert verified.returncode == 0, verified.stdout
    assert "skip" in verified.stdout
    assert "Add.cob: skipped, the judge has no language for '.cob'" in " ".join(verified.stdout.split())


@pytest.mark.parametrize(
    ("flags", "checker"),
    [
        ("", {"type": "tokens", "case_sensitive": False}),
        ("case_sensitive", {"type": "tokens", "case_sensitive": True}),
        ("case_sensitive space_change_sensitive", {"type": "exact"}),
        (
            "float_tolerance 1e-4",
            {"type": "float", "abs_tol": 1e-4, "rel_tol": 1e-4, "case_sensitive": False},
        ),
        (
            "float_relative_tolerance 0.01",
            {"type": "float", "abs_tol": 0.0, "rel_tol": 0.01, "case_sensitive": False},
        ),
    ],
)
def test_default_validator_flags_map_to_builtin_checkers(
    tmp_path: Path, problems: Path, flags: str, checker: dict[str, object]
) -> None:
    spec = f"name: Add Two\nvalidator_flags: {flags}\n" if flags else "name: Add Two\n"
    package = legacy(tmp_path / "flags", **{"problem.yaml": spec, ".timelimit": "1\n"})
    imported = importer.import_package(package, problems)
    assert spec_of(imported.directory)["checker"] == checker


def test_a_case_insensitive_default_accepts_yes_for_yes(tmp_path: Path, problems: Path) -> None:
    package = legacy(
        tmp_path / "yesno",
        **{
            "problem.yaml": "name: Yes\n",
            ".timelimit": "1\n",
            "data/sample/1.ans": "YES\n",
            "data/secret/1.ans": "YES\n",
            "data/secret/2.ans": "YES\n",
            "data/secret/3.ans": "YES\n",
            "submissions/accepted/add.c": '#include <stdio.h>\nint main(void){puts("yes");}\n',
            "submissions/accepted/add.py": "print('Yes')\n",
            "submissions/wrong_answer/sub.py": "print('no')\n",
        },
    )
    importer.import_package(package, problems)
    assert judge("--problems", str(problems), "verify").returncode == 0


def nothing_written(problems: Path) -> bool:
    return list(problems.iterdir()) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"problem.yaml": "name: [unclosed\n"}, "problem.yaml:2: not valid YAML"),
        (
            {"problem.yaml": "name: X\nvalidation: custom interactive\n", "output_validators/polite/polite.py": ""},
            "an interactive problem, but no output validator",
        ),
        ({"problem.yaml": "problem_format_version: 2031\nname: X\n"}, "problem_format_version '2031'"),
        (
            {"input_format_validators/check.py": "", "input_format_validators/broken.cpp": "int main( {\n"},
            "broken.cpp: does not compile",
        ),
        (
            {"submissions/accepted/add.c": "", "submissions/accepted/add.py": "print(0)\n"},
            "accepted/add.py: gets WA on the package's own data",
        ),
    ],
)
def test_bad_packages_give_one_line_and_write_nothing(
    tmp_path: Path, problems: Path, change: dict[str, str], message: str
) -> None:
    package = legacy(tmp_path / "bad", **change)
    for name, text in change.items():
        if not text:
            (package / name).unlink()
    result = judge("import", str(package), "-o", str(problems))
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.startswith("judge: error:")]
    assert len(errors) == 1 and message in errors[0], result.stderr
    assert nothing_written(problems)


def test_a_package_of_samples_alone_is_judged_on_its_samples(tmp_path: Path, problems: Path) -> None:
    """DOMjudge's own example `hello` has data/sample only; DOMjudge judges it so, and so does the judge."""
    package = legacy(tmp_path / "samples-only")
    for path in (package / "data" / "secret").iterdir():
        path.unlink()
    (package / "data" / "secret").rmdir()
    imported = importer.import_package(package, problems)
    assert any("its samples are judged as its tests" in note for note in imported.notes)
    groups = spec_of(imported.directory)["groups"]
    assert isinstance(groups, list)
    assert [(g["name"], g["visibility"], g["points"]) for g in groups] == [("sample", "public", 100.0)]
    verified = judge("--problems", str(problems), "verify")
    assert verified.returncode == 0, verified.stdout
    # ...and a package with no test data at all is still refused, with nothing written.
    bare = legacy(tmp_path / "nodata")
    for folder in ("secret", "sample"):
        for path in (bare / "data" / folder).iterdir():
            path.unlink()
        (bare / "data" / folder).rmdir()
    with pytest.raises(PackageError, match=r"data/secret and data/sample: no \.in files"):
        importer.import_package(bare, problems)
    assert not (problems / "nodata").exists()


def test_domjudges_own_verdict_folders_are_mapped(tmp_path: Path, problems: Path) -> None:
    """As DOMjudge's example `hello` has them: no_output/ and output_limit/ are its own, and its
    time_limit_exceeded/ holds a program flooding stdout (the judge stops it at the limit: OLE)."""
    flood_c = '#include <stdio.h>\nint main(void){for(;;) fputs("nonsense, and more\\n", stdout);}\n'
    package = legacy(
        tmp_path / "domjudge-folders",
        **{
            ".timelimit": "1\n",
            "submissions/no_output/silent.py": "pass\n",
            "submissions/output_limit/flood.py": "while True:\n    print('x' * 1000)\n",
            "submissions/time_limit_exceeded/flood.c": flood_c,
            "submissions/multiple/either.py": "print(3)\n",
        },
    )
    imported = importer.import_package(package, problems)
    solutions = imported.directory / "solutions"
    assert (solutions / "wrong_answer" / "silent.py").is_file()
    assert (solutions / "output_limit_exceeded" / "flood.py").is_file()
    assert "submissions/no_output/: DOMjudge's folder, imported as wrong_answer/" in imported.notes
    assert any(n.startswith("submissions/multiple/either.py: the verdict folder multiple/") for n in imported.notes)
    verified = judge("--problems", str(problems), "verify")
    assert verified.returncode == 0, verified.stdout
    assert "OLE" in verified.stdout


def test_an_existing_problem_is_not_overwritten(tmp_path: Path, problems: Path) -> None:
    package = legacy(tmp_path / "twice", **{".timelimit": "1\n"})
    importer.import_package(package, problems)
    with pytest.raises(PackageError, match="already exists; pass --id"):
        importer.import_package(package, problems)
    assert importer.import_package(package, problems, problem_id="twice-again").problem_id == "twice-again"


def test_package_programs_run_only_in_the_sandbox(tmp_path: Path, problems: Path) -> None:
    marker = tmp_path / "escaped"
    hostile = (
        "import sys\n"
        f"for target in ({str(marker)!r}, '/tmp/judge-import-escaped'):\n"
        "    try:\n        open(target, 'w').write('out')\n    except OSError:\n        pass\n"
        "sys.exit(42)\n"
    )
    package = legacy(tmp_path / "hostile", **{"input_format_validators/check.py": hostile, ".timelimit": "1\n"})
    importer.import_package(package, problems)
    assert not marker.exists()
    assert not Path("/tmp/judge-import-escaped").exists()


def test_the_cli_lists_what_was_not_imported(tmp_path: Path, problems: Path) -> None:
    package = legacy(
        tmp_path / "extras",
        **{
            ".timelimit": "2\n",
            "input_format_validators/format.ctd": "INT(0,10) SPACE INT(0,10) NEWLINE\n",
            "submissions/partially_accepted/half.py": "print(1)\n",
            "submissions/accepted/Both/A.py": "print(1)\n",
            "submissions/accepted/Both/B.py": "print(2)\n",
            "submissions/wrong_answer/py2.py": "print 'hello'\n",
        },
    )
    write(package, {"data/secret/notes.txt": "how the data was made\n"})
    result = judge("import", str(package), "-o", str(problems), "--id", "extras")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "time limit 2 s, from the package" in lines
    for expected in (
        "format.ctd: a ctd validator",
        "partially_accepted/half.py: the verdict folder partially_accepted/ has no judge equivalent",
        "data/secret/notes.txt: not imported",
        "wrong_answer/py2.py: does not compile here (SyntaxError: Missing parentheses",
    ):
        assert any(expected in line and line.startswith("note:") for line in lines), (expected, lines)
    # A folder is one submission of several files: it comes in whole (its entry guessed by name,
    # as problemtools does).
    assert sorted(p.name for p in (problems / "extras" / "solutions" / "accepted" / "Both").iterdir()) == [
        "A.py",
        "B.py",
    ]


def test_a_domjudge_time_limit_is_taken(tmp_path: Path, problems: Path) -> None:
    package = legacy(tmp_path / "dj", **{"domjudge-problem.ini": "name='Add'\ntimelimit='3'\n"})
    imported = importer.import_package(package, problems)
    assert imported.time_limit_s == 3 and imported.time_limit_from == "the package"


def test_a_killed_import_leaves_nothing_the_next_one_keeps(
    tmp_path: Path, problems: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # a lock folder of this test's own
    # What a SIGKILLed import leaves: its staging folder, and its lock file that nobody holds.
    killed = problems / "judge-import-999999999.1-abc"
    (killed / "add" / "data").mkdir(parents=True)
    lock = lifecycle.lock_dir() / f"{killed.name}.lock"
    lock.parent.mkdir()
    lock.touch()
    # What a running import stages (this process holds it), and an older judge's young folder.
    running = lifecycle.make_temp_dir("import", problems)
    older = problems / "judge-import-999999998.1-def"
    older.mkdir()
    try:
        importer.import_package(legacy(tmp_path / "add", **{".timelimit": "1\n"}), problems)
        assert sorted(p.name for p in problems.iterdir()) == sorted(["add", running.name, older.name])
        assert not lock.exists()
    finally:
        lifecycle.remove_dir(running)
    assert not (lifecycle.lock_dir() / f"{running.name}.lock").exists()


def test_a_submission_of_several_files_comes_in_whole(
    tmp_path: Path, problems: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder under submissions/ is one program, as the package format has it; one whose
    toolchain is missing here is kept, named, and skipped by verify rather than failed."""
    package = legacy(
        tmp_path / "add-two",
        **{
            "submissions/accepted/two/main.py": "from add import add\nprint(add(*map(int, input().split())))\n",
            "submissions/accepted/two/add.py": "def add(a, b):\n    return a + b\n",
            "submissions/wrong_answer/rusty/main.rs": 'fn main() { println!("0"); }\n',
            "submissions/wrong_answer/rusty/helper.rs": "pub fn unused() {}\n",
        },
    )
    from judge.run import languages

    real = languages.Language.missing
    monkeypatch.setattr(
        languages.Language, "missing", lambda self: "no Rust toolchain here" if self.id == "rust" else real(self)
    )
    imported = importer.import_package(package, problems)
    two = imported.directory / "solutions" / "accepted" / "two"
    assert sorted(p.name for p in two.iterdir()) == ["add.py", "main.py"]
    assert any("submissions/wrong_answer/rusty: skipped: no Rust toolchain here" in n for n in imported.notes)
    monkeypatch.undo()
    verified = judge("--problems", str(problems), "verify")
    assert verified.returncode == 0, verified.stdout
    assert "accepted/two" in verified.stdout


def test_an_interactive_package_imports_and_its_submissions_get_their_verdicts(tmp_path: Path, problems: Path) -> None:
    imported = importer.import_package(interactive_legacy(tmp_path / "guess"), problems)
    spec = spec_of(imported.directory)
    assert spec["interactor"] == {"program": "interactor/guess", "args": ["strict"]}
    assert "checker" not in spec
    # Inputs without answers: empty answer files, handed to the interactor as they are.
    assert (imported.directory / "tests").is_dir()
    assert [p.read_text() for p in sorted((imported.directory / "tests").glob("*/*.ans"))] == [""] * 4
    assert any("1.interaction" in note for note in imported.notes)
    verified = judge("--problems", str(problems), "verify", "guess")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "reference accepted by the interactor (4 cases)" in verified.stdout
    assert "4 solution(s), 0 failure(s)" in verified.stdout
