"""`judge grade` and `judge report` end to end on a small class in a temporary folder."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.grade import grading, results
from tests import needs
from tests.conftest import PROBLEMS, REPO
from tests.test_cli import judge

PROGRAMS = REPO / "tests" / "programs"

# student -> (file name in the class, program, expected headline verdict)
CLASS = {
    "ada": ("sicily-rotations.cpp", "sicily_ok.cpp", "AC"),
    "bo": ("sicily-rotations.c", "sicily_zero.c", "WA"),
    "cy": ("sicily-rotations.c", "spin.c", "TLE"),
    "di": ("sicily-rotations.cpp", "hog.cpp", "MLE"),
    "ed": ("sicily-rotations.c", "segv.c", "RE"),
    "fa": ("sicily-rotations.c", "flood.c", "OLE"),
    "gu": ("sicily-rotations.java", "Broken.java", "CE"),
    "hu": ("sicily-rotations.py", "control_chars.py", "WA"),
}


def small_problems(target: Path) -> Path:
    """A copy of the problems with a few cases per group, so grading takes seconds."""
    shutil.copytree(PROBLEMS, target)
    for group in (target / "sicily-rotations" / "tests").iterdir():
        for extra in sorted(group.glob("*.in"))[1:]:
            extra.unlink()
            extra.with_suffix(".ans").unlink()
    return target


def make_class(root: Path) -> Path:
    submissions = root / "submissions"
    for student, (name, program, _) in CLASS.items():
        folder = submissions / student
        folder.mkdir(parents=True)
        shutil.copy(PROGRAMS / program, folder / name)
    # The flat layout of an LMS export, a stray file and an unknown problem.
    shutil.copy(PROGRAMS / "sicily_ok.cpp", submissions / "iv_sicily-rotations.cpp")
    (submissions / "ada" / "README.txt").write_text("my notes\n")
    (submissions / "bo" / "tsp.cpp").write_text("int main(){}\n")
    (submissions / "overrides.yaml").write_text(
        "- student: bo\n  problem: sicily-rotations\n  score: 50\n  reason: printed the answers by hand on paper\n"
    )
    return submissions


def grade(root: Path, out: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return judge(
        "--problems",
        str(root / "problems"),
        "grade",
        str(root / "submissions"),
        "-p",
        "sicily-rotations",
        "-o",
        str(root / out),
        *extra,
    )


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("class")
    small_problems(root / "problems")
    make_class(root)
    result = grade(root, "reports", "-j", "2")
    assert result.returncode == 0, result.stderr
    yield root


def report(root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`judge report` of the graded class, into its reports folder."""
    return judge(
        "--problems",
        str(root / "problems"),
        "report",
        str(root / "submissions"),
        "-p",
        "sicily-rotations",
        "-o",
        str(root / "reports"),
        *extra,
    )


def headline(root: Path, out: str = "reports") -> dict[str, str]:
    found = results.read_all(root / out / grading.RESULTS_DIR)
    return {r.student: r.verdict for r in found}


def test_every_verdict(graded: Path) -> None:
    expected = {student: verdict for student, (_, _, verdict) in CLASS.items()} | {"iv": "AC"}
    found = headline(graded)
    # gu's Java is the next test's: it needs Java, which a machine may lack.
    assert found.keys() == expected.keys()
    assert {s: v for s, v in found.items() if s != "gu"} == {s: v for s, v in expected.items() if s != "gu"}


@needs.mark("java")
def test_a_java_class_that_does_not_compile_is_ce_with_the_compilers_words(graded: Path) -> None:
    assert headline(graded)["gu"] == "CE"
    page = (graded / "reports" / "submissions" / "gu" / "sicily-rotations.html").read_text()
    assert "Compiler output" in page and "error" in page


def test_csv_totals_and_overrides(graded: Path) -> None:
    rows = {row["student"]: row for row in csv.DictReader((graded / "reports" / "grades.csv").open())}
    assert rows["ada"]["sicily-rotations"] == "100" and rows["ada"]["total"] == "100"
    assert rows["iv"]["total"] == "100"
    assert rows["bo"]["sicily-rotations"] == "50"  # the override, not the judged 30
    assert rows["cy"]["total"] == "0"
    index = (graded / "reports" / "index.html").read_text()
    assert "printed the answers by hand on paper" in index and "override" in index


