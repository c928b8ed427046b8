"""The table chat's events between moves (issue 40 item 5; docs/chat.md):
``chat_posted {seat, said}`` by its seat (``None``: a spectator, only where
the header's ``chat`` is ``everyone``; none at all where it is ``off``),
``said`` a SHA-256 hex commitment to the text; ``chat_hidden {seq, by}`` by
the referee (actor ``None``), of an earlier message not hidden yet, by its
``owner`` or the ``admin``. A message's text never enters the chain: its
opening ``{text, salt}`` is served beside the log, and anyone holding one
checks ``sha256_hex(salt + canonical(text)) == said`` (``opens``)."""
from __future__ import annotations

import re
from typing import Any

from referee.audit.divergence import Diverged
from referee.engine.chain import commitment
from referee.engine.platform import CHAT_POSTED
from referee.engine.protocol import Json

_HEX64 = re.compile(r"[0-9a-f]{64}")


def opens(said: str, text: str, salt: str) -> bool:
    """Whether the opening ``{text, salt}`` opens the commitment ``said`` of a ``chat_posted``."""
    return commitment(salt, text) == said


class ChatCheck:
    """The chat events of one log, in order: the messages posted, those hidden."""

    def __init__(self, header: Json) -> None:
        self.mode = header.get("chat", "seats")
        seats = header.get("seats")
        self.seats = len(seats) if type(seats) is list else 0
        self.posted: set[int] = set()
        self.hidden: set[int] = set()

    def check(self, env: Json) -> None:
        """Event ``env`` (a chat event) as the rules of the table chat allow it."""
        seq, actor, data = env["seq"], env["actor"], env["data"]
        if env["type"] == CHAT_POSTED:
            self._posted(seq, actor, data)
            return
        if actor is not None or type(data) is not dict or data.keys() != {"seq", "by"} \
                or data["by"] not in ("owner", "admin") or data["seq"] not in self.posted \
                or data["seq"] in self.hidden:
            raise Diverged("replay", seq, "data", "{seq: an earlier message not hidden yet, by: owner|admin}",
                           data, f"event {seq} hides no message posted before it")
        self.hidden.add(data["seq"])

    def _posted(self, seq: int, actor: Any, data: Any) -> None:
        if type(data) is not dict or data.keys() != {"seat", "said"} or data["seat"] != actor \
                or type(data["said"]) is not str or not _HEX64.fullmatch(data["said"]):
            raise Diverged("replay", seq, "data", "{seat: its actor, said: sha256 hex}", data,
                           f"event {seq} is no chat message")
        if self.mode == "off" or (actor is None and self.mode != "everyone") \
                or (actor is not None and (type(actor) is not int or not 0 <= actor < self.seats)):
            raise Diverged("replay", seq, "actor", "a seat of the game" if self.mode != "off" else "(no chat)",
                           actor, f"event {seq} is a chat message its header does not allow")
        self.posted.add(seq)

    def summary(self) -> str:
        """What the replay report adds (nothing: the log has no chat)."""
        if not self.posted:
            return ""
        return (f"; {len(self.posted)} chat messages chained between moves ({len(self.hidden)} hidden, "
                "their commitments kept)")
