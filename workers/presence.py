"""The worker's look at games whose seats may have gone away (issue 40 item
1): each game of ``referee:away`` that is due is looked at
(``Presence.look``: its seats away past the grace window taken over), then
scheduled again or dropped. Run by the sweeper thread, one worker at a time."""
from __future__ import annotations

import sys

from referee.service import GameService


def look_at_away(svc: GameService, count: int = 100) -> int:
    """Look at up to ``count`` due games; how many were looked at. A game
    whose look fails stays due (looked at again on the next round)."""
    now = svc.clock()
    found = svc.store.presence.due(now, count)
    for game_id in found:
        try:
            again = svc.presence.look(game_id)
        except Exception as exc:  # one game's failure must not stop the others: next round
            print(f"referee worker: looking at {game_id} for seats away failed: {exc!r}", file=sys.stderr,
                  flush=True)
            continue
        svc.store.presence.look_again(game_id, again)
    return len(found)
