"""`make bench`, function problems: what one call of a function costs through the judge.

`judge new --kind functions`'s problem (max_sum over up to 100 000 integers, 17 calls) is judged
for an accepted solution in each language whose toolchain is here, one sandbox session per
submission and a fresh process per call (the harness, then the student's code). Reported: the
mean wall time of a call as the judge measured it, and the compile. Targets (issue 42): a Python
call at most 3 ms above the function's own time, a compiled language's at most 2 ms.
Not a test: nothing here fails a build.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.grade import judging  # noqa: E402
from judge.problem import scaffold, testdata  # noqa: E402
from judge.problem.spec import load_problem  # noqa: E402
from judge.problem.tables import TableStore  # noqa: E402

SOLUTIONS = {
    "python3": ("max_sum.py", None),
    "cpp": (
        "max_sum.cpp",
        "#include <bits/stdc++.h>\nusing namespace std;\nlong long max_sum(const vector<int>& xs) {\n"
        '    if (xs.empty()) throw invalid_argument("empty");\n    long long best = xs[0], here = xs[0];\n'
        "    for (size_t i = 1; i < xs.size(); i++) { here = max<long long>(xs[i], here + xs[i]);"
        " best = max(best, here); }\n    return best;\n}\n",
    ),
    "c": (
        "max_sum.c",
        "#include <stdlib.h>\nlong long max_sum(const int *xs, int xs_len) {\n    if (!xs_len) abort();\n"
        "    long long best = xs[0], here = xs[0];\n    for (int i = 1; i < xs_len; i++) {"
        " here = here + xs[i] > xs[i] ? here + xs[i] : xs[i]; if (here > best) best = here; }\n    return best;\n}\n",
    ),
    "java": (
        "Solution.java",
        "public class Solution {\n    public long max_sum(int[] xs) {\n"
        '        if (xs.length == 0) throw new IllegalArgumentException("empty");\n'
        "        long best = xs[0], here = xs[0];\n        for (int i = 1; i < xs.length; i++) {"
        " here = Math.max(xs[i], here + xs[i]); best = Math.max(best, here); }\n        return best;\n    }\n}\n",
    ),
}
TOOLS = {"python3": "python3", "cpp": "g++", "c": "gcc", "java": "javac"}


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-functions-") as folder:
        made = scaffold.create(Path(folder), "maxf", "python3", kind="functions")
        problem = load_problem(made.directory)
        testdata.write(problem, testdata.generate(problem, TableStore()))
        print(f"function problem {problem.id}: {len(testdata.load_cases(problem))} calls per submission")
        for language, (name, text) in SOLUTIONS.items():
            if shutil.which(TOOLS[language]) is None:
                print(f"  {language:8} skipped: no {TOOLS[language]} here")
                continue
            source = Path(folder) / name
            if text is None:
                shutil.copyfile(made.directory / "solutions" / "accepted" / name, source)
            else:
                source.write_text(text)
            began = time.monotonic()
            record = judging.judge(judging.identify(problem, source, "bench"))
            total = time.monotonic() - began
            walls = [c.wall_s for c in record.cases]
            cpus = [c.cpu_s for c in record.cases]
            print(
                f"  {language:8} {record.verdict}: a call {statistics.mean(walls) * 1000:6.1f} ms wall"
                f" ({statistics.mean(cpus) * 1000:5.1f} ms CPU, the interpreter or JVM start included);"
                f" the submission {total:5.2f} s with its compile"
            )


if __name__ == "__main__":
    main()
