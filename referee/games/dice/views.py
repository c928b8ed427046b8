"""What each viewer may see (D7, D74): everything but the roles still hidden.

What every viewer of one state sees alike (``public_view``, the prompt) is
built once per state and shared between its views (``cache.MEMO``, keyed by the
state object; a seat's own role is never kept there): do
not mutate a view.
"""
from __future__ import annotations

from typing import Any

from referee.engine.jsonenc import dumps
from referee.engine.protocol import Event, Json
from referee.engine.statecache import MISSING, SameInputs
from referee.games.dice.cache import MEMO
from referee.games.dice.events import GAME_STARTED
from referee.games.dice.prompts import pending
from referee.games.dice.rules import SHERIFF
from referee.games.dice.state import Seat, State


def role_public(state: State, seat: int) -> bool:
    """D7, D67, D74: the Sheriff's role, every role with 3 players, an eliminated player's, all at the end."""
    return state.over or state.three or not state.alive[seat] or state.kind(seat) == SHERIFF


def _token(token: tuple[str, int] | None) -> Json | None:
    return None if token is None else {"face": token[0], "dice": token[1]}


def public_view(state: State) -> Json:
    """Everything every viewer sees (D7, D74: roles only where public);
    built once per state, shared (do not mutate)."""
    memo = MEMO.of(state)
    out: Json | None = memo.get("public")
    if out is None:
        out = memo["public"] = _public_view(state)
    return out


#: the parts of ``public_view`` an event most often leaves alone, kept while their inputs are the same objects
_seats, _dice = SameInputs(), SameInputs()


def _seat_entries(state: State) -> list[Json]:
    """Each seat as everyone sees it (D7, D74: its role only where public)."""
    inputs = (state.players, state.characters, state.life, state.max_life, state.arrows, state.chief_holder,
              state.alive, state.ghost, state.roles, state.tokens, state.over)
    out: list[Json] = _seats.get(inputs)
    if out is MISSING:
        out = _seats.put(inputs, [
            {"seat": p, "character": state.characters[p], "life": state.life[p], "max_life": state.max_life[p],
             "arrows": state.arrows[p], "chief_arrow": state.chief_holder == p, "alive": state.alive[p],
             "ghost": state.ghost == p, "role": state.roles[p] if role_public(state, p) else None,
             "token": _token(state.tokens[p])}
            for p in range(state.players)])
    return out


def _public_view(state: State) -> Json:
    inputs: tuple[object, ...] = (state.die_kinds, state.dice)
    dice: list[Json] = _dice.get(inputs)
    if dice is MISSING:
        dice = _dice.put(inputs, [{"die": i + 1, "kind": k, "face": f}
                                  for i, (k, f) in enumerate(zip(state.die_kinds, state.dice))])
    return {
        "players": state.players,
        "modules": {"saloon_dice": state.saloon_dice, "chief_arrow": state.chief_arrow,
                    "ghost": state.ghost_module},
        "turn": state.turn,
        "ghost_turn": state.is_ghost_turn(),
        "seats": _seat_entries(state),
        "pile": state.pile,
        "chief_arrow_in_pile": state.chief_arrow and state.chief_holder is None,
        "dice": dice,
        "rolls": state.rolls,
        "max_rolls": state.max_rolls(),
        "saloon": state.saloon,
        "shots": {"targets": [list(t) for t in state.shot_targets],
                  "declared": [{"target": t, "double": d} for t, d in state.declared]},
        "awaiting": None if state.over else state.prompt,
        "over": state.over,
    }


def seat_part(state: State, seat: Seat | None) -> Json:
    """The viewer's own members: its seat, its own role (D7) and the prompt (shared by every viewer)."""
    own = state.roles[seat] if seat is not None and 0 <= seat < state.players else None
    return {"you": seat, "role": own, "pending": pending(state)}


def seat_bytes(state: State, seat: Seat | None) -> tuple[bytes, Any]:
    """``seat_part`` but ``pending``, encoded (``referee.engine.encoded_views``):
    ``"you":seat,"role":its own role`` (D7), and the prompt every viewer sees."""
    own = state.roles[seat] if seat is not None and 0 <= seat < state.players else None
    you = b"null" if seat is None else b"%d" % seat
    return b'"you":' + you + b',"role":' + dumps(own), pending(state)


def view(state: State, seat: Seat | None) -> Json:
    return {**public_view(state), **seat_part(state, seat)}


def redact(event: Event, seat: Seat | None) -> Event:
    """The deal shows a seat its own role and the public ones (D7)."""
    if event.type != GAME_STARTED:
        return event
    data = event.data
    n = data["players"]
    shown = [r if (p == seat or n == 3 or r == "SHERIFF" or not data["alive"][p]) else None
             for p, r in enumerate(data["roles"])]
    return Event(event.type, {**data, "roles": shown})


def hidden(state: State, seat: Seat | None) -> set[str]:
    """The role cards ``seat`` may not see yet (D74)."""
    if state.over:
        return set()
    return {state.roles[p] for p in range(state.players) if p != seat and not role_public(state, p)}
