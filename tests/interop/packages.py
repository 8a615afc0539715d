"""Hand-made ICPC/Kattis packages for the tests: a tiny "add two numbers" problem in each
format, with the parts each format names differently."""

from __future__ import annotations

import textwrap
import zipfile
from pathlib import Path

ADD_C = '#include <stdio.h>\nint main(void){long a,b; if(scanf("%ld %ld",&a,&b)!=2) return 1; printf("%ld\\n",a+b); return 0;}\n'
ADD_PY = "a, b = map(int, input().split())\nprint(a + b)\n"
SUB_PY = "a, b = map(int, input().split())\nprint(a - b)\n"
SPIN_C = "int main(void){volatile unsigned long i=0; for(;;) i++;}\n"
CRASH_C = "#include <stdlib.h>\nint main(void){abort();}\n"
VALIDATOR_PY = """\
import sys
data = sys.stdin.read()
parts = data.split()
if not data.endswith("\\n") or len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
    print("expected two integers on one line", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
"""
# An output validator (ICPC protocol): input answer feedback_dir [flags] < output; accepts
# the answer with any sign of politeness after it when run with the flag `lenient`.
CHECKER_PY = """\
import sys
want = open(sys.argv[2]).read().split()
got = sys.stdin.read().split()
if "lenient" in sys.argv[4:]:
    got = got[: len(want)]
if got == want:
    sys.exit(42)
open(sys.argv[3] + "judgemessage.txt", "w").write("expected " + " ".join(want))
sys.exit(43)
"""

CASES = {"1": ("1 2\n", "3\n"), "2": ("10 -4\n", "6\n"), "3": ("0 0\n", "0\n")}


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if name.endswith(".yaml") else text)
    return root


def data(prefix: str = "data/secret") -> dict[str, str]:
    files = {"data/sample/1.in": "1 2\n", "data/sample/1.ans": "3\n"}
    for name, (given, answer) in CASES.items():
        files[f"{prefix}/{name}.in"] = given
        files[f"{prefix}/{name}.ans"] = answer
    return files


def legacy(root: Path, **extra: str) -> Path:
    files = {
        "problem.yaml": """\
            name: Add Two
            author: Ada Lovelace and Alan Turing
            source: Test Contest 2026
            source_url: https://example.org/contest
            license: cc by-sa
            rights_owner: The Test Committee
            limits:
              memory: 512
              output: 4
            validation: custom
            validator_flags: lenient
            """,
        "problem_statement/problem.en.tex": "\\problemname{Add Two (from tex)}\nAdd $a$ and $b$.\n",
        "input_format_validators/check.py": VALIDATOR_PY,
        "output_validators/polite/polite.py": CHECKER_PY,
        "submissions/accepted/add.c": ADD_C,
        "submissions/accepted/add.py": ADD_PY,
        "submissions/wrong_answer/sub.py": SUB_PY,
        "submissions/time_limit_exceeded/spin.c": SPIN_C,
        "submissions/run_time_error/crash.c": CRASH_C,
        **data(),
    }
    files.update(extra)
    return write(root, files)


def draft_2023(root: Path, **extra: str) -> Path:
    files = {
        "problem.yaml": """\
            problem_format_version: 2023-07-draft
            name: {en: Add Two, sv: Addera två}
            uuid: 5f9a4a3e-2c84-4c1e-8f4c-2f0d1e1b1a10
            type: scoring
            source: {name: Spring Cup, url: https://example.org/spring}
            license: cc0
            credits:
              authors: [Grace Hopper]
              testers: [Edsger Dijkstra <ed@example.org>]
            limits:
              time_limit: 2
              memory: 256
            """,
        "statement/problem.en.md": "# Add Two\n\nAdd *a* and *b*.\n",
        "input_validators/check.py": VALIDATOR_PY,
        "submissions/accepted/add.py": ADD_PY,
        "submissions/wrong_answer/sub.py": SUB_PY,
        "data/sample/1.in": "1 2\n",
        "data/sample/1.ans": "3\n",
        "data/secret/testdata.yaml": "grader_flags: min\n",
        "data/secret/easy/testdata.yaml": "accept_score: 30\n",
        "data/secret/easy/1.in": "1 1\n",
        "data/secret/easy/1.ans": "2\n",
        "data/secret/hard/testdata.yaml": "grader_flags: sum\naccept_score: 10\nrange: 0 70\non_reject: continue\n",
        "data/secret/hard/1.in": "100 200\n",
        "data/secret/hard/1.ans": "300\n",
        "data/secret/hard/2.in": "-5 5\n",
        "data/secret/hard/2.ans": "0\n",
    }
    files.update(extra)
    return write(root, files)


