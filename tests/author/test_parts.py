"""A problem made of programs (reference, generator, validator, hand-written files) through
every command: gen (deterministic, in parallel), validate, verify, solve, run and grade."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from judge.author import making, parts
from judge.errors import JudgeError
from judge.kinds.table import load_problem
from tests.test_cli import judge

SPEC = """\
id: sum
title: Sum of Two
source: a test of the judge
limits: {time_s: 1.0, memory_mib: 256, programs: {time_s: 2, memory_mib: 256, output_mib: 1}}
reference: solutions/accepted/ref.py
validators: [validators/check]
groups:
  - name: samples
    visibility: public
    cases:
      - {input: "1 2\\n", answer: "3"}
  - name: hand
    files: handmade
    points: 40
  - name: random
    generate: gen.py --max {case}000 --seed {seed}
    count: 6
    seed: 7
    points: 60
"""


def make_problem(root: Path) -> Path:
    directory = root / "sum"
    files = {
        "problem.yaml": SPEC,
        "statement.md": "# Sum of Two\n",
        "solutions/accepted/ref.py": "a, b = map(int, input().split())\nprint(a + b)\n",
        "solutions/wrong_answer/minus.py": "a, b = map(int, input().split())\nprint(a - b)\n",
        "generators/gen.py": """\
            import argparse, random
            p = argparse.ArgumentParser()
            p.add_argument("--max", type=int)
            p.add_argument("--seed", type=int)
            a = p.parse_args()
            r = random.Random(a.seed)
            print(r.randint(0, a.max), r.randint(0, a.max))
            """,
        # A validator as a folder: a C++ main with a header of its own.
        "validators/check/limits.h": "const long HIGH = 1000000;\n",
        "validators/check/main.cpp": """\
            #include <cstdio>
            #include "limits.h"
            int main() {
                long a, b; char end;
                if (std::scanf("%ld %ld%c", &a, &b, &end) != 3 || end != '\\n') { std::fputs("expected two integers", stderr); return 43; }
                if (a < 0 || b < 0 || a > HIGH || b > HIGH) { std::fputs("out of range", stderr); return 43; }
                if (std::fgetc(stdin) != EOF) { std::fputs("trailing data", stderr); return 43; }
                return 42;
            }
            """,
        "handmade/big.in": "1000000 1000000\n",
        "handmade/big.ans": "2000000\n",
        "handmade/zero.in": "0 0\n",
    }
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return directory


@pytest.fixture
def problem_dir(tmp_path: Path) -> Path:
    (tmp_path / "problems").mkdir()
    return make_problem(tmp_path / "problems")


def edit_spec(directory: Path, old: str, new: str) -> None:
    spec = directory / "problem.yaml"
    assert old in spec.read_text()
    spec.write_text(spec.read_text().replace(old, new))


def test_gen_is_deterministic_and_the_same_in_parallel(problem_dir: Path) -> None:
    problem = load_problem(problem_dir)
    one = making.generate(problem, None, jobs=1)
    two = making.generate(problem, None, jobs=2)
    assert one == two
    assert [c.id for c in one] == ["samples/01", "hand/big", "hand/zero", *(f"random/0{i}" for i in range(1, 7))]
    by_id = {c.id: c for c in one}
    assert by_id["hand/big"].answer == "2000000\n"  # given, kept
    assert by_id["hand/zero"].answer == "0\n"  # missing, written by the reference
    inputs = [by_id[f"random/0{i}"].input for i in range(1, 7)]
    assert len(set(inputs)) == 6  # each case its own seed
    for text in inputs:
        a, b = map(int, text.split())
        assert by_id[f"random/0{inputs.index(text) + 1}"].answer == f"{a + b}\n"


def test_case_seeds_are_stable_and_unrelated() -> None:
    seeds = {parts.case_seed(s, c) for s in range(5) for c in range(1, 50)}
    assert len(seeds) == 5 * 49
    assert parts.case_seed(7, 1) == parts.case_seed(7, 1)
    assert parts.generate_args("g.py --n {case} --seed {seed}", 7, 3) == (
        "--n",
        "3",
        "--seed",
        str(parts.case_seed(7, 3)),
    )


@pytest.mark.parametrize(
    ("generator", "message"),
    [
        ("import sys\nsys.exit(5)\n", "groups[2] (random) case 01: the generator `gen.py --max 1000 --seed"),
        ("while True:\n    pass\n", "went over its time limit"),
        ("import sys\nwhile True:\n    sys.stdout.write('1 ' * 4096)\n", "printed more than the 1 MiB output limit"),
        ("print('1 2')\nprint(3)\n", "groups[2] (random) case 01: invalid input: rejected by check (trailing data)"),
        ("pass\n", "the generator printed nothing"),
    ],
)
def test_a_failing_generator_names_group_and_case(problem_dir: Path, generator: str, message: str) -> None:
    (problem_dir / "generators" / "gen.py").write_text(generator)
    with pytest.raises(JudgeError) as caught:
        making.generate(load_problem(problem_dir), None, jobs=2)
    assert message in str(caught.value)
    assert str(caught.value).count("\n") == 0


def test_a_reference_traceback_names_its_own_file(problem_dir: Path) -> None:
    (problem_dir / "solutions" / "accepted" / "ref.py").write_text("a, b = map(int, input().split())\nprint(a // 0)\n")
    with pytest.raises(JudgeError) as caught:
        making.generate(load_problem(problem_dir), None, jobs=1)
    message = str(caught.value)
    assert 'File "ref.py", line 2' in message and "ZeroDivisionError" in message
    assert "/box/" not in message and "main.py" not in message


def test_a_failing_reference_names_the_case(problem_dir: Path) -> None:
    (problem_dir / "solutions" / "accepted" / "ref.py").write_text("raise SystemExit('no answer')\n")
    with pytest.raises(JudgeError, match=r"groups\[0\] \(samples\) case 01: the reference ref.py exited with code 1"):
        making.generate(load_problem(problem_dir), None)


def test_spec_checks_on_program_parts(problem_dir: Path) -> None:
    edit_spec(problem_dir, "gen.py --max {case}000 --seed {seed}", "missing.py --n {size}")
    edit_spec(problem_dir, "reference: solutions/accepted/ref.py", "reference: ../elsewhere.py")
    with pytest.raises(JudgeError) as caught:
        load_problem(problem_dir)
    text = str(caught.value)
    assert "reference: '../elsewhere.py' points outside the problem folder" in text
    assert "groups[2].generate: unknown placeholder {size}" in text
    assert "no generator generators/missing.py" in text


def test_the_commands_on_a_program_problem(problem_dir: Path) -> None:
    problems = str(problem_dir.parent)
    made = judge("--problems", problems, "gen", "-j", "2")
    assert made.returncode == 0, made.stderr
    assert judge("--problems", problems, "gen", "--check").returncode == 0
    assert judge("--problems", problems, "validate").returncode == 0
    solved = judge("--problems", problems, "solve", "sum", stdin=b"20 22\n")
    assert solved.returncode == 0 and solved.stdout == "42\n"
    refused = judge("--problems", problems, "solve", "sum", stdin=b"-1 2\n")
    assert refused.returncode != 0 and "rejected by check (out of range)" in refused.stderr
    verified = judge("--problems", problems, "verify")
    assert verified.returncode == 0, verified.stdout
    ran = judge(
        "--problems",
        problems,
        "run",
        str(problem_dir / "solutions" / "wrong_answer" / "minus.py"),
        "-p",
        "sum",
        "--json",
    )
    assert json.loads(ran.stdout)["verdict"] == "WA"
    # A class of two graded against it.
    klass = problem_dir.parent.parent / "class"
    (klass / "ada").mkdir(parents=True)
    shutil.copy(problem_dir / "solutions" / "accepted" / "ref.py", klass / "ada" / "sum.py")
    (klass / "bob").mkdir()
    (klass / "bob" / "sum.py").write_text("print(3)\n")
    graded = judge("--problems", problems, "grade", str(klass), "-o", str(klass.parent / "reports"))
    assert graded.returncode == 0, graded.stderr
    rows = (klass.parent / "reports" / "grades.csv").read_text()
    assert "ada" in rows and "bob" in rows


def test_planted_faults_fail_verify(problem_dir: Path) -> None:
    problems = str(problem_dir.parent)
    assert judge("--problems", problems, "gen").returncode == 0
    (problem_dir / "tests" / "random" / "03.ans").write_text("-1\n")
    (problem_dir / "tests" / "hand" / "zero.in").write_text("0 0\n0\n")
    verified = judge("--problems", problems, "verify")
    assert verified.returncode == 1
    out = " ".join(verified.stdout.split())  # rich folds long lines
    assert "random/03.ans: differs" in out
    assert "hand/zero.in: rejected by check (trailing data)" in out
    assert "random/03.ans:1: the reference solver disagrees" in out
    assert "solutions not run: fix the data first" in out
    assert judge("--problems", problems, "gen").returncode == 0
    shutil.copy(problem_dir / "solutions" / "wrong_answer" / "minus.py", problem_dir / "solutions" / "accepted")
    verified = judge("--problems", problems, "verify")
    assert verified.returncode == 1
    out = " ".join(verified.stdout.split())
    assert "accepted/minus.py" in out and "expected AC, got WA" in out


def test_a_hand_written_answer_the_reference_disputes_fails_verify(problem_dir: Path) -> None:
    (problem_dir / "handmade" / "big.ans").write_text("1\n")
    problems = str(problem_dir.parent)
    assert judge("--problems", problems, "gen").returncode == 0
    verified = judge("--problems", problems, "verify")
    assert verified.returncode == 1 and "hand/big.ans:1: the reference solver disagrees" in verified.stdout


def test_a_custom_checker_folder_with_arguments(problem_dir: Path) -> None:
    checker = problem_dir / "checker"
    checker.mkdir()
    # ICPC protocol: input answer feedback_dir [args] < output; accepts any answer within the given slack.
    (checker / "main.py").write_text(
        "import sys\nfrom slack import parse\n"
        "want = int(open(sys.argv[2]).read())\ngot = int(sys.stdin.read().split()[0])\n"
        "ok = abs(got - want) <= parse(sys.argv[4:])\n"
        "open(sys.argv[3] + 'judgemessage.txt', 'w').write(f'off by {got - want}')\nsys.exit(42 if ok else 43)\n"
    )
    (checker / "slack.py").write_text("def parse(args):\n    return int(args[args.index('--slack') + 1])\n")
    edit_spec(
        problem_dir,
        "validators: [validators/check]",
        "validators: [validators/check]\nchecker: {type: custom, program: checker, args: [--slack, '1']}",
    )
    problems = str(problem_dir.parent)
    assert judge("--problems", problems, "gen").returncode == 0
    off_by_one = problem_dir.parent.parent / "near.py"
    off_by_one.write_text("a, b = map(int, input().split())\nprint(a + b + 1)\n")
    ran = judge("--problems", problems, "run", str(off_by_one), "-p", "sum", "--json")
    assert json.loads(ran.stdout)["verdict"] == "AC", ran.stdout
    off_by_two = problem_dir.parent.parent / "far.py"
    off_by_two.write_text("a, b = map(int, input().split())\nprint(a + b + 2)\n")
    ran = judge("--problems", problems, "run", str(off_by_two), "-p", "sum", "--json")
    result = json.loads(ran.stdout)
    assert result["verdict"] == "WA"
    assert [c["message"] for c in result["cases"] if c["group"] == "samples"] == ["off by 2"]


def test_making_the_tests_counts_each_stage_to_its_end(problem_dir: Path) -> None:
    seen: list[tuple[str, int, int]] = []
    cases = making.generate(load_problem(problem_dir), None, jobs=2, counter=lambda *told: seen.append(told))
    stages = {stage: total for stage, _, total in seen}
    # 6 generated inputs; every input (generated, listed, handmade) through the validator; each
    # solved but the handmade one, which brings its answer.
    assert stages == {"generating": 6, "validating": len(cases), "solving": len(cases) - 1}
    for stage, total in stages.items():
        counts = [done for s, done, _ in seen if s == stage]
        assert counts == list(range(total + 1)), stage  # from 0, one run at a time, to the end


def test_a_stated_answer_the_reference_disagrees_with_names_its_line(problem_dir: Path) -> None:
    spec = problem_dir / "problem.yaml"
    text = spec.read_text()
    spec.write_text(text.replace('answer: "3"', 'answer: "4"'))
    line = 1 + text.split("\n").index(next(x for x in text.split("\n") if 'answer: "3"' in x))
    with pytest.raises(JudgeError) as caught:
        making.generate(load_problem(problem_dir), None, jobs=1)
    assert str(caught.value) == (
        f"{spec}:{line}: groups[0] (samples) case 01: the spec's answer '4' differs from the reference's '3'"
    )
