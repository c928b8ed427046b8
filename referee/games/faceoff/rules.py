"""The Face Off referee (FO8–FO58), one name for each of its parts.

BANG!'s card engine, the cards kit's (``referee.games.cards``, which BANG!
builds on too), decides every card, character and window here: the cards
and characters (``referee.games.cards.deck``, ``.characters``) and the rule
checks of ``referee.games.cards.rules`` — which plays a card
allows at which distance, the answers a shot, Indians!, Duel, dying window,
General Store or Lucky Duke's "draw!" admit, Sid Ketchum, Slab the Killer,
Vulture Sam, "draw!" successes — and their refusals, with the board's
distance (FO21), no BANG! limit (FO18) and a jailable Sheriff (FO19) passed
in. What is Face Off's own is in the modules beside this one:

* ``flow``: the control state, a typed frozen value;
* ``engine``: the decision context (the engine's ``Decision``): drawing, healing and the card
  engine's effects applied on the board (``turn.apply_effects`` dispatches them);
* ``distance`` (FO21) and ``movement`` (FO11–FO16) on the ``board``;
* ``turn``: a turn's start and phases (FO10–FO20); ``bid``: the Renegade bid (FO32–FO37);
* ``elimination``: hits, kills, replacements and the end (FO39–FO49, FO58);
* ``agenda``: the runner of the agenda's frames; ``moves``: applying a move;
* ``legal``: the legal moves, the awaited seats, the timeout's default (FO9); ``refusals``: why not.
"""
from __future__ import annotations

from referee.games.faceoff.agenda import advance, next_turn, run
from referee.games.faceoff.bid import open_bid, place_squares, settle_bid
from referee.games.faceoff.distance import base_distance, reach, sees_at, sights
from referee.games.faceoff.elimination import eliminate, game_over, hit, replace_char, result_detail
from referee.games.faceoff.engine import PROMPTS, RESIGN_MOVE, Ctx, GameOver, Move, TurnEnds, refuse, store_next
from referee.games.faceoff.legal import (
    card_moves,
    default_options,
    legal_moves,
    listed,
    offered,
    prompt_moves,
    sid_moves,
    to_act,
)
from referee.games.faceoff.movement import blocked_for, path_json, walk
from referee.games.faceoff.moves import apply
from referee.games.faceoff.refusals import why_not
from referee.games.faceoff.turn import after_slot, apply_check, check, jail_step, phase1, phase2, start_turn, to_discard

__all__ = [
    "PROMPTS", "RESIGN_MOVE", "Ctx", "GameOver", "Move", "TurnEnds", "advance", "after_slot", "apply", "apply_check",
    "base_distance", "blocked_for", "card_moves", "check", "default_options", "eliminate", "game_over", "hit",
    "jail_step", "legal_moves", "listed", "next_turn", "offered", "open_bid", "path_json", "phase1", "phase2",
    "place_squares", "prompt_moves", "reach", "refuse", "replace_char", "result_detail", "run", "sees_at",
    "settle_bid", "sid_moves", "sights", "start_turn", "store_next", "to_act", "to_discard", "walk", "why_not",
]
