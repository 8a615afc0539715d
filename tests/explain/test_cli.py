"""`judge explain` and `judge grade --explain` from the command line: the JSON's fields, the
exit codes, one-line errors for bad input, and the page of a failing submission."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests import needs
from tests.conftest import PROBLEMS, REPO
from tests.explain.test_search import contention
from tests.grade.test_grading import PROGRAMS, small_problems
from tests.test_cli import judge

WRONG = PROBLEMS / "eight-digits" / "solutions" / "wrong_answer" / "parity_with_blank.c"
RIGHT = PROBLEMS / "sicily-rotations" / "solutions" / "accepted" / "cantor_table.c"
FIELDS = {"found", "input", "expected", "output", "verdict", "distance", "tried"}


def budget(seconds: float) -> str:
    """A search budget that gives as much work on a busy machine as `seconds` give on an idle one."""
    return f"{seconds * contention():.1f}"


def test_json_of_a_wrong_program_names_its_smallest_failing_board() -> None:
    result = judge("explain", str(WRONG), "-p", "eight-digits", "--json", "--budget", budget(15))
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert FIELDS <= set(found)
    # Its parity test counts the blank: one move from the goal it already says -1.
    assert found["found"] and found["verdict"] == "WA" and found["distance"] == 1 and found["minimal"]
    assert found["expected"] == "1\n" and found["output"] == "-1\n" and found["claimed"] == "-1"
    assert [m["move"] for m in found["moves"]] in (["slide 8 left"], ["slide 6 up"])
    assert found["tried"] >= 1 and found["skipped"] >= 1  # the goal itself is a test: never run


@pytest.mark.slow
def test_a_right_program_gets_what_was_tried(tmp_path: Path) -> None:
    result = judge("explain", str(RIGHT), "-p", "sicily-rotations", "--json", "--budget", budget(6))
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert not found["found"] and found["output"] is None and found["distance"] is None
    assert found["tried"] > 100 and found["message"] == "no failing input found"
    text = judge("explain", str(RIGHT), "-p", "sicily-rotations", "--budget", budget(6))
    assert text.returncode == 0 and text.stdout.startswith("no failing input found:")
    assert "inputs run by distance:" in text.stdout


def test_text_and_html_show_the_moves_and_no_script(tmp_path: Path) -> None:
    page = tmp_path / "explain.html"
    result = judge("explain", str(WRONG), "-p", "eight-digits", "--budget", budget(10), "--html", str(page))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("WA on distance 1; no smaller distance fails")
    assert "your program answered -1; the least number of moves is 1:" in result.stdout
    html = page.read_text()
    assert "<script" not in html.lower() and "@keyframes" in html and 'class="board' in html


def test_bad_input_gets_one_line_and_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.c"
    empty.write_text("")
    binary = tmp_path / "blob.c"
    binary.write_bytes(b"\x7fELF\0\0")
    odd = tmp_path / "main.zig"
    odd.write_text("fn main() {}\n")
    for args, needle in (
        ((str(WRONG), "-p", "nope"), "nope"),
        ((str(empty), "-p", "eight-digits"), "empty.c: empty submission"),
        ((str(binary), "-p", "eight-digits"), "blob.c: binary file"),
        ((str(odd), "-p", "eight-digits"), "main.zig"),
    ):
        result = judge("explain", *args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    # A bad option gets click's usage message, which names it.
    option = judge("explain", str(WRONG), "-p", "eight-digits", "--budget", "0.5")
    assert option.returncode == 2 and "Invalid value for '--budget'" in option.stderr


@pytest.mark.slow
def test_a_problem_of_programs_is_searched_with_its_own_generators(tmp_path: Path) -> None:
    import yaml

    problems = tmp_path / "problems"
    problems.mkdir()
    assert judge("--problems", str(problems), "new", "sums").returncode == 0
    assert judge("--problems", str(problems), "gen", "sums").returncode == 0
    wrong = problems / "sums" / "solutions" / "wrong_answer" / "empty_part.cpp"
    result = judge("--problems", str(problems), "explain", str(wrong), "-p", "sums", "--json", "--budget", budget(20))
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    # It forgets that the best part of an all-negative sequence is negative: the smallest
    # such input the generators make is shown, with the reference's answer.
    assert found["found"] and found["verdict"] == "WA" and found["measure"] == "size" and found["minimal"]
    assert found["distance"] is None and found["moves"] == [] and found["output"] == "0\n"
    assert int(found["expected"]) < 0 and all(int(v) < 0 for v in found["input"].split()[1:])
    tests = {" ".join(p.read_text().split()) for p in (problems / "sums" / "tests").rglob("*.in")}
    assert " ".join(found["input"].split()) not in tests
    # Without a generator there is nothing fresh to try: one line, exit 2.
    spec_path = problems / "sums" / "problem.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec["groups"] = [g for g in spec["groups"] if "generate" not in g]
    spec_path.write_text(yaml.safe_dump(spec))
    assert judge("--problems", str(problems), "gen", "sums").returncode == 0
    refused = judge("--problems", str(problems), "explain", str(wrong), "-p", "sums")
    assert refused.returncode == 2 and "problem.yaml" in refused.stderr and "`generate`" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


@needs.mark("java")  # without it, explain refuses the file (exit 2) before compiling
def test_a_program_that_does_not_compile_exits_1() -> None:
    result = judge("explain", str(REPO / "submissions" / "student12" / "lanqiao.java"), "-p", "lanqiao", "--json")
    assert result.returncode == 1
    found = json.loads(result.stdout)
    assert found["verdict"] == "CE" and not found["found"] and found["tried"] == 0


def test_grade_explain_puts_the_example_on_failing_pages_and_reuses_it(tmp_path: Path) -> None:
    small_problems(tmp_path / "problems")
    for student, program in (("ann", "sicily_ok.cpp"), ("ben", "sicily_zero.c")):
        (tmp_path / "class" / student).mkdir(parents=True)
        shutil.copy(PROGRAMS / program, tmp_path / "class" / student / f"sicily-rotations{Path(program).suffix}")
    args = ("--problems", str(tmp_path / "problems"), "grade", str(tmp_path / "class"), "-o", str(tmp_path / "out"))
    first = judge(*args, "--explain", "--explain-budget", budget(8))
    assert first.returncode == 0, first.stderr
    assert "explained 1 failing submission(s): a failing example found for 1" in first.stdout
    stored = tmp_path / "out" / "explanations" / "ben" / "sicily-rotations.json"
    assert json.loads(stored.read_text())["found"]
    ben = (tmp_path / "out" / "submissions" / "ben" / "sicily-rotations.html").read_text()
    ann = (tmp_path / "out" / "submissions" / "ann" / "sicily-rotations.html").read_text()
    assert 'id="explanation"' in ben and "A failing example" in ben and 'id="explanation"' not in ann
    before = stored.stat().st_mtime_ns
    again = judge(*args, "--explain")
    assert again.returncode == 0 and stored.stat().st_mtime_ns == before  # the same source: reused
    # `judge report` renders it again from what is stored.
    assert (
        judge(
            "--problems", str(tmp_path / "problems"), "report", str(tmp_path / "class"), "-o", str(tmp_path / "out")
        ).returncode
        == 0
    )
    assert 'id="explanation"' in (tmp_path / "out" / "submissions" / "ben" / "sicily-rotations.html").read_text()
