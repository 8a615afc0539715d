"""`judge export`: the 2023-07 and legacy ICPC layouts, and an export imported back gives the
same spec, the same tests and the same verdicts."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml

from judge.author import scaffold
from judge.errors import JudgeError
from judge.interop import exporter, importer
from judge.kinds.table import load_problem
from judge.problem import testdata
from tests.author.test_parts import make_problem
from tests.conftest import PROBLEMS
from tests.test_cli import judge


def test_a_program_problem_exports_in_the_legacy_layout(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    directory = make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    target = tmp_path / "sum.zip"
    result = judge("--problems", str(problems), "export", "sum", "-o", str(target), "--format", "legacy")
    assert result.returncode == 0, result.stderr
    names = set(zipfile.ZipFile(target).namelist())
    assert {
        "sum/problem.yaml",
        "sum/problem_statement/problem.en.tex",
        "sum/data/sample/01.in",
        "sum/data/sample/01.ans",
        "sum/data/secret/hand/big.in",
        "sum/data/secret/random/06.ans",
        "sum/input_validators/v1-check/main.cpp",
        "sum/input_validators/v1-check/limits.h",
        "sum/submissions/accepted/ref.py",
        "sum/submissions/wrong_answer/minus.py",
    } <= names
    with zipfile.ZipFile(target) as archive:
        meta = yaml.safe_load(archive.read("sum/problem.yaml"))
        assert "sum/.timelimit" not in archive.namelist()  # the referee's own, from the accepted solutions
    assert meta["name"] == "Sum of Two" and meta["limits"] == {
        "time_multiplier": 5.0,
        "time_safety_margin": 2.0,
        "memory": 768,
        "output": 16,
    }  # its Python solutions: room for PyPy
    said = [line for line in result.stdout.splitlines() if "time limit" in line]
    assert len(said) == 1 and "none fixed in the package" in said[0] and "the judge's 1 s" in said[0], result.stdout
    assert meta["validation"] == "default" and meta["validator_flags"] == "case_sensitive"
    assert "points and per-case scoring are not in the legacy package" in result.stdout
    again = tmp_path / "sum-again.zip"
    exporter.export_problem(load_problem(directory), again, "legacy")
    assert zipfile.ZipFile(again).namelist() == zipfile.ZipFile(target).namelist()  # the same package each time


def test_export_refuses_a_target_that_is_not_a_zip(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match=r"written as a \.zip"):
        exporter.export_problem(load_problem(PROBLEMS / "lanqiao"), tmp_path / "lanqiao.tar")
    assert list(tmp_path.iterdir()) == []


def test_a_unit_test_problem_is_not_exported_and_nothing_is_written(tmp_path: Path) -> None:
    """The kind says the package format has none of its problems (never its name here)."""
    made = scaffold.create(tmp_path / "problems", "stack", "python3", kind="unit")
    with pytest.raises(JudgeError, match="no problems of kind unit; nothing exported"):
        exporter.export_problem(load_problem(made.directory), tmp_path / "stack.zip")
    assert not (tmp_path / "stack.zip").exists()


def _tests(problem_dir: Path) -> list[tuple[str, str]]:
    problem = load_problem(problem_dir)
    return sorted((c.input.read_text(), c.answer.read_text()) for c in testdata.load_cases(problem))


def _verdict(problems: Path, problem: str, source: Path) -> str:
    ran = judge("--problems", str(problems), "run", str(source), "-p", problem, "--json")
    return str(json.loads(ran.stdout)["verdict"])


@pytest.mark.slow
def test_a_puzzle_round_trips(tmp_path: Path) -> None:
    package = tmp_path / "sicily-rotations.zip"
    exporter.export_problem(load_problem(PROBLEMS / "sicily-rotations"), package)
    problems = tmp_path / "problems"
    problems.mkdir()
    imported = importer.import_package(package, problems)
    assert imported.problem_id == "sicily-rotations" and imported.time_limit_from == "the judge's own spec (judge.yaml)"
    assert _tests(imported.directory) == _tests(PROBLEMS / "sicily-rotations")
    solutions = PROBLEMS / "sicily-rotations" / "solutions"
    # The limits come back whole, per-language factors included (judge.yaml), so a Python
    # solution gets the same limit, and the same verdict, as before.
    original = load_problem(PROBLEMS / "sicily-rotations").spec.limits
    again = load_problem(imported.directory).spec.limits
    assert (again.time_s, again.time_multipliers, again.memory_mib) == (
        original.time_s,
        original.time_multipliers,
        original.memory_mib,
    )
    for source in [solutions / "accepted" / "cantor_table.c", *sorted((solutions / "wrong_answer").iterdir())]:
        assert _verdict(problems, "sicily-rotations", source) == _verdict(PROBLEMS, "sicily-rotations", source)


def test_the_feedback_level_round_trips(tmp_path: Path) -> None:
    source = tmp_path / "src" / "sicily-rotations"
    shutil.copytree(PROBLEMS / "sicily-rotations", source)
    spec = source / "problem.yaml"
    spec.write_text(
        spec.read_text().replace("reference: sicily-rotations", "reference: sicily-rotations\nfeedback: cases")
    )
    package = tmp_path / "p.zip"
    exporter.export_problem(load_problem(source), package)
    problems = tmp_path / "problems"
    problems.mkdir()
    imported = importer.import_package(package, problems)
    assert load_problem(imported.directory).spec.feedback == "cases"
    # The default is not written at all, and comes back as the default.
    exporter.export_problem(load_problem(PROBLEMS / "sicily-rotations"), tmp_path / "q.zip")
    (tmp_path / "more").mkdir()
    again = importer.import_package(tmp_path / "q.zip", tmp_path / "more", "sicily-again")
    assert load_problem(again.directory).spec.feedback == "groups"


def test_a_program_problem_round_trips(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    directory = make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    package = tmp_path / "sum-copy.zip"
    exporter.export_problem(load_problem(directory), package)
    imported = importer.import_package(package, problems)
    assert imported.problem_id == "sum-copy"
    assert _tests(imported.directory) == _tests(directory)
    for source in sorted((directory / "solutions").rglob("*.py")):
        assert _verdict(problems, "sum-copy", source) == _verdict(problems, "sum", source)
    assert judge("--problems", str(problems), "verify", "sum-copy").returncode == 0


def _rich_problem(problems: Path) -> Path:
    """make_problem's sum with more of the spec: groups out of name order, a per-case group, a
    compile limit, per-language factors, a feedback level, credits, a Markdown statement."""
    directory = make_problem(problems)
    spec = directory / "problem.yaml"
    text = spec.read_text()
    text = text.replace(
        "limits: {time_s: 1.0,", "limits: {time_s: 1.0, compile_time_s: 10, time_multipliers: {python3: 3},"
    )
    text = text.replace(
        "    count: 6\n    seed: 7\n    points: 60\n",
        "    count: 6\n    seed: 7\n    points: 60\n    scoring: per_case\n",
    )
    text = text.replace("  - name: hand\n", "  - name: zeta-hand\n")
    text = text.replace(
        "source: a test of the judge\n",
        "source: a test of the judge\nfeedback: cases\ncredits: {authors: [Ada], testers: [Alan]}\n",
    )
    spec.write_text(text)
    (directory / "statement.md").write_text("# Sum of Two\n\nAdd **a** and *b*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    (directory / "solutions" / "memory_limit_exceeded").mkdir()
    (directory / "solutions" / "memory_limit_exceeded" / "hog.py").write_text("x = bytearray(1 << 30)\nprint(len(x))\n")
    assert judge("--problems", str(problems), "gen").returncode == 0
    return directory


def _same(spec_a: Path, spec_b: Path) -> None:
    a = load_problem(spec_a).spec.model_dump()
    b = load_problem(spec_b).spec.model_dump()
    assert {**a, "id": ""} == {**b, "id": ""}


@pytest.mark.parametrize("version", ["2023-07", "legacy"])
def test_a_judge_export_comes_back_as_the_same_problem(tmp_path: Path, version: str) -> None:
    """Groups (names, order, points, scoring), generators, limits, factors, feedback, credits,
    the statement and the solutions' folders: the same spec, the same tests, the same verdicts."""
    problems = tmp_path / "problems"
    problems.mkdir()
    directory = _rich_problem(problems)
    package = tmp_path / "sum-back.zip"
    exporter.export_problem(load_problem(directory), package, version)
    imported = importer.import_package(package, problems, jobs=2)
    _same(directory, imported.directory)
    assert imported.time_limit_from == "the judge's own spec (judge.yaml)"
    assert (imported.directory / "statement.md").read_text() == (directory / "statement.md").read_text()
    assert _tests(imported.directory) == _tests(directory)
    assert (imported.directory / "solutions" / "memory_limit_exceeded" / "hog.py").is_file()
    verified = {}
    for problem in ("sum", "sum-back"):
        done = judge("--problems", str(problems), "verify", problem)
        assert done.returncode == 0, done.stdout
        rows = [line.split() for line in done.stdout.splitlines()]
        verified[problem] = sorted(row[:3] for row in rows if row and "/" in row[0])
    assert verified["sum"] == verified["sum-back"] and len(verified["sum"]) == 3


