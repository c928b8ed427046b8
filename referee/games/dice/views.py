"""What each viewer may see (D7, D74): everything but the roles still hidden."""
from __future__ import annotations

from referee.engine.protocol import Event, Json
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
    return {
        "players": state.players,
        "modules": {"saloon_dice": state.saloon_dice, "chief_arrow": state.chief_arrow,
                    "ghost": state.ghost_module},
        "turn": state.turn,
        "ghost_turn": state.is_ghost_turn(),
        "seats": [
            {"seat": p, "character": state.characters[p], "life": state.life[p], "max_life": state.max_life[p],
             "arrows": state.arrows[p], "chief_arrow": state.chief_holder == p, "alive": state.alive[p],
             "ghost": state.ghost == p, "role": state.roles[p] if role_public(state, p) else None,
             "token": _token(state.tokens[p])}
            for p in range(state.players)],
        "pile": state.pile,
        "chief_arrow_in_pile": state.chief_arrow and state.chief_holder is None,
        "dice": [{"die": i + 1, "kind": k, "face": f} for i, (k, f) in enumerate(zip(state.die_kinds, state.dice))],
        "rolls": state.rolls,
        "max_rolls": state.max_rolls(),
        "saloon": state.saloon,
        "shots": {"targets": [list(t) for t in state.shot_targets],
                  "declared": [{"target": t, "double": d} for t, d in state.declared]},
        "awaiting": None if state.over else state.prompt,
        "over": state.over,
    }


def seat_part(state: State, seat: Seat | None) -> Json:
    own = state.roles[seat] if seat is not None and 0 <= seat < state.players else None
    return {"you": seat, "role": own, "pending": pending(state)}


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