def test_not_graded_files_are_listed(graded: Path) -> None:
    index = (graded / "reports" / "index.html").read_text()
    assert "README.txt: not a submission" in index
    assert "tsp.cpp: not a submission: no problem named &#39;tsp&#39;" in index


def test_pages_and_files(graded: Path) -> None:
    reports = graded / "reports"
    wrong = (reports / "submissions" / "bo" / "sicily-rotations.html").read_text()
    assert "First difference in samples/01" in wrong and "(secret)" in wrong
    assert '<pre class="source"' in wrong and '<span class="kt">int</span>' in wrong  # numbered, highlighted
    # Each problem's statement page, rendered as the web judge renders it, linked from the class.
    statement = (reports / "problems" / "sicily-rotations.html").read_text()
    assert "<h2>Input</h2>" in statement and '<section class="sample">' in statement
    assert '<a href="problems/sicily-rotations.html">' in (reports / "index.html").read_text()
    assert 'href="../../problems/sicily-rotations.html"' in wrong
    data = json.loads((reports / "results.json").read_text())
    assert data["schema"] == 1 and len(data["submissions"]) == 9
    bo = next(s for s in data["submissions"] if s["student"] == "bo")
    # Judged 30 (the one edge file left is the ordered board, answer 0), overridden to 50.
    assert bo["score"] == 30 and bo["final_score"] == 50 and bo["override"]["reason"].startswith("printed")
    suites = ET.parse(reports / "junit.xml").getroot()  # valid XML despite control characters
    assert len(suites.findall("testsuite")) == 9
    assert suites.find("testsuite[@name='ada/sicily-rotations']").get("failures") == "0"  # type: ignore[union-attr]


def test_no_secret_reaches_a_report(graded: Path) -> None:
    tests_dir = graded / "problems" / "sicily-rotations" / "tests"
    secrets = set()
    for path in tests_dir.glob("*/*"):
        if path.parent.name != "samples":
            text = path.read_text()
            secrets |= {line.strip() for line in text.splitlines() if len(line.strip()) > 8}
            if path.suffix == ".ans" and len(text.strip()) > 8:  # a one-number answer is no evidence
                secrets.add(text)
    # What the statement itself shows is public (its example frames, the goal).
    secrets -= {
        line.strip() for line in (graded / "problems" / "sicily-rotations" / "statement.md").read_text().splitlines()
    }
    for report in (graded / "reports").rglob("*"):
        if report.is_file():
            content = report.read_text(errors="replace")
            leaked = [s for s in secrets if s in content]
            assert leaked == [], f"{report} shows secret test data"


def test_report_for_students_cuts_secret_cases_to_the_level(graded: Path) -> None:
    out = report(graded, "--for-students")
    assert out.returncode == 0, out.stderr
    folder = graded / "reports" / "students"
    assert sorted(p.name for p in folder.iterdir()) == sorted(headline(graded))
    teacher = (graded / "reports" / "submissions" / "bo" / "sicily-rotations.html").read_text()
    page = (folder / "bo" / "sicily-rotations.html").read_text()
    assert "edge/01" in teacher and "edge/01" not in page  # groups: no secret case by name
    assert "First difference in samples/01" in page  # the public case whole
    assert "feedback level groups" in page and "of the limit" not in page  # no band of a secret group
    assert "passed</td>" in page  # whether each secret group passed
    assert '<a href="sicily-rotations.html">' in (folder / "bo" / "index.html").read_text()
    # The statement beside it, so the folder stands alone.
    assert 'href="sicily-rotations.statement.html"' in page
    assert "<h2>Output</h2>" in (folder / "bo" / "sicily-rotations.statement.html").read_text()
    # Nothing of the class goes in the students' folder.
    assert not list(folder.glob("*.csv")) and not list(folder.glob("*.json"))


