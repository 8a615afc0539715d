"""A function problem end to end: `judge new --kind functions` verifies as made, each call is
judged outside the sandbox, and nothing a submission does in its process turns a wrong value
into AC (the expected value is never in its box)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from judge.author import scaffold
from judge.errors import JudgeError
from judge.grade import judging
from judge.kinds.table import load_problem
from judge.problem.spec import Problem, SpecError
from judge.run import sandbox
from judge.run.sandbox import session
from tests import needs
from tests.test_cli import judge

needs_sandbox = needs.mark("isolation")

HOSTILE = {
    # An object that equals anything: serialized by its exact type, it is no int.
    "always_equal.py": "class Anything(int):\n    def __eq__(self, other):\n        return True\n"
    "    __hash__ = int.__hash__\n\n\ndef max_sum(xs):\n    return Anything(0)\n",
    # A result line of its own, on stdout and every descriptor, then an early exit 0.
    "fake_result.py": "import os, sys\n\n\ndef max_sum(xs):\n"
    "    line = b'\\n\\x1ejudge-result\\x1e {\"returned\": 12345}\\n'\n"
    "    for fd in range(1, 20):\n        try:\n            os.write(fd, line)\n        except OSError:\n"
    "            pass\n    os._exit(0)\n",
    # The encoder and builtins replaced before the harness writes its result.
    "patched.py": "import json, builtins\njson.dumps = lambda *a, **k: '{\"returned\": 4}'\n"
    "builtins.repr = lambda x: '4'\n\n\ndef max_sum(xs):\n    return '4'\n",
    # Looks for the other cases and the answers: nothing of them is in its box.
    "snoop.py": "import os\n\n\ndef max_sum(xs):\n    seen = []\n"
    "    for root, dirs, files in os.walk('/'):\n        seen += [f for f in files if f.endswith(('.ans', '.in'))]\n"
    "        if len(seen) > 0:\n            break\n    return len(seen) - 10**12\n",
    # sys.exit(0) inside the call: a SystemExit raised, not a result.
    "exits.py": "import sys\n\n\ndef max_sum(xs):\n    sys.exit(0)\n",
}


PRINTS = """\
import sys


def max_sum(xs):
    print("debug", xs[:3], '{"returned": 0}')
    print("to stderr", file=sys.stderr)
    if not xs:
        raise ValueError("empty")
    best = here = xs[0]
    for x in xs[1:]:
        here = max(x, here + x)
        best = max(best, here)
    return best
"""


@pytest.fixture(scope="module")
def problem(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("problems")
    scaffold.create(problems, "maxf", "python3", kind="functions")
    made = judge("--problems", str(problems), "gen", "maxf")
    assert made.returncode == 0, made.stderr
    return load_problem(problems / "maxf")


@needs_sandbox
def test_the_new_function_problem_verifies_as_made(problem: Problem) -> None:
    verified = judge("--problems", str(problem.directory.parent), "verify", "maxf")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "answers reproduced (17 answers)" in verified.stdout
    assert (problem.tests_dir / "samples" / "01.in").read_text() == "[[-2,1,-3,4,-1]]\n"
    assert (problem.tests_dir / "samples" / "03.ans").read_text() == '{"$raised":"ValueError"}\n'


@needs_sandbox
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_no_hostile_submission_is_accepted(problem: Problem, tmp_path: Path, name: str) -> None:
    source = tmp_path / name
    source.write_text(HOSTILE[name])
    record = judging.judge(judging.identify(problem, source, "mallory"), full=True)
    assert record.verdict in ("WA", "RE") and record.score == 0, (name, record.cases[:2])
    assert not any(c.verdict == "AC" for c in record.cases if c.name != "samples/03"), name


@needs_sandbox
def test_each_verdict_says_what_the_call_did(problem: Problem, tmp_path: Path) -> None:
    cases = {
        "typed.py": ("def max_sum(xs):\n    return str(sum(xs))\n", "WA", "returned str: expected long, got str"),
        "raises.py": ("def max_sum(xs):\n    raise KeyError('x')\n", "RE", "raised KeyError: 'x'"),
        "none.py": ("def max_sum(xs):\n    pass\n", "WA", "returned None: expected long, got None"),
        "spins.py": ("def max_sum(xs):\n    while True:\n        pass\n", "TLE", ""),
        # What a function prints is its own: it neither is nor spoils the result.
        "prints.py": (PRINTS, "AC", ""),
    }
    for name, (text, verdict, said) in cases.items():
        (tmp_path / name).write_text(text)
        record = judging.judge(judging.identify(problem, tmp_path / name, "bo"))
        first = record.cases[0]
        assert (record.verdict, first.verdict) == (verdict, verdict), (name, first)
        assert said in first.message, (name, first.message)


def test_a_module_without_the_function_is_ce(problem: Problem, tmp_path: Path) -> None:
    (tmp_path / "other.py").write_text("def maxsum(xs):\n    return 0\n")
    record = judging.judge(judging.identify(problem, tmp_path / "other.py", "cy"))
    assert record.verdict == "CE" and record.compile_output == "no function max_sum(xs) in other.py"


@needs.mark("ruby")  # a missing toolchain is said before a missing harness
def test_a_language_without_a_harness_is_ce(problem: Problem, tmp_path: Path) -> None:
    (tmp_path / "mine.rb").write_text("def max_sum(xs)\n  0\nend\n")  # no harness yet
    record = judging.judge(judging.identify(problem, tmp_path / "mine.rb", "cy"))
    assert record.verdict == "CE" and "is not offered yet" in record.compile_output


def validated_with(problem: Problem, text: str) -> str:
    """`judge validate`'s refusal of the problem with small/01.in holding `text` (put back after)."""
    bad = problem.tests_dir / "small" / "01.in"
    kept = bad.read_text()
    try:
        bad.write_text(text)
        checked = judge("--problems", str(problem.directory.parent), "validate", problem.id)
        assert checked.returncode == 1
        return checked.stdout + checked.stderr
    finally:
        bad.write_text(kept)


