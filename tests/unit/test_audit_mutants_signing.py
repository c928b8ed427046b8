"""The signing modules, unit by unit (issue 22, item 8: tests that would
notice): ``referee.engine.signature`` (statements, base64url, keys, key sets,
verification) and ``referee.audit.signed`` (the ``signature`` and
``receipts`` checks of the offline audit), against a finished game played
offline and signed here as the service signs it — every refusal named by its
check, ``seq`` and field, every acceptance checked to be one."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from referee.audit import CHECKS, audit_log, signed
from referee.engine import canonical
from referee.engine.signature import (
    FINAL,
    KID,
    RECEIPT,
    RECEIPT_FIELDS,
    SIGNATURE_FIELDS,
    Keyring,
    PublicKeys,
    SigningKey,
    b64url,
    final_statement,
    receipt_statement,
    unb64url,
)
from tests.unit.test_audit_mutants_by import played_game

#: RFC 8032, section 7.1, test 1: a secret key and its public key
RFC_SECRET = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC_PUBLIC = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
KEY = SigningKey.from_seed("k1", RFC_SECRET)
OTHER = SigningKey.from_seed("k2", bytes(range(32)))


# -- referee.engine.signature ----------------------------------------------------------
def test_b64url_is_unpadded_and_unb64url_reads_only_its_one_spelling() -> None:
    assert b64url(b"\x00") == "AA" and b64url(b"\x00\x00") == "AAA" and b64url(b"\x00\x00\x00") == "AAAA"
    assert b64url(b"\xfb\xff") == "-_8"  # the url-safe alphabet
    for raw in (b"", b"\x00", b"\x01\x02", b"abc", b"\xfb\xff\xfe\x00", bytes(range(64)),
                *(bytes(range(n)) for n in range(1, 21))):  # every length modulo 3, every padding
        assert unb64url(b64url(raw)) == raw
    for bad in ("A", "AB", "AAA=", "AA==", "+/", "A A", "é", 3, None, b"AA"):
        with pytest.raises(ValueError):
            unb64url(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="canonical"):
        unb64url("AB")  # decodes to b"\0" too, its unused bits set
    with pytest.raises(ValueError, match="not unpadded"):
        unb64url("AAAAA")  # five characters: no length of bytes encodes to that


def test_the_statements_are_the_canonical_json_of_their_fields() -> None:
    assert (RECEIPT, FINAL) == ("referee.receipt", "referee.final")
    assert receipt_statement("g", 3, "h", 7, "k") == \
        b'{"at":7,"game":"g","head":"h","kid":"k","purpose":"referee.receipt","version":3}'
    assert final_statement("g", 3, "h", "k") == \
        b'{"game":"g","head":"h","kid":"k","purpose":"referee.final","version":3}'


def test_a_signing_key_is_named_and_32_bytes() -> None:
    assert KEY.public_raw() == RFC_PUBLIC
    assert KEY.jwk() == {"kty": "OKP", "crv": "Ed25519", "kid": "k1", "x": b64url(RFC_PUBLIC), "use": "sig",
                         "alg": "EdDSA"}
    assert SigningKey.from_seed("a" * 64, RFC_SECRET).kid == "a" * 64
    assert SigningKey.from_seed("A-z.0_9", RFC_SECRET).public_raw() == RFC_PUBLIC
    for kid in ("", "a" * 65, "a b", "k/1", "k1\n", "é"):
        with pytest.raises(ValueError, match="key id"):
            SigningKey.from_seed(kid, RFC_SECRET)
    for seed in (RFC_SECRET[:31], RFC_SECRET + b"\0", b""):
        with pytest.raises(ValueError, match=f"key 'k1' has {len(seed)}"):
            SigningKey.from_seed("k1", seed)
    assert KID.match("a" * 64) and not KID.match("a" * 65) and not KID.match("")


def test_a_signing_key_and_a_keyring_hold_what_they_were_made_with_and_nothing_else() -> None:
    import dataclasses
    with pytest.raises(dataclasses.FrozenInstanceError):
        KEY.kid = "k9"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        KEY.note = 1  # type: ignore[attr-defined]  # slots: no other attribute, frozen or not
    assert not hasattr(KEY, "__dict__")
    ring = Keyring([KEY])
    with pytest.raises(AttributeError):
        ring.note = 1  # type: ignore[attr-defined]


def test_a_keyring_signs_with_its_first_key_and_publishes_every_one() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Keyring([])
    with pytest.raises(ValueError, match="share"):
        Keyring([KEY, SigningKey.from_seed("k1", bytes(range(32)))])
    ring = Keyring([KEY, OTHER])
    assert ring.signer is KEY and ring.keys == (KEY, OTHER)
    receipt = ring.receipt("g", 3, "h", 7)
    assert set(receipt) == set(RECEIPT_FIELDS)
    assert {k: v for k, v in receipt.items() if k != "sig"} == {"game": "g", "version": 3, "head": "h", "at": 7,
                                                                 "kid": "k1"}
    Ed25519PublicKey.from_public_bytes(RFC_PUBLIC).verify(unb64url(receipt["sig"]),
                                                          receipt_statement("g", 3, "h", 7, "k1"))
    final = ring.final("g", 3, "h")
    assert set(final) == set(SIGNATURE_FIELDS) and final["kid"] == "k1"
    Ed25519PublicKey.from_public_bytes(RFC_PUBLIC).verify(unb64url(final["sig"]), final_statement("g", 3, "h", "k1"))
    assert ring.jwks() == {"keys": [KEY.jwk(), OTHER.jwk()]}
    public = Keyring([OTHER, KEY]).public()
    assert public.kids() == ["k1", "k2"]  # sorted, whichever signs
    assert public.verify("k1", receipt["sig"], receipt_statement("g", 3, "h", 7, "k1")) is None
    assert Keyring([OTHER, KEY]).final("g", 3, "h")["kid"] == "k2"


def _jwk(**change: Any) -> dict[str, Any]:
    jwk: dict[str, Any] = {**KEY.jwk(), **change}
    return {k: v for k, v in jwk.items() if v is not None}


@pytest.mark.parametrize("jwks, why", [
    (None, "a key set is"), ([KEY.jwk()], "a key set is"), ({}, "a key set is"), ({"keys": None}, "a key set is"),
    ({"keys": {"k1": KEY.jwk()}}, "a key set is"), ({"keys": []}, "holds no key"),
    ({"keys": ["k1"]}, "key 0 is not"), ({"keys": [_jwk(kty="EC")]}, "key 0 is not"),
    ({"keys": [_jwk(kty=None)]}, "key 0 is not"), ({"keys": [_jwk(crv="Ed448")]}, "key 0 is not"),
    ({"keys": [_jwk(crv=None)]}, "key 0 is not"), ({"keys": [KEY.jwk(), _jwk(crv="X25519")]}, "key 1 is not"),
    ({"keys": [_jwk(kid=None)]}, "no valid kid"), ({"keys": [_jwk(kid=1)]}, "no valid kid"),
    ({"keys": [_jwk(kid="a b")]}, "no valid kid"), ({"keys": [_jwk(kid="")]}, "no valid kid"),
    ({"keys": [KEY.jwk(), OTHER.jwk(), KEY.jwk()]}, "two keys are named 'k1'"),
    ({"keys": [_jwk(x=None)]}, "x is not"), ({"keys": [_jwk(x=b64url(RFC_PUBLIC[:31]))]}, "x is not"),
    ({"keys": [_jwk(x=b64url(RFC_PUBLIC + b"\0"))]}, "x is not"), ({"keys": [_jwk(x=list(RFC_PUBLIC))]}, "x is not"),
    ({"keys": [_jwk(x=b64url(RFC_PUBLIC) + "=")]}, "not unpadded"),
])
def test_a_key_set_is_read_strictly(jwks: Any, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        PublicKeys.from_jwks(jwks)


def test_a_key_set_reads_every_key_and_verifies_what_each_signed() -> None:
    public = PublicKeys.from_jwks({"keys": [OTHER.jwk(), KEY.jwk()]})
    with pytest.raises(AttributeError):
        public.pinned = True  # type: ignore[attr-defined]  # a key set holds its keys and nothing else
    assert public.kids() == ["k1", "k2"] and set(public.by_kid) == {"k1", "k2"}
    statement = final_statement("g", 3, "h", "k1")
    sig = b64url(KEY.private.sign(statement))
    assert public.verify("k1", sig, statement) is None
    assert public.verify("k2", b64url(OTHER.private.sign(statement)), statement) is None
    assert "does not verify" in str(public.verify("k2", sig, statement))  # another key's signature
    assert "does not verify" in str(public.verify("k1", sig, final_statement("g", 4, "h", "k1")))
    assert "not among the keys given (k1, k2)" in str(public.verify("k3", sig, statement))
    assert "not among" in str(public.verify(["k1"], sig, statement))
    assert "not among" in str(public.verify(None, sig, statement))
    assert public.verify("k1", sig + "=", statement) == "its signature is not base64url"
    assert public.verify("k1", 64, statement) == "its signature is not base64url"
    assert public.verify("k1", b64url(unb64url(sig)[:63]), statement) == "its signature is not 64 bytes"
    assert public.verify("k1", b64url(unb64url(sig) + b"\0"), statement) == "its signature is not 64 bytes"
    assert public.verify("k1", b64url(bytes(64)), statement) == "its signature does not verify under key 'k1'"


# -- referee.audit.signed ---------------------------------------------------------------
def test_a_signature_has_the_shape_kid_and_sig() -> None:
    assert signed.shape_ok({"kid": "k", "sig": "s"}) and signed.shape_ok({"sig": "", "kid": ""})
    for bad in ({"kid": "k"}, {"sig": "s"}, {"kid": "k", "sig": "s", "at": 1}, {"kid": 1, "sig": "s"},
                {"kid": "k", "sig": None}, [("kid", "k"), ("sig", "s")], "kid", None, {}):
        assert not signed.shape_ok(bad), bad
    good = {"seq": 9, "type": "seed_revealed", signed.FIELD: {"kid": "k", "sig": "s"}}
    assert signed.FIELD == "signature" and signed.may_carry(good)
    assert not signed.may_carry({**good, "type": "move"})
    assert not signed.may_carry({**good, signed.FIELD: {"kid": "k"}})
    assert not signed.may_carry({k: v for k, v in good.items() if k != signed.FIELD})
    assert not signed.may_carry([good]) and not signed.may_carry(None)


@pytest.fixture(scope="module")
def game() -> Any:
    """A finished 3-seat dice game, played offline (``played_game``)."""
    return played_game("bang-dice", 3, seed="signed-mutants")


def _signed(game: Any, key: SigningKey = KEY) -> list[dict[str, Any]]:
    """The game's events as a file holds them, the last carrying ``key``'s signature of the final head."""
    events: list[dict[str, Any]] = json.loads(canonical(game.envelopes))
    last = events[-1]
    last[signed.FIELD] = Keyring([key]).final(str(game.header["id"]), last["seq"], last["hash"])
    return events


def _receipts(game: Any, events: list[dict[str, Any]], key: SigningKey = KEY) -> list[tuple[str, Any]]:
    """A receipt of every move, as the service hands each seat its own."""
    ring = Keyring([key])
    return [(f"r{env['seq']}", ring.receipt(str(game.header["id"]), env["seq"], env["hash"], env["at"]))
            for env in events if env["type"] == "move"]


KEYS = Keyring([KEY, OTHER]).public()


def _audit(game: Any, events: list[dict[str, Any]], keys: PublicKeys | None = KEYS,
           receipts: Any = ()) -> dict[str, Any]:
    return audit_log(game.header, game.header_hash, events, keys=keys, receipts=receipts)


def _refused(report: dict[str, Any], check: str, seq: int, field: str) -> dict[str, Any]:
    assert not report["ok"] and report["signed"] is False and report["result"] is None
    d = report["divergence"]
    assert (d["check"], d["seq"], d["field"]) == (check, seq, field), d
    names = [c["name"] for c in report["checks"]]
    assert names == list(CHECKS[:CHECKS.index(check) + 1]), names
    assert all(c["ok"] for c in report["checks"][:-1]) and not report["checks"][-1]["ok"]
    return d


def test_a_signed_log_audits_signed_with_every_receipt(game: Any) -> None:
    events = _signed(game)
    receipts = _receipts(game, events)
    assert len(receipts) >= 3
    report = _audit(game, events, receipts=receipts)
    assert report["ok"] and report["signed"] is True and report["divergence"] is None, report["divergence"]
    assert [c["name"] for c in report["checks"]] == list(CHECKS)
    assert report["result"] == events[-1]["data"]["result"] and report["events"] == len(events)
    sig, rec = report["checks"][-2:]
    assert sig == {"name": "signature", "ok": True, "checked": True,
                   "detail": f"the final head (version {len(events)}) is signed by the referee's key 'k1'"}
    assert rec == {"name": "receipts", "ok": True, "checked": True, "detail": f"{len(receipts)} receipts: each "
                   "head is in the log at its version; their signatures verified"}
    # signed by the second key of the set (rotation): verified all the same
    other = _signed(game, OTHER)
    assert _audit(game, other, receipts=_receipts(game, other, OTHER))["signed"] is True
    # a receipt of the first and of the last version
    ring = Keyring([KEY])
    ends = [("first", ring.receipt("offline", 1, events[0]["hash"], events[0]["at"])),
            ("last", ring.receipt("offline", len(events), events[-1]["hash"], events[-1]["at"]))]
    assert _audit(game, events, receipts=ends)["ok"]


def test_without_keys_nothing_is_proven_and_the_report_says_so(game: Any) -> None:
    events = _signed(game)
    report = _audit(game, events, keys=None)
    assert report["ok"] and report["signed"] is False
    assert report["checks"][-1] == {"name": "signature", "ok": True, "checked": False, "detail": signed.UNCHECKED}
    bare = json.loads(canonical(game.envelopes))
    report = _audit(game, bare, keys=None)
    assert report["ok"] and report["signed"] is False and report["checks"][-1]["checked"] is False
    assert "carries no signature" in report["checks"][-1]["detail"]
    # receipts without keys: not verified at all (anyone can make one up), the log judged alone (issue 36, 5)
    receipts = [(n, {**r, "sig": "forged"}) for n, r in _receipts(game, events)]
    moved = [(n, {**r, "head": events[0]["hash"]}) for n, r in receipts]
    made_up = [("made-up", {"game": "offline", "version": 1, "head": "0" * 64, "at": 0, "kid": "k1", "sig": "AAAA"})]
    for handed in (receipts, moved, made_up, [("junk", None)]):
        report = _audit(game, events, keys=None, receipts=handed)
        assert report["ok"] and report["signed"] is False and report["divergence"] is None, report["divergence"]
        assert report["checks"][-1]["checked"] is False
        assert "not verified (no key)" in report["checks"][-1]["detail"]
    # with the key, the same made-up receipt is refused
    _refused(_audit(game, events, receipts=made_up), "receipts", 1, "receipt.sig")


def test_a_log_without_its_signature_or_with_a_wrong_one_is_refused(game: Any) -> None:
    last = len(game.envelopes)
    bare = json.loads(canonical(game.envelopes))
    d = _refused(_audit(game, bare), "signature", last, "signature")
    assert (d["expected"], d["found"]) == ("the referee's signature of the final head", "(missing)")
    events = _signed(game)
    ring = Keyring([KEY])
    for forged in ({"kid": "k3", "sig": events[-1][signed.FIELD]["sig"]},  # a key not given
                   {"kid": "k2", "sig": events[-1][signed.FIELD]["sig"]},  # another key's name
                   {"kid": "k1", "sig": "AAAA"},  # too short
                   ring.final("offline", last - 1, events[-1]["hash"]),  # another version
                   ring.final("offline", last, events[-2]["hash"]),  # another head
                   ring.final("another", last, events[-1]["hash"]),  # another game
                   {"kid": "k1", "sig": Keyring([SigningKey.from_seed("k1", bytes(32))]).final(
                       "offline", last, events[-1]["hash"])["sig"]}):  # another key of the same name
        forgery = copy.deepcopy(events)
        forgery[-1][signed.FIELD] = forged
        d = _refused(_audit(game, forgery), "signature", last, "signature")
        assert d["found"] == forged


def _receipt_refused(game: Any, receipt: Any, seq: int, field: str, keys: PublicKeys | None = KEYS) -> None:
    events = _signed(game)
    good = _receipts(game, events)
    _refused(_audit(game, events, keys=keys, receipts=[*good[:2], ("bad", receipt), *good[2:]]), "receipts", seq,
             field)


def test_a_receipt_the_log_does_not_hold_is_refused(game: Any) -> None:
    events = _signed(game)
    n = len(events)
    ring = Keyring([KEY])
    move = next(e for e in events if e["type"] == "move")
    v, head, at = move["seq"], move["hash"], move["at"]
    good = ring.receipt("offline", v, head, at)
    for shape in (None, [good], "receipt", {k: x for k, x in good.items() if k != "sig"}, {**good, "extra": 1}):
        _receipt_refused(game, shape, 0, "receipt")
    report = _audit(game, events, receipts=[("bad", None)])
    assert report["divergence"]["expected"] == "{game, version, head, at, kid, sig}"
    _receipt_refused(game, ring.receipt("another", v, head, at), 0, "receipt.game")
    for version in (0, n + 1, -1, "1", True, None):  # altered: the referee never signed it
        _receipt_refused(game, {**good, "version": version}, 0, "receipt.sig")
    for version in (0, n + 1, -1):  # signed, for a version this log does not hold: the log is cut or another's
        _receipt_refused(game, ring.receipt("offline", version, head, at), n, "receipt.version")
    _receipt_refused(game, {**good, "version": v + 1}, v + 1, "receipt.sig")  # signed for another version
    _receipt_refused(game, {**good, "sig": ring.receipt("offline", v, head, at + 1)["sig"]}, v, "receipt.sig")
    _receipt_refused(game, {**good, "at": str(at)}, v, "receipt.sig")  # no statement: no signature holds
    _receipt_refused(game, {**good, "head": [head]}, v, "receipt.sig")
    _receipt_refused(game, {**good, "kid": "k3"}, v, "receipt.sig")
    _receipt_refused(game, ring.receipt("offline", v, events[v]["hash"], at), v, "hash")
    _receipt_refused(game, ring.receipt("offline", v, head, at + 1), v, "at")
    last = ring.receipt("offline", n, events[-1]["hash"], events[-1]["at"] + 1)
    _receipt_refused(game, last, n, "at")


def test_a_signature_only_the_last_event_carries_in_its_shape(game: Any) -> None:
    events = _signed(game)
    sig = events[-1][signed.FIELD]
    for index in (0, 2, len(events) - 2):
        moved = copy.deepcopy(events)
        moved[index][signed.FIELD] = sig
        for keys in (KEYS, None):
            d = _refused(_audit(game, moved, keys=keys), "hash_chain", index + 1, signed.FIELD)
            assert (d["expected"], d["found"]) == ("(absent)", sig)
    for shape in ({"kid": "k1"}, {**sig, "at": 1}, {"kid": 1, "sig": sig["sig"]}, [sig["kid"], sig["sig"]], None):
        bad = copy.deepcopy(events)
        bad[-1][signed.FIELD] = shape
        d = _refused(_audit(game, bad), "hash_chain", len(events), signed.FIELD)
        assert (d["expected"], d["found"]) == ("(absent)", shape)
