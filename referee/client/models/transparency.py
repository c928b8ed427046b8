"""The transparency log's proofs (``client.transparency``; docs/transparency.md)."""
from __future__ import annotations

import base64
from dataclasses import dataclass, field

from referee.client.models.common import Json


@dataclass(frozen=True)
class InclusionProof:
    """``GET /v1/transparency/proof/inclusion``: a finished game's leaf, its
    index and audit path in the tree of ``size`` leaves, and that tree's signed checkpoint."""

    game: str
    index: int
    size: int
    leaf: str
    proof: tuple[bytes, ...]
    checkpoint: str
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> InclusionProof:
        return cls(raw["game"], raw["index"], raw["size"], raw["leaf"],
                   tuple(base64.b64decode(h) for h in raw["proof"]), raw["checkpoint"], raw)


@dataclass(frozen=True)
class ConsistencyProof:
    """``GET /v1/transparency/proof/consistency``: the tree of ``to`` leaves extends that of ``from_``."""

    from_: int
    to: int
    proof: tuple[bytes, ...]
    checkpoint: str
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> ConsistencyProof:
        return cls(raw["from"], raw["to"], tuple(base64.b64decode(h) for h in raw["proof"]), raw["checkpoint"], raw)
