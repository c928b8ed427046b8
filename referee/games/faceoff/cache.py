"""What the legal moves and the views derive from one immutable ``State``,
computed once per state: ``MEMO.of(state)`` is that state's memo
(``referee.engine.statecache``), kept beside the state, not in it.

Keys: ``("moves", seat)`` (a seat's legal moves, FO58's resignation last),
``"public_view"``, ``"last"`` and ``"pending"`` (``views``' functions of
those names) and ``"seen"`` (``encoded.seat_encoded``: the decision
everybody sees, then each seat's own members in the slot of that seat
alone, FO57). Values are
shared: do not mutate them. Dropping every entry changes no result, only
the speed.
"""
from __future__ import annotations

from referee.engine.statecache import StateCache

MEMO = StateCache()
