"""The referee's signatures (docs/log-format.md, "Keys and signatures").

The chain proves a log is internally consistent; after a game ends every
salt is public, so anyone can re-chain an edited log. What anchors a log to
the referee is an Ed25519 signature (RFC 8032) over one of two statements,
each the canonical JSON (``canonical_bytes``: sorted keys, no spaces) of::

    {"purpose": "referee.receipt", "game": id, "version": v, "head": h, "at": ms, "kid": k}
    {"purpose": "referee.final",   "game": id, "version": v, "head": h, "kid": k}

- a **receipt** (in every 201 a seat gets for its move): the referee
  accepted a move of game ``id`` at receipt time ``at`` (ms), which took the
  game to version ``v``, whose event ``v`` hashes to ``h``;
- the **final head** (the ``signature`` field of a finished game's last
  event, ``seed_revealed``): the game ended at version ``v`` with head ``h``.

``sig`` is the unpadded base64url of the 64-byte signature; ``kid`` names
the key, published with the others at ``GET /v1/keys`` as a JWK set (RFC
8037: ``{"kty": "OKP", "crv": "Ed25519", "kid", "x"}``, ``x`` the unpadded
base64url of the 32-byte public key). Several keys may be published at once
(rotation): the first signs, the others still verify what they signed.
Ed25519 is deterministic: one key signs one statement to one signature, so
a retried move's receipt is byte for byte the first one's.

Both verifiers (this one and ``referee/web/verify.js``) refuse what RFC 8032
lets a lax verifier accept (docs/log-format.md, "Keys and signatures"): a
public key whose encoding is not canonical (``y >= p``) or is a point of
small order (the identity verifies every statement under one fixed
signature), and a signature whose ``S`` is not below the group order ``L``
or whose ``R`` is not canonical (one signature, several spellings).

Pure: no file, no clock, no randomness (keys are generated and read in
``referee.keys``)."""
from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from referee.engine.jsonenc import canonical_bytes

RECEIPT = "referee.receipt"
FINAL = "referee.final"
#: a key's name: what a JWK's ``kid`` and a key file's first column may hold
KID = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")
#: the fields of a receipt (all of them, ``sig`` included) and of a final head's ``signature``
RECEIPT_FIELDS = ("game", "version", "head", "at", "kid", "sig")
SIGNATURE_FIELDS = ("kid", "sig")
#: the field's prime 2^255 - 19 and the order of the base point (RFC 8032, 5.1)
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
#: the y of every point of order 1, 2, 4 or 8 (either sign of x): 0, 1, p - 1 and the two of order 8
SMALL_ORDER_Y = frozenset({0, 1, P - 1,
                           0x7A03AC9277FDC74EC6CC392CFA53202A0F67100D760B3CBA4FD84D3D706A17C7,
                           0x05FC536D880238B13933C6D305ACDFD5F098EFF289F4C345B027B2C28F95E826})


def weak_key(raw: bytes) -> str | None:
    """Why the 32 bytes ``raw`` are no Ed25519 public key to verify with, or
    ``None``: a non-canonical encoding (``y >= p``) or a point of small order."""
    y = int.from_bytes(raw, "little") & (2**255 - 1)
    if y >= P:
        return "its encoding is not canonical (y >= 2^255 - 19)"
    if y in SMALL_ORDER_Y:
        return "it is a point of small order (such a key verifies statements nobody signed)"
    return None


def weak_signature(raw: bytes) -> str | None:
    """Why the 64 bytes ``raw`` are no canonical Ed25519 signature, or ``None``:
    ``S >= L``, or ``R`` encoded with ``y >= p`` (another spelling of one signature)."""
    if int.from_bytes(raw[32:], "little") >= L:
        return "its S is not below the group order L (not the canonical signature)"
    if int.from_bytes(raw[:32], "little") & (2**255 - 1) >= P:
        return "its R is not canonically encoded (y >= 2^255 - 19)"
    return None


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """The bytes of unpadded base64url ``text``; ``ValueError`` if it is not
    that, or not the one encoding of its bytes (a last character whose unused
    bits are set decodes to the same bytes: one signature, many spellings)."""
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise ValueError("not unpadded base64url")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not unpadded base64url") from None
    if b64url(raw) != text:
        raise ValueError("not the canonical base64url of its bytes")
    return raw


def receipt_statement(game: str, version: int, head: str, at: int, kid: str) -> bytes:
    return canonical_bytes({"purpose": RECEIPT, "game": game, "version": version, "head": head, "at": at,
                            "kid": kid})


def final_statement(game: str, version: int, head: str, kid: str) -> bytes:
    return canonical_bytes({"purpose": FINAL, "game": game, "version": version, "head": head, "kid": kid})


