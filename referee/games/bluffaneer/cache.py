"""What the prompts and the views derive from one immutable ``State``,
computed once per state (issue 20): ``MEMO.of(state)`` is that state's memo
(``referee.engine.statecache``). Keys: ``"to_act"`` (the awaited seats),
``"moves"`` (the legal moves of the phase, the same for every awaited seat:
roll, claim or pass, accept or challenge), ``("moves", seat)`` (the roller's
steal targets, F12), ``"pending"`` (the prompt, every seat's alike) and
``"views"`` (``views._Views``: the view's public members encoded, and every
seat's encoded view, each handed to its own seat alone: F31, a seat's own
card is in its own view only). Everything else kept is public (the prompt
shows every awaited seat's moves). Values are shared: do not mutate them."""
from __future__ import annotations

from referee.engine.statecache import StateCache

MEMO = StateCache()
