"""What anchors a log to the referee: its signed final head and the seats'
receipts (``referee.engine.signature``; docs/log-format.md, "Keys and signatures").

A log that re-decides clean shows that it is *a* legal game of its header;
only the referee's signature shows that it is *the* game the referee ran.
Both checks run after the log is otherwise shown to hold, and say plainly
when no key was given, so nothing was proven about who wrote the log."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.platform import SEED_REVEALED
from referee.engine.protocol import Json
from referee.engine.signature import RECEIPT_FIELDS, SIGNATURE_FIELDS, PublicKeys, final_statement, receipt_statement

#: the field of a finished game's last event that holds the referee's signature of the final head
FIELD = "signature"
UNCHECKED = ("not checked: no key was given (--key): anyone can re-chain a finished log, so without the "
             "referee's key this does not show that the referee wrote it")


def shape_ok(signature: Any) -> bool:
    """Whether ``signature`` is ``{"kid": str, "sig": str}``, nothing else."""
    return type(signature) is dict and signature.keys() == set(SIGNATURE_FIELDS) and \
        all(type(signature[name]) is str for name in SIGNATURE_FIELDS)


def may_carry(env: Any) -> bool:
    """Whether event ``env`` may carry a ``signature``: a ``seed_revealed``
    (which the re-decision holds to be the last event), the field of the
    right shape."""
    return type(env) is dict and env.get("type") == SEED_REVEALED and shape_ok(env.get(FIELD))


def check_signature(header: Json, envelopes: Sequence[Json], keys: PublicKeys | None,
                    diverged: Any) -> Json:
    """The ``signature`` check's entry: the last event's signature of the
    final head verifies under one of ``keys`` (``None``: not checked, said
    so); ``diverged(seq, field, expected, found, detail)`` is raised where it
    does not."""
    last = envelopes[-1]
    signature = last.get(FIELD)
    if keys is None:
        detail = UNCHECKED if signature is not None else \
            "not checked: the log carries no signature and no key was given (--key)"
        return {"name": "signature", "ok": True, "checked": False, "detail": detail}
    seq = last["seq"]
    if signature is None:
        raise diverged(seq, FIELD, "the referee's signature of the final head", "(missing)",
                       f"the last event (seq {seq}) carries no signature: the referee did not sign this log "
                       "(written before signing, or the signature was stripped)")
    game = header.get("id")
    why = keys.verify(signature["kid"], signature["sig"], final_statement(game, seq, last["hash"], signature["kid"])) \
        if type(game) is str else "the header has no game id (a string) to sign"
    if why is not None:
        raise diverged(seq, FIELD, f"a signature of head {last['hash']} at version {seq}", signature,
                       f"the final head's signature fails: {why}. This is not the log the referee signed")
    return {"name": "signature", "ok": True, "checked": True,
            "detail": f"the final head (version {seq}) is signed by the referee's key {signature['kid']!r}"}


def check_receipts(header: Json, envelopes: Sequence[Json], receipts: Sequence[tuple[str, Any]],
                   keys: PublicKeys | None, diverged: Any) -> Json:
    """The ``receipts`` check's entry: each receipt a seat hands in (``(name,
    receipt)``) names a head the log holds at that version, at that receipt
    time, for this game, and its signature verifies under ``keys``. A receipt
    the log does not hold: the log is not the game the referee ran (or the
    receipt is not the referee's). Without ``keys`` no receipt is checked at
    all: anyone can make one up, so it proves nothing about the log (which
    is judged alone, said so)."""
    if keys is None:  # anyone can make up a receipt: unsigned, it cannot speak against the log
        return {"name": "receipts", "ok": True, "checked": False,
                "detail": f"{_receipts(len(receipts))} not verified (no key): without the referee's key (--key) "
                          "a receipt proves nothing, so the log is judged alone"}
    game = header.get("id")
    for name, receipt in receipts:
        if type(receipt) is not dict or receipt.keys() != set(RECEIPT_FIELDS):
            raise diverged(0, "receipt", "{" + ", ".join(RECEIPT_FIELDS) + "}", receipt,
                           f"receipt {name} is not a receipt of this referee (its fields are "
                           f"{', '.join(RECEIPT_FIELDS)})")
        version, head, at = receipt["version"], receipt["head"], receipt["at"]
        # the signature first: a receipt the referee did not sign says nothing about the log
        why = keys.verify(receipt["kid"], receipt["sig"],
                          receipt_statement(str(receipt["game"]), version, head, at, str(receipt["kid"]))
                          if type(version) is int and type(at) is int and type(head) is str else b"")
        if why is not None:
            at_seq = version if type(version) is int and 1 <= version <= len(envelopes) else 0
            raise diverged(at_seq, "receipt.sig", "the referee's signature", receipt["sig"],
                           f"receipt {name} is not the referee's: {why}")
        if receipt["game"] != game:
            raise diverged(0, "receipt.game", game, receipt["game"],
                           f"receipt {name} is for game {receipt['game']!r}, this log is game {game!r}")
        if not 1 <= version <= len(envelopes):
            raise diverged(len(envelopes), "receipt.version", f"1..{len(envelopes)}", version,
                           f"receipt {name} names version {version!r}, which this log does not reach: "
                           "the log is not the game the referee ran")
        env = envelopes[version - 1]
        if env["hash"] != head:
            raise diverged(version, "hash", head, env["hash"],
                           f"receipt {name}: the referee accepted a move at version {version} with head {head}; "
                           "this log holds another head there — it is not the game the referee ran")
        if env["at"] != at:
            raise diverged(version, "at", at, env["at"],
                           f"receipt {name}: the referee received that move at {at}; this log says {env['at']}")
    return {"name": "receipts", "ok": True, "checked": True,
            "detail": f"{_receipts(len(receipts))}: each head is in the log at its version; their signatures verified"}


def _receipts(count: int) -> str:
    """``1 receipt``, ``2 receipts``: the count in words a person reads."""
    return f"{count} receipt{'' if count == 1 else 's'}"
