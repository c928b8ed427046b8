"""The transparency log (issue 41 item 4; docs/transparency.md): every
finished game's signed final head, appended to one append-only Merkle tree
(``referee.engine.merkle``) kept in Redis (``referee.store.transparency``),
with signed checkpoints (``referee.engine.checkpoint``), inclusion and
consistency proofs.

A game is logged when the change that finishes it lands (``record``, from
``Changes``); a process that dies between the two leaves the game out
until someone asks for its proof (``inclusion`` logs a finished game it
does not find). Hashes travel as standard base64, as in the checkpoint."""
from __future__ import annotations

import base64
import logging
from typing import Any

from referee import settings
from referee.engine import checkpoint as notes
from referee.engine import merkle
from referee.engine.signature import Keyring, final_statement
from referee.errors import ApiError
from referee.service.game import Game
from referee.service.loading import Loader
from referee.store.transparency import TransparencyStore

log = logging.getLogger(__name__)


def inclusion_path(game_id: str) -> str:
    """Where a finished game's inclusion proof is served: its log's ``Link``, its final move's 201 (game ids
    are URL-safe)."""
    return f"/v1/transparency/proof/inclusion?game={game_id}"


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def leaf_of(game_id: str, version: int, head: str, kid: str) -> bytes:
    """A game's leaf: the statement its final head's signature signs."""
    return final_statement(game_id, version, head, kid)


class Transparency:
    """The log of final heads: appended to, checkpointed, proven."""

    def __init__(self, store: TransparencyStore, keyring: Keyring, loader: Loader, origin: str | None = None) -> None:
        self.store = store
        self.keyring = keyring
        self.loader = loader
        #: the log's name in every checkpoint (setting ``REFEREE_TLOG_ORIGIN``)
        self.origin = origin or settings.text("REFEREE_TLOG_ORIGIN")

    def record(self, game: Game) -> int | None:
        """Log a game that just finished (its index); a Redis failure is logged,
        not raised: the move stands, and the game is logged when its proof is asked."""
        if game.status != "finished":
            return None
        try:
            return self.store.append(game.id, leaf_of(game.id, game.version, game.last_hash,
                                                      self.keyring.signer.kid))[0]
        except Exception:  # the move is appended already: never fail it for the log
            log.warning("game %s not logged yet (logged when its proof is asked)", game.id, exc_info=True)
            return None

    def leaf_of(self, game: Game) -> tuple[int, str]:
        """A finished game's leaf (index, input) in the log, logged now if it is not
        (what the archive keeps of it, so the tree is rebuilt from the archive)."""
        index = self.store.index_of(game.id)
        if index is None:
            index = self._log_late(game.id)
        leaf = self.store.leaf(index)
        if leaf is None:
            raise LookupError(f"leaf {index} of game {game.id} is not in the log")
        return index, leaf.decode()

    def checkpoint(self, size: int | None = None) -> str:
        """The signed note of the tree at ``size`` (default: now)."""
        size = self._size(size)
        return notes.sign(notes.Checkpoint(self.origin, size, self.store.tree().root(size)), self.keyring)

    def inclusion(self, game_id: str, size: int | None = None) -> dict[str, Any]:
        """Game ``game_id``'s leaf, its index, and its inclusion proof in the tree of ``size``
        (default: now), with that tree's signed checkpoint."""
        index = self.store.index_of(game_id)
        if index is None:
            index = self._log_late(game_id)
        size = self._size(size)
        if index >= size:
            raise ApiError(422, "not_in_tree", f"game {game_id} is leaf {index}, past a tree of {size}")
        leaf = self.store.leaf(index) or b""
        proof = self.store.tree().inclusion(index, size)
        return {"game": game_id, "index": index, "size": size, "leaf": leaf.decode(),
                "leaf_hash": b64(merkle.leaf_hash(leaf)), "proof": [b64(h) for h in proof],
                "checkpoint": self.checkpoint(size)}

    def consistency(self, first: int, second: int | None = None) -> dict[str, Any]:
        """The consistency proof from the tree of ``first`` to that of ``second`` (default: now)."""
        second = self._size(second)
        if not 0 <= first <= second:
            raise ApiError(422, "bad_tree_size", f"from must be between 0 and {second} (got {first})")
        proof = self.store.tree().consistency(first, second)
        return {"from": first, "to": second, "proof": [b64(h) for h in proof],
                "checkpoint": self.checkpoint(second)}

    def _size(self, size: int | None) -> int:
        now = self.store.size()
        if size is None:
            return now
        if not 0 <= size <= now:
            raise ApiError(422, "bad_tree_size", f"the log holds {now} leaves; no tree of {size}")
        return size

    def _log_late(self, game_id: str) -> int:
        """A finished game missing from the log (its finisher died first): logged now, with the
        ``kid`` its last event's signature names (the key may have rotated since)."""
        game = self.loader.load(game_id)
        if game.status != "finished":
            raise ApiError(404, "not_logged", f"game {game_id} is not finished: only a finished game is logged")
        last = self.loader.store.read(game.id, game.version - 1, game.version)
        signature = last[-1].get("signature") if last else None
        kid = signature.get("kid") if isinstance(signature, dict) else None
        return self.store.append(game.id, leaf_of(game.id, game.version, game.last_hash,
                                                  kid if isinstance(kid, str) else self.keyring.signer.kid))[0]
