"""`make test` runs `judge verify --junit reports/verify.xml` on the bundled problems once; this
checks what it wrote (run after it, so the whole verify is not run twice): every problem is
there with no failure, accepted solutions in the four languages, and one per failing folder."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

FOLDERS = ("wrong_answer", "time_limit_exceeded", "run_time_error", "memory_limit_exceeded")


def problems_of(junit: Path) -> list[str]:
    suites = ET.parse(junit).getroot().findall("testsuite")
    found = sorted(str(s.get("name")) for s in suites)
    for suite in suites:
        name = suite.get("name")
        if suite.get("failures") != "0":
            raise SystemExit(f"{junit}: {name}: {suite.get('failures')} failure(s)")
        names = [str(c.get("name")) for c in suite.findall("testcase")]
        accepted = {Path(n).suffix for n in names if n.startswith("accepted/")}
        if accepted != {".c", ".cpp", ".py", ".java"}:
            raise SystemExit(f"{junit}: {name}: accepted solutions in {sorted(accepted)}, not the four languages")
        for folder in FOLDERS:
            if not any(n.startswith(folder + "/") for n in names):
                raise SystemExit(f"{junit}: {name}: no solution in {folder}/")
    return found


if __name__ == "__main__":
    problems = problems_of(Path(sys.argv[1]))
    if problems != ["eight-digits", "lanqiao", "sicily-rotations"]:
        raise SystemExit(f"{sys.argv[1]}: problems {problems}, not the three bundled ones")
    print(f"{sys.argv[1]}: {', '.join(problems)} verified")