def test_rerun_skips_unchanged_and_regrade_forces(graded: Path) -> None:
    again = grade(graded, "reports", "-j", "2")
    assert "graded 0 submission(s), 9 unchanged" in again.stdout
    source = graded / "submissions" / "bo" / "sicily-rotations.c"
    source.write_text(source.read_text() + "\n/* edited */\n")
    changed = grade(graded, "reports", "-j", "2")
    assert "graded 1 submission(s), 8 unchanged" in changed.stdout
    rows = {row["student"]: row for row in csv.DictReader((graded / "reports" / "grades.csv").open())}
    assert rows["bo"]["sicily-rotations"] == "50"  # the override survives the regrade


def test_one_worker_gives_the_same_verdicts(graded: Path) -> None:
    result = grade(graded, "reports-j1", "-j", "1")
    assert result.returncode == 0
    two = {(r.student, tuple(c.verdict for c in r.cases)) for r in results.read_all(graded / "reports" / "results")}
    one = {(r.student, tuple(c.verdict for c in r.cases)) for r in results.read_all(graded / "reports-j1" / "results")}
    assert one == two


def test_report_rerenders_without_running(graded: Path) -> None:
    index = graded / "reports" / "index.html"
    index.unlink()
    before = sorted(p.stat().st_mtime for p in (graded / "reports" / "results").rglob("*.json"))
    result = report(graded)
    assert result.returncode == 0 and index.is_file()
    assert sorted(p.stat().st_mtime for p in (graded / "reports" / "results").rglob("*.json")) == before


def test_interrupted_run_resumes(tmp_path: Path) -> None:
    small_problems(tmp_path / "problems")
    make_class(tmp_path)
    command = [
        sys.executable,
        "-m",
        "judge",
        "--problems",
        str(tmp_path / "problems"),
        "grade",
        str(tmp_path / "submissions"),
        "-p",
        "sicily-rotations",
        "-o",
        str(tmp_path / "reports"),
        "-j",
        "1",
    ]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results_dir = tmp_path / "reports" / "results"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(results_dir.rglob("*.json"))) < 2:
        time.sleep(0.05)
    process.kill()
    process.wait()
    kept = {p for p in results_dir.rglob("*.json")}
    assert 2 <= len(kept) < 9
    assert all(results.read(p) is not None for p in kept)  # no half-written file
    resumed = grade(tmp_path, "reports", "-j", "2")
    assert f"{9 - len(kept)} submission(s), {len(kept)} unchanged" in resumed.stdout
    assert len(list(results_dir.rglob("*.json"))) == 9


def test_bad_overrides_file_is_one_line(tmp_path: Path) -> None:
    small_problems(tmp_path / "problems")
    submissions = make_class(tmp_path)
    (submissions / "overrides.yaml").write_text(
        "- student: bo\n  problem: sicily-rotations\n  score: 500\n  reason: x\n"
    )
    result = grade(tmp_path, "reports")
    assert result.returncode == 2
    assert "overrides.yaml:3: score 500 over the maximum 100" in result.stderr
    (submissions / "overrides.yaml").write_text(
        "- student: bo\n  problem: sicily-rotations\n  score: 50\n  reason: x\n"
        "- student: nobody-here\n  problem: sicily-rotations\n  score: 50\n  reason: a typo\n"
    )
    result = grade(tmp_path, "reports")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "overrides.yaml:5: no student 'nobody-here' in" in result.stderr


def test_missing_compiler_is_ie_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.grade import judging
    from judge.kinds.table import load_problem
    from judge.run.languages import Language, load

    assert "not found" in (
        load().by_id("c").model_copy(update={"compile": ("no-such-compiler-here", "{source}")}).missing()
    )
    monkeypatch.setattr(Language, "missing", lambda language: "javac not found on this machine (judge doctor)")
    problem = load_problem(small_problems(tmp_path / "problems") / "sicily-rotations")
    submitted = judging.identify(problem, PROGRAMS / "Broken.java", "zed")
    [record] = grading.run([submitted], tmp_path / "results", jobs=1)
    assert record.verdict == "IE" and record.error.startswith("javac not found") and record.score == 0
    assert results.read(tmp_path / "results" / "zed" / "sicily-rotations.json") == record


