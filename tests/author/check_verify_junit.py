"""`make test` runs `judge verify --junit reports/verify.xml` on the bundled problems once; this
checks what it wrote (run after it, so the whole verify is not run twice): every problem is
there with no failure, accepted solutions in the four languages (those whose toolchain the judge
finds here: a machine with no JDK skips the Java ones, and says so), and one per failing folder
that holds a solution in such a language."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from judge.run import languages

ACCEPTED = {".c": "c", ".cpp": "cpp", ".py": "python3", ".java": "java"}
FOLDERS = ("wrong_answer", "time_limit_exceeded", "run_time_error", "memory_limit_exceeded")
PROBLEMS = Path("problems")  # make runs this from the checkout's root


def expected_suffixes() -> set[str]:
    """The four languages' suffixes, less those whose toolchain is missing (as `judge doctor`
    says it), so the check holds on a machine with only Python and a C compiler."""
    table = languages.load()
    return {suffix for suffix, lang in ACCEPTED.items() if not table.by_id(lang).missing()}


def problems_of(junit: Path) -> list[str]:
    expected = expected_suffixes()
    suites = ET.parse(junit).getroot().findall("testsuite")
    found = sorted(str(s.get("name")) for s in suites)
    for suite in suites:
        name = suite.get("name")
        if suite.get("failures") != "0":
            raise SystemExit(f"{junit}: {name}: {suite.get('failures')} failure(s)")
        names = [str(c.get("name")) for c in suite.findall("testcase")]
        accepted = {Path(n).suffix for n in names if n.startswith("accepted/")}
        if accepted != expected:
            raise SystemExit(f"{junit}: {name}: accepted solutions in {sorted(accepted)}, not {sorted(expected)}")
        for folder in FOLDERS:
            runnable = [f for f in (PROBLEMS / str(name) / "solutions" / folder).iterdir() if f.suffix in expected]
            if runnable and not any(n.startswith(folder + "/") for n in names):
                raise SystemExit(f"{junit}: {name}: no solution in {folder}/")
    return found


if __name__ == "__main__":
    problems = problems_of(Path(sys.argv[1]))
    if problems != ["eight-digits", "lanqiao", "sicily-rotations"]:
        raise SystemExit(f"{sys.argv[1]}: problems {problems}, not the three bundled ones")
    skipped = sorted(set(ACCEPTED) - expected_suffixes())
    missing = f" (no toolchain here for {', '.join(skipped)})" if skipped else ""
    print(f"{sys.argv[1]}: {', '.join(problems)} verified{missing}")
