"""What a student's tests earn and what a student may learn: each feedback level."""

from __future__ import annotations

from judge.kinds.tests import scoring
from judge.kinds.tests.mutation import Mutant
from judge.kinds.tests.scoring import BugRun, Checked
from judge.problem.spec import Bug, Suite
from judge.run.verdicts import Verdict

BUGS = (
    Bug(path="solutions/wrong_answer/off_by_one.py", title="Off by one", hint="Try n = 1"),
    Bug(path="solutions/wrong_answer/empty_part.py", hint="What if every number is negative?"),
    Bug(path="solutions/run_time_error/crash.py"),
)
RUNS = (BugRun("02"), BugRun(""), BugRun(""))
CHECKED = (Checked("01", "rejected by the validator validate.py (line 1: n must be an integer)"), Checked("02", ""))


def suite(**keys: object) -> Suite:
    return Suite.model_validate({"for": "sums", **keys})


def test_names_are_titles_or_file_names_and_say_what_caught_each() -> None:
    rows = scoring.rows(suite(shows="names"), BUGS, CHECKED, RUNS)
    bugs = [r for r in rows if r.group != scoring.VALIDITY]
    assert [(r.group, r.verdict, r.message) for r in bugs] == [
        ("off-by-one", Verdict.AC, "caught by 02.in"),
        ("empty_part", Verdict.WA, "not caught"),
        ("crash", Verdict.WA, "not caught"),
    ]
    assert all(r.public for r in rows)


def test_hints_are_told_for_the_bugs_missed_only() -> None:
    rows = scoring.rows(suite(shows="hints"), BUGS, CHECKED, RUNS)
    messages = {r.group: r.message for r in rows if r.group != scoring.VALIDITY}
    assert messages == {
        "off-by-one": "caught by 02.in",
        "empty_part": "not caught: What if every number is negative?",
        "crash": "not caught",
    }


def test_a_count_names_no_bug_and_shows_none_of_them() -> None:
    rows = scoring.rows(suite(shows="count"), BUGS, CHECKED, RUNS)
    bugs = [r for r in rows if r.group != scoring.VALIDITY]
    assert [r.group for r in bugs] == ["bug-1", "bug-2", "bug-3"]
    assert not any(r.public for r in bugs)
    assert not any("Off" in r.group or "hint" in r.message for r in bugs)
    assert scoring.caught(RUNS) == 1


def test_an_invalid_test_is_named_with_why_and_decides_no_verdict() -> None:
    rows = scoring.rows(suite(), BUGS, CHECKED, RUNS)
    validity = [r for r in rows if r.group == scoring.VALIDITY]
    assert [(r.case, r.verdict) for r in validity] == [("validity/01", Verdict.NJ), ("validity/02", Verdict.AC)]
    assert "line 1: n must be an integer" in validity[0].message


def test_points_per_bug_or_a_fraction_of_the_whole() -> None:
    assert scoring.bug_points(suite(points_per_bug=7), 3) == 7
    assert scoring.bug_points(suite(scoring="fraction", points=90), 4) == 22.5


def test_group_names_stay_unique() -> None:
    twins = (Bug(path="a/x.py"), Bug(path="b/x.py"), Bug(path="c/validity.py"))
    names = scoring.group_names(suite(), twins)
    assert len(set(names)) == 3 and scoring.VALIDITY not in names


MUTANTS = (
    Mutant("compare", 12, "< for <=", "12-lt-for-le", "text of the mutant\n"),
    Mutant("drop", 14, "statement dropped", "14-dropped", "text of the other\n"),
)


def test_a_mutant_is_named_by_its_line_and_change_has_no_hint_and_no_code_shown() -> None:
    bugs = (BUGS[1], *MUTANTS)
    rows = scoring.rows(suite(shows="hints", mutants={}), bugs, CHECKED, (BugRun(""), BugRun("02"), BugRun("")))
    found = {r.group: (r.public, r.message) for r in rows if r.group != scoring.VALIDITY}
    assert found == {
        "empty_part": (True, "not caught: What if every number is negative?"),
        "mutant-12-lt-for-le": (True, "caught by 02.in"),
        "mutant-14-dropped": (True, "not caught"),  # no hint: none was written for a mutant
    }
    assert not any("text of" in r.message for r in rows)


def test_secret_mutants_are_numbered_and_secret_the_solutions_still_named() -> None:
    bugs = (BUGS[0], *MUTANTS)
    rows = scoring.rows(suite(mutants={"secret": True}), bugs, CHECKED, (BugRun("02"), BugRun(""), BugRun("02")))
    found = [(r.group, r.public) for r in rows if r.group != scoring.VALIDITY]
    assert found == [("off-by-one", True), ("mutant-1", False), ("mutant-2", False)]