def test_a_call_of_the_wrong_types_is_an_invalid_input_naming_its_file(problem: Problem) -> None:
    said = validated_with(problem, '[["1", 2]]\n')
    assert f"{problem.tests_dir / 'small' / '01.in'}: argument 1 (xs)[0]: expected int, got str" in said


def test_the_spec_of_a_function_problem_is_checked(problem: Problem, tmp_path: Path) -> None:
    text = (problem.directory / "problem.yaml").read_text()
    cases = {
        'signature: "max_sum(xs: list[int]) -> long"': (
            'signature: "max_sum(xs: set[int]) -> long"',
            "unknown type 'set'",
        ),
        "      - call: [[-5, -1, -8]]\n        answer: -1": (
            "      - call: [[-5, -1, -8]]\n        answer: '-1'",
            "the answer: expected long, got str",
        ),
        "      - call: [[]]": ("      - call: [[], 3]", "2 argument(s), max_sum takes 1"),
        "checker: {type: value}": ("checker: {type: tokens}", "'tokens' is not a function problem's checker"),
    }
    for old, (new, said) in cases.items():
        folder = tmp_path / "maxf"
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(problem.directory, folder)
        (folder / "problem.yaml").write_text(text.replace(old, new))
        with pytest.raises(SpecError) as raised:
            load_problem(folder)
        assert said in str(raised.value), (new, str(raised.value))


def test_a_function_problem_is_not_exported_as_a_package(problem: Problem, tmp_path: Path) -> None:
    from judge.interop.exporter import export_problem

    with pytest.raises(JudgeError, match="the ICPC package format has no problems of kind functions"):
        export_problem(problem, tmp_path / "maxf.zip")
    assert not (tmp_path / "maxf.zip").exists()


@needs_sandbox
def test_judge_explain_finds_a_small_failing_call_from_the_generators(problem: Problem, tmp_path: Path) -> None:
    (tmp_path / "positives.py").write_text(
        "def max_sum(xs):\n    if not xs:\n        raise ValueError('empty')\n"
        "    return sum(x for x in xs if x > 0) or max(xs)\n"
    )
    said = judge("--problems", str(problem.directory.parent), "explain", str(tmp_path / "positives.py"), "-p", "maxf")
    assert said.returncode == 0, said.stderr
    lines = said.stdout.splitlines()
    assert "expected (what the reference returned):" in lines and "your output:" not in said.stdout
    call = lines[lines.index("input:") + 1].strip()
    assert call.startswith("[[") and call.endswith("]]")  # one call's arguments, made by gen.py
    verdict = next(line for line in lines if line.startswith("verdict: "))
    # The failed call names itself (issue 59), its arguments cut where long.
    assert verdict.startswith("verdict: WA (max_sum([") and "): expected " in verdict and ", got " in verdict


def test_a_starter_file_has_the_signature_and_fails_every_call(problem: Problem, tmp_path: Path) -> None:
    made = judge("--problems", str(problem.directory.parent), "starter", "maxf", "-o", str(tmp_path / "mine.py"))
    assert made.returncode == 0, made.stderr
    text = (tmp_path / "mine.py").read_text()
    assert text.startswith("def max_sum(xs: list[int]) -> int:\n") and "NotImplementedError" in text
    other = judge("--problems", str(problem.directory.parent), "starter", "maxf", "--lang", "ruby")
    assert (
        other.returncode == 2
        and "function problems take python3, pypy3, cpp, cpp20, java, c, javascript, go, rust, csharp, kotlin for now"
        in other.stderr
    )
    java = judge("--problems", str(problem.directory.parent), "starter", "maxf", "--lang", "java")
    assert "    public long max_sum(int[] xs) {" in java.stdout
    cpp = judge("--problems", str(problem.directory.parent), "starter", "maxf", "--lang", "cpp")
    assert "long long max_sum(std::vector<int> xs) {" in cpp.stdout


CPP = {
    "kadane.cpp": (
        "#include <bits/stdc++.h>\nusing namespace std;\n\nlong long max_sum(const vector<int>& xs) {\n"
        '    if (xs.empty()) throw invalid_argument("empty");\n    long long best = xs[0], here = xs[0];\n'
        "    for (size_t i = 1; i < xs.size(); i++) {\n        here = max<long long>(xs[i], here + xs[i]);\n"
        "        best = max(best, here);\n    }\n    return best;\n}\n",
        "AC",
    ),
    "sums_all.cpp": (
        "#include <vector>\nlong long max_sum(std::vector<int> xs) {\n    long long s = 0;\n"
        "    for (int x : xs) s += x;\n    return s;\n}\n",
        "WA",
    ),
    # A result line of its own on every descriptor, then an exit before the harness writes.
    "fake_result.cpp": (
        "#include <vector>\n#include <unistd.h>\n#include <cstring>\nlong long max_sum(std::vector<int> xs) {\n"
        '    const char *line = "\\n\\x1ejudge-result\\x1e {\\"returned\\":12345}\\n";\n'
        "    for (int fd = 1; fd < 20; fd++) { ssize_t n = write(fd, line, strlen(line)); (void)n; }\n"
        "    _exit(0);\n}\n",
        "WA",
    ),
    "throws_int.cpp": ("#include <vector>\nlong long max_sum(std::vector<int> xs) {\n    throw 7;\n}\n", "RE"),
}


@needs.mark("cpp")
def test_a_cpp_file_without_the_function_is_a_ce_naming_it(problem: Problem, tmp_path: Path) -> None:
    (tmp_path / "other.cpp").write_text("#include <vector>\nint maxsum(std::vector<int> xs) { return 0; }\n")
    record = judging.judge(judging.identify(problem, tmp_path / "other.cpp", "bo"))
    assert record.verdict == "CE" and "'max_sum' was not declared" in record.compile_output.replace("‘", "'").replace(
        "’", "'"
    )


