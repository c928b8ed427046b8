"""Checks of the transparency log, offline (docs/transparency.md): a game's
inclusion (``inclusion``: its log's signed final head is the leaf a proof
puts in a signed checkpoint) and a witness's step from one checkpoint to the
next (``consistent``: the later tree extends the earlier one, else a fork)."""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from referee.engine import checkpoint as notes
from referee.engine import merkle
from referee.engine.signature import PublicKeys, final_statement


class NotProven(Exception):
    """What a proof does not prove (one sentence)."""


def _hashes(values: Any) -> list[bytes]:
    if not isinstance(values, list):
        raise NotProven("the proof is not a list of hashes")
    try:
        hashes = [base64.b64decode(v, validate=True) for v in values]
    except (binascii.Error, TypeError, ValueError):
        raise NotProven("a hash of the proof is not base64") from None
    if any(len(h) != 32 for h in hashes):
        raise NotProven("a hash of the proof is not 32 bytes")
    return hashes


def leaf_of_log(game_id: str, last_event: Any) -> bytes:
    """The leaf the log of game ``game_id`` must have in the log: its signed final head's statement."""
    signature = last_event.get("signature") if isinstance(last_event, dict) else None
    if not isinstance(signature, dict) or not isinstance(signature.get("kid"), str):
        raise NotProven("the log's last event carries no signed final head: the game is not finished")
    return final_statement(game_id, last_event["seq"], last_event["hash"], signature["kid"])


def inclusion(leaf: bytes, proof: Any, keys: PublicKeys, held: str | None = None) -> notes.Checkpoint:
    """The signed checkpoint in which ``proof`` (``GET /v1/transparency/proof/inclusion``'s
    body) includes ``leaf``; ``NotProven`` saying why not. ``held``: a checkpoint the
    auditor holds, which must be the proof's tree (ask the proof with ``size`` of it)."""
    if not isinstance(proof, dict) or not isinstance(proof.get("checkpoint"), str):
        raise NotProven("not an inclusion proof (GET /v1/transparency/proof/inclusion)")
    try:
        tree = notes.verify(proof["checkpoint"], keys)
        mine = notes.verify(held, keys) if held is not None else tree
    except notes.BadCheckpoint as err:
        raise NotProven(str(err)) from None
    if (mine.origin, mine.size, mine.root) != (tree.origin, tree.size, tree.root):
        raise NotProven(f"the proof is for the tree of {tree.size}, not the checkpoint held "
                        f"(size {mine.size}): ask the proof with size={mine.size}")
    logged = proof.get("leaf")
    if not isinstance(logged, str) or logged.encode() != leaf:
        raise NotProven("the logged leaf is not this game's signed final head: the game was rewritten")
    index = proof.get("index")
    if not isinstance(index, int) or not merkle.verify_inclusion(merkle.leaf_hash(leaf), index, tree.size,
                                                                  _hashes(proof.get("proof")), tree.root):
        raise NotProven(f"the proof does not put the game's final head in the tree of {tree.size}")
    return tree


def consistent(old: notes.Checkpoint, new: notes.Checkpoint, proof: Any) -> None:
    """``NotProven`` (naming the fork) unless the tree ``new`` extends the tree ``old``
    by the consistency proof ``proof`` (``GET /v1/transparency/proof/consistency``'s list)."""
    if new.origin != old.origin:
        raise NotProven(f"the checkpoint is of log {new.origin!r}, not {old.origin!r}")
    if new.size < old.size:
        raise NotProven(f"the log shrank from {old.size} to {new.size} leaves: a fork (or a rollback)")
    if new.size == old.size:
        if new.root != old.root:
            raise NotProven(f"two different roots for the tree of {new.size}: a fork")
        return
    if not merkle.verify_consistency(old.size, new.size, old.root, new.root, _hashes(proof)):
        raise NotProven(f"the tree of {new.size} does not extend the tree of {old.size} seen before: a fork")


def last_event(log_text: str) -> tuple[str, Any]:
    """The game id and the last event of an exported log (NDJSON, header first)."""
    lines = [line for line in log_text.splitlines() if line.strip()]
    try:
        header, last = json.loads(lines[0]), json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        raise NotProven("the log cannot be read (NDJSON, header first)") from None
    game = header.get("id") if isinstance(header, dict) else None
    if not isinstance(game, str):
        game = (header.get("header") or {}).get("id") if isinstance(header, dict) else None
    if not isinstance(game, str):
        raise NotProven("the log's header names no game id")
    return game, last
