"""The hash chain of a game's log, format 2 (docs/audit.md, "The hash chain").

An event's data enters the chain only through a salted commitment, so every
value of the chain is a function of what a viewer may see plus salts he
cannot guess (DESIGN.md, "The chain must hide what it protects")::

    salt(seq)   = hex(HMAC-SHA256(key=utf8(seed), msg=utf8("event:" + str(seq))))
    commit(seq) = sha256_hex(salt(seq) + canonical(data))
    link(seq)   = the event's {"seq", "type", "actor", "at", "commit", "prev"}
    hash(seq)   = sha256_hex(prev + canonical(link(seq)))

``prev`` is the previous event's ``hash``; for event 1 it is the header hash
``sha256_hex(canonical(header))``. A salt is handed out with its event to
whoever may see the event's data (everyone, for a public event) and to
everyone once the game is over (the seed is revealed, every salt follows).
Format 1 hashed the data straight into the chain: a hidden card could be
brute-forced from its neighbours' hashes, so its logs are refused.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.engine.jsonenc import canonical, canonical_bytes, canonical_bytes_floatless

#: the log format this referee writes and the verifier reads (the header's ``log_format``)
LOG_FORMAT = 2
#: the fields of an event that are chained; ``data`` only through ``commit``
LINK_FIELDS = ("seq", "type", "actor", "at", "commit", "prev")


__all__ = ["LINK_FIELDS", "LOG_FORMAT", "bot_seed", "canonical", "canonical_bytes", "commitment", "envelope",
           "event_salt", "event_salts", "header_hash", "keyed_hmac_sha256", "link_bytes", "link_hash",
           "salted_envelope", "secret_salt", "sha256_hex", "verify_received"]


def sha256_hex(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


def keyed_hmac_sha256(key: bytes) -> Callable[[bytes], bytes]:
    """``lambda msg: hmac.digest(key, msg, "sha256")``, with the key's inner and
    outer blocks hashed once (RFC 2104) and copied for each message: less
    than half the cost per message for the many messages of one key (the
    salts of a log, the generator's blocks)."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    inner, outer = hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))

    def digest(msg: bytes) -> bytes:
        i = inner.copy()
        i.update(msg)
        o = outer.copy()
        o.update(i.digest())
        return o.digest()
    return digest


def _hmac_hex(seed: str, label: str) -> str:
    return hmac.digest(seed.encode(), label.encode(), "sha256").hex()


def event_salt(seed: str, seq: int) -> str:
    """The salt of event ``seq``: ``HMAC-SHA256(seed, "event:<seq>")`` hex."""
    return _hmac_hex(seed, f"event:{seq}")


def event_salts(seed: str, count: int) -> list[str]:
    """``[event_salt(seed, seq) for seq in 1..count]``, the key encoded once."""
    mac = keyed_hmac_sha256(seed.encode())
    return [mac(b"event:%d" % seq).hex() for seq in range(1, count + 1)]


def secret_salt(seed: str, name: str) -> str:
    """The salt of one dealt secret: ``HMAC-SHA256(seed, "secret:<name>")`` hex."""
    return _hmac_hex(seed, f"secret:{name}")


def bot_seed(seed: str, seat: int, version: int, *, mac: Callable[[bytes], bytes] | None = None) -> str:
    """The key of a built-in bot's generator for one decision:
    ``HMAC-SHA256(seed, "bot:<seat>:<version>")`` hex. Secret while the game
    runs (no opponent can predict a bluff), re-derived by the audit after it.
    ``mac``: ``keyed_hmac_sha256(seed)``, where the caller holds one."""
    if mac is not None:
        return mac(b"bot:%d:%d" % (seat, version)).hex()
    return _hmac_hex(seed, f"bot:{seat}:{version}")


def commitment(salt: str, value: Any) -> str:
    """``sha256_hex(salt + canonical(value))``, hashed as bytes."""
    return hashlib.sha256(salt.encode() + canonical_bytes(value)).hexdigest()


def header_hash(header: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_bytes(header)).hexdigest()


def link_bytes(seq: Any, type_: Any, actor: Any, at: Any, commit: Any, prev: Any) -> bytes:
    """``canonical_bytes`` of an event's link ``{seq, type, actor, at, commit,
    prev}``. Where every field has the shape the referee writes (integers,
    ``None``, strings) no float can be in it, so ``canonical_bytes``'s float
    and ``null`` checks are skipped (a ``null`` actor cost a decode and a
    comparison). A property test holds it to the standard library's bytes;
    the audit hashes one link per event."""
    link = {"seq": seq, "type": type_, "actor": actor, "at": at, "commit": commit, "prev": prev}
    if type(seq) is int and type(at) is int and (actor is None or type(actor) is int) \
            and type(type_) is str and type(commit) is str and type(prev) is str:
        return canonical_bytes_floatless(link)
    return canonical_bytes(link)


def link_hash(event: Mapping[str, Any]) -> str:
    """``sha256_hex(prev + canonical(link))`` over the chained fields only (LINK_FIELDS)."""
    linked = link_bytes(event["seq"], event["type"], event["actor"], event["at"], event["commit"], event["prev"])
    return hashlib.sha256(str(event["prev"]).encode() + linked).hexdigest()


def envelope(seed: str, seq: int, type_: str, data: Mapping[str, Any], actor: int | None, at: int,
             prev: str) -> dict[str, Any]:
    """A stored event: its chained fields, ``hash``, and the opening ``{data, salt}``."""
    return salted_envelope(event_salt(seed, seq), seq, type_, data, actor, at, prev)


def salted_envelope(salt: str, seq: int, type_: str, data: Mapping[str, Any], actor: int | None, at: int,
                    prev: str) -> dict[str, Any]:
    """``envelope`` given event ``seq``'s salt (``event_salt``; a writer of
    many events derives them with one ``keyed_hmac_sha256``): the same dict,
    its fields in the same order."""
    opened = dict(data)
    commit = commitment(salt, opened)
    linked = link_bytes(seq, type_, actor, at, commit, prev)
    return {"seq": seq, "type": type_, "actor": actor, "at": at, "commit": commit, "prev": prev,
            "hash": hashlib.sha256(prev.encode() + linked).hexdigest(), "data": opened, "salt": salt}


def verify_received(events: Sequence[Mapping[str, Any]], prev: str | None = None) -> list[str]:
    """What a viewer can check at any moment over the events he received
    (consecutive, as a page or a stream gives them): every link hashes to its
    ``hash`` and chains to the one before (to ``prev`` for the first, when
    given), and every event that came with its ``salt`` opens its ``commit``.
    Returns the problems found (none: the chain holds)."""
    problems: list[str] = []
    for event in events:
        seq = event.get("seq")
        if prev is not None and event.get("prev") != prev:
            problems.append(f"event {seq}: prev does not chain to the event before")
        if link_hash(event) != event.get("hash"):
            problems.append(f"event {seq}: its link does not hash to its hash")
        if "salt" in event and commitment(str(event["salt"]), event.get("data")) != event.get("commit"):
            problems.append(f"event {seq}: data and salt do not open its commit")
        prev = str(event.get("hash"))
    return problems
