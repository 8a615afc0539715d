"""`make bench`, function problems: what one call of a function costs through the judge, beside
the two other ways to test the same function.

A trivial function, `add(a: int, b: int) -> int`, and 40 calls of it:
- **call**: a function problem, judged as a student's submission is: one sandbox session per
  submission, a fresh process per call (the harness, then the student's code), the value
  compared outside the sandbox. Reported: the mean wall time of a call as the judge measured it.
  In Python and PyPy each call is a fork of the submission's zygote (an interpreter with the
  harness loaded, never the student's module); the rows under it judge the same submission
  again through the zygote and with each call an interpreter's own start (as before the
  zygote), one after the other in the same run, with the mean and the median of the 40 calls
  (the first is a session's first case, which costs the judge more in every language).
  In JavaScript likewise each call is a fork of a Node zygote (zygote_node.js and its addon
  loaded, never main.js); its rows judge the same submission through the zygote and with
  each call Node's own start, beside a bare `node -e 0` outside any sandbox.
  In Java each call is a fresh JVM started from the JVM kit (the harness's jar and an archive
  of the classes a call loads, jvm_kit.py); the rows under it judge the same submission from
  the kit and with each call a JVM's plain start (as before the kit), one after the other,
  beside a bare `java Hello` with the same flags outside any sandbox, and the floor of a JVM's
  start here: the same Hello under the kit's collector and start flags, every class it loads
  mapped from an archive of its own (made once, outside the sandbox: it is the bench's own class).
- **stdio**: the same 40 cases as a program problem (the program reads `a b`, prints the sum),
  judged the same way: the cost of a case without a harness.
- **pytest**: the same 40 calls as 40 tests in one test file, run as one pytest process
  outside any sandbox (how Gradescope's and PrairieLearn's Python graders run a student's code,
  in the grader's own process): its wall time over 40.

The function does nothing, so a call's figure is the harness's and the sandbox's overhead.
Targets (issues 42, 62): a Python call at most 3 ms above the function's own time, a compiled
language's at most 2 ms, a JavaScript call 8 ms, a Java call 30 ms. Not a test: nothing here fails a build.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.author import making  # noqa: E402
from judge.grade import judging  # noqa: E402
from judge.kinds.functions import families, jvm_kit  # noqa: E402
from judge.kinds.table import load_problem  # noqa: E402
from judge.problem.tables import TableStore  # noqa: E402
from judge.run import languages  # noqa: E402
from judge.run.sandbox import zygote_kit  # noqa: E402

CALLS = 40
SPEC = """id: {id}
title: Add
source: make bench
statement: statement.md
{kind}limits: {{time_s: 2, memory_mib: 256}}
reference: solutions/accepted/{reference}
groups:
  - name: all
    points: 100
    cases:
{cases}"""
FUNCTIONS = {
    "python3": ("add.py", "def add(a, b):\n    return a + b\n"),
    "pypy3": ("add.py", "def add(a, b):\n    return a + b\n"),
    "cpp": ("add.cpp", "int add(int a, int b) { return a + b; }\n"),
    "c": ("add.c", "int add(int a, int b) { return a + b; }\n"),
    "java": (
        "Solution.java",
        "public class Solution {\n    public static int add(int a, int b) { return a + b; }\n}\n",
    ),
    "go": ("add.go", "package main\n\nfunc add(a int, b int) int { return a + b }\n"),
    "rust": ("add.rs", "fn add(a: i32, b: i32) -> i32 { a + b }\n"),
    "javascript": ("add.js", "function add(a, b) { return a + b; }\n"),
}
PROGRAMS = {
    "python3": ("add.py", "a, b = map(int, input().split())\nprint(a + b)\n"),
    "pypy3": ("add.py", "a, b = map(int, input().split())\nprint(a + b)\n"),
    "cpp": ("add.cpp", '#include <cstdio>\nint main() { int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); }\n'),
    "c": (
        "add.c",
        '#include <stdio.h>\nint main(void) { int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); }\n',
    ),
    "java": (
        "Main.java",
        "import java.util.*;\npublic class Main {\n    public static void main(String[] x) {\n"
        "        Scanner s = new Scanner(System.in);\n        System.out.println(s.nextInt() + s.nextInt());\n    }\n}\n",
    ),
    "go": (
        "add.go",
        'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar a, b int\n\tfmt.Scan(&a, &b)\n\tfmt.Println(a + b)\n}\n',
    ),
    "rust": (
        "add.rs",
        "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n"
        "    let v: Vec<i32> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();\n"
        '    println!("{}", v[0] + v[1]);\n}\n',
    ),
    "javascript": (
        "add.js",
        'const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);\nconsole.log(a + b);\n',
    ),
}
TOOLS = {
    "python3": "python3",
    "pypy3": "pypy3",
    "cpp": "g++",
    "c": "gcc",
    "java": "javac",
    "go": "go",
    "rust": "rustc",
    "javascript": "node",
}


def _problem(root: Path, kind: str) -> Path:
    """The add problem as a function problem or a program problem, its tests made."""
    folder = root / f"add-{kind}"
    (folder / "solutions" / "accepted").mkdir(parents=True)
    (folder / "statement.md").write_text("# Add\n")
    pairs = [(i * 7 % 100, i * 13 % 100) for i in range(CALLS)]
    if kind == "functions":
        cases = "".join(f"      - call: [{a}, {b}]\n" for a, b in pairs)
        head = "kind: functions\nsignature: 'add(a: int, b: int) -> int'\n"
        (folder / "solutions" / "accepted" / "add.py").write_text(FUNCTIONS["python3"][1])
    else:
        cases = "".join(f'      - input: "{a} {b}\\n"\n' for a, b in pairs)
        head = ""
        (folder / "solutions" / "accepted" / "add.py").write_text(PROGRAMS["python3"][1])
    (folder / "problem.yaml").write_text(SPEC.format(id=folder.name, kind=head, reference="add.py", cases=cases))
    problem = load_problem(folder)
    making.write(problem, making.generate(problem, TableStore()))
    return folder


def _per_case_ms(folder: Path, language: str, name: str, text: str, work: Path) -> tuple[str, str]:
    """The verdict and `mean/median` of the calls' wall times: the mean carries the session's
    first case, the median is a call once the session runs."""
    verdict, walls = _walls_ms(folder, language, name, text, work)
    return verdict, f"{statistics.mean(walls):5.1f}/{statistics.median(walls):4.1f}"


def _walls_ms(folder: Path, language: str, name: str, text: str, work: Path) -> tuple[str, list[float]]:
    """The verdict and each case's wall time in ms (the first is a session's first case, which
    costs the judge more in every language)."""
    problem = load_problem(folder)
    source = work / language / name
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(text)
    record = judging.judge(judging.identify(problem, source, "bench", language), full=True)
    return record.verdict, [c.wall_s * 1000 for c in record.cases]


def _own_start_ms(folder: Path, language: str, name: str, text: str, work: Path) -> tuple[str, list[float]]:
    """The same calls, each an interpreter's own start (the family's zygote set aside, here only)."""
    python = families.FAMILIES["python"]
    families.FAMILIES["python"] = dataclasses.replace(python, forks=False)
    try:
        return _walls_ms(folder, language, name, text, work)
    finally:
        families.FAMILIES["python"] = python


def _print_rows(rows: list[tuple[str, tuple[str, list[float]]]]) -> None:
    """Each row's label, the mean and median of its calls, and its verdict where not AC."""
    for label, (verdict, walls) in rows:
        flags = "" if verdict == "AC" else f"  (verdict {verdict})"
        mean, median = statistics.mean(walls), statistics.median(walls)
        print(f"    {label:10} mean {mean:6.1f} ms, median {median:6.1f} ms{flags}")


