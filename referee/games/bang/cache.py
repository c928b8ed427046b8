"""What BANG!'s hooks derive from one immutable ``State``, kept in the
game's memo (``referee.engine.statecache.Memo``, issue 26 item 4).

The state carries no memo: it is a plain value, and ``evolve``, ``decide``,
``legal_moves`` and ``view`` are functions of their arguments alone. What
they would otherwise compute more than once for one state — the legal moves
that the view shows and the caller asks for again (and ``decide`` checks a
card against), the parts of the view every seat sees alike, the distances
around the table — is kept in a ``Derived`` in the dict the caller's memo
keeps for that very state (``memo.of(state)``). A seat's legal moves are
kept under that seat (``legal[seat]``), read for that seat alone. Dropping
the memo changes no result, only the speed. Values handed out from here are
shared: callers must not mutate them (the rules hand out tuples, or JSON
documented as shared).
"""
from __future__ import annotations

from typing import Any

from referee.engine.statecache import Memo


class Derived:
    """What has been computed from one state so far (``None``: not yet)."""

    __slots__ = ("state", "public", "view", "legal", "enc")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.public: Any = None
        self.view: Any = None
        #: each seat's legal moves, by seat (a seat's own: read for that seat alone)
        self.legal: dict[int, Any] = {}
        #: what ``encoded.py`` keeps of the state: the prompt and its bytes, each seat's own members
        self.enc: Any = None


def derived(state: Any, memo: Memo) -> Derived:
    """``state``'s ``Derived`` in ``memo`` (a new, empty one the first time)."""
    per = memo.of(state)
    found: Derived | None = per.get(Derived)
    if found is None:
        found = per[Derived] = Derived(state)
    return found
