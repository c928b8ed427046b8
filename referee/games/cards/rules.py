"""The cards kit's card engine over any table: what a card, a character and an open
window allow, why a move is refused, and what a played card does.

Both card rulesets decide with these: ``bang`` (seats around a table,
distance by seats, R14) and ``bang-faceoff`` (characters on a board,
distance by path, FO21). What differs between the tables is passed in —
the distances a character sees the others at, whether the one-BANG!-a-turn
limit holds (R18; Face Off lifts it, FO18), who may be jailed (R38; the
Face Off Sheriff may, FO19) — never re-implemented by a ruleset.

A *holder* is whatever has a character card and cards: ``bang``'s
``Player``, Face Off's ``Char`` (``Holder``). Windows are described by their
kind and the few counters a shot keeps (``used`` Barrel sources, ``played``
Missed! cards, ``misses`` and ``needed``). What a card, an answer, a pass
or a "draw!" does is returned as data — a list of ``Effect`` values
(``effects``) — and the ruleset's decision context applies them to its own
state, in its own events and on its own agenda: the card engine never
calls back into a ruleset.

This module is the engine's one name (both rulesets import it); its parts:
``core`` (the windows, a holder, distance and reach, "draw!"),
``plays`` (phase-2 plays, Sid Ketchum), ``windows`` (the answers to a
window) and ``effects`` (what a card, an answer, a pass or a "draw!"
does, as data). The
rulesets import it as ``cardrules`` (``from referee.games.cards import
rules as cardrules``).
"""
from __future__ import annotations

from referee.games.cards.core import (
    CHECK_SUCCEEDS,
    PASS,
    PASSABLE,
    PICKED,
    TARGETED,
    WINDOW_MOVES,
    WINDOW_RULE,
    Holder,
    Move,
    MoveLike,
    Refusal,
    at_random,
    bang_allowed,
    check_cards,
    check_succeeds,
    has_jail,
    heir,
    move_field,
    move_type,
    mustang_of,
    one_at_random,
    picks,
    plays_as_bang,
    reach_of,
    scope_of,
    seen_at,
    shots_needed,
    suzy_draws,
)
from referee.games.cards.effects import (
    Answer,
    Checked,
    CloseDying,
    CloseWindow,
    CountBang,
    Decide,
    Die,
    Discard,
    Draw,
    Effect,
    Effects,
    Heal,
    Hit,
    OpenDuel,
    OpenLucky,
    OpenMulti,
    OpenShot,
    OpenStore,
    PlayCard,
    Reopen,
    Take,
    TurnUp,
    Window,
    after_hit,
    card_effects,
    check,
    lucky_choice,
    pass_,
    play_card,
    played,
    respond,
    sid,
    turned,
)
from referee.games.cards.plays import PLAY_RULE, card_moves, sid_moves, why_not_play, why_not_sid
from referee.games.cards.windows import answer_keys, barrel_sources, why_not_answer, window_moves

__all__ = [
    "CHECK_SUCCEEDS", "PASS", "PASSABLE", "PICKED", "PLAY_RULE", "TARGETED", "WINDOW_MOVES", "WINDOW_RULE", "Answer",
    "Checked", "CloseDying", "CloseWindow", "CountBang", "Decide", "Die", "Discard", "Draw", "Effect", "Effects",
    "Heal", "Hit", "Holder", "Move", "MoveLike", "OpenDuel", "OpenLucky", "OpenMulti", "OpenShot", "OpenStore",
    "PlayCard", "Refusal", "Reopen", "Take", "TurnUp", "Window", "after_hit", "answer_keys", "at_random",
    "bang_allowed", "barrel_sources", "card_effects", "card_moves", "check", "check_cards", "check_succeeds",
    "has_jail", "heir", "lucky_choice", "move_field", "move_type", "mustang_of", "one_at_random", "pass_", "picks",
    "play_card", "played", "plays_as_bang", "reach_of", "respond", "scope_of", "seen_at", "shots_needed", "sid",
    "sid_moves", "suzy_draws", "turned", "why_not_answer", "why_not_play", "why_not_sid", "window_moves",
]
