"""The keyed HMAC the salts and the generator use is HMAC-SHA256 (RFC 2104)
for every key length (a key past the 64-byte block is hashed first)."""
from __future__ import annotations

import hmac

from hypothesis import given, settings, strategies as st

from referee.engine.chain import event_salt, event_salts, keyed_hmac_sha256


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200), st.lists(st.binary(max_size=100), min_size=1, max_size=4))
def test_keyed_hmac_is_hmac_sha256(key: bytes, messages: list[bytes]) -> None:
    mac = keyed_hmac_sha256(key)
    for msg in messages:  # the same key, message after message
        assert mac(msg) == hmac.digest(key, msg, "sha256")


@given(st.text(max_size=80), st.integers(min_value=0, max_value=40))
def test_event_salts_are_each_event_salt(seed: str, count: int) -> None:
    try:
        seed.encode()
    except UnicodeEncodeError:
        return
    assert event_salts(seed, count) == [event_salt(seed, seq) for seq in range(1, count + 1)]
