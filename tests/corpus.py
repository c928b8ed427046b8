"""The corpus of good and forged logs both verifiers must judge alike
(docs/log-format.md; issue 36, item 6): made deterministically from one
finished, signed game, one case for every forgery class the audit knows.
``tests/fixtures/logs/corpus.json`` lists the cases and their layer; the
test (``tests/unit/test_two_verifiers.py``) holds the generator to it.

A case's layer says what can catch it, and so each verifier's verdict:

* ``good``: a genuine log (spelled otherwise, perhaps): *valid* with the key,
  *unsigned* (it holds; who wrote it is not checked) without;
* ``reading``/``chain``: refused by both, with or without the key;
* ``replay``: re-chained and re-salted, so only re-deciding the game sees it:
  with the key both refuse it (the referee never signed it); without, the
  audit refuses it and the browser, which does not re-decide, says *unsigned*;
* ``signature``: the log holds, its signature or key set does not: refused
  with the key, *unsigned* by both without."""
from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from referee.engine import canonical, event_salt, header_hash, sha256_hex
from referee.engine.signature import Keyring, SigningKey, b64url, unb64url
from tests.forge import rechain, recorded_game

LAYERS = ("good", "reading", "chain", "replay", "signature")
K1 = SigningKey.from_seed("k1", bytes(range(32)))
K2 = SigningKey.from_seed("k2", bytes(range(32, 64)))
#: the identity point: as a key it verifies R = identity, S = 0 for every statement
IDENTITY = bytes([1]) + bytes(31)
Lines = list[Any]
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@dataclass(frozen=True)
class Case:
    name: str
    layer: str
    log: bytes
    keys: dict[str, Any]

    def expected(self, verifier: str, keyed: bool) -> str:
        """``valid``, ``unsigned`` or ``refused``: what ``verifier`` (``python`` or ``browser``) must say."""
        if keyed:
            return "valid" if self.layer == "good" else "refused"
        if self.layer in ("good", "signature") or (self.layer == "replay" and verifier == "browser"):
            return "unsigned"
        return "refused"


def _game() -> Any:
    return recorded_game("bluffaneer", 3, seed="corpus", seats_bots={1: "random"}, turn_timeout_s=30,
                         clock_every=5)


def _sign(header: Any, events: Lines, key: SigningKey = K1) -> Lines:
    last = events[-1]
    last["signature"] = Keyring([key]).final(str(header["id"]), last["seq"], last["hash"])
    return events


def _text(header: Any, events: Lines, hashed: str | None = None) -> bytes:
    first = {"header": header, "hash": header_hash(header) if hashed is None else hashed}
    return "".join(canonical(line) + "\n" for line in [first, *events]).encode()


def _rechained(header: Any, events: Lines, key: SigningKey | None = None) -> Lines:
    """``events`` chained again from ``header`` (salts kept), unsigned, or signed by ``key``."""
    for env in events:
        env.pop("signature", None)
    out = rechain(header_hash(header), events)
    return _sign(header, out, key) if key is not None else out


def _resalted(header: Any, events: Lines, seed: str) -> Lines:
    for env in events:
        env["salt"] = event_salt(seed, env["seq"])
    events[-1]["data"]["seed"] = seed
    return _rechained(header, events)


def _jwks(*keys: SigningKey) -> dict[str, Any]:
    return Keyring(keys).jwks()


def _raw_jwk(kid: str, raw: bytes) -> dict[str, str]:
    return {"kty": "OKP", "crv": "Ed25519", "kid": kid, "x": b64url(raw)}


