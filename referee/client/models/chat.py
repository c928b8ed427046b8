"""The table chat (docs/chat.md): a message as ``GET /v1/games/{id}/chat`` lists it."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from referee.client.models.common import Json


@dataclass(frozen=True)
class ChatMessage:
    """A chat message: event ``seq`` of the log (``chat_posted {seat, said}``)
    and its opening (``text``, ``salt``: ``None`` when hidden, but to the admin)."""

    #: ``None`` only in the answer to a spectator's post at a game shown late (its seq is the head's)
    seq: int | None
    seat: int | None
    at: int
    said: str
    text: str | None
    salt: str | None
    hidden: bool
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> ChatMessage:
        """Read a ``ChatMessage`` object."""
        seq = None if raw["seq"] is None else int(raw["seq"])
        return cls(seq, raw["seat"], int(raw["at"]), str(raw["said"]), raw.get("text"), raw.get("salt"),
                   bool(raw["hidden"]), raw)

    def opens(self) -> bool:
        """Whether the text and salt open ``said``, the commitment the log's
        ``chat_posted`` holds: ``sha256_hex(salt + canonical(text))`` (``False``: no opening)."""
        if self.text is None or self.salt is None:
            return False
        encoded: Any = json.dumps(self.text, ensure_ascii=False)
        return hashlib.sha256((self.salt + encoded).encode()).hexdigest() == self.said
