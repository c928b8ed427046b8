"""What the prompts and the views derive from one immutable ``State``,
computed once per state (issue 20): ``MEMO.of(state)`` is that state's memo
(``referee.engine.statecache``). Keys: ``"to_act"`` (the awaited seats),
``"moves"`` (the legal moves of the phase, the same for every awaited seat:
roll, claim or pass, accept or challenge), ``("moves", seat)`` (the roller's
steal targets, F12), ``"pending"`` (the prompt, every seat's alike) and
``"encoded"`` (the view's public members, encoded). Everything kept is
public (the prompt shows every awaited seat's moves); a seat's own card
never is. Values are shared: do not mutate them."""
from __future__ import annotations

from referee.engine.statecache import StateCache

MEMO = StateCache()