def test_a_2023_07_export_says_it_in_the_formats_own_words(tmp_path: Path) -> None:
    """Another judge reads the points, the scoring, the group names, the Markdown statement and
    every generated case's command from the package itself; so does ours without judge.yaml."""
    problems = tmp_path / "problems"
    problems.mkdir()
    directory = _rich_problem(problems)
    package = tmp_path / "sum.zip"
    exporter.export_problem(load_problem(directory), package)
    with zipfile.ZipFile(package) as archive:
        archive.extractall(tmp_path / "unpacked")
    root = tmp_path / "unpacked" / "sum"
    meta = yaml.safe_load((root / "problem.yaml").read_text())
    assert meta["problem_format_version"] == "2023-07-draft" and meta["type"] == "scoring"
    assert meta["name"] == {"en": "Sum of Two"} and meta["credits"] == {"authors": ["Ada"], "testers": ["Alan"]}
    assert "time_limit" not in meta["limits"] and meta["limits"]["compilation_time"] == 10
    assert meta["limits"]["time_multipliers"] == {"ac_to_time_limit": 2.0, "time_limit_to_tle": 1.5}
    assert (root / "statement" / "problem.en.md").read_text() == (directory / "statement.md").read_text()
    hand = yaml.safe_load((root / "data" / "secret" / "zeta-hand" / "testdata.yaml").read_text())
    assert hand == {"on_reject": "break", "grader_flags": "min", "accept_score": 40, "range": "0 40"}
    random = yaml.safe_load((root / "data" / "secret" / "random" / "testdata.yaml").read_text())
    assert (random["grader_flags"], random["accept_score"], random["on_reject"]) == ("sum", 10.0, "continue")
    manifest = yaml.safe_load((root / "generators" / "generators.yaml").read_text())
    commands = manifest["data"]["secret"]["data"]["random"]["data"]
    assert len(commands) == 6 and commands["01"].startswith("gen.py --max 1000 --seed ")
    assert (root / "generators" / "gen.py").is_file()
    # Without this judge's own files, the format's words alone: names, points and scoring.
    (root / "judge.yaml").unlink()
    shutil.rmtree(root / "judge")
    imported = importer.import_package(root, problems, "sum-plain", jobs=2)
    groups = {g.name: (g.points, g.scoring) for g in load_problem(imported.directory).spec.groups}
    assert groups == {"sample": (0, "all"), "secret-random": (60, "per_case"), "secret-zeta-hand": (40, "all")}


