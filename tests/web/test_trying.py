"""A run judged as the workers judge it (issue 59): only the public cases, every one of them
even after one fails, each with its output, answer and time; one's own input with what the
program printed; a CE with the compiler's words. Never a secret case."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.web.state.queueing import Claim
from judge.web.state.runs import RunClaim
from judge.web.trying import OWN, judge_run
from tests import needs


@pytest.fixture(scope="module")
def maxsum(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from judge.author import scaffold
    from tests.test_cli import judge

    problems = tmp_path_factory.mktemp("runs")
    scaffold.create(problems, "maxsum", "python3")
    assert judge("--problems", str(problems), "gen", "maxsum").returncode == 0
    return problems / "maxsum"


def _run(folder: Path, source: str, own_input: str | None = None):  # type: ignore[no-untyped-def]
    from judge.kinds.table import load_problem
    from judge.web.worker import submitted_of

    problem = load_problem(folder)
    claim = Claim(1, 0, "ada", "maxsum", "python3", "pasted", source.encode())
    taken = RunClaim(claim, own_input)
    return judge_run(taken, submitted_of(claim, problem))


@needs.mark("isolation", "python3")
def test_every_public_sample_is_judged_and_no_secret_case(maxsum: Path) -> None:
    # -1 is the second sample's answer only: the first fails, and the second is judged all the same.
    result = _run(maxsum, "print(-1)\n")
    assert result.error == "" and result.compile_error == ""
    assert [(c.name, c.verdict) for c in result.cases] == [("samples/01", "WA"), ("samples/02", "AC")]
    first = result.cases[0]
    assert first.input == "5\n-2 1 -3 4 -1\n" and first.output == "-1\n" and first.expected.strip() == "4"


@needs.mark("isolation", "python3")
def test_ones_own_input_shows_what_the_program_printed(maxsum: Path) -> None:
    result = _run(maxsum, "n = int(input())\nprint(n * 2)\nimport sys\nprint('note', file=sys.stderr)\n", "21\n")
    [case] = result.cases
    assert case.name == f"{OWN}/1" and case.verdict == "" and case.output == "42\n" and case.stderr == "note\n"
    assert case.expected == ""  # no answer to compare with
    crashed = _run(maxsum, "raise SystemExit(3)\n", "1\n")
    assert crashed.cases[0].verdict == "RE"


@needs.mark("isolation", "python3")
def test_a_syntax_error_is_the_compilers_words(maxsum: Path) -> None:
    result = _run(maxsum, "def f(:\n")
    assert result.cases == () and "SyntaxError" in result.compile_error
    # The student's file and line first, none of the judge's frames (issue 59, item 5).
    assert result.compile_error.startswith('File "main.py", line 1') and "<string>" not in result.compile_error


@needs.mark("isolation", "pytest")
def test_on_a_unit_problem_run_runs_the_public_tests_only(tmp_path: Path) -> None:
    from judge.author import scaffold
    from judge.kinds.table import load_problem
    from judge.web.worker import submitted_of
    from tests.test_cli import judge

    scaffold.create(tmp_path, "stack", "python3", kind="unit")
    assert judge("--problems", str(tmp_path), "gen", "stack").returncode == 0
    problem = load_problem(tmp_path / "stack")
    accepted = next((problem.directory / "solutions" / "accepted").iterdir())
    claim = Claim(1, 0, "ada", "stack", "python3", accepted.name, accepted.read_bytes())
    result = judge_run(RunClaim(claim, None), submitted_of(claim, problem))
    public = sorted(g.name for g in problem.spec.groups if g.visibility == "public")
    assert sorted(c.name.split("/")[0] for c in result.cases) == public and public
    assert all(c.verdict == "AC" for c in result.cases)


@needs.mark("isolation", "python3")
def test_a_function_runs_on_the_students_own_call(tmp_path: Path) -> None:
    """Issue 59: one's own input on a function problem is a call; the page shows what the
    function returned (or raised), never compared with anything."""
    from judge.author import scaffold
    from judge.kinds.table import load_problem
    from judge.web.worker import submitted_of

    scaffold.create(tmp_path, "maxf", "python3", kind="functions")
    problem = load_problem(tmp_path / "maxf")
    source = b"def max_sum(xs):\n    if not xs:\n        raise ValueError('empty')\n    return max(xs)\n"
    claim = Claim(1, 0, "ada", "maxf", "python3", "mine.py", source)

    def tried(text: str):  # type: ignore[no-untyped-def]
        return judge_run(RunClaim(claim, text), submitted_of(claim, problem))

    [case] = tried("max_sum([1, -2, 3])").cases
    assert (case.input, case.output, case.verdict, case.expected) == ("max_sum([1, -2, 3])", "3", "", "")
    assert tried("[[]]").cases[0].output == "raised ValueError: empty"
    assert "not a call of max_sum" in tried('["x"]').error
    assert "write the call as max_sum(...)" in tried("max_sum(").error


@needs.mark("isolation", "python3")
def test_a_class_runs_on_the_students_own_scenario(tmp_path: Path) -> None:
    """Issue 59: one's own input on a class problem is a scenario, a call a line (or the spec's
    JSON), checked against the signature; the page shows what each step returned or raised."""
    from judge.author import scaffold
    from judge.kinds.table import load_problem
    from judge.web.worker import submitted_of

    scaffold.create(tmp_path, "stack", "python3", kind="functions", shape="class")
    problem = load_problem(tmp_path / "stack")
    source = (
        b"class MinStack:\n    def __init__(self):\n        self.xs = []\n\n    def push(self, x):\n"
        b"        self.xs.append(x)\n\n    def pop(self):\n        return self.xs.pop()\n\n"
        b"    def top(self):\n        return self.xs[-1]\n\n    def min(self):\n        return min(self.xs)\n"
    )
    claim = Claim(1, 0, "ada", "stack", "python3", "mine.py", source)

    def tried(text: str):  # type: ignore[no-untyped-def]
        return judge_run(RunClaim(claim, text), submitted_of(claim, problem))

    [case] = tried("MinStack()\ns.push(3)\npush(1)\nmin()\npop()\npop()\npop()").cases
    assert case.input == "MinStack()\npush(3)\npush(1)\nmin()\npop()\npop()\npop()" and case.verdict == ""
    assert case.output.splitlines() == [
        "MinStack() → None",
        "push(3) → None",
        "push(1) → None",
        "min() → 1",
        "pop() → 1",
        "pop() → 3",
        "pop() → raised IndexError: pop from empty list",
    ]
    assert tried('[["MinStack"], ["push", 2], ["min"]]').cases[0].output.endswith("min() → 2")
    assert "step 2: 'peek' is not a method of MinStack" in tried("MinStack()\npeek()").error
    assert "write one call a line, MinStack(...) first" in tried("MinStack()\npush 3").error