@needs_sandbox
@needs.mark("java")
def test_a_java_class_naming_the_method_only_in_a_comment_or_string_is_a_ce(problem: Problem, tmp_path: Path) -> None:
    """The pre-check reads code: `max_sum(` in a comment or a string is no method (it was RE
    on every case, the harness finding nothing by reflection)."""
    (tmp_path / "Solution.java").write_text(
        "/** Solves it: see max_sum(xs) below. */\npublic class Solution {\n"
        '    String help = "call max_sum(xs)";\n    // long max_sum(int[] xs) { return 0; }\n}\n'
    )
    record = judging.judge(judging.identify(problem, tmp_path / "Solution.java", "bo"))
    assert record.verdict == "CE" and record.compile_output == "no method max_sum in class Solution (Solution.java)"


JAVA = {
    "Solution.java": (
        "public class Solution {\n    public long max_sum(int[] xs) {\n"
        '        if (xs.length == 0) throw new IllegalArgumentException("empty");\n'
        "        long best = xs[0], here = xs[0];\n        for (int i = 1; i < xs.length; i++) {\n"
        "            here = Math.max(xs[i], here + xs[i]);\n            best = Math.max(best, here);\n        }\n"
        "        return best;\n    }\n}\n",
        "AC",
    ),
    "Sums.java": (
        "import java.util.*;\nclass Solution {\n    static long max_sum(List<Integer> xs) {\n"
        "        long s = 0;\n        for (int x : xs) s += x;\n        return s;\n    }\n}\n",
        "WA",
    ),
    # A result line of its own on the real stdout, then the JVM halted before the harness writes.
    "Fake.java": (
        "import java.io.*;\nclass Solution {\n    static long max_sum(int[] xs) throws Exception {\n"
        "        FileOutputStream out = new FileOutputStream(FileDescriptor.out);\n"
        '        out.write("\\n\\u001ejudge-result\\u001e {\\"returned\\":12345}\\n".getBytes());\n'
        "        out.flush();\n        Runtime.getRuntime().halt(0);\n        return 0;\n    }\n}\n",
        "WA",
    ),
    "Exits.java": (
        "class Solution {\n    static long max_sum(int[] xs) {\n        System.exit(0);\n        return 4;\n    }\n}\n",
        "WA",
    ),
    "Other.java": ("class Answer {\n    static long max_sum(int[] xs) {\n        return 0;\n    }\n}\n", "CE"),
}


C_SOURCES = {
    # No exceptions in C: where the reference raised, an abort (a failure of its own) is the answer.
    "kadane.c": (
        "#include <stdlib.h>\nlong long max_sum(const int *xs, int xs_len) {\n    if (xs_len == 0) abort();\n"
        "    long long best = xs[0], here = xs[0];\n    for (int i = 1; i < xs_len; i++) {\n"
        "        here = here + xs[i] > xs[i] ? here + xs[i] : xs[i];\n        if (here > best) best = here;\n"
        "    }\n    return best;\n}\n",
        "AC",
    ),
    "first.c": ("long long max_sum(const int *xs, int xs_len) {\n    return xs_len ? xs[0] : 0;\n}\n", "WA"),
    "fake_result.c": (
        "#include <string.h>\n#include <unistd.h>\nlong long max_sum(const int *xs, int xs_len) {\n"
        '    const char *line = "\\n\\x1ejudge-result\\x1e {\\"returned\\":12345}\\n";\n'
        "    for (int fd = 1; fd < 20; fd++) { ssize_t n = write(fd, line, strlen(line)); (void)n; }\n"
        "    _exit(0);\n}\n",
        "WA",
    ),
    "wrong_name.c": ("long long maxsum(const int *xs, int xs_len) {\n    return 0;\n}\n", "CE"),
}


JAVASCRIPT = {
    "kadane.js": (
        "function max_sum(xs) {\n  if (xs.length === 0) throw new RangeError('empty');\n"
        "  let best = xs[0], here = xs[0];\n  for (let i = 1; i < xs.length; i++) {\n"
        "    here = Math.max(xs[i], here + xs[i]);\n    best = Math.max(best, here);\n  }\n  return best;\n}\n",
        "AC",
    ),
    "typed.js": ("function max_sum(xs) {\n  return String(xs.length);\n}\n", "WA"),
    # The writer and the encoder replaced at the top, then an exit inside the call: no effect.
    "hostile.js": (
        "const fs = require('fs');\nJSON.stringify = () => '4';\n"
        "fs.writeSync = () => 0;\nfunction max_sum(xs) {\n"
        "  require('fs').writeSync(1, '\\n\\x1ejudge-result\\x1e {\"returned\":12345}\\n');\n"
        "  process.exit(0);\n}\n",
        "WA",
    ),
    "syntax.js": ("function max_sum(xs) {\n  return xs[0] +;\n}\n", "CE"),
}


GO = {
    "kadane.go": (
        'package main\n\nfunc max_sum(xs []int) int64 {\n\tif len(xs) == 0 {\n\t\tpanic("empty")\n\t}\n'
        "\tbest, here := int64(xs[0]), int64(xs[0])\n\tfor _, x := range xs[1:] {\n"
        "\t\there += int64(x)\n\t\tif int64(x) > here {\n\t\t\there = int64(x)\n\t\t}\n"
        "\t\tif here > best {\n\t\t\tbest = here\n\t\t}\n\t}\n\treturn best\n}\n",
        "AC",
    ),
    # Honest: its own prints go to stderr from init() on. The old os.Stdout is left to Go's
    # finalizer, which closes descriptor 1 (forced here): the harness writes on its own copy.
    "stdout_to_stderr.go": (
        'package main\n\nimport (\n\t"os"\n\t"runtime"\n)\n\nfunc init() {\n\tos.Stdout = os.Stderr\n'
        "\truntime.GC()\n\truntime.GC()\n}\n\n"
        'func max_sum(xs []int) int64 {\n\tif len(xs) == 0 {\n\t\tpanic("empty")\n\t}\n'
        "\tbest, here := int64(xs[0]), int64(xs[0])\n\tfor _, x := range xs[1:] {\n"
        "\t\there += int64(x)\n\t\tif int64(x) > here {\n\t\t\there = int64(x)\n\t\t}\n"
        "\t\tif here > best {\n\t\t\tbest = here\n\t\t}\n\t}\n\treturn best\n}\n",
        "AC",
    ),
    # Another type than the signature's: what it returned is checked outside (WA: a list, not a long).
    "wrong_type.go": ("package main\n\nfunc max_sum(xs []int) []int {\n\treturn nil\n}\n", "WA"),
    # A result line of its own on descriptor 1, then an exit before the harness writes.
    "fake_result.go": (
        'package main\n\nimport (\n\t"os"\n\t"syscall"\n)\n\nfunc max_sum(xs []int) int64 {\n'
        '\tsyscall.Write(1, []byte("\\n\\x1ejudge-result\\x1e {\\"returned\\":12345}\\n"))\n'
        "\tos.Exit(0)\n\treturn 0\n}\n",
        "WA",
    ),
    "missing.go": ("package main\n\nfunc maxSum(xs []int) int64 {\n\treturn 0\n}\n", "CE"),
}