@pytest.mark.slow  # half a minute of two imports verified: the end-to-end tier
@pytest.mark.parametrize("version", ["2023-07", "legacy"])
def test_an_interactive_problem_goes_out_and_comes_back(tmp_path: Path, version: str) -> None:
    """Its interactor as the package's output validator (type interactive, or validation:
    custom interactive): back by the judge's own spec, and by the format's words alone."""
    from judge.author import scaffold

    problems = tmp_path / "problems"
    problems.mkdir()
    made = scaffold.create(problems, "guess", "python3", kind="interactive")
    (made.directory / "solutions" / "time_limit_exceeded" / "slow_thinker.py").unlink()  # seconds each: elsewhere
    spec_file = made.directory / "problem.yaml"
    spec_file.write_text(spec_file.read_text().replace("count: 10", "count: 2"))  # each case is an interaction
    assert judge("--problems", str(problems), "gen", "guess").returncode == 0
    package = tmp_path / "guess.zip"
    exporter.export_problem(load_problem(made.directory), package, version)
    with zipfile.ZipFile(package) as archive:
        archive.extractall(tmp_path / "unpacked")
    root = tmp_path / "unpacked" / "guess"
    meta = yaml.safe_load((root / "problem.yaml").read_text())
    if version == "legacy":
        assert meta["validation"] == "custom interactive"
        assert (root / "output_validators" / "interactor" / "interactor.py").is_file()
    else:
        assert meta["type"] == ["scoring", "interactive"]
        assert (root / "output_validator" / "interactor.py").is_file()
    back = importer.import_package(package, problems, "guess-back", jobs=2)
    _same(made.directory, back.directory)
    (root / "judge.yaml").unlink()
    shutil.rmtree(root / "judge")
    plain = importer.import_package(root, problems, "guess-plain", jobs=2)
    spec = load_problem(plain.directory).spec
    assert spec.interactor is not None and Path(spec.interactor.program).name in ("interactor", "output_validator")
    for problem in ("guess-back", "guess-plain"):  # each solution its folder's verdict, as in guess
        done = judge("--problems", str(problems), "verify", problem)
        assert done.returncode == 0, done.stdout
        assert "3 solution(s), 0 failure(s)" in done.stdout, done.stdout


