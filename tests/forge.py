"""What a dishonest referee could do to a finished log: rewrite an event and
rebuild every commitment and link after it, so the chain itself holds. Only
the re-decided game (and the seals) can catch such a forgery."""
from __future__ import annotations

from typing import Any

from referee.engine import commitment, link_hash


def rechain(header_hash: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute every ``commit``, ``prev`` and ``hash`` in place (salts kept)."""
    prev = header_hash
    for env in events:
        env["commit"] = commitment(env["salt"], env["data"])
        env["prev"] = prev
        env["hash"] = prev = link_hash(env)
    return events
