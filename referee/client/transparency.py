"""``client.transparency``: the referee's transparency log of finished games'
signed final heads (docs/transparency.md), with the checks a client makes."""
from __future__ import annotations

from typing import Any

from referee.client.calls import Owner, json_of
from referee.client.models.transparency import ConsistencyProof, InclusionProof
from referee.engine import checkpoint as notes
from referee.engine import merkle
from referee.engine.signature import PublicKeys


class Transparency:
    """``client.transparency``: checkpoints and proofs, fetched and checked."""

    def __init__(self, owner: Owner) -> None:
        self._http = owner._http

    def checkpoint(self) -> str:
        """``GET /v1/transparency/checkpoint``: the signed checkpoint now (a C2SP signed note)."""
        return self._http.request("GET", "/v1/transparency/checkpoint").text

    def inclusion(self, game_id: str, size: int | None = None) -> InclusionProof:
        """``GET /v1/transparency/proof/inclusion``: game ``game_id``'s inclusion proof
        (in the tree of ``size`` leaves; default: the log now)."""
        params: dict[str, Any] = {"game": game_id} if size is None else {"game": game_id, "size": size}
        return InclusionProof.from_json(json_of(self._http.request(
            "GET", "/v1/transparency/proof/inclusion", params=params)))

    def consistency(self, from_: int, to: int | None = None) -> ConsistencyProof:
        """``GET /v1/transparency/proof/consistency``: the tree of ``to`` (default: now) extends that of ``from_``."""
        params: dict[str, Any] = {"from": from_} if to is None else {"from": from_, "to": to}
        return ConsistencyProof.from_json(json_of(self._http.request(
            "GET", "/v1/transparency/proof/consistency", params=params)))

    @staticmethod
    def verify_inclusion(proof: InclusionProof, jwks: Any) -> notes.Checkpoint:
        """The signed checkpoint in which ``proof`` includes its leaf (``jwks``: ``GET /v1/keys``'s
        JSON); ``ValueError`` saying why not."""
        tree = notes.verify(proof.checkpoint, PublicKeys.from_jwks(jwks))
        if not merkle.verify_inclusion(merkle.leaf_hash(proof.leaf.encode()), proof.index, tree.size,
                                       proof.proof, tree.root):
            raise ValueError(f"the proof does not include game {proof.game} in the tree of {tree.size}")
        return tree

    @staticmethod
    def verify_consistency(old_checkpoint: str, proof: ConsistencyProof, jwks: Any) -> notes.Checkpoint:
        """The newer signed checkpoint, if it extends ``old_checkpoint`` by ``proof``;
        ``ValueError`` if not (a fork)."""
        keys = PublicKeys.from_jwks(jwks)
        old, new = notes.verify(old_checkpoint, keys), notes.verify(proof.checkpoint, keys)
        if old.size != proof.from_ or not merkle.verify_consistency(old.size, new.size, old.root, new.root,
                                                                    proof.proof):
            raise ValueError(f"the tree of {new.size} does not extend the checkpoint of {old.size}: a fork")
        return new