def test_cases_in_parallel_come_back_in_case_order_and_groups_break(tmp_path: Path) -> None:
    """The first case is slow and wrong, every later one crashes at once: with the cases
    spread over two workers the later ones finish first, yet the verdict is the first case's,
    and the same cases are not judged whatever order the workers finish in."""
    from tests.author.test_parts import make_problem

    problems = tmp_path / "problems"
    problems.mkdir()
    make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    klass = tmp_path / "class" / "ana"
    klass.mkdir(parents=True)
    (klass / "sum.py").write_text(
        "import sys, time\na, b = map(int, input().split())\n"
        "if a + b == 3:\n    end = time.process_time() + 0.5\n    while time.process_time() < end:\n        pass\n"
        "    print(0)\nelse:\n    sys.exit(1)\n"
    )
    # Each group is all-or-nothing, so it breaks at its first failure: the rest is not judged
    # (NJ), unless --full. The verdict and the score are the same either way.
    lazy = ["WA", "RE", "NJ", "RE", "NJ", "NJ", "NJ", "NJ", "NJ"]
    for jobs, full in (("1", False), ("2", False), ("1", True), ("2", True)):
        out = tmp_path / f"reports-{jobs}-{full}"
        extra = ["--full"] if full else []
        result = judge("--problems", str(problems), "grade", str(klass.parent), "-j", jobs, "-o", str(out), *extra)
        assert result.returncode == 0, result.stderr
        [record] = json.loads((out / "results.json").read_text())["submissions"]
        assert (record["verdict"], record["score"]) == ("WA", 0)
        assert [c["name"] for c in record["cases"]][:3] == ["samples/01", "hand/big", "hand/zero"]
        assert [c["verdict"] for c in record["cases"]] == (["WA"] + ["RE"] * 8 if full else lazy)
    page = (tmp_path / "reports-2-False" / "index.html").read_text()
    assert "<th>not judged</th>" in page
    junit = ET.parse(tmp_path / "reports-2-False" / "junit.xml").getroot()
    assert [s.get("skipped") for s in junit.iter("testsuite")] == ["6"]


def test_files_that_cannot_be_judged_are_not_graded_never_ie(tmp_path: Path) -> None:
    """Empty, binary, huge, and an unknown extension: the students' to fix, so NG with the
    reason in every report (and 0 where the file names a problem), never the judge's IE."""
    small_problems(tmp_path / "problems")
    submissions = tmp_path / "submissions"
    files = {
        "empty": ("sicily-rotations.c", b"  \n"),
        "binary": ("sicily-rotations.cpp", b"\x7fELF\0\0\0"),
        "huge": ("sicily-rotations.py", b"#" * (2 << 20)),
        "odd": ("sicily-rotations.zig", b"pub fn main() void {}\n"),
        "good": ("sicily-rotations.c", (PROGRAMS / "sicily_zero.c").read_bytes()),
    }
    for student, (name, content) in files.items():
        (submissions / student).mkdir(parents=True)
        (submissions / student / name).write_bytes(content)
    (submissions / "good" / "notes.txt").write_text("not a submission\n")  # names no problem
    (submissions / "good" / "sicily-rotations.txt").write_text("next to a source: a note, not a submission\n")
    result = grade(tmp_path, "reports", "-j", "1")
    assert result.returncode == 0, result.stderr
    assert "IE" not in result.stdout and "judge error" not in result.stderr
    assert "6 file(s) not graded" in result.stdout  # four NG records, notes.txt and the .txt beside a source
    found = {r.student: r for r in results.read_all(tmp_path / "reports" / grading.RESULTS_DIR)}
    for student in ("empty", "binary", "huge", "odd"):
        assert found[student].verdict == "NG" and found[student].score == 0 and found[student].error, student
    assert "empty submission" in found["empty"].error and "binary" in found["binary"].error
    assert "source limit" in found["huge"].error and "unknown language" in found["odd"].error
    assert found["good"].verdict == "WA"
    index = (tmp_path / "reports" / "index.html").read_text()
    listed = index.index('id="notes"')
    assert listed < index.index('id="matrix"')  # at the top, above the class
    for student in ("empty", "binary", "huge", "odd"):
        assert f"{student}/sicily-rotations: " in index[listed : index.index('id="matrix"')]
    assert "notes.txt" in index[listed : index.index('id="matrix"')]
    rows = {row["student"]: row for row in csv.DictReader((tmp_path / "reports" / "grades.csv").open())}
    assert all(rows[s]["sicily-rotations"] == "0" for s in ("empty", "binary", "huge", "odd"))
    data = json.loads((tmp_path / "reports" / "results.json").read_text())
    assert {s["student"]: s["verdict"] for s in data["submissions"]}["odd"] == "NG"
    suites = ET.parse(tmp_path / "reports" / "junit.xml").getroot()
    empty = suites.find("testsuite[@name='empty/sicily-rotations']")
    assert empty is not None and empty.get("errors") == "0" and empty.get("failures") == "1"
    page = (tmp_path / "reports" / "submissions" / "empty" / "sicily-rotations.html").read_text()
    assert "Not graded:" in page and "internal error" not in page


