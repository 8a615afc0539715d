"""A language of the function kind is one record per family: a new language of a known family
is a row of languages.yaml, with no code changed; every record names a harness that is there."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
import yaml

from judge.grade import judging
from judge.kinds.functions import families, kind, starters, types
from judge.kinds.table import load_problem
from judge.problem.spec import Problem
from judge.run import languages
from tests import needs
from tests.test_cli import judge

KADANE = (
    "def max_sum(xs):\n    if not xs:\n        raise ValueError('empty')\n    best = here = xs[0]\n"
    "    for x in xs[1:]:\n        here = max(x, here + x)\n        best = max(best, here)\n    return best\n"
)


def test_every_family_names_a_harness_file_that_is_there() -> None:
    folder = Path(families.__file__).parent
    for name, family in families.FAMILIES.items():
        assert family.name == name
        assert (folder / family.harness).is_file(), (name, family.harness)


def test_every_family_languages_yaml_names_has_a_record() -> None:
    named = {language.family for language in languages.load().languages.values() if language.family}
    assert named == set(families.FAMILIES)


def test_each_family_writes_a_starter_and_a_decoy_from_its_record() -> None:
    api = types.parse_api("max_sum(xs: list[int]) -> long")
    for family in families.FAMILIES.values():
        _, starter = family.starter(api, "Max")
        _, decoy = family.decoy(api)
        assert family.raises in starter and family.raises not in decoy, family.name
    counter = types.parse_api("class Counter:\n  Counter(start: int)\n  total() -> long\n")
    with pytest.raises(starters.Unoffered, match="a class is not offered in C"):
        families.FAMILIES["c"].decoy(counter)


@pytest.fixture
def with_a_new_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> languages.Language:
    """languages.yaml with one row more, `mypython`: python3's, under another id and name."""
    table = yaml.safe_load(languages.LANGUAGES_FILE.read_text(encoding="utf-8"))
    table["mypython"] = {**table["python3"], "name": "My Python"}
    path = tmp_path / "languages.yaml"
    path.write_text(yaml.safe_dump(table, sort_keys=False), encoding="utf-8")
    monkeypatch.setattr(languages, "load", partial(languages.load, path))
    return languages.load().by_id("mypython")


@pytest.fixture(scope="module")
def problem(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("problems")
    made = judge("--problems", str(problems), "new", "maxf", "--functions", "--lang", "python3")
    assert made.returncode == 0, made.stderr
    made = judge("--problems", str(problems), "gen", "maxf")
    assert made.returncode == 0, made.stderr
    return load_problem(problems / "maxf")


def test_a_new_language_of_a_known_family_is_offered_by_its_row(
    problem: Problem, with_a_new_python: languages.Language
) -> None:
    functions = kind.Functions()
    assert "mypython" in functions.starter_languages(problem)
    assert families.of(with_a_new_python) is families.FAMILIES["python"]
    name, text = functions.starter_file(problem, "mypython")
    assert name == "max_sum.py" and "raise NotImplementedError" in text
    assert [decoy.language for decoy in functions.decoys(problem, ("mypython", "haskell"))] == ["mypython"]
    # An exception named for python3 is asked of its family's other languages too.
    copy = replace(problem, spec=problem.spec.model_copy(update={"raises": {"python3": "ValueError"}}))
    assert kind.required_raise(copy, "mypython") == "ValueError"
    assert kind.required_raise(copy, "haskell") is None


@needs.mark("isolation", "python3")
def test_a_new_language_of_a_known_family_is_graded_by_its_row(
    problem: Problem, with_a_new_python: languages.Language, tmp_path: Path
) -> None:
    verdicts = {}
    for name, text in {"kadane.py": KADANE, "sums.py": "def max_sum(xs):\n    return sum(xs)\n"}.items():
        (tmp_path / name).write_text(text)
        submitted = judging.identify(problem, tmp_path / name, "ada", language_id="mypython")
        assert submitted.language == "mypython"
        verdicts[name] = judging.judge(submitted).verdict
    assert verdicts == {"kadane.py": "AC", "sums.py": "WA"}
    (tmp_path / "other.py").write_text("def maxsum(xs):\n    return 0\n")
    record = judging.judge(judging.identify(problem, tmp_path / "other.py", "ada", language_id="mypython"))
    assert record.verdict == "CE" and record.compile_output == "no function max_sum(xs) in other.py"
