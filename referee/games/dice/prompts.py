"""What a seat is asked (D73): the ``pending`` prompt every viewer sees,
its kind's rule and the move types that answer it."""
from __future__ import annotations

from referee.engine.protocol import Json
from referee.engine.statecache import Memo
from referee.games.dice.legal import choices, default_among
from referee.games.dice.state import State

#: prompt kind -> its rule
RULES = {"sid": "D45", "roll": "D14", "reroll": "D16", "arrow": "D58", "broken_arrow": "D54",
         "shoot": "D24", "beer": "D25", "discard": "D40", "bart": "D34", "pedro": "D43", "haunt": "D65"}
#: prompt kind -> the move types that answer it (any other: the kind's own)
ANSWERS = {"reroll": ("reroll", "stop")}


def pending(state: State, memo: Memo) -> Json | None:
    """The prompt every viewer sees (D73): its kind and rule, the awaited
    seat and its default (the answers are in ``legal_moves`` only); built once per state
    (kept in ``memo``), shared: do not mutate."""
    kept = memo.of(state)
    if "pending" in kept:
        known: Json | None = kept["pending"]
        return known
    out: Json | None = None
    if not (state.over or state.prompt is None or state.prompt_seat is None):
        seat = state.prompt_seat
        moves = choices(state, memo)
        out = {
            "kind": state.prompt, "rule": RULES[state.prompt], "awaiting": [seat], "deadline": None,
            "default": [{"seat": seat, "move": default_among(state, seat, moves)}],
        }
    kept["pending"] = out
    return out
