"""Issue 36 (item 5): the verifiers refuse what a lax Ed25519 verifier
accepts (docs/log-format.md, "Keys and signatures"). OpenSSL, under
``cryptography``, verifies the identity point as a public key with one fixed
signature for every statement; these vectors show it does, and that
``PublicKeys`` refuses every key of small order, every non-canonical key
and every non-canonical signature (``S >= L``, ``R`` with ``y >= p``). The
browser verifier runs the same vectors (tests/unit/test_two_verifiers.py)."""
from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from referee.engine.signature import Keyring, L, P, PublicKeys, SigningKey, b64url, final_statement, unb64url

#: every point of order 1, 2, 4 or 8, as its canonical encoding (computed from the curve, RFC 8032)
SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",  # the identity (order 1)
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",  # order 4
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]
#: encodings with y >= p: the identity and the order-2 point spelled again (y = p + 1, p - 1 + p is too large),
#: y = p (the order-4 point's y spelled again) and x's sign bit set on x = 0 (identity, order 2)
NON_CANONICAL = [
    (P + 1).to_bytes(32, "little").hex(),
    P.to_bytes(32, "little").hex(),
    ((P + 1) | 1 << 255).to_bytes(32, "little").hex(),
    (2**255 - 1).to_bytes(32, "little").hex(),
    "0100000000000000000000000000000000000000000000000000000000000080",  # the identity, x "negative"
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  # order 2, x "negative"
]
#: the identity's signature of every statement: R = the identity, S = 0
IDENTITY_SIG = bytes.fromhex(SMALL_ORDER[0]) + bytes(32)
KEY = SigningKey.from_seed("k1", bytes(range(32)))


def _jwks(raw: bytes) -> dict[str, list[dict[str, str]]]:
    return {"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "k1", "x": b64url(raw)}]}


def test_a_lax_verifier_takes_the_identity_as_a_key_of_everything() -> None:
    """Why the explicit checks: the library alone verifies a statement nobody signed."""
    lax = Ed25519PublicKey.from_public_bytes(bytes.fromhex(SMALL_ORDER[0]))
    lax.verify(IDENTITY_SIG, final_statement("any game", 1, "0" * 64, "k1"))  # no InvalidSignature


@pytest.mark.parametrize("encoded", SMALL_ORDER + NON_CANONICAL)
def test_a_key_of_small_order_or_not_canonical_is_refused(encoded: str) -> None:
    with pytest.raises(ValueError, match="refused: it is a point of small order|refused: its encoding is not"):
        PublicKeys.from_jwks(_jwks(bytes.fromhex(encoded)))


def test_a_real_key_is_taken_and_a_non_canonical_signature_of_it_is_refused() -> None:
    keys = Keyring([KEY]).public()
    statement = final_statement("g", 3, "ab" * 32, "k1")
    good = unb64url(Keyring([KEY]).final("g", 3, "ab" * 32)["sig"])
    assert keys.verify("k1", b64url(good), statement) is None
    s = int.from_bytes(good[32:], "little")
    for big in (s + L, L, 2**256 - 1):  # S >= L: the same signature spelled again, or none
        why = keys.verify("k1", b64url(good[:32] + big.to_bytes(32, "little")), statement)
        assert why is not None and "S is not below the group order L" in why
    for r in (P, P + 1, 2**255 - 1):
        why = keys.verify("k1", b64url(r.to_bytes(32, "little") + good[32:]), statement)
        assert why is not None and "R is not canonically encoded" in why
