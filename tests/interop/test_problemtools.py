"""The external referee: Kattis problemtools' verifyproblem accepts the export of each of
the three puzzles, in both package formats (2023-07, the default, and legacy): config, data and validators over every test file; the submissions, each of
which must get the verdict of its folder, over the samples and the hardest group, under the
limit the package's own rule sets from its accepted solutions on this machine (no fixed one). (All of the data for every solution is `judge verify`'s job, in `make
test`; here it would cost a minute, mostly TLE solutions run to problemtools' margins. The
statement part would need LaTeX.)"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from judge.interop import exporter
from judge.kinds.table import load_problem
from tests import needs
from tests.conftest import PROBLEMS

# A minute of problemtools judging the exports: the slow tier (make test-slow).
pytestmark = pytest.mark.slow

VERIFYPROBLEM = Path(sys.executable).with_name("verifyproblem")
# This machine's toolchains, as problemtools reads them from $XDG_CONFIG_HOME: the installed
# JDK's own release (its default asks for 21), and Python 3 on CPython or, as problemtools' own
# default and Kattis have it, on PyPy.
JAVA = """\
java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
"""
CPYTHON = """\
python3:
    name: 'Python 3'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 "{mainfile}"'
"""
PYTHONS = [
    pytest.param(CPYTHON, id="cpython"),
    pytest.param(
        "",
        id="pypy",
        marks=needs.mark("pypy3"),
    ),
]


@pytest.mark.skipif(not VERIFYPROBLEM.exists(), reason="problemtools is not installed (pip install -e '.[test]')")
@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("version", exporter.FORMATS)
def test_verifyproblem_accepts_the_exported_puzzles(tmp_path: Path, version: str, python: str) -> None:
    config = tmp_path / "config" / "problemtools"
    config.mkdir(parents=True)
    (config / "languages.yaml").write_text(JAVA + python)
    running = []
    for problem in ("lanqiao", "eight-digits", "sicily-rotations"):
        package = tmp_path / f"{problem}.zip"
        loaded = load_problem(PROBLEMS / problem)
        exporter.export_problem(loaded, package, version)
        with zipfile.ZipFile(package) as archive:
            archive.extractall(tmp_path / "unpacked")
        folder = tmp_path / "unpacked" / exporter.shortname(problem)
        # No -t: the package's own rule sets the limit from the accepted solutions, as on any referee.
        parts = (
            ("data", ["-p", "config", "data", "validators"]),
            ("submissions", ["-p", "submissions", "-d", "sample|hardest|bulk"]),
        )
        for part, args in parts:
            log = tmp_path / f"{problem}-{part}.log"
            with log.open("wb") as stream:
                process = subprocess.Popen(
                    [str(VERIFYPROBLEM), str(folder), *args],
                    stdout=stream,
                    stderr=subprocess.STDOUT,
                    env={"PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)},
                )
            running.append((problem, part, process, log))
    for problem, part, process, log in running:
        assert process.wait(timeout=900) == 0, log.read_text()
        text = log.read_text()
        assert f"{exporter.shortname(problem)} tested: 0 errors" in text, text
        if part == "data":
            assert f"Checking {len(list((PROBLEMS / problem / 'tests').glob('*/*.in')))} test cases" in text, text
        else:
            # Every submission was judged and got the verdict of its folder.
            assert text.count(" OK: ") == 8, text