RUST = {
    "kadane.rs": (
        'fn max_sum(xs: Vec<i32>) -> i64 {\n    if xs.is_empty() {\n        panic!("empty");\n    }\n'
        "    let (mut best, mut here) = (xs[0] as i64, xs[0] as i64);\n    for &x in &xs[1..] {\n"
        "        here = (x as i64).max(here + x as i64);\n        best = best.max(here);\n    }\n    best\n}\n",
        "AC",
    ),
    "first.rs": ("fn max_sum(xs: Vec<i32>) -> i64 {\n    xs[0] as i64\n}\n", "WA"),
    "fake_result.rs": (
        "use std::io::Write;\nfn max_sum(_xs: Vec<i32>) -> i64 {\n"
        '    print!("\\n\\x1ejudge-result\\x1e {{\\"returned\\":12345}}\\n");\n'
        "    std::io::stdout().flush().unwrap();\n    std::process::exit(0)\n}\n",
        "WA",
    ),
}

CSHARP = {
    "kadane.cs": (
        "using System;\npublic class Solution {\n    public static long max_sum(int[] xs) {\n"
        '        if (xs.Length == 0) throw new ArgumentException("empty");\n        long best = xs[0], here = xs[0];\n'
        "        for (int i = 1; i < xs.Length; i++) { here = Math.Max(xs[i], here + xs[i]); best = Math.Max(best, here); }\n"
        "        return best;\n    }\n}\n",
        "AC",
    ),
    "listed.cs": (
        "using System.Collections.Generic;\nclass Solution {\n    long max_sum(List<int> xs) { return xs.Count; }\n}\n",
        "WA",
    ),
    # The writer replaced and a result of its own written, then an exit: only a guess.
    "fake_result.cs": (
        "using System;\nclass Solution {\n    public long max_sum(int[] xs) {\n"
        "        Console.SetOut(new System.IO.StringWriter());\n"
        '        var raw = Console.OpenStandardOutput(); var line = System.Text.Encoding.UTF8.GetBytes("\\n\\u001ejudge-result\\u001e {\\"returned\\":12345}\\n");\n'
        "        raw.Write(line, 0, line.Length); raw.Flush(); Environment.Exit(0); return 0;\n    }\n}\n",
        "WA",
    ),
    "no_class.cs": ("class Answer {\n    long max_sum(int[] xs) { return 0; }\n}\n", "CE"),
}

KOTLIN = {
    "kadane.kt": (
        'fun max_sum(xs: List<Int>): Long {\n    require(xs.isNotEmpty()) { "empty" }\n    var best = xs[0].toLong()\n'
        "    var here = best\n    for (x in xs.drop(1)) {\n        here = maxOf(x.toLong(), here + x)\n"
        "        best = maxOf(best, here)\n    }\n    return best\n}\n",
        "AC",
    ),
    "in_class.kt": ("class Solution {\n    fun max_sum(xs: IntArray): Long = xs.sum().toLong()\n}\n", "WA"),
    "missing.kt": ("fun maxSum(xs: List<Int>): Long = 0\n", "CE"),
}


# Each language's submissions, by the id of their language, and the verdict each must get.
LANGUAGES = (
    ("cpp", CPP),
    ("java", JAVA),
    ("c", C_SOURCES),
    ("javascript", JAVASCRIPT),
    ("go", GO),
    ("rust", RUST),
    ("csharp", CSHARP),
    ("kotlin", KOTLIN),
)


@needs_sandbox
@pytest.mark.parametrize(
    ("language", "name"),
    [
        # kotlinc takes seconds a compile: Kotlin's are in the slow tier (make test-slow, run by CI)
        pytest.param(
            language, name, marks=[needs.mark(language), *([pytest.mark.slow] if language == "kotlin" else [])]
        )
        for language, sources in LANGUAGES
        for name in sorted(sources)
    ],
)
def test_a_function_in_each_language_is_judged_through_its_harness(
    problem: Problem, tmp_path: Path, language: str, name: str
) -> None:
    source, verdict = dict(LANGUAGES)[language][name]
    (tmp_path / name).write_text(source)
    record = judging.judge(judging.identify(problem, tmp_path / name, "ada"))
    assert record.verdict == verdict, (name, record.compile_output, record.cases[:3])


