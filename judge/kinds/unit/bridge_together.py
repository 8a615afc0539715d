"""The runner of a unit-test problem in `mode: together`: pytest runs the teacher's tests in the
student's process (for tests that patch names inside the student's module, or start its file
as a program). Each test's record goes out on a channel the judge laid for the run (a pipe that
was this process's stdout; stdout itself now goes to stderr), framed by a start line and, once
every test has run, an end line. The judge accepts exactly the tests it listed from the files,
each once, and the end (pairs.py, outcome.together).

In this mode the student's code shares the process with the tests: a determined student can
read them and write records of its own on the channel. `mode: apart` is where that cannot be.

Runs as `main.py KIT STUDENT_FILES NODE_ID...` (KIT: the folder of the judge's pytest kit,
bound read-only, or "" for the system's pytest; the student's file names, comma-separated: an
exception raised in one of them is the student's); copied into the box as it is.
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
from typing import Any

PARAMETERS = re.compile(r"\[.*\]$")  # test_x[1-a]: one run of the parametrized test_x


class ChannelRecorder:
    """A pytest plugin writing each listed test's record to the channel as it ends: a
    parametrized test's runs gathered into one, failing with the first of them that fails; an
    xfail counted as pytest counts it."""

    def __init__(self, channel: int, student_files: frozenset[str]) -> None:
        self.channel = channel
        self.student_files = student_files
        self.open: str | None = None
        self.phases: list[dict[str, Any]] = []
        self.run_phases: list[dict[str, Any]] = []
        self.printed = ""

    def write(self, record: dict[str, Any]) -> None:
        data = (json.dumps(record) + "\n").encode()
        while data:
            data = data[os.write(self.channel, data) :]

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        listed = PARAMETERS.sub("", nodeid)
        if listed != self.open:
            self.flush()
            self.open, self.phases, self.printed = listed, [], ""
            self.write({"start": listed})
        self.run_phases = []

    def _kind(self, err: BaseException) -> str:
        """Where the exception came from: the student's file (RE) or the test's (a failure)."""
        if isinstance(err, AssertionError):
            return "assert"
        frames = traceback.extract_tb(err.__traceback__)
        if frames and os.path.basename(frames[-1].filename) in self.student_files:
            return "student"
        return "error"

    def pytest_runtest_makereport(self, item: Any, call: Any) -> None:
        if call.excinfo is None:
            return
        err = call.excinfo.value
        kind = "skipped" if call.excinfo.typename == "Skipped" else self._kind(err)
        message = call.excinfo.exconly().strip()
        if kind in ("assert", "error"):
            message = (message.splitlines() or [""])[0].removeprefix("AssertionError: ")
        elif kind == "student":
            message = f"the student's code raised {message}"
        self.run_phases.append({"when": call.when, "kind": kind, "message": message[:2000]})

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call":
            self.printed = (self.printed + report.capstdout)[-4096:]
        if report.skipped and getattr(report, "wasxfail", None) is not None:
            # An expected failure, as pytest counts it: not a failure.
            self.run_phases = [p for p in self.run_phases if p["when"] != report.when]
        elif report.failed and not any(p["when"] == report.when for p in self.run_phases):
            said = str(report.longrepr).strip().splitlines()
            self.run_phases.append({"when": report.when, "kind": "assert", "message": (said or ["failed"])[0][:2000]})

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        self.phases.extend(self.run_phases)

    def flush(self) -> None:
        """The listed test's record, once its runs are over. No times: the judge's end of the
        channel takes the kernel's, from the start line on."""
        if self.open is not None:
            self.write({"id": self.open, "phases": self.phases, "printed": self.printed})
            self.open = None

    def where(self, lines: list[str]) -> str:
        """The student's line the import failed at, as pytest's report names it."""
        for line in reversed(lines):
            found = re.search(r'File "(?:[^"]*/)?([^"/]+)", line (\d+)', line) or re.match(
                r"\s*(?:\S*/)?([^\s/:]+):(\d+): in ", line
            )
            if found and found.group(1) in self.student_files:
                return f" ({found.group(1)}, line {found.group(2)})"
        return ""

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            text = str(report.longrepr).strip().splitlines()
            # Once the submission's code has run in this process (the tests' own), what breaks
            # a file's collection may be its doing (sys.modules emptied, a helper replaced): the
            # reference collects every file, as judge verify checks, so it is not the judge's.
            ran = any(name.removesuffix(".py") in sys.modules for name in self.student_files)
            student = ran or any(name in str(report.longrepr) for name in self.student_files)
            message = text[-1].removeprefix("E").strip() if text else "the file could not be collected"
            message += self.where(text) if student else ""
            self.write({"collect_error": report.nodeid, "student": student, "message": message[:2000]})


def main() -> int:
    import site

    site.main()  # the system's packages (python3 -S leaves them out): its pytest, if the judge uses it
    channel = os.dup(1)
    os.dup2(2, 1)
    kit, students, node_ids = sys.argv[1], frozenset(sys.argv[2].split(",")), sys.argv[3:]
    here = os.path.dirname(os.path.abspath(__file__))
    # pytest (and what it imports) comes from the judge's kit or the system, never from a file
    # of the box: the box, where a submission's files are, joins the path only after it.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    if kit:
        sys.path.insert(0, kit)  # the judge's pytest kit (pytest_kit.py), before the system's
    recorder = ChannelRecorder(channel, students)
    try:
        import pytest
    except ImportError:
        why = "pytest is not installed for the machine's python3 (apt-get install python3-pytest)"
        recorder.write({"collect_error": "", "student": False, "message": why})
        return 0
    # A helper module beside the test files (public/helpers.py) is importable as in pytest's
    # own run, and is the teacher's even where a submission has a file of the same name.
    folders = sorted({os.path.dirname(node.split("::", 1)[0]) for node in node_ids} - {""})
    sys.path[:0] = [*(os.path.join(here, folder) for folder in folders), here]
    os.environ.pop("PYTEST_ADDOPTS", None)
    pytest.main(
        ["-q", "-p", "no:cacheprovider", "--import-mode=importlib", "--rootdir", here, "--no-header", *node_ids],
        plugins=[recorder],
    )
    recorder.flush()
    recorder.write({"end": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
