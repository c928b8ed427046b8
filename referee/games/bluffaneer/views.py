"""What each seat may see: views, redacted events, hidden ids (F31)."""
from __future__ import annotations

from referee.engine.protocol import Event, Json
from referee.games.bluffaneer.events import CARD_DRAWN, DECK_RESHUFFLED, GAME_STARTED
from referee.games.bluffaneer.prompts import pending
from referee.games.bluffaneer.state import OVER, Flip, Seat, State
from referee.games.bluffaneer.symbols import card_json


def _flip(flip: Flip | None) -> Json | None:
    if flip is None:
        return None
    return {"kind": flip.kind, "among": list(flip.among), "index": flip.index,
            "seat": flip.seat, "queued": flip.queued}


def view(state: State, seat: Seat | None) -> Json:
    """Public state plus ``seat``'s own card (F31): coins, card counts, box,
    dice, claims with receipt times, passes, discard pile, draw pile count,
    last flip, the claim window's deadline and the pending prompt."""
    return {
        "you": seat,
        "players": state.players,
        "phase": state.phase,
        "turn": state.turn,
        "seats": [
            {"seat": s, "coins": state.coins[s], "cards": 1,
             "card": card_json(card) if s == seat and card is not None else None}
            for s, card in enumerate(state.hands)
        ],
        "box": state.box,
        "dice": None if state.dice is None else list(state.dice),
        "claim_window": {"opened_at": state.opened_at, "deadline": state.deadline},
        "claims": [{"seat": s, "at": at} for s, at in state.claims],
        "passes": list(state.passes),
        "claimant": state.claimant,
        "discard": [card_json(card) for card in state.discard],
        "draw_pile": len(state.deck),
        "last_flip": _flip(state.last_flip),
        "die_faces": list(state.die_faces),
        "claim_window_ms": state.window_ms,
        "pending": pending(state),
    }


def redact(event: Event, seat: Seat | None) -> Event:
    """The event as ``seat`` may see it (F31): the deal shows only his own
    card and the draw pile's size; a reshuffle only its size; a draw only to
    its drawer. Revealed cards (F16, F22, F23) are public."""
    data = event.data
    if event.type == GAME_STARTED:
        shown = {k: v for k, v in data.items() if k != "deck"}
        shown["hands"] = [card if s == seat else None for s, card in enumerate(data["hands"])]
        shown["deck_count"] = len(data["deck"])
        return Event(event.type, shown)
    if event.type == DECK_RESHUFFLED:
        return Event(event.type, {"count": len(data["order"])})
    if event.type == CARD_DRAWN and data["seat"] != seat:
        return Event(event.type, {"seat": data["seat"], "card": None})
    return event


def hidden(state: State, seat: Seat | None) -> set[str]:
    """Ids ``seat`` must not see: other players' cards and the draw pile
    (for a spectator every hand and the draw pile) (F31). Nothing once the
    game is over: the service then publishes the whole log."""
    if state.phase == OVER:
        return set()
    out = {card for s, card in enumerate(state.hands) if s != seat and card is not None}
    out.update(state.deck)
    return out
