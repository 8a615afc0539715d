"""The verdict of one test (pure): what the tests' side recorded, and how the student's process
ended when it was lost during the test."""

from __future__ import annotations

import signal

from judge.kinds.unit.outcome import Record, RunPhase, decide, record_of, unreported
from judge.run.sandbox import Limit, RunResult
from judge.run.verdicts import Verdict

CLEAN = RunResult(0, None, 0.1, 0.2, 9000, 0, None, False, b"", b"")
LIMIT_KIB = 256 * 1024


def _record(*phases: tuple[str, str, str], cpu: float = 0.01) -> Record:
    return Record("public/test_a.py::test_x", tuple(RunPhase(*p) for p in phases), cpu, 0.05, "")


def test_each_kind_of_failure_has_its_verdict() -> None:
    assert decide(_record(), 2.0, CLEAN, LIMIT_KIB).verdict is Verdict.AC
    wrong = decide(_record(("call", "assert", "assert 1 == 2")), 2.0, CLEAN, LIMIT_KIB)
    assert (wrong.verdict, wrong.message) == (Verdict.WA, "assert 1 == 2")
    raised = decide(_record(("call", "student", "the student's code raised KeyError: 'x'")), 2.0, CLEAN, LIMIT_KIB)
    assert raised.verdict is Verdict.RE
    full = decide(_record(("call", "student", "the student's code raised MemoryError: ")), 2.0, CLEAN, LIMIT_KIB)
    assert full.verdict is Verdict.MLE
    assert decide(_record(("call", "error", "TypeError: x")), 2.0, CLEAN, LIMIT_KIB).verdict is Verdict.WA
    setup = decide(_record(("setup", "error", "fixture 'db' not found")), 2.0, CLEAN, LIMIT_KIB)
    assert setup.verdict is Verdict.IE and "setup" in setup.message
    assert decide(_record(("call", "unsupported", "needs together")), 2.0, CLEAN, LIMIT_KIB).verdict is Verdict.IE
    assert decide(_record(("call", "skipped", "Skipped")), 2.0, CLEAN, LIMIT_KIB).verdict is Verdict.WA
    garbled = decide(_record(("call", "garbled", "the student's code wrote on the tests' channel")), 2.0, CLEAN, 1)
    assert garbled.verdict is Verdict.RE


def test_time_is_the_student_codes_cpu_time_in_the_test() -> None:
    assert decide(_record(cpu=2.5), 2.0, CLEAN, LIMIT_KIB).verdict is Verdict.TLE
    assert decide(_record(("call", "stuck", "did not return")), 2.0, CLEAN, LIMIT_KIB).verdict is Verdict.TLE


def test_a_lost_process_gives_the_test_its_end() -> None:
    gone = _record(("call", "gone", "ended"))
    exited = decide(gone, 2.0, CLEAN, LIMIT_KIB)
    assert exited.verdict is Verdict.RE and "exit code 0" in exited.message
    killed = RunResult(None, signal.SIGSEGV, 0.1, 0.2, 9000, 0, None, False, b"", b"")
    assert decide(gone, 2.0, killed, LIMIT_KIB).verdict is Verdict.RE
    full = RunResult(None, signal.SIGKILL, 0.1, 0.2, LIMIT_KIB, 0, Limit.MEMORY, True, b"", b"")
    assert decide(gone, 2.0, full, LIMIT_KIB).verdict is Verdict.MLE


def test_records_are_read_warily_and_unrun_tests_are_said() -> None:
    assert record_of({"id": 3, "phases": []}) is None
    assert record_of({"id": "a", "phases": ["x"]}) is None
    found = record_of({"id": "a", "phases": [{"when": "call", "kind": "assert", "message": "m"}], "cpu": "lots"})
    assert found is not None and found.cpu_s == 0.0 and found.phases[0].kind == "assert"
    assert unreported("importing stack raised SyntaxError", True).verdict is Verdict.CE
    assert unreported("NameError in the file", False).verdict is Verdict.IE


def _result(test: str) -> dict[str, object]:
    return {"id": test, "phases": [], "cpu": 0.0, "wall": 0.0, "printed": ""}


def test_together_results_must_be_each_listed_test_once_in_turn_then_the_end() -> None:
    from judge.kinds.unit.outcome import collected

    a, b, c = "t.py::test_a", "t.py::test_b", "t.py::test_c"
    clean = collected([{"start": a}, _result(a), {"start": b}, _result(b), {"end": True}], [a, b])
    assert [r.id for r in clean.records] == [a, b] and not clean.failed and clean.current is None
    # A forged line while b runs fails b; a result for a test not started, or twice, is no result.
    forged = collected([{"start": a}, _result(a), {"start": b}, "1 passed", _result(b), {"end": True}], [a, b])
    assert [r.id for r in forged.records] == [a] and dict(forged.failed)[b].verdict is Verdict.RE
    twice = collected([{"start": a}, _result(a), _result(a), {"end": True}], [a, b])
    assert not twice.records and set(dict(twice.failed)) == {a, b}
    # An end with tests unreported fails them; a run cut short leaves its test in progress.
    early = collected([{"start": a}, _result(a), {"end": True}], [a, b, c])
    assert {t for t, _ in early.failed} == {b, c}
    cut = collected([{"start": a}, _result(a), {"start": b}], [a, b, c])
    assert cut.current == b and not cut.failed
    unknown = collected([{"start": "t.py::test_x"}, {"start": a}, _result(a)], [a])
    assert [r.id for r in unknown.records] == [a]


def test_together_a_file_that_did_not_collect_is_that_verdict_with_or_without_an_end() -> None:
    """A module that does not import (pytest then ends its run as usual) is a CE on the file's
    tests, not tests that went unreported. So is a file that does not collect whatever the
    channel says of whose fault it is: the student's code runs in that process and writes that
    channel (`sys.modules["helpers"] = None` broke a teacher's file there), and the reference
    collects every file, as judge verify checks; it is never the judge's IE."""
    from judge.kinds.unit.outcome import collected

    a, b = "t.py::test_a", "t.py::test_b"
    student = {"collect_error": "t.py", "student": True, "message": "SyntaxError: expected ':' (stack.py, line 2)"}
    for lines in ([student, {"end": True}], [student]):
        said = collected(lines, [a, b])
        assert not said.failed and said.broken is not None
        assert said.broken.verdict is Verdict.CE and "line 2" in said.broken.message
    claimed = collected([{**student, "student": False}, {"end": True}], [a, b])
    assert claimed.broken is not None and claimed.broken.verdict is Verdict.CE
