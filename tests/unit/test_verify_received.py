"""``referee.engine.chain.verify_received``: what a viewer checks over the
events he received (a page of the log, a stream) names each link that does
not hold — a ``prev`` that does not chain, a link that does not hash to its
``hash``, a ``data`` and ``salt`` that do not open ``commit`` — and nothing
for a clean page."""
from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine import canonical, event_salt
from referee.engine.chain import commitment, envelope, link_hash, verify_received
from tests.forge import rechain

SEED = "page-seed"
HEAD = "ab" * 32


def _page(count: int = 5, prev: str = HEAD) -> list[dict[str, Any]]:
    """``count`` events chained after ``prev``, each with its salt (as a seat receives public events)."""
    events = []
    for seq in range(1, count + 1):
        env = envelope(SEED, seq, "move" if seq % 2 else "card_played", {"n": seq, "who": [seq, None]},
                       seq % 3 or None, 1000 + seq, prev)
        prev = env["hash"]
        events.append(env)
    return json.loads(canonical(events))


def test_a_clean_page_reports_nothing() -> None:
    page = _page()
    assert verify_received(page) == []
    assert verify_received(page, prev=HEAD) == []
    assert verify_received(page[2:], prev=page[1]["hash"]) == []
    assert verify_received(page[2:]) == []  # a page from the middle, its predecessor not known
    assert verify_received([]) == [] and verify_received([], prev=HEAD) == []


def test_a_clean_page_without_salts_reports_nothing() -> None:
    """A hidden event comes without its salt (and its data): only its link is checked."""
    page = _page()
    for env in page[1::2]:
        del env["salt"]
        env["data"] = None
    assert verify_received(page, prev=HEAD) == []


def test_a_prev_that_does_not_chain_is_reported() -> None:
    page = _page()
    assert verify_received(page, prev="cd" * 32) == ["event 1: prev does not chain to the event before"]
    page = _page()
    page[2]["prev"] = page[0]["hash"]
    page[2]["hash"] = link_hash(page[2])  # its own link holds: only the chaining fails
    assert verify_received(page, prev=HEAD) == ["event 3: prev does not chain to the event before",
                                                "event 4: prev does not chain to the event before"]
    page = _page()
    del page[2]  # an event missing from the page
    assert verify_received(page) == ["event 4: prev does not chain to the event before"]


def test_a_link_that_does_not_hash_is_reported() -> None:
    for name, value in (("type", "forged"), ("actor", 7), ("at", 1), ("seq", 9), ("hash", "00" * 32)):
        page = _page()
        page[1][name] = value
        problems = verify_received(page, prev=HEAD)
        seq = page[1]["seq"]
        expected = [f"event {seq}: its link does not hash to its hash"]
        if name == "hash":  # the next event chains to the hash it was given
            expected.append("event 3: prev does not chain to the event before")
        assert problems == expected, (name, problems)


@pytest.mark.parametrize("edit", ["data", "salt", "commit"])
def test_data_and_salt_that_do_not_open_the_commit_are_reported(edit: str) -> None:
    page = _page()
    if edit == "data":
        page[3]["data"] = {**page[3]["data"], "n": 0}
    elif edit == "salt":
        page[3]["salt"] = event_salt(SEED, 5)
    else:  # a commit re-made and re-linked, over other data
        page[3]["commit"] = commitment(page[3]["salt"], {"n": 0})
        rechain_from = page[3]["prev"]
        page[3]["hash"] = link_hash({**page[3], "prev": rechain_from})
        for env in page[4:]:
            env["prev"] = page[page.index(env) - 1]["hash"]
            env["hash"] = link_hash(env)
    assert verify_received(page, prev=HEAD) == ["event 4: data and salt do not open its commit"]


def test_every_problem_of_a_page_is_reported_in_order() -> None:
    page = _page()
    page[0]["prev"] = "00" * 32  # does not chain to HEAD, and its link no longer hashes
    page[4]["data"] = "forged"
    assert verify_received(page, prev=HEAD) == [
        "event 1: prev does not chain to the event before",
        "event 1: its link does not hash to its hash",
        "event 5: data and salt do not open its commit",
    ]
    rechain(HEAD, page)  # every link and commit re-made: the page holds again
    assert verify_received(page, prev=HEAD) == []


def test_an_envelope_is_its_documented_fields() -> None:
    """``envelope``: the salt ``HMAC(seed, "event:<seq>")``, the commit over it and the data, the link hashed."""
    env = envelope(SEED, 3, "move", {"move": {"type": "pass"}, "rng": 4}, 1, 55, HEAD)
    assert list(env) == ["seq", "type", "actor", "at", "commit", "prev", "hash", "data", "salt"]
    assert env["salt"] == event_salt(SEED, 3)
    assert env["commit"] == commitment(env["salt"], {"move": {"type": "pass"}, "rng": 4})
    assert env["hash"] == link_hash(env)
    assert (env["seq"], env["type"], env["actor"], env["at"], env["prev"]) == (3, "move", 1, 55, HEAD)
