"""``link_bytes`` writes an event's link directly where it can; it must be
``canonical_bytes`` of the link, byte for byte, for any values a log (or a
forger) may hold."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.chain import link_bytes, link_hash
from tests.examples import examples

WORDS = st.text(alphabet="abcdef0123456789_ABCxyz", max_size=70)
ANY = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | WORDS | \
    st.lists(st.integers(), max_size=2) | st.dictionaries(st.text(max_size=2), st.integers(), max_size=2)


def std(seq: Any, type_: Any, actor: Any, at: Any, commit: Any, prev: Any) -> bytes:
    link = {"seq": seq, "type": type_, "actor": actor, "at": at, "commit": commit, "prev": prev}
    return json.dumps(link, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")


@settings(max_examples=examples(1500))
@given(st.integers() | ANY, WORDS | ANY, st.none() | st.integers(min_value=-1, max_value=9) | ANY,
       st.integers() | ANY, WORDS | ANY, WORDS | ANY)
def test_link_bytes_is_the_canonical_form_of_the_link(seq: Any, type_: Any, actor: Any, at: Any, commit: Any,
                                                      prev: Any) -> None:
    try:
        expected = std(seq, type_, actor, at, commit, prev)
    except (ValueError, TypeError) as err:  # what the standard library refuses, link_bytes refuses
        try:
            link_bytes(seq, type_, actor, at, commit, prev)
        except (ValueError, TypeError):
            return
        raise AssertionError(f"link_bytes accepted what json refuses: {err}") from err
    try:
        got = link_bytes(seq, type_, actor, at, commit, prev)
    except UnicodeEncodeError:  # a lone surrogate: canonical_bytes refuses it too
        return
    assert got == expected


def test_the_referee_s_own_links_take_the_direct_path_and_hash_as_before() -> None:
    event = {"seq": 12, "type": "card_played", "actor": None, "at": 1_800_000_000_123,
             "commit": "ab" * 32, "prev": "cd" * 32}
    assert link_bytes(12, "card_played", None, 1_800_000_000_123, "ab" * 32, "cd" * 32) == \
        std(12, "card_played", None, 1_800_000_000_123, "ab" * 32, "cd" * 32)
    import hashlib
    assert link_hash(event) == hashlib.sha256(("cd" * 32).encode() + std(
        12, "card_played", None, 1_800_000_000_123, "ab" * 32, "cd" * 32)).hexdigest()
