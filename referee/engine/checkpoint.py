"""The transparency log's checkpoint: a C2SP ``tlog-checkpoint`` in a C2SP
``signed-note`` (docs/transparency.md).

The note's text is three lines, each ending in a newline: the log's origin,
its size in decimal, and its root hash in standard base64. A blank line
follows, then one signature line per signing key:
``— <name> <base64(key hash || signature)>``, where the name is the origin,
the key hash the first 4 bytes of ``SHA-256(name || "\\n" || 0x01 || public
key)`` (the Ed25519 signature type of signed-note) and the signature the
referee's Ed25519 signature (its signing key, ``referee.keys``) of the
note's text. Every key published at ``GET /v1/keys`` may verify one.

A game's leaf is the statement of its signed final head
(``referee.engine.signature.final_statement``: purpose, game, version,
head, kid, as canonical JSON): anyone holding a game's log rebuilds it from
the last event's ``hash`` and ``signature.kid``. Pure: no I/O."""
from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from referee.engine.signature import Keyring, PublicKeys

DASH = "\u2014"


@dataclass(frozen=True, slots=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes

    def text(self) -> str:
        return f"{self.origin}\n{self.size}\n{base64.b64encode(self.root).decode()}\n"


class BadCheckpoint(ValueError):
    """A checkpoint that cannot be read or whose signature does not verify (says why)."""


def key_hash(name: str, public: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n\x01" + public).digest()[:4]


def sign(checkpoint: Checkpoint, keyring: Keyring) -> str:
    """The signed note of ``checkpoint``, signed by the keyring's signer."""
    text = checkpoint.text()
    signer = keyring.signer
    sig = signer.private.sign(text.encode())
    line = base64.b64encode(key_hash(checkpoint.origin, signer.public_raw()) + sig).decode()
    return f"{text}\n{DASH} {checkpoint.origin} {line}\n"


def parse(note: str) -> tuple[Checkpoint, list[tuple[str, bytes, bytes]]]:
    """The checkpoint of signed note ``note`` and its signature lines
    ``(name, key hash, signature)``, unchecked; ``BadCheckpoint`` if it is no such note."""
    text, sep, sigs = note.partition("\n\n")
    lines = text.split("\n")
    if not sep or len(lines) < 3 or not sigs.endswith("\n"):
        raise BadCheckpoint("a checkpoint is origin, size and root lines, a blank line, then signatures")
    origin, size, root = lines[:3]
    try:
        raw_root = base64.b64decode(root, validate=True)
    except binascii.Error:
        raw_root = b""
    if not origin or not size.isdigit() or (size != "0" and size.startswith("0")) or len(raw_root) != 32:
        raise BadCheckpoint("a checkpoint's lines are its origin, its size in decimal and a 32-byte root in base64")
    signatures = []
    for line in sigs[:-1].split("\n"):
        dash, _, rest = line.partition(" ")
        name, _, blob = rest.partition(" ")
        try:
            raw = base64.b64decode(blob, validate=True)
        except binascii.Error:
            raw = b""
        if dash != DASH or not name or len(raw) < 5:
            raise BadCheckpoint(f"not a signature line: {line!r}")
        signatures.append((name, raw[:4], raw[4:]))
    return Checkpoint(origin, int(size), raw_root), signatures


def verify(note: str, keys: PublicKeys, origin: str | None = None) -> Checkpoint:
    """The checkpoint of ``note`` if one of ``keys`` signed it (under its
    origin, which must be ``origin`` when given); else ``BadCheckpoint``."""
    checkpoint, signatures = parse(note)
    if origin is not None and checkpoint.origin != origin:
        raise BadCheckpoint(f"the checkpoint is of log {checkpoint.origin!r}, not of {origin!r}")
    text = note.partition("\n\n")[0] + "\n"
    publics = [_raw(k) for k in keys.by_kid.values()]
    for name, hashed, sig in signatures:
        if name != checkpoint.origin:
            continue
        for public in publics:
            if key_hash(name, public) == hashed and _valid(public, sig, text.encode()):
                return checkpoint
    raise BadCheckpoint("no signature of the checkpoint verifies under the referee's keys")


def _raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def _valid(public: bytes, sig: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(sig, message)
    except InvalidSignature:
        return False
    return True