def _python_rows(functions: Path, language: str, name: str, text: str, root: Path) -> None:
    """A zygote's calls and the same calls each an interpreter's own start, one after the other:
    mean and median of the 40 calls."""
    zygote = _walls_ms(functions, language, name, text, root / "zygote")
    _print_rows([("zygote", zygote), ("own start", _own_start_ms(functions, language, name, text, root / "own"))])


def _java_rows(functions: Path, name: str, text: str, root: Path) -> None:
    """The Java calls from the JVM kit (the harness's jar, the archive of a call's classes) and
    each a JVM's plain start as before the kit, one after the other, beside a bare JVM's start
    (Hello, the run's flags, no sandbox): mean and median of the 40 calls."""
    rows = []
    for label, kit in (("kit", "1"), ("no kit", "0")):
        os.environ[jvm_kit.KIT_ENV] = kit
        try:
            rows.append((label, _walls_ms(functions, "java", name, text, root / label)))
        finally:
            os.environ.pop(jvm_kit.KIT_ENV, None)
    _print_rows(rows)
    bare, floor = _bare_java_ms(root / "hello")
    print(
        f"    {'bare JVM':10} mean {statistics.mean(bare):6.1f} ms, median {statistics.median(bare):6.1f} ms"
        "  (java Hello, no sandbox)"
    )
    print(
        f"    {'JVM floor':10} mean {statistics.mean(floor):6.1f} ms, median {statistics.median(floor):6.1f} ms"
        f"  (java Hello from its own archive, the kit's flags, no sandbox; load average {os.getloadavg()[0]:.1f})"
    )


