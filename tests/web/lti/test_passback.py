"""Grade passback's plan (pure): a score per seat and assignment with a counted submission, out
of the assignment's maximum, at the newest counted submission's time; the retry waits."""

from __future__ import annotations

from pathlib import Path

from judge.course import gradebook
from judge.course.spec import load_course
from judge.web.lti import passback
from judge.web.state.lti import LmsCourse

COURSE = """\
title: T
assignments:
  - id: a1
    problems: [p, q]
  - id: a2
    problems: [r]
"""


def test_each_counted_assignment_is_one_score_out_of_its_maximum(tmp_path: Path) -> None:
    (tmp_path / "course.yaml").write_text(COURSE)
    course = load_course(tmp_path / "course.yaml", {"p", "q", "r"})
    attempts = [
        gradebook.Attempt(1, "ann", "p", 100.0, "WA", 40.0),
        gradebook.Attempt(2, "ann", "p", 200.0, "AC", 100.0),
        gradebook.Attempt(3, "ann", "q", 150.0, "WA", 10.0),
        gradebook.Attempt(4, "bob", "q", 300.0, None, None),  # not judged yet: nothing counted
    ]
    book = gradebook.build(course, ["ann", "bob"], attempts, {"p": 100.0, "q": 50.0, "r": 100.0})
    lms = LmsCourse("https://lms", "c", "tool", "d", "C", "https://lms/items", "", "https://judge", "t")
    seats = [passback.Seat(lms, "ann"), passback.Seat(lms, "bob"), passback.Seat(lms, "nobody")]
    sends = passback.wanted(book, seats, {1: 100.0, 2: 200.0, 3: 150.0}, now=999.0)
    assert [(s.user, s.assignment, s.score, s.max_score, s.submission, s.at) for s in sends] == [
        ("ann", "a1", 110.0, 150.0, 2, 200.0)
    ]


def test_a_failed_send_waits_longer_each_time_up_to_an_hour() -> None:
    assert [passback.backoff_s(t, 15.0) for t in range(4)] == [15.0, 30.0, 60.0, 120.0]
    assert passback.backoff_s(20, 15.0) == 3600.0


def test_a_score_reaches_the_lms_only_once_its_result_is_released(tmp_path: Path) -> None:
    """The LMS's gradebook tells a student no more of when a judging ended than the judge's own
    pages: a score is queued at the end of the result step its judging ended in."""
    from judge.web.routes.site import Settings, Site
    from judge.web.state.lti import Platform
    from tests.conftest import PROBLEMS
    from tests.web.test_course import record

    (tmp_path / "course.yaml").write_text("title: T\nassignments:\n  - id: w1\n    problems: [lanqiao]\n")
    clock = [1000.0]
    settings = Settings(
        problems_dir=PROBLEMS, data_dir=tmp_path / "data", course_file=tmp_path / "course.yaml", result_step_s=60
    )
    site = Site(settings, lambda: clock[0])
    store, records = site.store, site.lti
    store.add_user("ann")
    records.add_platform(
        Platform("https://lms", "tool", "lms", "https://lms/a", "https://lms/t", "https://lms/k", "", ("d",))
    )
    records.link_course(
        LmsCourse("https://lms", "c", "tool", "d", "C", "https://lms/items", "", "https://judge", "prof")
    )
    records.member_seen("https://lms", "c", [("ann", "student")], whole=True)
    store.submit("ann", "lanqiao", "python3", "main.py", b"print(1)\n", now=clock[0])
    claim = store.claim(now=clock[0])
    assert claim is not None and store.finish(claim, record("ann", "lanqiao", "AC", 100), now=clock[0] + 3)
    clock[0] += 10  # judged, not yet released (the step ends 60 s after the judging began)
    mark = passback.step(site, None)
    assert records.sends() == [] and mark is None  # planned again next round
    clock[0] += 60
    passback.step(site, mark)
    (queued,) = records.sends()
    assert (queued.user, queued.assignment, queued.score) == ("ann", "w1", 100.0)


def test_an_lms_away_is_told_from_a_refusal_of_one_score() -> None:
    import requests
    from pylti1p3.exception import LtiServiceException

    def refused(status: int) -> LtiServiceException:
        answer = requests.Response()
        answer.status_code, answer.url = status, "https://lms/scores"
        return LtiServiceException("refused", answer)

    assert passback.lms_away(requests.ConnectionError("no route"))
    assert passback.lms_away(requests.Timeout("15 s"))
    assert passback.lms_away(refused(503)) and passback.lms_away(refused(429))
    assert not passback.lms_away(refused(404)) and not passback.lms_away(refused(400))
    assert not passback.lms_away(LookupError("the student is no longer linked"))


def test_a_grade_by_hand_reaches_the_lms_once_its_assignment_is_released(tmp_path: Path) -> None:
    """The LMS has the judge's score until the release; then the combined score, queued once."""
    from judge.web.routes.site import Settings, Site
    from judge.web.state.lti import Platform
    from tests.conftest import PROBLEMS
    from tests.web.test_course import record

    (tmp_path / "course.yaml").write_text(
        "title: T\nassignments:\n  - id: w1\n    problems: [lanqiao]\n    review:\n      max: 10\n"
        "      rubric:\n        lanqiao:\n          - {id: names, points: -2, description: Names}\n"
    )
    settings = Settings(
        problems_dir=PROBLEMS, data_dir=tmp_path / "data", course_file=tmp_path / "course.yaml", result_step_s=0
    )
    site = Site(settings, lambda: 1000.0)
    site.store.add_user("ann")
    site.lti.add_platform(
        Platform("https://lms", "tool", "lms", "https://lms/a", "https://lms/t", "https://lms/k", "", ("d",))
    )
    site.lti.link_course(LmsCourse("https://lms", "c", "tool", "d", "C", "https://lms/items", "", "https://j", "p"))
    site.lti.member_seen("https://lms", "c", [("ann", "student")], whole=True)
    site.store.submit("ann", "lanqiao", "python3", "main.py", b"print(1)\n", now=1000.0)
    claim = site.store.claim(now=1000.0)
    assert claim is not None and site.store.finish(claim, record("ann", "lanqiao", "AC", 100), now=1001.0)
    mark = passback.step(site, None)
    site.reviews.save_grade("ann", "lanqiao", claim.id, "ta1", 1002.0, toggle="names")
    mark = passback.step(site, mark)
    (queued,) = site.lti.sends()
    assert (queued.score, queued.max_score) == (100.0, 110.0)  # graded, not released: the judge's
    site.reviews.release("w1", "prof", 1003.0)
    mark = passback.step(site, mark)
    (queued,) = site.lti.sends()
    assert (queued.score, queued.max_score) == (98.0, 110.0)
    book = gradebook.of_problems(
        site.course,
        ["ann"],
        [r.attempt_record for r in site.store.all()],
        site.problems,
        site.reviews.counted(site.course, every=False),
    )
    assert passback.queue(site.lti, book, {claim.id: 1000.0}) == 0  # once: nothing new to queue