# A class problem (`judge new --functions --class`): each case is a scenario on one object.
CLASSES = {
    "min_stack.py": (
        "class MinStack:\n    def __init__(self):\n        self.s = []\n\n    def push(self, x):\n"
        "        self.s.append((x, min(x, self.s[-1][1]) if self.s else x))\n\n    def pop(self):\n"
        "        return self.s.pop()[0]\n\n    def min(self):\n        return self.s[-1][1]\n",
        "AC",
    ),
    # An object that equals anything, from a method: not serializable as an int.
    "always_equal.py": (
        "class Anything(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\n\n\n"
        "class MinStack:\n    def __init__(self):\n        self.s = []\n\n    def push(self, x):\n"
        "        self.s.append(x)\n\n    def pop(self):\n        return Anything(self.s.pop())\n\n"
        "    def min(self):\n        return Anything(0)\n",
        "WA",
    ),
    # A result of its own for every step, written by the constructor, then an early exit.
    "fake_steps.py": (
        "import os\n\n\nclass MinStack:\n    def __init__(self):\n"
        '        os.write(1, b\'\\n\\x1ejudge-result\\x1e {"steps":[{"returned":null}]}\\n\')\n'
        "        os._exit(0)\n",
        "WA",
    ),
    "MinStack.java": (
        "import java.util.*;\npublic class MinStack {\n    private final ArrayDeque<int[]> s = new ArrayDeque<>();\n"
        "    public void push(int x) { s.push(new int[]{x, s.isEmpty() ? x : Math.min(x, s.peek()[1])}); }\n"
        '    public int pop() { if (s.isEmpty()) throw new IllegalStateException("empty"); return s.pop()[0]; }\n'
        '    public int min() { if (s.isEmpty()) throw new IllegalStateException("empty"); return s.peek()[1]; }\n}\n',
        "AC",
    ),
    "min_stack.cpp": (
        "#include <bits/stdc++.h>\nclass MinStack {\n    std::vector<std::pair<int, int>> s;\n  public:\n"
        "    void push(int x) { s.push_back({x, s.empty() ? x : std::min(x, s.back().second)}); }\n"
        '    int pop() { if (s.empty()) throw std::out_of_range("empty"); int v = s.back().first; s.pop_back(); return v; }\n'
        '    int min() { if (s.empty()) throw std::out_of_range("empty"); return s.front().second; }\n};\n',
        "WA",  # the bottom's smallest, not the top's
    ),
    "min_stack.js": (
        "class MinStack {\n  constructor() { this.s = []; }\n"
        "  push(x) { this.s.push([x, this.s.length ? Math.min(x, this.s[this.s.length - 1][1]) : x]); }\n"
        '  pop() { if (!this.s.length) throw new RangeError("empty"); return this.s.pop()[0]; }\n'
        '  min() { if (!this.s.length) throw new RangeError("empty"); return this.s[this.s.length - 1][1]; }\n}\n',
        "AC",
    ),
    "min_stack.c": ("int push(int x) { return x; }\n", "CE"),
    "min_stack.go": (
        "package main\n\ntype MinStack struct{ s [][2]int }\n\nfunc NewMinStack() *MinStack { return &MinStack{} }\n\n"
        "func (m *MinStack) push(x int) {\n\tlow := x\n\tif len(m.s) > 0 && m.s[len(m.s)-1][1] < x {\n"
        "\t\tlow = m.s[len(m.s)-1][1]\n\t}\n"
        "\tm.s = append(m.s, [2]int{x, low})\n}\n\nfunc (m *MinStack) pop() int {\n\ttop := m.s[len(m.s)-1]\n"
        "\tm.s = m.s[:len(m.s)-1]\n\treturn top[0]\n}\n\nfunc (m *MinStack) min() int { return m.s[len(m.s)-1][1] }\n",
        "AC",
    ),
    "min_stack.rs": (
        "struct MinStack {\n    s: Vec<(i32, i32)>,\n}\nimpl MinStack {\n    fn new() -> Self {\n"
        "        MinStack { s: Vec::new() }\n    }\n    fn push(&mut self, x: i32) {\n"
        "        let low = self.s.last().map_or(x, |t| t.1.min(x));\n        self.s.push((x, low));\n    }\n"
        '    fn pop(&mut self) -> i32 {\n        self.s.pop().expect("empty").0\n    }\n'
        '    fn min(&self) -> i32 {\n        self.s.first().expect("empty").1\n    }\n}\n',
        "WA",  # the bottom's smallest, not the top's
    ),
    "MinStack.cs": (
        "using System;\nusing System.Collections.Generic;\npublic class MinStack {\n    List<int[]> s = new List<int[]>();\n"
        "    public void push(int x) { s.Add(new[] { x, s.Count == 0 ? x : Math.Min(x, s[s.Count - 1][1]) }); }\n"
        "    public int pop() { var t = s[s.Count - 1]; s.RemoveAt(s.Count - 1); return t[0]; }\n"
        "    public int min() { return s[s.Count - 1][1]; }\n}\n",
        "AC",
    ),
    "MinStack.kt": (
        "class MinStack {\n    private val s = ArrayList<IntArray>()\n"
        "    fun push(x: Int) { s.add(intArrayOf(x, if (s.isEmpty()) x else minOf(x, s.last()[1]))) }\n"
        "    fun pop(): Int = s.removeAt(s.size - 1)[0]\n    fun min(): Int = s.last()[1]\n}\n",
        "AC",
    ),
}
CLASS_LANGUAGES = {
    ".py": "python3",
    ".java": "java",
    ".cpp": "cpp",
    ".js": "javascript",
    ".c": "c",
    ".go": "go",
    ".rs": "rust",
    ".cs": "csharp",
    ".kt": "kotlin",
}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("problems")
    needs.require("cpp")  # judge new's reference is C++
    made = judge("--problems", str(problems), "new", "stack", "--class")
    assert made.returncode == 0, made.stderr
    made = judge("--problems", str(problems), "gen", "stack")
    assert made.returncode == 0, made.stderr
    return load_problem(problems / "stack")


@needs_sandbox
@pytest.mark.slow  # heavy end to end: make test-slow
def test_the_new_class_problem_verifies_as_made(stack: Problem) -> None:
    verified = judge("--problems", str(stack.directory.parent), "verify", "stack")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    # The reference is C++ (judge new's default): its exception's name is C++'s; the spec's stated
    # IndexError agrees with it, as a raise agrees with any raise.
    assert (stack.tests_dir / "samples" / "02.ans").read_text() == '[null,null,2,{"$raised":"std::out_of_range"}]\n'


@needs_sandbox
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name,
            marks=[
                needs.mark(CLASS_LANGUAGES[Path(name).suffix]),
                *([pytest.mark.slow] if name.endswith(".kt") else []),
            ],
        )
        for name in sorted(CLASSES)
    ],
)
def test_a_class_in_each_language_plays_each_scenario(stack: Problem, tmp_path: Path, name: str) -> None:
    source, verdict = CLASSES[name]
    (tmp_path / name).write_text(source)
    record = judging.judge(judging.identify(stack, tmp_path / name, "ada"), full=True)
    assert record.verdict == verdict, (name, record.compile_output, record.cases[:3])
    if name == "min_stack.c":
        assert record.compile_output.startswith("a class is not offered in C")


