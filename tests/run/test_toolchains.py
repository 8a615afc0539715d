"""Every language of languages.yaml whose toolchain is here, end to end through `judge run`:
one small program per language answers, gets a wrong answer, spins, allocates a GiB, crashes
and tries to read a file outside its box, by the first line of its input; a second one does not
compile; a third, of two files in a folder, adds two numbers. A language without its toolchain
is skipped, naming the package to install."""

from __future__ import annotations

import json
import secrets
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

from judge.run import languages
from tests.conftest import REPO
from tests.test_cli import judge

PROGRAMS = REPO / "tests" / "programs" / "languages"
TABLE = languages.load()
ADD_CASE = ("--input", str(PROGRAMS / "add.in"), "--answer", str(PROGRAMS / "add.ans"))
EXPECTED = {"ok": "AC", "wrong": "WA", "loop": "TLE", "alloc": "MLE", "crash": "RE", "peek": "WA or RE"}


def _probe_problem(root: Path) -> Path:
    """A problem whose cases each ask for one behaviour; the secret of `peek` is a file beside
    the problem, which no program may read."""
    secret = root / "secret-answer.txt"
    token = f"secret-{secrets.token_hex(8)}"
    secret.write_text(token + "\n")
    problem = root / "problems" / "probe"
    (problem / "solutions").mkdir(parents=True)
    (problem / "statement.md").write_text("The first line says what to do.\n")
    (problem / "solutions" / "reference.py").write_text(
        "import sys\n"
        "words = sys.stdin.read().split()\n"
        f"answers = {{'add': lambda: int(words[1]) + int(words[2]), 'alloc': lambda: words[1], 'peek': lambda: {token!r}}}\n"
        "print(answers.get(words[0], lambda: 1)())\n"
    )
    cases = {
        "ok": "add\\n2 3\\n",
        "wrong": "wrong\\n",
        "loop": "loop\\n",
        "alloc": "alloc\\n1024\\n",
        "crash": "crash\\n",
        "peek": f"peek\\n{secret}\\n",
    }
    groups = "\n".join(
        f'  - {{name: {name}, visibility: public, points: 1, cases: [{{input: "{text}"}}]}}'
        for name, text in cases.items()
    )
    (problem / "problem.yaml").write_text(
        "id: probe\ntitle: Probe\nsource: the judge's tests\nreference: solutions/reference.py\n"
        "limits: {time_s: 1.0, memory_mib: 256}\n"
        f"groups:\n{groups}\n"
    )
    generated = judge("--problems", str(root / "problems"), "gen")
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return root / "problems"


# The class's four languages run in every `make test`; the other nineteen, whose compilers take
# minutes together (kotlinc, scalac, ghc, ...), in the long tier (make test-slow, CI).
CORE = ("c", "cpp", "python3", "java")
OTHERS = tuple(sorted(set(TABLE.languages) - set(CORE)))


@pytest.fixture(scope="module")
def problems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _probe_problem(tmp_path_factory.mktemp("toolchains"))


@pytest.fixture(scope="module")
def core_verdicts(problems: Path) -> dict[str, dict[str, str]]:
    return _verdicts(problems, CORE)


@pytest.fixture(scope="module")
def other_verdicts(problems: Path) -> dict[str, dict[str, str]]:
    return _verdicts(problems, OTHERS)


def _verdicts(problems: Path, ids: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """Language id -> case group -> verdict, plus the CE program's; languages run two at a time."""

    def one(language: languages.Language) -> tuple[str, dict[str, str]]:
        if language.missing():
            return language.id, {}
        probe, broken = _programs(language.id)
        ran = judge(
            "--problems", str(problems), "run", str(probe), "-p", "probe", "--lang", language.id, "--json", "--full"
        )
        found = {"compile": ran.stderr[-2000:]}
        if ran.stdout.strip():
            payload = json.loads(ran.stdout)
            found |= {c["group"]: c["verdict"] for c in payload["cases"]}
            found["headline"] = payload["verdict"]
            found["compile_output"] = payload.get("compile_output", "")
        failed = judge("--problems", str(problems), "run", str(broken), "-p", "probe", "--lang", language.id, "--json")
        found["broken"] = json.loads(failed.stdout)["verdict"] if failed.stdout.strip() else failed.stderr
        found["broken_output"] = json.loads(failed.stdout).get("compile_output", "") if failed.stdout.strip() else ""
        # A program of two files (a folder), entry found by the language's convention.
        several = judge("run", str(_several(language.id)), "--lang", language.id, *ADD_CASE)
        found["several"] = (several.stdout.split() or [several.stderr[-2000:]])[0]
        return language.id, found

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, [TABLE.by_id(language_id) for language_id in ids]))


def _several(language_id: str) -> Path:
    """The language's program of two files (a variant shares its base language's)."""
    return PROGRAMS / {"cpp20": "cpp", "pypy3": "python3"}.get(language_id, language_id) / "several"


@cache
def _programs(language_id: str) -> tuple[Path, Path]:
    folder = PROGRAMS / language_id
    [probe] = [p for p in folder.iterdir() if p.stem == "probe"]
    [broken] = [p for p in folder.iterdir() if p.stem == "broken"]
    return probe, broken


def test_every_language_has_its_programs_and_their_extension_finds_it() -> None:
    assert sorted(p.name for p in PROGRAMS.iterdir() if p.is_dir()) == sorted(TABLE.languages)
    assert all(_several(language_id).is_dir() for language_id in TABLE.languages)
    for language in TABLE.languages.values():
        probe, _ = _programs(language.id)
        # A variant (cpp20, pypy3) shares its extension with the language it varies: --lang.
        sharing = [
            other.id
            for other in TABLE.languages.values()
            if set(other.extensions) & set(language.extensions) and not other.shebang
        ]
        assert TABLE.detect(probe).id == (language.id if language.shebang else sharing[0])


def test_a_shared_extension_goes_by_the_first_line() -> None:
    assert TABLE.detect(Path("main.pl"), b"#!/usr/bin/perl\nprint 1;\n").id == "perl"
    assert TABLE.detect(Path("main.pl"), b"main :- halt.\n").id == "prolog"


@pytest.mark.parametrize("language_id", CORE)
def test_each_verdict_in_each_language_of_the_class(core_verdicts: dict[str, dict[str, str]], language_id: str) -> None:
    _check(core_verdicts, language_id)


@pytest.mark.slow
@pytest.mark.parametrize("language_id", OTHERS)
def test_each_verdict_in_each_other_language(other_verdicts: dict[str, dict[str, str]], language_id: str) -> None:
    _check(other_verdicts, language_id)


def test_the_two_sets_cover_every_language() -> None:
    assert sorted(CORE + OTHERS) == sorted(TABLE.languages) and not set(CORE) & set(OTHERS)


def _check(verdicts: dict[str, dict[str, str]], language_id: str) -> None:
    language = TABLE.by_id(language_id)
    why = language.missing()
    if why:
        pytest.skip(why)
    found = verdicts[language_id]
    found = {k: v for k, v in found.items() if k != "compile"}
    assert found.get("ok") == "AC", found
    assert found["several"] == "AC", found
    assert found["wrong"] == "WA", found
    assert found["loop"] == "TLE", found
    assert found["alloc"] == "MLE", found
    assert found["crash"] == "RE", found
    assert found["peek"] in ("WA", "RE"), found  # never AC: the file outside the box is not there
    assert found["broken"] == "CE", found
    assert found["broken_output"].strip(), found  # the compiler's own message