def _javascript_rows(functions: Path, name: str, text: str, root: Path) -> None:
    """The JavaScript calls through the Node zygote and each Node's own start (the zygote set
    aside by $JUDGE_NODE_ZYGOTE=0), one after the other, beside a bare `node -e 0` outside any
    sandbox and the load average: mean and median of the 40 calls."""
    rows = []
    for label, switch in (("zygote", "1"), ("own start", "0")):
        os.environ[zygote_kit.NODE_ENV] = switch
        try:
            rows.append((label, _walls_ms(functions, "javascript", name, text, root / label.replace(" ", "-"))))
        finally:
            os.environ.pop(zygote_kit.NODE_ENV, None)
    _print_rows(rows)
    bare = []
    for _ in range(CALLS):
        began = time.monotonic()
        subprocess.run(["node", "-e", "0"], check=True)
        bare.append((time.monotonic() - began) * 1000)
    print(
        f"    {'bare node':10} mean {statistics.mean(bare):6.1f} ms, median {statistics.median(bare):6.1f} ms"
        f"  (node -e 0, no sandbox; load average {os.getloadavg()[0]:.1f})"
    )


def _bare_java_ms(work: Path) -> tuple[list[float], list[float]]:
    """`java Hello` started CALLS times with the java language's run flags, outside any sandbox;
    then CALLS times as a kit's call starts (G1, the start flags) with an archive of Hello's own
    classes in a jar: no call of the kit can start for less than that."""
    work.mkdir(parents=True)
    (work / "Hello.java").write_text(
        'public class Hello {\n    public static void main(String[] a) { System.out.println("hi"); }\n}\n'
    )
    subprocess.run(["javac", "-d", ".", "Hello.java"], cwd=work, check=True)
    subprocess.run(["jar", "cf", "hello.jar", "Hello.class"], cwd=work, check=True)
    run = languages.load().languages["java"].run
    argv = [part.replace("{memory_mib}", "256").replace("{mainclass}", "Hello") for part in run]
    kit = [jvm_kit.GC[1] if part == jvm_kit.GC[0] else part for part in argv[:-3]]
    kit = [kit[0], *jvm_kit.START_FLAGS, *kit[1:], *jvm_kit.initial_heap("-Xmx256m"), "-cp", "hello.jar"]
    dump = ["-Xshare:off", "-XX:DumpLoadedClassList=hello.lst"], ["-Xshare:dump", "-XX:SharedClassListFile=hello.lst"]
    for flags in dump:
        shared = [*flags, "-XX:SharedArchiveFile=hello.jsa"]
        subprocess.run([kit[0], *shared, *kit[1:], "Hello"], cwd=work, check=True, capture_output=True)
    floor = [kit[0], "-XX:SharedArchiveFile=hello.jsa", "-Xshare:on", *kit[1:], "Hello"]
    return [_started_ms(argv, work) for _ in range(CALLS)], [_started_ms(floor, work) for _ in range(CALLS)]


def _started_ms(argv: list[str], work: Path) -> float:
    began = time.monotonic()
    subprocess.run(argv, cwd=work, check=True, stdout=subprocess.DEVNULL)
    return (time.monotonic() - began) * 1000


def _pytest_per_test_ms(work: Path) -> float:
    """40 tests of add in one file, one pytest process, outside any sandbox."""
    folder = work / "pytest"
    folder.mkdir()
    (folder / "add.py").write_text(FUNCTIONS["python3"][1])
    tests = "".join(f"def test_{i}():\n    assert add({i}, {i}) == {2 * i}\n\n\n" for i in range(CALLS))
    (folder / "test_add.py").write_text("from add import add\n\n\n" + tests)
    began = time.monotonic()
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_add.py"],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    elapsed = time.monotonic() - began
    if ran.returncode != 0:
        print(f"  pytest failed: {ran.stdout[-300:]}")
    return elapsed / CALLS * 1000


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-functions-") as folder:
        root = Path(folder)
        functions, programs = _problem(root, "functions"), _problem(root, "stdio")
        print(
            f"add(a, b), {CALLS} calls; wall per call (per case), mean/median in ms, the sandbox's session "
            f"and process included; load average {os.getloadavg()[0]:.1f}"
        )
        print(f"  {'language':10} {'call':>10} {'stdio':>10}   target")
        for language, (name, text) in FUNCTIONS.items():
            if shutil.which(TOOLS[language]) is None:
                print(f"  {language:10} skipped: no {TOOLS[language]} here")
                continue
            verdict, call = _per_case_ms(functions, language, name, text, root / "calls")
            program_name, program_text = PROGRAMS[language]
            stdio_verdict, stdio = _per_case_ms(programs, language, program_name, program_text, root / "programs")
            target = "3 ms" if language == "python3" else "2 ms" if language in ("cpp", "c", "go", "rust") else "-"
            target = "30 ms" if language == "java" else "8 ms" if language == "javascript" else target
            flags = "" if verdict == stdio_verdict == "AC" else f"  (verdicts {verdict}, {stdio_verdict})"
            print(f"  {language:10} {call:>10} {stdio:>10}   {target}{flags}")
            if language in ("python3", "pypy3"):
                _python_rows(functions, language, name, text, root / "python")
            if language == "java":
                _java_rows(functions, name, text, root / "java")
            if language == "javascript":
                _javascript_rows(functions, name, text, root / "javascript")
        print(f"  pytest, one process for {CALLS} tests, no sandbox: {_pytest_per_test_ms(root):.1f} ms a test")


if __name__ == "__main__":
    main()