def test_flat_secret_data_goes_back_flat_and_no_empty_sample_folder(tmp_path: Path) -> None:
    # An imported package whose secret data was flat has one group named secret: exported,
    # it is data/secret/ again (not data/secret/secret/), with no sample folder made up.
    from tests.interop.packages import interactive_legacy

    problems = tmp_path / "problems"
    problems.mkdir()
    package = interactive_legacy(tmp_path / "guess")
    shutil.rmtree(package / "data" / "sample")
    imported = importer.import_package(package, problems, jobs=2)
    exported = tmp_path / "guess.zip"
    exporter.export_problem(load_problem(imported.directory), exported)
    names = set(zipfile.ZipFile(exported).namelist())
    assert {"guess/data/secret/01.in", "guess/data/secret/testdata.yaml"} <= names
    assert not any(n.startswith(("guess/data/secret/secret/", "guess/data/sample/")) for n in names)


def test_a_package_with_python_solutions_declares_what_pypy_needs(tmp_path: Path) -> None:
    """Kattis and problemtools run Python 3 on PyPy, which cannot start in 256 MiB of address
    space: the package says 768 MiB and why; the judge's own limit comes back through judge.yaml."""
    package = tmp_path / "lanqiao.zip"
    exported = exporter.export_problem(load_problem(PROBLEMS / "lanqiao"), package)
    with zipfile.ZipFile(package) as archive:
        meta = yaml.safe_load(archive.read(f"{exporter.shortname('lanqiao')}/problem.yaml"))
    assert meta["limits"]["memory"] == exporter.PYPY_MEMORY_MIB == 768
    [note] = [n for n in exported.notes if n.startswith("memory:")]
    assert "not the judge's 256 MiB" in note and "PyPy" in note
    problems = tmp_path / "problems"
    problems.mkdir()
    again = importer.import_package(package, problems)
    assert load_problem(again.directory).spec.limits.memory_mib == 256