def _two_files(folder: Path) -> Path:
    """sicily_ok.cpp as two translation units: its search in solve.cpp, a main in main.cpp."""
    folder.mkdir(parents=True)
    whole = (PROGRAMS / "sicily_ok.cpp").read_text()
    (folder / "solve.cpp").write_text(whole.replace("int main() {", "void solve_all() {", 1))
    (folder / "solve.h").write_text("void solve_all();\n")
    (folder / "main.cpp").write_text('#include "solve.h"\nint main() { solve_all(); }\n')
    return folder


def test_submissions_of_several_files_in_every_layout(tmp_path: Path) -> None:
    """A folder, a .zip and a flat .tar.gz are one submission each, compiled together; a folder
    whose entry cannot be told is NG with the reason; an edit in a folder is a change."""
    small_problems(tmp_path / "problems")
    submissions = tmp_path / "submissions"
    _two_files(submissions / "folder" / "sicily-rotations")
    staged = _two_files(tmp_path / "staged")
    zipped = submissions / "zipped"
    zipped.mkdir()
    with zipfile.ZipFile(zipped / "sicily-rotations.zip", "w") as zf:
        for item in sorted(staged.iterdir()):
            zf.write(item, f"sicily-rotations/{item.name}")  # a zip of the folder: its top is dropped
    with tarfile.open(submissions / "tar_sicily-rotations.tar.gz", "w:gz") as tar:
        for item in sorted(staged.iterdir()):
            tar.add(item, item.name)
    _two_files(submissions / "both" / "sicily-rotations")
    shutil.copy(PROGRAMS / "sicily_zero.c", submissions / "both" / "sicily-rotations.c")  # a second one
    lost = submissions / "lost" / "sicily-rotations"
    lost.mkdir(parents=True)
    (lost / "one.py").write_text("print(0)\n")
    (lost / "two.py").write_text("print(0)\n")
    result = grade(tmp_path, "reports", "-j", "2")
    assert result.returncode == 0, result.stderr
    found = {r.student: r for r in results.read_all(tmp_path / "reports" / grading.RESULTS_DIR)}
    verdicts = {s: r.verdict for s, r in found.items()}
    assert verdicts == {"folder": "AC", "zipped": "AC", "tar": "AC", "lost": "NG", "both": "AC"}
    assert "both has another for sicily-rotations, sicily-rotations, which is graded" in result.stderr
    assert found["folder"].language == "cpp" and found["folder"].source.endswith("folder/sicily-rotations")
    assert "none named main.py or sicily-rotations.py: which one runs?" in found["lost"].error
    page = (tmp_path / "reports" / "submissions" / "zipped" / "sicily-rotations.html").read_text()
    assert "==&gt; main.cpp &lt;==" in page and "solve_all" in page  # every file of the archive, numbered
    again = grade(tmp_path, "reports", "-j", "2")
    assert "graded 0 submission(s), 5 unchanged" in again.stdout
    header = submissions / "folder" / "sicily-rotations" / "solve.h"
    header.write_text(header.read_text() + "// edited\n")
    assert "graded 1 submission(s), 4 unchanged" in grade(tmp_path, "reports", "-j", "2").stdout