@needs_sandbox
def test_a_scenario_names_the_first_step_that_differs(stack: Problem, tmp_path: Path) -> None:
    (tmp_path / "wrong.py").write_text((stack.directory / "solutions/wrong_answer/smallest_ever.py").read_text())
    first = judging.judge(judging.identify(stack, tmp_path / "wrong.py", "bo")).cases[0]
    assert (first.verdict, first.message) == ("WA", "step 6, min(): expected 3, got 1")
    (tmp_path / "raises.py").write_text(
        "class MinStack:\n    def __init__(self):\n        self.s = []\n\n    def push(self, x):\n"
        "        raise OverflowError('full')\n"
    )
    first = judging.judge(judging.identify(stack, tmp_path / "raises.py", "bo")).cases[0]
    assert (first.verdict, first.message) == ("RE", "step 2, push(3): raised OverflowError: full")


def test_a_scenario_of_the_wrong_steps_is_an_invalid_input(stack: Problem) -> None:
    said = validated_with(stack, '[["MinStack"], ["peek"]]\n')
    assert f"{stack.tests_dir / 'small' / '01.in'}: step 2: 'peek' is not a method of MinStack" in said


def test_a_class_starter_has_every_method_in_each_language(stack: Problem) -> None:
    def starter(language: str) -> str:
        made = judge("--problems", str(stack.directory.parent), "starter", "stack", "--lang", language)
        assert made.returncode == 0, made.stderr
        return made.stdout

    assert "    def push(self, x: int) -> None:\n" in starter("python3")
    assert "    public int pop() {" in starter("java") and "public class MinStack {" in starter("java")
    assert "    int min() {" in starter("cpp") and "class MinStack {" in starter("cpp")
    assert "  push(x) {" in starter("javascript")
    refused = judge("--problems", str(stack.directory.parent), "starter", "stack", "--lang", "c")
    assert refused.returncode == 2 and "a class is not offered in C" in refused.stderr


@needs_sandbox
def test_a_notebook_is_a_python_submission_and_its_magic_lines_are_refused(problem: Problem, tmp_path: Path) -> None:
    import nbformat

    made = nbformat.v4.new_notebook()
    made.cells = [
        nbformat.v4.new_markdown_cell("# My answer"),
        nbformat.v4.new_code_cell(KADANE_CELL),
        nbformat.v4.new_code_cell("max_sum([1, -2, 3])"),  # a cell that tries it out runs on import: harmless
    ]
    (tmp_path / "answer.ipynb").write_text(nbformat.writes(made))
    record = judging.judge(judging.identify(problem, tmp_path / "answer.ipynb", "nb"))
    assert (record.verdict, record.language) == ("AC", "python3"), record.cases[:2]
    made.cells.append(nbformat.v4.new_code_cell("!ls /"))
    (tmp_path / "answer.ipynb").write_text(nbformat.writes(made))
    record = judging.judge(judging.identify(problem, tmp_path / "answer.ipynb", "nb"))
    assert record.verdict == "NG" and "cell 4, line 1: a shell line is IPython, not Python" in record.error


KADANE_CELL = (
    "def max_sum(xs):\n    if not xs:\n        raise ValueError('empty')\n    best = here = xs[0]\n"
    "    for x in xs[1:]:\n        here = max(x, here + x)\n        best = max(best, here)\n    return best\n"
)


@needs_sandbox
def test_a_problem_may_name_the_exception_each_language_raises(problem: Problem, tmp_path: Path) -> None:
    copy = tmp_path / "maxf"
    shutil.copytree(problem.directory, copy)
    spec = copy / "problem.yaml"
    spec.write_text(spec.read_text() + "raises: {python3: ValueError, cpp: std::invalid_argument}\n")
    named = load_problem(copy)
    kadane = KADANE_CELL.replace("raise ValueError('empty')", "raise KeyError('empty')")
    cases = {
        "right.py": (KADANE_CELL, "AC"),
        "wrong_kind.py": (kadane, "WA"),  # any other exception is not the one asked for
        # A crash is not the exception asked for either (where none is named, it would be).
        "crashes.py": (KADANE_CELL.replace("raise ValueError('empty')", "import os; os.abort()"), "RE"),
    }
    for name, (source, verdict) in cases.items():
        (tmp_path / name).write_text(source)
        record = judging.judge(judging.identify(named, tmp_path / name, "ed"), full=True)
        third = record.cases[2]
        assert (third.name, third.verdict) == ("samples/03", verdict), (name, third)
    wrong = judging.judge(judging.identify(named, tmp_path / "wrong_kind.py", "ed"), full=True).cases[2]
    assert wrong.message == "max_sum([]): raised KeyError, expected ValueError"  # the call named (issue 59)
    if not needs.why_not("cpp"):
        (tmp_path / "range.cpp").write_text(CPP["kadane.cpp"][0].replace("invalid_argument", "out_of_range"))
        other = judging.judge(judging.identify(named, tmp_path / "range.cpp", "ed"), full=True).cases[2]
        assert (other.verdict, other.message) == (
            "WA",
            "max_sum([]): raised std::out_of_range, expected std::invalid_argument",
        )
    bad = spec.read_text().replace("ValueError,", "'not a name',")
    spec.write_text(bad)
    with pytest.raises(SpecError, match="'not a name' is not the name of an exception"):
        load_problem(copy)


CHECKER = """import json, sys
[total] = json.load(open(sys.argv[1]))
returned = json.load(sys.stdin)
if len(returned) != 2 or min(returned) < 0 or sum(returned) != total:
    open(sys.argv[3] + "/judgemessage.txt", "w").write(f"{returned} is not two parts of {total}")
    sys.exit(43)
sys.exit(42)
"""


