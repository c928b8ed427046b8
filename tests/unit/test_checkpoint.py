"""The transparency log's checkpoint (issue 41 item 4): a C2SP signed note,
signed by the referee's Ed25519 key, refused when edited or signed by
another key or for another log."""
from __future__ import annotations

import base64
import hashlib

import pytest

from referee.engine import checkpoint as notes
from referee.engine.signature import Keyring, SigningKey

KEYS = Keyring([SigningKey.from_seed("k1", bytes(range(32)))])
OTHER = Keyring([SigningKey.from_seed("k2", bytes(range(1, 33)))])
TREE = notes.Checkpoint("referee.example/transparency", 7, hashlib.sha256(b"root").digest())


def test_a_checkpoint_is_a_c2sp_signed_note_and_verifies_under_the_referees_keys() -> None:
    note = notes.sign(TREE, KEYS)
    text, signature = note.split("\n\n")
    assert text + "\n" == f"referee.example/transparency\n7\n{base64.b64encode(TREE.root).decode()}\n"
    dash, name, blob = signature.rstrip("\n").split(" ")
    assert (dash, name) == ("\u2014", TREE.origin)
    raw = base64.b64decode(blob)
    key = KEYS.signer.public_raw()
    assert raw[:4] == hashlib.sha256(TREE.origin.encode() + b"\n\x01" + key).digest()[:4] and len(raw) == 68
    assert notes.verify(note, KEYS.public()) == TREE
    assert notes.verify(note, KEYS.public(), origin=TREE.origin) == TREE


@pytest.mark.parametrize("edit", [
    lambda note: note.replace("\n7\n", "\n8\n"),  # another size
    lambda note: note.replace("referee.example/", "other.example/"),  # another log, its name changed everywhere
    lambda note: note[:note.index("\n\n")] + "\n\n",  # no signature
    lambda note: note.replace("\n\n", "\n"),  # no blank line
])
def test_an_edited_checkpoint_is_refused(edit: object) -> None:
    with pytest.raises(notes.BadCheckpoint):
        notes.verify(edit(notes.sign(TREE, KEYS)), KEYS.public())  # type: ignore[operator]


def test_a_checkpoint_signed_by_another_key_or_of_another_log_is_refused() -> None:
    with pytest.raises(notes.BadCheckpoint, match="no signature"):
        notes.verify(notes.sign(TREE, OTHER), KEYS.public())
    with pytest.raises(notes.BadCheckpoint, match="not of"):
        notes.verify(notes.sign(TREE, KEYS), KEYS.public(), origin="elsewhere")
