"""What the prompt and the views derive from one immutable ``State``,
computed once per state (issue 20): ``MEMO.of(state)`` is that state's
memo (``referee.engine.statecache``). Keys: ``"choices"`` (the awaited
seat's legal answers, D73), ``"pending"`` (the prompt every viewer sees
alike), ``"public"`` (``views.public_view``) and ``"encoded"``
(``views._Encoded``: the view's shared members encoded, and every seat's
encoded view, each handed to its own seat alone: D7, a seat's own role is
in its own view only). Everything else kept is what every viewer may see;
values are shared: do not mutate them."""
from __future__ import annotations

from referee.engine.statecache import StateCache

MEMO = StateCache()