@needs_sandbox
def test_a_custom_checker_gets_the_call_the_answer_and_the_returned_value(tmp_path: Path) -> None:
    folder = tmp_path / "problems" / "parts"
    (folder / "solutions" / "accepted").mkdir(parents=True)
    (folder / "statement.md").write_text("# Parts\n")
    (folder / "check.py").write_text(CHECKER)
    (folder / "solutions" / "accepted" / "split.py").write_text("def split(total):\n    return [0, total]\n")
    (folder / "problem.yaml").write_text(
        "id: parts\ntitle: Parts\nsource: a test\nkind: functions\nsignature: 'split(total: int) -> list[int]'\n"
        "limits: {time_s: 1, memory_mib: 256}\nchecker: {type: custom, program: check.py}\n"
        "reference: solutions/accepted/split.py\ngroups:\n  - name: samples\n    visibility: public\n"
        "    points: 100\n    cases:\n      - call: [5]\n      - call: [8]\n"
    )
    assert judge("--problems", str(tmp_path / "problems"), "gen", "parts").returncode == 0
    problem = load_problem(folder)
    for name, body, verdict, said in (
        ("halves.py", "return [total // 2, total - total // 2]", "AC", ""),
        ("short.py", "return [total - 1, 0]", "WA", "[4, 0] is not two parts of 5"),
        ("typed.py", "return str(total)", "WA", "split(5): returned str: expected list[int], got str"),
    ):
        (tmp_path / name).write_text(f"def split(total):\n    {body}\n")
        first = judging.judge(judging.identify(problem, tmp_path / name, "fay")).cases[0]
        assert (first.verdict, first.message) == (verdict, said), name


# A result line of its own nested 200,000 deep, then an exit before the harness writes: read
# with bounds outside the box, a WA saying so; never a traceback (`judge run`) nor an IE (the
# web judge's runner, which takes the upload's bytes).
DEEP_LINES = {
    "deep.py": (
        None,
        "import os\n\n\ndef max_sum(xs):\n"
        "    os.write(1, b'\\n\\x1ejudge-result\\x1e {\"returned\": ' + b'[' * 200000 + b']' * 200000 + b'}\\n')\n"
        "    os._exit(0)\n",
    ),
    "deep.c": (
        "c",
        "#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n"
        "long long max_sum(const int *xs, int xs_len) {\n"
        '    const char *head = "\\n\\x1ejudge-result\\x1e {\\"returned\\": ";\n'
        "    size_t depth = 200000, n = strlen(head), total = n + 2 * depth + 2, done = 0;\n"
        "    char *line = malloc(total);\n    memcpy(line, head, n);\n    memset(line + n, '[', depth);\n"
        "    memset(line + n + depth, ']', depth);\n    memcpy(line + n + 2 * depth, \"}\\n\", 2);\n"
        "    while (done < total) { ssize_t w = write(1, line + done, total - done); if (w <= 0) break; done += w; }\n"
        "    _exit(0);\n}\n",
    ),
    "Deep.java": (
        "java",
        "import java.io.*;\nclass Solution {\n    static long max_sum(int[] xs) throws Exception {\n"
        '        String line = "\\n\\u001ejudge-result\\u001e {\\"returned\\": " + "[".repeat(200000)'
        ' + "]".repeat(200000) + "}\\n";\n'
        "        FileOutputStream out = new FileOutputStream(FileDescriptor.out);\n"
        "        out.write(line.getBytes());\n        out.flush();\n        Runtime.getRuntime().halt(0);\n"
        "        return 0;\n    }\n}\n",
    ),
}


@needs_sandbox
@pytest.mark.parametrize("name", sorted(DEEP_LINES))
def test_a_result_line_nested_200000_deep_is_a_wa_in_one_line(problem: Problem, tmp_path: Path, name: str) -> None:
    language, text = DEEP_LINES[name]
    if language is not None:
        needs.require(language)
    (tmp_path / name).write_text(text)
    said = "the returned value is nested deeper than 100 levels"
    ran = judge("--problems", str(problem.directory.parent), "run", str(tmp_path / name), "-p", "maxf")
    assert ran.returncode == 1 and "Traceback" not in ran.stdout + ran.stderr, ran.stdout + ran.stderr
    assert "samples/01  WA" in ran.stdout and said in ran.stdout, ran.stdout
    record = judging.judge(judging.identify(problem, (name, text.encode()), "mallory"))
    assert record.verdict == "WA" and not any(c.verdict == "IE" for c in record.cases), record.cases[:2]
    assert record.cases[0].message == said


# A result line of 100 MB where the problem's output limit lets it through (the first sample's
# call only: every other call returns 0, a WA of its own).
HUGE_LINES = {
    "huge.py": (
        None,
        "import os\n\n\ndef max_sum(xs):\n    if xs != [-2, 1, -3, 4, -1]:\n        return 0\n"
        "    os.write(1, b'\\n\\x1ejudge-result\\x1e {\"returned\": [')\n"
        "    chunk = b'1,' * (1 << 19)\n    for _ in range(100):\n        os.write(1, chunk)\n"
        "    os.write(1, b'1]}\\n')\n    os._exit(0)\n",
    ),
    "huge.c": (
        "c",
        "#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n"
        "static void put(const char *s, size_t n) {\n"
        "    while (n > 0) { ssize_t w = write(1, s, n); if (w <= 0) _exit(1); s += w; n -= w; }\n}\n"
        "long long max_sum(const int *xs, int xs_len) {\n    if (xs_len != 5 || xs[0] != -2) return 0;\n"
        '    const char *head = "\\n\\x1ejudge-result\\x1e {\\"returned\\": [";\n    put(head, strlen(head));\n'
        "    size_t n = 1 << 20;\n    char *chunk = malloc(n);\n"
        "    for (size_t i = 0; i < n; i += 2) { chunk[i] = '1'; chunk[i + 1] = ','; }\n"
        "    for (int k = 0; k < 100; k++) put(chunk, n);\n"
        '    put("1]}\\n", 4);\n    _exit(0);\n}\n',
    ),
}


