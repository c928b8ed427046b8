"""What the prompt and the views derive from one immutable ``State``,
computed once per state (issue 20): ``MEMO.of(state)`` is that state's
memo (``referee.engine.statecache``). Keys: ``"choices"`` (the awaited
seat's legal answers, D73), ``"pending"`` (the prompt every viewer sees
alike), ``"public"`` (``views.public_view``). Only what every viewer may see
is kept (a seat's own role never is); values are shared: do not mutate them."""
from __future__ import annotations

from referee.engine.statecache import StateCache

MEMO = StateCache()