@pytest.mark.slow  # heavy end to end: make test-slow
def test_a_per_case_group_gives_up_after_k_time_limits_in_a_row(tmp_path: Path) -> None:
    # lanqiao's random group (per_case, 40 cases) told to give up after 2 TLEs in a row: a
    # program that never ends gets TLE, TLE, then NJ for the other 38, each worth nothing,
    # whatever the number of workers; the other groups are judged as usual (their first
    # failure breaks them). --full still judges every case (not run here: 40 s of TLEs).
    problems = tmp_path / "problems"
    shutil.copytree(PROBLEMS / "lanqiao", problems / "lanqiao")
    spec = problems / "lanqiao" / "problem.yaml"
    text = spec.read_text()
    assert "    give_up_after_tle: 3\n" in text  # the bundled problem's own rule
    spec.write_text(text.replace("    give_up_after_tle: 3\n", "    give_up_after_tle: 2\n"))
    klass = tmp_path / "class" / "ann"
    klass.mkdir(parents=True)
    shutil.copy(PROGRAMS / "spin.c", klass / "lanqiao.c")
    for jobs in ("1", "2"):
        out = tmp_path / f"reports-{jobs}"
        result = judge("--problems", str(problems), "grade", str(klass.parent), "-j", jobs, "-o", str(out))
        assert result.returncode == 0, result.stderr
        [record] = json.loads((out / "results.json").read_text())["submissions"]
        random = [c for c in record["cases"] if c["group"] == "random"]
        assert [c["verdict"] for c in random] == ["TLE", "TLE"] + ["NJ"] * 38
        assert "2 time limits exceeded in a row" in random[2]["message"]
        assert record["score"] == 0


def test_a_per_case_group_gives_up_after_k_memory_limits_in_a_row(tmp_path: Path) -> None:
    # The bundled lanqiao gives up after 3 MLEs in a row: a program that fills any limit gets
    # MLE on the first case of each all-or-nothing group (which breaks there), MLE on three
    # cases of the per-case group, and NJ for its other 37.
    klass = tmp_path / "class" / "ann"
    klass.mkdir(parents=True)
    shutil.copy(PROGRAMS / "hog.cpp", klass / "lanqiao.cpp")
    result = judge("grade", str(klass.parent), "-j", "2", "-o", str(tmp_path / "reports"))
    assert result.returncode == 0, result.stderr
    [record] = json.loads((tmp_path / "reports" / "results.json").read_text())["submissions"]
    random = [c for c in record["cases"] if c["group"] == "random"]
    assert [c["verdict"] for c in random] == ["MLE"] * 3 + ["NJ"] * 37
    assert "3 memory limits exceeded in a row" in random[3]["message"]
    assert record["verdict"] == "MLE" and record["score"] == 0


def test_judge_grade_reads_the_class_once_and_identifies_each_submission_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One reading of the folder serves the plan, the overrides and the reports; each file is
    read and identified once, whoever needs its language afterwards."""
    from click.testing import CliRunner

    from judge.cli import cli
    from judge.grade import judging

    problems = small_problems(tmp_path / "problems")
    klass = tmp_path / "class"
    for student, (name, program, _) in list(CLASS.items())[:2]:
        (klass / student).mkdir(parents=True)
        shutil.copyfile(PROGRAMS / program, klass / student / name)
    calls: dict[str, int] = {"discover": 0, "identify": 0}
    discover, identify = grading.discover, judging.identify

    def counted_discover(*args: object, **kwargs: object) -> list[grading.Entry]:
        calls["discover"] += 1
        return discover(*args, **kwargs)  # type: ignore[arg-type]

    def counted_identify(*args: object, **kwargs: object) -> judging.Submitted:
        calls["identify"] += 1
        return identify(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(grading, "discover", counted_discover)
    monkeypatch.setattr(judging, "identify", counted_identify)
    out = tmp_path / "reports"
    done = CliRunner().invoke(cli, ["--problems", str(problems), "grade", str(klass), "-o", str(out), "-j", "1"])
    assert done.exit_code == 0, done.output
    assert calls == {"discover": 1, "identify": 2}
    assert {r.student for r in results.read_all(out / "results")} == {"ada", "bo"}