def format_2025(root: Path, **extra: str) -> Path:
    files = {
        "problem.yaml": """\
            problem_format_version: 2025-09
            name: Add Two
            uuid: 9b1c2f4e-7a55-4d8b-9a1e-0c3b2a1d4e5f
            source: Autumn Cup
            limits:
              memory: 256
            """,
        "statement/problem.en.tex": "\\problemname{Add Two}\nAdd.\n",
        "input_validators/check/check.py": VALIDATOR_PY,
        "output_validator/output_validator.py": CHECKER_PY,
        "submissions/accepted/add.c": ADD_C,
        "submissions/wrong_answer/sub.py": SUB_PY,
        "submissions/accepted/Add.cob": "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. ADDER.\n",
        "data/secret/test_group.yaml": "output_validator_args: [lenient]\ninput_validator_args: [--strict]\n",
        **data(),
    }
    files.update(extra)
    return write(root, files)


def zip_folder(folder: Path, target: Path, top: str | None = None) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                name = path.relative_to(folder).as_posix()
                archive.write(path, f"{top}/{name}" if top else name)
    return target


GUESS_INTERACTOR_PY = """\
import sys

n, secret = map(int, open(sys.argv[1]).read().split())
feedback = open(sys.argv[3] + "judgemessage.txt", "w")
print(n, flush=True)
for number in range(1, 11):
    line = sys.stdin.readline(100)
    if not line.strip().lstrip("-").isdigit():
        feedback.write(f"guess {number}: no number\\n")
        sys.exit(43)
    guess = int(line)
    if guess == secret:
        print("correct", flush=True)
        sys.exit(42)
    print("lower" if secret < guess else "higher", flush=True)
feedback.write("not found in 10 guesses\\n")
sys.exit(43)
"""
GUESS_PY = """\
import sys
n = int(sys.stdin.readline())
low, high = 1, n
while True:
    guess = (low + high) // 2
    print(guess, flush=True)
    reply = sys.stdin.readline().strip()
    if reply == "correct":
        break
    low, high = (low, guess - 1) if reply == "lower" else (guess + 1, high)
"""


def interactive_legacy(root: Path) -> Path:
    """An interactive package as problemtools' `guess` is laid out: validation: custom
    interactive, the interactor as the output validator, inputs without answers, a sample
    interaction for the statement."""
    return write(
        root,
        {
            "problem.yaml": "name: Guess\nvalidation: custom interactive\nvalidator_flags: strict\n",
            "problem_statement/problem.en.tex": "\\problemname{Guess}\nFind $X$ in 10 guesses.\n",
            "output_validators/guess/interactor.py": GUESS_INTERACTOR_PY,
            "data/sample/1.in": "10 3\n",
            "data/sample/1.interaction": "<10\n>5\n<lower\n>2\n<higher\n>3\n<correct\n",
            "data/secret/01.in": "1000 1\n",
            "data/secret/02.in": "1000 999\n",
            "data/secret/03.in": "1 1\n",
            "submissions/accepted/bisect.py": GUESS_PY,
            "submissions/wrong_answer/zero.py": "import sys\nsys.stdin.readline()\nprint(0, flush=True)\n",
            "submissions/run_time_error/crash.py": "import sys\nsys.stdin.readline()\nraise SystemExit(3)\n",
            "submissions/time_limit_exceeded/spin.py": "while True:\n    pass\n",
        },
    )
