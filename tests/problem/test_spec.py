"""Malformed specs: each gets the right line, key path and message, and a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.kinds.table import json_schema, load_problem
from judge.problem.spec import SpecError
from tests.conftest import PROBLEMS

GOOD = """\
id: demo
title: Demo
source: tests
statement: statement.md
limits:
  time_s: 1.0
  memory_mib: 64
checker: {type: tokens}
reference: eight-digits
groups:
  - name: samples
    visibility: public
    cases:
      - input: "1 2 3 4 5 6 7 8 x\\n"
        answer: "0"
  - name: random
    generator: random
    count: 3
    seed: 1
    points: 100
"""


def write_problem(root: Path, text: str, name: str = "demo") -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "statement.md").write_text("# Demo\n")
    (directory / "problem.yaml").write_text(text)
    return directory


def errors_of(root: Path, text: str) -> list[str]:
    with pytest.raises(SpecError) as caught:
        load_problem(write_problem(root, text))
    return [str(i).split("problem.yaml", 1)[1] for i in caught.value.issues]


def test_good_spec_loads(tmp_path: Path) -> None:
    problem = load_problem(write_problem(tmp_path, GOOD))
    assert problem.spec.limits.time_s == 1.0
    assert problem.spec.limits.output_mib == 16  # the default
    assert [g.name for g in problem.spec.groups] == ["samples", "random"]
    assert problem.spec.groups[1].visibility == "secret"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # wrong type (strict: a quoted number is a string)
        ("  time_s: 1.0", '  time_s: "1.0"', ":6: limits.time_s: Input should be a valid number"),
        # negative limit
        ("  memory_mib: 64", "  memory_mib: -64", ":7: limits.memory_mib: Input should be greater than 0"),
        # unknown key at the top
        ("reference: eight-digits", "reference: eight-digits\ncolour: red", ":10: colour: unknown key"),
        # unknown key inside a list item
        ("    seed: 1", "    seed: 1\n    sead: 2", ":20: groups[1].sead: unknown key; did you mean 'seed'?"),
        # a misspelt key is named with the key it resembles, among that mapping's own keys
        ("    seed: 1", "    seed: 1\n    poins: 2", ":20: groups[1].poins: unknown key; did you mean 'points'?"),
        ("  time_s: 1.0", "  tiem_s: 1.0", ":6: limits.tiem_s: unknown key; did you mean 'time_s'?"),
        # missing required key
        ("title: Demo\n", "", ":1: title: required key is missing"),
        # missing statement file
        ("statement: statement.md", "statement: nope.md", ":4: statement: file not found: nope.md"),
        # unknown checker type (union tag)
        ("checker: {type: tokens}", "checker: {type: fuzzy}", ":8: checker: Input tag 'fuzzy'"),
        # bad field inside a union member
        (
            "checker: {type: tokens}",
            "checker: {type: float, abs_tol: -1}",
            ":8: checker.abs_tol: Input should be greater",
        ),
        # unknown reference
        (
            "reference: eight-digits",
            "reference: nine-digits",
            ":9: reference: 'nine-digits' is neither a built-in reference",
        ),
        # unknown generator
        ("    generator: random", "    generator: chaos", ":17: groups[1].generator: unknown generator 'chaos'"),
        # generator argument it does not take
        ("    seed: 1", "    seed: 1\n    args: {cases: 5}", ":20: groups[1].args.cases: unknown argument 'cases'"),
        # a generated group without its seed
        ("    seed: 1\n", "", ":16: groups[1]: a generated group needs `count` and `seed`"),
        # both cases and a generator
        (
            "    visibility: public",
            "    visibility: public\n    generator: random",
            ":11: groups[0]: a group needs exactly one",
        ),
        # visibility outside its set
        (
            "    visibility: public",
            "    visibility: hidden",
            ":12: groups[0].visibility: Input should be 'public' or 'secret'",
        ),
        # id that is not the folder name
        ("id: demo", "id: other", ":1: id: 'other' differs from the folder name 'demo'"),
        # bad id pattern
        ("id: demo", "id: Demo Problem", ":1: id: String should match pattern"),
        # a statement path that escapes the folder
        ("statement: statement.md", "statement: ../../etc/passwd", ":4: statement: '../../etc/passwd' points outside"),
        # an unknown language in the multipliers
        (
            "  memory_mib: 64",
            "  memory_mib: 64\n  time_multipliers: {cobol: 2}",
            ":8: limits.time_multipliers.cobol: Input should be",
        ),
    ],
)
def test_malformed_specs(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in GOOD
    found = errors_of(tmp_path, GOOD.replace(old, new, 1))
    assert any(e.startswith(expected) for e in found), found


def test_yaml_syntax_error_has_its_line(tmp_path: Path) -> None:
    found = errors_of(tmp_path, GOOD.replace("checker: {type: tokens}", "checker: {type: tokens"))
    assert found[0].startswith(":9: YAML syntax"), found


def test_duplicate_key_is_an_error(tmp_path: Path) -> None:
    found = errors_of(tmp_path, GOOD.replace("source: tests", "source: tests\ntitle: Again"))
    assert found == [":4: duplicate key 'title'"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", ":1: the file is empty"), ("- 1\n- 2\n", ":1: the spec must be a mapping of keys to values")],
)
def test_empty_and_non_mapping_specs(tmp_path: Path, text: str, expected: str) -> None:
    assert errors_of(tmp_path, text) == [expected]


def test_missing_spec_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="file not found"):
        load_problem(tmp_path)


def test_several_errors_are_all_reported(tmp_path: Path) -> None:
    text = GOOD.replace("  time_s: 1.0", "  time_s: 0").replace("  memory_mib: 64", "  memory_mib: big")
    found = errors_of(tmp_path, text)
    assert len(found) == 2 and found[0].startswith(":6:") and found[1].startswith(":7:")


def test_spec_answer_must_match_the_reference(tmp_path: Path, store) -> None:  # type: ignore[no-untyped-def]
    from judge.author import making

    problem = load_problem(write_problem(tmp_path, GOOD.replace('answer: "0"', 'answer: "7"')))
    with pytest.raises(Exception, match="differs from the reference's '0'"):
        making.generate(problem, store)


@pytest.mark.parametrize("name", ["lanqiao", "eight-digits", "sicily-rotations"])
def test_bundled_problems_load(name: str) -> None:
    problem = load_problem(PROBLEMS / name)
    assert problem.id == name
    assert problem.spec.groups[0].visibility == "public"
    assert sum(g.points for g in problem.spec.groups) == 100


def test_schema_file_is_in_sync() -> None:
    on_disk = (PROBLEMS / "problem.schema.json").read_text()
    assert on_disk == json_schema(), "run `judge schema` and commit problems/problem.schema.json"
    schema = json.loads(on_disk)
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) >= {"id", "title", "source", "limits", "reference"}
    assert "unit" in schema["properties"]  # groups: required of every kind but unit (the loader says so)


def test_an_interactive_problem_names_its_interactor_and_no_checker(tmp_path: Path) -> None:
    from tests.author.test_parts import make_problem

    directory = make_problem(tmp_path)
    spec = directory / "problem.yaml"
    text = spec.read_text()
    spec.write_text(text.replace("validators:", "interactor: {program: interactor.py, args: [fast]}\nvalidators:"))
    with pytest.raises(SpecError, match=r"interactor\.program: file or folder not found: interactor\.py"):
        load_problem(directory)
    (directory / "interactor.py").write_text("import sys\nsys.exit(42)\n")
    loaded = load_problem(directory)
    assert loaded.spec.interactor is not None and loaded.spec.interactor.args == ("fast",)
    assert directory / "interactor.py" in loaded.program_paths()
    spec.write_text(spec.read_text().replace("validators:", "checker: {type: exact}\nvalidators:"))
    with pytest.raises(SpecError, match="checker: an interactive problem has no checker"):
        load_problem(directory)
