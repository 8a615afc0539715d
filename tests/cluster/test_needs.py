"""What a client needs of a worker: the same judge code, isolation, its toolchains."""

from __future__ import annotations

from judge.cluster import needs

GXX = "g++ (Debian 12.2.0-14) 12.2.0"
OFFER = needs.Offer("abc", "bwrap+cgroup-v2", True, (("cpp", GXX), ("python3", "Python 3.11.2")))


def _fits(wanted: needs.Needs, offer: needs.Offer) -> bool:
    """The scheduler's rule: a task runs where every resource it asks for is offered."""
    have = needs.resources(offer)
    return all(have.get(key, 0) >= amount for key, amount in needs.required(wanted).items())


def test_a_matching_worker_fits_and_resources_agree() -> None:
    for wanted in (
        needs.Needs("abc", True, (("cpp", GXX),)),
        needs.Needs("abc", True, (("cpp", ""), ("python3", "Python 3.11.2"))),
        needs.Needs("abc", False, ()),
    ):
        assert needs.refusal(wanted, OFFER) == ""
        assert _fits(wanted, OFFER)


def test_each_mismatch_is_refused_with_its_reason_and_gets_no_task() -> None:
    cases = [
        (needs.Needs("other", True, ()), "runs other judge code"),
        (needs.Needs("abc", True, (("java", ""),)), "has no java toolchain"),
        (needs.Needs("abc", True, (("cpp", "g++ 13.1"),)), "for cpp, the client 'g++ 13.1'"),
    ]
    for wanted, reason in cases:
        assert reason in needs.refusal(wanted, OFFER)
        assert not _fits(wanted, OFFER)
    open_box = needs.Offer("abc", "rlimits-only", False, OFFER.toolchains)
    wanted = needs.Needs("abc", True, ())
    assert "not isolated" in needs.refusal(wanted, open_box)
    assert not _fits(wanted, open_box)


def test_this_machine_offers_what_it_needs() -> None:
    offer = needs.local_offer()
    wanted = needs.client_needs({language for language, _ in offer.toolchains}, isolated=offer.isolated)
    assert needs.refusal(wanted, offer) == ""
    assert _fits(wanted, offer)


def test_an_offer_survives_its_trip_through_the_environment() -> None:
    assert needs.Offer.from_json(OFFER.to_json()) == OFFER
