"""The keyed HMAC the salts and the generator use is HMAC-SHA256 (RFC 2104)
for every key length (a key past the 64-byte block is hashed first)."""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.chain import (
    LINK_FIELDS,
    LOG_FORMAT,
    bot_seed,
    commitment,
    envelope,
    event_salt,
    event_salts,
    header_hash,
    keyed_hmac_sha256,
    link_bytes,
    link_hash,
    secret_salt,
    sha256_hex,
)
from referee.engine.rng import Rng
from tests.examples import examples


@settings(max_examples=examples(400), deadline=None)
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


#: key lengths around SHA-256's 64-byte block: none, one byte, one short, the block (every default seed
#: is 64 bytes), one past it (hashed first), two blocks
EDGE_LENGTHS = (0, 1, 63, 64, 65, 128)


@pytest.mark.parametrize("length", EDGE_LENGTHS)
@pytest.mark.parametrize("fill", [b"\x00", b"\x36", b"\x5c", b"\xff", b"k"])
def test_keyed_hmac_is_hmac_sha256_for_keys_at_the_block_edges(length: int, fill: bytes) -> None:
    key = (fill * length)[:length]
    mac = keyed_hmac_sha256(key)
    for msg in (b"", b"event:1", b"0", b"x" * 64, b"y" * 200):
        assert mac(msg) == hmac.digest(key, msg, "sha256"), (length, fill, msg)
    # a key of distinct bytes: one changed byte, wherever it is, is another key
    varied = bytes(range(length))
    assert keyed_hmac_sha256(varied)(b"m") == hmac.digest(varied, b"m", "sha256")
    if length:
        for at in (0, length - 1):
            other = varied[:at] + bytes([varied[at] ^ 1]) + varied[at + 1:]
            assert keyed_hmac_sha256(other)(b"m") == hmac.digest(other, b"m", "sha256") \
                != keyed_hmac_sha256(varied)(b"m")


def test_a_64_byte_key_is_not_hashed_and_a_65_byte_key_is() -> None:
    """A key of exactly one block is used as it is; one byte more and it is its SHA-256 (RFC 2104)."""
    block = bytes(range(64))
    assert keyed_hmac_sha256(block)(b"m") == hmac.digest(block, b"m", "sha256")
    assert keyed_hmac_sha256(block)(b"m") != keyed_hmac_sha256(hashlib.sha256(block).digest())(b"m")
    longer = block + b"!"
    assert keyed_hmac_sha256(longer)(b"m") == keyed_hmac_sha256(hashlib.sha256(longer).digest())(b"m") \
        == hmac.digest(longer, b"m", "sha256")


def test_a_default_seeds_salts_are_hmac_sha256_of_its_64_bytes() -> None:
    """Every default seed is 64 characters (32 random bytes, hex): its salts and the generator's blocks."""
    seed = secrets.token_hex(32)
    assert len(seed.encode()) == 64
    assert event_salts(seed, 3) == [hmac.new(seed.encode(), f"event:{n}".encode(), "sha256").hexdigest()
                                    for n in (1, 2, 3)]
    assert Rng(seed.encode()).below(2**64 - 1) == \
        int.from_bytes(hmac.digest(seed.encode(), b"0", "sha256")[:8], "big") % (2**64 - 1)


def test_the_salts_and_keys_are_the_documented_hmacs() -> None:
    """docs/audit.md, "The hash chain": each derived value is HMAC-SHA256(seed, label), hex — checked
    against the standard library, not against the referee's own functions."""
    seed = "the-seed"

    def mac(label: str) -> str:
        return hmac.new(seed.encode(), label.encode(), "sha256").hexdigest()
    assert event_salt(seed, 7) == mac("event:7")
    assert event_salts(seed, 2) == [mac("event:1"), mac("event:2")]
    assert event_salts(seed, 0) == []
    assert secret_salt(seed, "role:0") == mac("secret:role:0")
    assert bot_seed(seed, 2, 15) == mac("bot:2:15")
    assert sha256_hex("abc") == sha256_hex(b"abc") == hashlib.sha256(b"abc").hexdigest()


def _std(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def test_the_commitments_and_links_are_the_documented_hashes() -> None:
    salt, data = "5a" * 32, {"move": {"type": "pass"}, "rng": 3}
    assert commitment(salt, data) == hashlib.sha256(salt.encode() + _std(data)).hexdigest()
    header = {"id": "g", "seats": [1, None]}
    assert header_hash(header) == hashlib.sha256(_std(header)).hexdigest()
    prev = "cd" * 32
    for actor in (None, 1):
        event = {"seq": 4, "type": "move", "actor": actor, "at": 9, "commit": "ef" * 32, "prev": prev}
        link = {name: event[name] for name in LINK_FIELDS}
        assert link_bytes(4, "move", actor, 9, "ef" * 32, prev) == _std(link)
        assert link_hash({**event, "hash": "x", "data": {}}) == hashlib.sha256(prev.encode() + _std(link)).hexdigest()
    assert link_bytes(4.5, "move", None, 9, "c", "p") == _std({"seq": 4.5, "type": "move", "actor": None, "at": 9,
                                                                "commit": "c", "prev": "p"})
    env = envelope("s", 2, "move", data, None, 5, prev)
    assert env["salt"] == hmac.new(b"s", b"event:2", "sha256").hexdigest()
    assert env["commit"] == hashlib.sha256(env["salt"].encode() + _std(data)).hexdigest()
    assert env["hash"] == hashlib.sha256(prev.encode() + _std({name: env[name] for name in LINK_FIELDS})).hexdigest()
    assert LINK_FIELDS == ("seq", "type", "actor", "at", "commit", "prev") and LOG_FORMAT == 2


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=80), st.integers(min_value=0, max_value=9),
       st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=200))
def test_a_game_s_prepared_key_gives_the_same_bot_seeds_generator_and_salts(seed: str, seat: int, version: int,
                                                                            position: int) -> None:
    # the service prepares keyed_hmac_sha256(seed) once per game (Game.mac) for what it derives from the seed
    from referee.engine.protocol import Event
    from referee.engine.record import chained
    try:
        key = seed.encode()
    except UnicodeEncodeError:
        return
    mac = keyed_hmac_sha256(key)
    assert bot_seed(seed, seat, version, mac=mac) == bot_seed(seed, seat, version)
    prepared, plain = Rng(key, position, mac=mac), Rng(key, position)
    assert [prepared.below(1000) for _ in range(9)] == [plain.below(1000) for _ in range(9)]
    assert prepared.position == plain.position
    produced = [(seat, Event("x", {"v": version})), (None, Event("y", {}))]
    assert chained(seed, "p" * 64, version, produced, 5, mac=mac) == chained(seed, "p" * 64, version, produced, 5)
    assert chained(seed, "p" * 64, version, produced, 5)[0][0] == envelope(seed, version + 1, "x", {"v": version},
                                                                           seat, 5, "p" * 64)