@dataclass(frozen=True, slots=True)
class SigningKey:
    kid: str
    private: Ed25519PrivateKey

    @classmethod
    def from_seed(cls, kid: str, seed: bytes) -> SigningKey:
        if not KID.match(kid):
            raise ValueError(f"a key id is 1-64 of A-Z a-z 0-9 . _ - (got {kid!r})")
        if len(seed) != 32:
            raise ValueError(f"an Ed25519 private key is 32 bytes (key {kid!r} has {len(seed)})")
        return cls(kid, Ed25519PrivateKey.from_private_bytes(seed))

    def public_raw(self) -> bytes:
        return self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def jwk(self) -> dict[str, str]:
        return {"kty": "OKP", "crv": "Ed25519", "kid": self.kid, "x": b64url(self.public_raw()), "use": "sig",
                "alg": "EdDSA"}


class Keyring:
    """The referee's private keys: the first signs, every one is published."""

    __slots__ = ("keys", "signer")

    def __init__(self, keys: Iterable[SigningKey]) -> None:
        self.keys = tuple(keys)
        if not self.keys:
            raise ValueError("a keyring needs at least one key")
        kids = [k.kid for k in self.keys]
        if len(set(kids)) != len(kids):
            raise ValueError(f"two keys share a key id: {kids}")
        self.signer = self.keys[0]

    def receipt(self, game: str, version: int, head: str, at: int) -> dict[str, Any]:
        """A seat's receipt for its move (``RECEIPT_FIELDS``)."""
        kid = self.signer.kid
        sig = self.signer.private.sign(receipt_statement(game, version, head, at, kid))
        return {"game": game, "version": version, "head": head, "at": at, "kid": kid, "sig": b64url(sig)}

    def final(self, game: str, version: int, head: str) -> dict[str, str]:
        """The ``signature`` of a finished game's last event (``SIGNATURE_FIELDS``)."""
        kid = self.signer.kid
        return {"kid": kid, "sig": b64url(self.signer.private.sign(final_statement(game, version, head, kid)))}

    def jwks(self) -> dict[str, list[dict[str, str]]]:
        return {"keys": [k.jwk() for k in self.keys]}

    def public(self) -> PublicKeys:
        return PublicKeys.from_jwks(self.jwks())


class PublicKeys:
    """Public keys by ``kid``, read from a JWK set (what ``GET /v1/keys`` serves)."""

    __slots__ = ("by_kid",)

    def __init__(self, by_kid: Mapping[str, Ed25519PublicKey]) -> None:
        self.by_kid = dict(by_kid)

    @classmethod
    def from_jwks(cls, jwks: Any) -> PublicKeys:
        """``ValueError`` naming what is wrong for anything but a set of Ed25519 JWKs."""
        if not isinstance(jwks, dict) or not isinstance(jwks.get("keys"), list):
            raise ValueError('a key set is {"keys": [JWK, ...]}')
        by_kid: dict[str, Ed25519PublicKey] = {}
        for i, jwk in enumerate(jwks["keys"]):
            if not isinstance(jwk, dict) or jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519":
                raise ValueError(f"key {i} is not an Ed25519 JWK (kty OKP, crv Ed25519)")
            kid, x = jwk.get("kid"), jwk.get("x")
            if not isinstance(kid, str) or not KID.match(kid):
                raise ValueError(f"key {i} has no valid kid")
            if kid in by_kid:
                raise ValueError(f"two keys are named {kid!r}")
            raw = unb64url(x) if isinstance(x, str) else b""
            if len(raw) != 32:
                raise ValueError(f"key {kid!r}: x is not a 32-byte Ed25519 public key in base64url")
            weak = weak_key(raw)
            if weak is not None:
                raise ValueError(f"key {kid!r} is refused: {weak}")
            by_kid[kid] = Ed25519PublicKey.from_public_bytes(raw)
        if not by_kid:
            raise ValueError("the key set holds no key")
        return cls(by_kid)

    def kids(self) -> list[str]:
        return sorted(self.by_kid)

    def verify(self, kid: Any, sig: Any, statement: bytes) -> str | None:
        """``None`` if ``sig`` is ``kid``'s signature of ``statement``; else why not."""
        key = self.by_kid.get(kid) if isinstance(kid, str) else None
        if key is None:
            return f"it is signed by key {kid!r}, which is not among the keys given ({', '.join(self.kids())})"
        try:
            raw = unb64url(sig)
        except ValueError:
            return "its signature is not base64url"
        if len(raw) != 64:
            return "its signature is not 64 bytes"
        weak = weak_signature(raw)
        if weak is not None:
            return f"its signature is refused: {weak}"
        try:
            key.verify(raw, statement)
        except InvalidSignature:
            return f"its signature does not verify under key {kid!r}"
        return None