@needs_sandbox
@pytest.mark.parametrize("name", sorted(HUGE_LINES))
def test_a_result_line_of_100_mb_is_a_wa_in_one_line(problem: Problem, tmp_path: Path, name: str) -> None:
    language, text = HUGE_LINES[name]
    if language is not None:
        needs.require(language)
    copy = tmp_path / "problems" / "maxf"
    shutil.copytree(problem.directory, copy)
    spec = copy / "problem.yaml"
    spec.write_text(spec.read_text().replace("  memory_mib: 256\n", "  memory_mib: 256\n  output_mib: 128\n"))
    (tmp_path / name).write_text(text)
    ran = judge("--problems", str(copy.parent), "run", str(tmp_path / name), "-p", "maxf")
    assert ran.returncode == 1 and "Traceback" not in ran.stdout + ran.stderr, ran.stdout + ran.stderr
    assert "samples/01  WA" in ran.stdout and "the returned value is over 16 MiB as JSON" in ran.stdout, ran.stdout
    record = judging.judge(judging.identify(load_problem(copy), (name, text.encode()), "mallory"))
    assert record.verdict == "WA" and record.cases[0].message == "the returned value is over 16 MiB as JSON"


# Each call first looks for what an earlier call of it stashed, then stashes its arguments
# everywhere it can: SysV and POSIX IPC, /tmp, /dev/shm, its folder, a process that outlives the
# call, the zygote's memory (the next call is a fork of it: its copy of sys.version sits where the
# zygote's does), and stops or kills the zygote. A call that finds anything returns a wrong value.
STASH = r"""
import ctypes, os, signal, sys, time

KEY = 0x4A5A
NAME = b"judge-stash"
libc = ctypes.CDLL(None, use_errno=True)


def found():
    seen = []
    if libc.shmget(KEY, 0, 0) >= 0:
        seen.append("SysV shared memory")
    if libc.msgget(KEY, 0) >= 0:
        seen.append("SysV message queue")
    if libc.mq_open(b"/" + NAME, os.O_RDONLY) >= 0:
        seen.append("POSIX message queue")
    seen += [p for p in ("/tmp/stash", "/dev/shm/stash", "stash") if os.path.exists(p)]
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm", "rb") as comm:
                if comm.read().strip() == NAME:
                    seen.append("a process left behind")
        except OSError:
            pass
    if sys.version.startswith("STASH"):
        seen.append("the zygote's memory")
    return seen


def stash(xs):
    said = repr(xs).encode()
    if libc.shmget(KEY, 4096, 0o1666) < 0 or libc.msgget(KEY, 0o1666) < 0:
        raise OSError(ctypes.get_errno(), "no IPC object made")
    if libc.mq_open(b"/" + NAME, os.O_CREAT | os.O_RDWR, 0o666, None) < 0:
        raise OSError(ctypes.get_errno(), "no POSIX queue made")
    for path in ("/tmp/stash", "/dev/shm/stash", "stash"):
        with open(path, "wb") as kept:
            kept.write(said)
    parent = os.getppid()
    text = sys.version
    try:
        with open(f"/proc/{parent}/mem", "r+b", buffering=0) as memory:
            memory.seek(id(text) + sys.getsizeof(text) - len(text) - 1)
            memory.write(b"STASH" + said[:10])
    except OSError:
        pass
    for signum in (signal.SIGSTOP, signal.SIGKILL):
        try:
            os.kill(parent, signum)
        except OSError:
            pass
    if os.fork() == 0:
        os.setsid()
        libc.prctl(15, NAME, 0, 0, 0)  # PR_SET_NAME
        time.sleep(60)
        os._exit(0)


def max_sum(xs):
    seen = found()
    stash(xs)
    if seen:
        return -(10**9) - len(seen)
    if not xs:
        raise ValueError("an empty list has no part")
    best = here = xs[0]
    for x in xs[1:]:
        here = max(x, here + x)
        best = max(best, here)
    return best
"""


# The same in JavaScript, through the Node zygote: /tmp, /dev/shm, its folder, a global, a
# process left running, and the zygote signalled, stopped and killed, its memory opened.
STASH_JS = r"""
const fs = require("fs");
const { spawn } = require("child_process");

function found() {
  const seen = ["/tmp/stash", "/dev/shm/stash", "stash"].filter((path) => fs.existsSync(path));
  if (globalThis.judgeStash !== undefined) seen.push("a global");
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("judge-stash")) seen.push("a process left");
    } catch (error) {}
  }
  return seen;
}

function stash(xs) {
  for (const path of ["/tmp/stash", "/dev/shm/stash", "stash"]) fs.writeFileSync(path, JSON.stringify(xs));
  globalThis.judgeStash = xs;
  spawn("/bin/sh", ["-c", "exec sleep 60", "judge-stash"], { detached: true, stdio: "ignore" }).unref();
  for (const signal of ["SIGSTOP", "SIGKILL"]) {
    try { process.kill(process.ppid, signal); } catch (error) {}
  }
  try { fs.writeSync(fs.openSync(`/proc/${process.ppid}/mem`, "r+"), "STASH"); } catch (error) {}
}

function max_sum(xs) {
  const seen = found();
  stash(xs);
  if (seen.length) return -(10 ** 9) - seen.length;
  if (xs.length === 0) throw new RangeError("an empty list has no part");
  let best = xs[0], here = xs[0];
  for (const x of xs.slice(1)) {
    here = Math.max(x, here + x);
    best = Math.max(best, here);
  }
  return best;
}
"""


@needs_sandbox
@pytest.mark.parametrize("name", ["stash.py", "stash.js"])
def test_a_call_finds_nothing_an_earlier_call_stashed(
    problem: Problem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    if name.endswith(".js"):
        needs.require("javascript")
    zygotes = sandbox.session_support().active  # in a session, as root or rootless
    forked: list[int] = []  # each call's channel: a zygote's where the session has one
    run_locked = session.Session._run_locked

    def spy(self: session.Session, *args: Any) -> sandbox.RunResult:
        forked.append(id(args[-1]) if args[-1] is not self.control else 0)
        return run_locked(self, *args)

    monkeypatch.setattr(session.Session, "_run_locked", spy)
    source = tmp_path / name
    source.write_text(STASH_JS if name.endswith(".js") else STASH)
    record = judging.judge(judging.identify(problem, source, "mallory"), full=True)
    assert [c.verdict for c in record.cases] == ["AC"] * len(record.cases), record.cases
    if zygotes:
        # every call a fork of one zygote, which neither stopped nor died
        assert len(forked) == len(record.cases) and len(set(forked)) == 1 and forked[0], forked
