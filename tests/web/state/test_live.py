from __future__ import annotations

from judge.web.state import live

# Two public samples, then three secret cases; judging started at t=100.
ENTRIES = (
    live.JudgedCase("samples/01", "AC", True, 100.5),
    live.JudgedCase("samples/02", "WA", True, 101.0),
    live.JudgedCase("edge/01", "AC", False, 104.0),
    live.JudgedCase("edge/02", "TLE", False, 107.0),
    live.JudgedCase("edge/03", "AC", False, 111.0),
)


def test_a_teacher_sees_every_case_as_it_is_judged() -> None:
    view = live.for_teacher(ENTRIES[:4], 5)
    assert view.cases[-1] == ("edge/02", "TLE") and (view.done, view.total) == (4, 5) and not view.secret_note


def test_a_student_sees_the_state_of_the_last_whole_step() -> None:
    assert live.cutoff(100.0, 109.9, 5.0) == 105.0 and live.cutoff(100.0, 110.0, 5.0) == 110.0
    assert live.cutoff(100.0, 103.2, 0.0) == 103.2 and live.cutoff(None, 103.2, 5.0) == 103.2
    at_cases = live.for_student(ENTRIES, 2, 5, "cases", live.cutoff(100.0, 109.9, 5.0))
    assert [name for name, _ in at_cases.cases] == ["samples/01", "samples/02", "edge/01"]
    assert (at_cases.done, at_cases.total) == (3, 5)  # edge/02 ended at 107: not before 110


def test_below_the_cases_level_nothing_of_the_secret_cases_shows_before_the_result() -> None:
    for level in ("verdict", "groups"):
        view = live.for_student(ENTRIES, 2, 5, level, 200.0)
        assert view.cases == (("samples/01", "AC"), ("samples/02", "WA")) and (view.done, view.total) == (2, 2)
        assert "secret cases" in view.secret_note
        # The same view whether 0 or 3 secret cases have ended: no count of them leaks.
        assert live.for_student(ENTRIES[:2], 2, 5, level, 200.0) == view


def test_stored_entries_read_back_and_damage_reads_as_none() -> None:
    assert live.loads(live.dumps(ENTRIES)) == ENTRIES
    assert live.loads(None) == () and live.loads("not json") == () and live.loads('[["a"]]') == ()


def test_a_live_view_shows_no_secret_case_once_one_is_an_ie() -> None:
    entries = [live.JudgedCase("samples/01", "AC", True, 1.0), live.JudgedCase("edge/01", "WA", False, 2.0)]
    assert len(live.for_student(entries, 1, 3, "cases", 10.0).cases) == 2
    failed = [*entries, live.JudgedCase("edge/02", "IE", False, 3.0)]
    assert live.for_student(failed, 1, 3, "cases", 10.0).cases == (("samples/01", "AC"),)


def test_once_the_public_cases_are_shown_the_hidden_ones_are_said_to_run_and_no_more() -> None:
    """Issue 59, item 6: "case 2 of 2 judged" looked stuck while the secret cases ran. The view
    says the hidden tests are running, the same whether 0 or 3 of them have ended."""
    assert not live.for_student(ENTRIES[:1], 2, 5, "groups", 200.0).hidden_running  # a sample to come
    running = live.for_student(ENTRIES[:2], 2, 5, "groups", 200.0)
    assert running.hidden_running and live.for_student(ENTRIES, 2, 5, "groups", 200.0) == running
    assert not live.for_student(ENTRIES[:2], 2, 2, "groups", 200.0).hidden_running  # no secret case
    assert not live.for_student(ENTRIES, 2, 5, "cases", 200.0).hidden_running  # they are shown
