"""A heuristic BANG! player (rules R1–R84) that decides from its seat's view only.

It reads roles it can know (the Sheriff, the dead, its own; all of them in
the 3-player game, R83) and spreads the hidden ones evenly over the other
players, which gives each player a *hostility*: how much the bot's side
gains when he is hurt (``bang_read``). Then:

* phase 2 (R11): the best card first — see ``bang_play``;
* phase 3 (R12): keep the most useful cards, discard the rest;
* a shot (R44): every Barrel "draw!" first, then Missed! — unless too few
  Missed! are left to cancel a Slab the Killer shot (R73);
* Indians! and Duel (R34, R32): answer with a BANG! while one is left;
* dying (R48): Beer (when it heals, R49), else Sid Ketchum's ability (R72);
* General Store, Kit Carlson (R29, R67): the most useful cards;
* Lucky Duke (R42): the card that makes the "draw!" go his way;
* Pedro Ramirez and Jesse Jones (R70, R65): the discard pile's top card
  when it is worth it, a card from an enemy's hand, else the deck.

Every answer is one of the legal moves it was given, unchanged.
"""
from __future__ import annotations

from typing import Any

from referee.bots.heuristic.bang_play import cheapest, play_turn
from referee.bots.heuristic.bang_read import (
    Seen,
    explodes,
    gain,
    key,
    ranked,
    read,
    suit,
)
from referee.engine.platform import playing_moves
from referee.engine.rng import Rng

Json = dict[str, Any]
Move = dict[str, Any]

#: a card from the discard pile beats a blind draw when worth this much (R70)
PEDRO_TAKES = 2.3
#: least hostility that makes Jesse Jones draw from a hand (R65)
JESSE_TAKES = 0.3


def _of(legal: list[Move], kind: str) -> list[Move]:
    return [m for m in legal if m.get("type") == kind]


def _first(legal: list[Move], kind: str) -> Move | None:
    return next((m for m in legal if m.get("type") == kind), None)


def _cheapest_card(seen: Seen, moves: list[Move]) -> Move:
    """The ``respond`` move giving up the least useful card."""
    worst = {card: value for value, card in ranked(seen, seen.hand)}
    return min(moves, key=lambda m: (worst.get(m["card"], 0.0), m["card"]))


def answer_shot(seen: Seen, pending: Json, legal: list[Move]) -> Move:
    """Shot window (R44): Barrels first (R35, R66), then Missed! (R24; Calamity
    Janet may use a BANG!, R63) if enough are held to cancel the shot."""
    barrels = _of(legal, "barrel")
    if barrels:
        return barrels[0]
    answers = _of(legal, "respond")
    needed = int(pending.get("needed") or 1) - int(pending.get("misses") or 0)
    if answers and len(answers) >= needed:
        return _cheapest_card(seen, answers)
    return _pass(legal)


def answer_bang(seen: Seen, legal: list[Move]) -> Move:
    """Indians! or a Duel (R34, R32): discard a BANG! rather than lose a life."""
    answers = _of(legal, "respond")
    if answers:
        return _cheapest_card(seen, answers)
    return _pass(legal)


def answer_dying(seen: Seen, legal: list[Move]) -> Move:
    """Dying window (R48): Beer if it heals (R25, R49), else Sid Ketchum (R72)."""
    beers = [m for m in _of(legal, "respond") if key(m["card"]) == "BEER"]
    if beers and seen.beer_heals:
        return beers[0]
    sids = _of(legal, "sid")
    if sids:
        chosen = cheapest(seen, sids)
        if chosen is not None:
            return chosen
    return _pass(legal)


def _pass(legal: list[Move]) -> Move:
    return _first(legal, "pass") or legal[-1]


def pick_store(seen: Seen, legal: list[Move]) -> Move:
    """General Store (R29): the card most useful to add to the hand."""
    return max(legal, key=lambda m: (gain(seen, m["card"]), m["card"]))


def pick_lucky(pending: Json, legal: list[Move]) -> Move:
    """Lucky Duke (R42): a Heart for a Barrel or Jail "draw!" (R35, R38), a
    card that does not explode for Dynamite (R39)."""
    purpose = pending.get("purpose")

    def good(card: str) -> bool:
        if purpose == "dynamite":
            return not explodes(card)
        return suit(card) == "H"

    return next((m for m in legal if good(m["card"])), legal[0])


def pick_kit(seen: Seen, legal: list[Move]) -> Move:
    """Kit Carlson (R67): keep the two cards worth most together."""
    def value(m: Move) -> float:
        return sum(v for v, _ in ranked(seen, m["cards"], seen.hand))

    return max(legal, key=value)


def pick_source(seen: Seen, state: Json, legal: list[Move]) -> Move:
    """Phase 1 for Pedro Ramirez (R70) and Jesse Jones (R65)."""
    deck = next((m for m in legal if m.get("source") == "deck"), legal[0])
    discard = next((m for m in legal if m.get("source") == "discard"), None)
    pile = state.get("discard") or []
    if discard is not None and pile and gain(seen, pile[-1]) >= PEDRO_TAKES:
        return discard
    hands = [m for m in legal if m.get("source") == "hand"]
    if hands:
        best = max(hands, key=lambda m: (seen.hostility.get(m["target"], 0.0),
                                         seen.players[m["target"]]["hand"]))
        if seen.hostility.get(best["target"], 0.0) >= JESSE_TAKES:
            return best
    return deck


def discard_excess(seen: Seen, legal: list[Move]) -> Move:
    """Phase 3 (R12, one card per move): discard the least useful card, so
    the most useful ones are kept."""
    order = ranked(seen, seen.hand)
    if order:
        drop = order[-1][1]
        for m in legal:
            if m.get("cards") == [drop]:
                return m
    return cheapest(seen, legal) or legal[0]


def answer_window(seen: Seen, pending: Json, kind: str | None, legal: list[Move]) -> Move | None:
    """The answer when the bot is awaited in a window of ``kind``: a shot,
    Indians! or a Duel, dying; ``None`` for any other."""
    if kind == "shot":
        return answer_shot(seen, pending, legal)
    if kind in ("indians", "duel"):
        return answer_bang(seen, legal)
    if kind == "dying":
        return answer_dying(seen, legal)
    return None


def choose(view: Json, legal_moves: list[Move], rng: Rng) -> Move:
    """The heuristic's move for the seat whose ``seat_view`` is ``view``:
    always one element of ``legal_moves``, decided from the view only; never
    ``resign`` (R85) unless it is the only move."""
    legal_moves = list(playing_moves(legal_moves))
    if len(legal_moves) == 1:
        return legal_moves[0]
    seen = read(view)
    state: Json = view.get("state") or {}
    pending: Json = view.get("pending") or {}
    kind = pending.get("kind") if seen.me in (pending.get("awaiting") or []) else None
    answer = answer_window(seen, pending, kind, legal_moves)
    if answer is not None:
        return answer
    types = {m.get("type") for m in legal_moves}
    if types == {"choose"}:
        return pick_lucky(pending, legal_moves) if kind == "lucky" else pick_store(seen, legal_moves)
    if types == {"keep"}:
        return pick_kit(seen, legal_moves)
    if types == {"draw"}:
        return pick_source(seen, state, legal_moves)
    if types == {"discard"}:
        return discard_excess(seen, legal_moves)
    if "end_turn" in types:
        return play_turn(seen, legal_moves)
    return legal_moves[rng.below(len(legal_moves))]