def _lines_cases(header: Any, events: Lines) -> Iterator[tuple[str, str, bytes]]:
    """Cases made on the file's bytes and lines: how a log is read."""
    text = _text(header, events)
    rows = text.decode().splitlines()
    event = json.loads(rows[3])

    def with_row(index: int, row: str, *, insert: bool = False) -> bytes:
        return ("\n".join([*rows[:index], row, *rows[index + (0 if insert else 1):]]) + "\n").encode()
    yield "genuine", "good", text
    yield "crlf line breaks", "good", ("\r\n".join(rows) + "\r\n").encode()
    yield "cr line breaks", "good", ("\r".join(rows) + "\r").encode()
    yield "blank lines of Python's whitespace", "good", ("\n".join([*rows[:2], "", " \t", "\x1c\u00a0\u3000",
                                                                       *rows[2:]]) + "\n").encode()
    yield "another spelling of a line", "good", with_row(3, json.dumps(event, indent=None))
    yield "a BOM", "reading", b"\xef\xbb\xbf" + text
    yield "a line of a BOM only", "reading", with_row(2, "\ufeff", insert=True)
    yield "UTF-16", "reading", text.decode().encode("utf-16")
    yield "a byte that is not UTF-8", "reading", text[:-40] + b"\xff" + text[-40:]
    yield "a key twice", "reading", with_row(3, rows[3][:-1] + ',"at":' + str(event["at"]) + "}")
    yield "NaN", "reading", with_row(3, rows[3].replace('"at":', '"at":NaN,"x":', 1))
    for spelled in ("1.50", "1E5", "-0", "1e400", "3e0"):
        yield f"the number {spelled}", "reading", with_row(3, rows[3][:-1] + ',"x":' + spelled + "}")
    yield "a lone surrogate", "reading", with_row(3, rows[3][:-1] + ',"x":"\\ud800"}')
    yield "nested 101 deep", "reading", with_row(3, rows[3][:-1] + ',"x":' + "[" * 100 + "]" * 100 + "}")
    yield "an integer of 4301 digits", "reading", with_row(3, rows[3][:-1] + ',"x":' + "1" * 4301 + "}")
    yield "a line longer than 1 MiB", "reading", with_row(3, rows[3][:-1] + ',"x":"' + "a" * 2**20 + '"}')
    yield "a first line with a third key", "reading", with_row(0, rows[0][:-1] + ',"x":1}')
    yield "a line that is no object", "reading", with_row(2, "[]", insert=True)
    yield "cut in the middle of a line", "reading", text[:len(text) // 2]


def _event_cases(header: Any, events: Lines) -> Iterator[tuple[str, str, Any, Lines]]:
    """Cases made on the events: ``(name, layer, header, events)``."""
    n = len(events)
    move = next(i for i, env in enumerate(events) if env["type"] == "move" and "by" not in env["data"])

    def edit(change: Callable[[Lines], Any]) -> Lines:
        forged = copy.deepcopy(events)
        change(forged)
        return forged
    yield "signature with a third key", "chain", header, edit(lambda e: e[-1]["signature"].update(extra=1))
    yield "signature on an event not the last", "chain", header, \
        edit(lambda e: e[2].update(signature=dict(e[-1]["signature"])))
    yield "an event with a tenth key", "chain", header, edit(lambda e: e[4].update(x=1))
    yield "an event without its salt", "chain", header, edit(lambda e: e[4].pop("salt"))
    yield "an event dropped", "chain", header, events[:4] + events[5:]
    yield "an event repeated", "chain", header, events[:5] + events[4:]
    yield "two events swapped", "chain", header, events[:4] + [events[5], events[4]] + events[6:]
    yield "an event's time edited", "chain", header, edit(lambda e: e[move].update(at=e[move]["at"] + 1))
    yield "an event's data edited", "chain", header, edit(lambda e: e[move]["data"].update(rng=7))
    yield "an event's hash edited", "chain", header, edit(lambda e: e[move].update(hash="0" * 64))
    yield "a seq as a float", "chain", header, edit(lambda e: e[4].update(seq=5.0))
    yield "the header edited", "chain", {**header, "players": 4}, events
    yield "log_format 2.0, re-chained", "chain", {**header, "log_format": 2.0}, \
        _rechained({**header, "log_format": 2.0}, copy.deepcopy(events))
    without = {k: v for k, v in header.items() if k != "log_format"}
    yield "no log_format (format 1), re-chained", "chain", without, _rechained(without, copy.deepcopy(events))
    yield "cut before the seed", "chain", header, events[:-1]
    yield "another seed, re-salted and re-chained", "chain", header, _resalted(header, copy.deepcopy(events),
                                                                                "e" * 64)
    empty = {**header, "seed_commitment": sha256_hex("")}
    yield "an empty seed, committed, re-salted and re-chained", "chain", empty, \
        _resalted(empty, copy.deepcopy(events), "")
    yield "a salt changed, re-chained", "chain", header, \
        _rechained(header, edit(lambda e: e[move].update(salt="0" * 64)))
    yield "a move changed, re-chained", "replay", header, \
        _rechained(header, edit(lambda e: e[move]["data"].update(move={"type": "no such move"})))
    yield "the generator's position changed, re-chained", "replay", header, \
        _rechained(header, edit(lambda e: e[move]["data"].update(rng=e[move]["data"]["rng"] + 1)))
    yield "a seat's move labelled a bot's, re-chained", "replay", header, \
        _rechained(header, edit(lambda e: e[move]["data"].update(by={"bot": "random"})))
    yield "the result changed, re-chained", "replay", header, \
        _rechained(header, edit(lambda e: e[-1]["data"].update(result={"winners": [0, 1, 2]})))
    yield "another ruleset version, re-chained", "replay", {**header, "ruleset_version": 999}, \
        _rechained({**header, "ruleset_version": 999}, copy.deepcopy(events))
    long = 2**20 - len(canonical(events[move])) - 200  # the move's line just under 1 MiB, then just over
    yield "a line just under 1 MiB, re-chained", "replay", header, \
        _rechained(header, edit(lambda e: e[move]["data"]["move"].update(x="a" * long)))
    yield "a line just over 1 MiB, re-chained", "reading", header, \
        _rechained(header, edit(lambda e: e[move]["data"]["move"].update(x="a" * (long + 300))))
    yield "an integer of 4300 digits, re-chained", "replay", header, \
        _rechained(header, edit(lambda e: e[move]["data"]["move"].update(x=int("9" * 4300))))
    yield "re-signed by a key not the referee's", "signature", header, \
        _rechained(header, copy.deepcopy(events), SigningKey.from_seed("k1", bytes(32)))
    yield "unsigned", "signature", header, edit(lambda e: e[-1].pop("signature"))
    yield "signed by a key not in the set", "signature", header, \
        edit(lambda e: e[-1]["signature"].update(kid="k3"))
    yield "the signature of another game", "signature", header, \
        edit(lambda e: e[-1].update(signature=Keyring([K1]).final("another", n, e[-1]["hash"])))
    yield "the signature of another head", "signature", header, \
        edit(lambda e: e[-1].update(signature=Keyring([K1]).final(str(header["id"]), n, e[-2]["hash"])))
    sig = unb64url(events[-1]["signature"]["sig"])
    big = int.from_bytes(sig[32:], "little") + 2**252 + 27742317777372353535851937790883648493
    yield "the signature with S + L", "signature", header, \
        edit(lambda e: e[-1]["signature"].update(sig=b64url(sig[:32] + big.to_bytes(32, "little"))))
    text = events[-1]["signature"]["sig"]  # 86 characters for 64 bytes: the last one's 4 low bits are unused
    spelled = text[:-1] + B64URL[B64URL.index(text[-1]) + 1]
    yield "the signature spelled with unused bits", "signature", header, \
        edit(lambda e: e[-1]["signature"].update(sig=spelled))


def cases() -> list[Case]:
    """Every case, in a fixed order, each with the key set it is checked under."""
    game = _game()
    header = game.header
    events = _sign(header, json.loads(canonical(game.envelopes)))
    jwks = _jwks(K1, K2)
    out = [Case(name, layer, log, jwks) for name, layer, log in _lines_cases(header, events)]
    out += [Case(name, layer, _text(head, forged), jwks) for name, layer, head, forged in _event_cases(header, events)]
    rotated = _sign(header, copy.deepcopy(events), K2)
    out.append(Case("signed by the second key of the set (rotation)", "good", _text(header, rotated), jwks))
    identity = _rechained(header, copy.deepcopy(events))
    identity[-1]["signature"] = {"kid": "k1", "sig": b64url(IDENTITY + bytes(32))}
    out.append(Case("the identity point as the key, its one signature", "signature", _text(header, identity),
                    {"keys": [_raw_jwk("k1", IDENTITY)]}))
    out.append(Case("a key set holding a key of small order beside the signer", "signature", _text(header, events),
                    {"keys": [*jwks["keys"], _raw_jwk("k9", bytes(32))]}))
    out.append(Case("a key with a non-canonical encoding (y >= p)", "signature", _text(header, events),
                    {"keys": [*jwks["keys"], _raw_jwk("k9", (2**255 - 18).to_bytes(32, "little"))]}))
    return out
