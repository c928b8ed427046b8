"""The legal moves of a seat (FO9–FO58), whose move is awaited, whether a
move is offered (one kind checked alone where it can be), and the timeout's
default (FO9). Pure functions of the state; the lists are kept in the
game's memo (``referee.engine.statecache.Memo``: ``memo.of(state)``, under
the seat they are that seat's legal moves of; none given: a fresh one)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.platform import RESIGN
from referee.engine.statecache import Memo, fresh
from referee.games.cards import rules as cardrules
from referee.games.cards.characters import JESSE_JONES, PEDRO_RAMIREZ
from referee.games.faceoff import board
from referee.games.faceoff.bid import place_squares
from referee.games.faceoff.context import RESIGN_MOVE, Move, top_prompt
from referee.games.faceoff.distance import sights
from referee.games.faceoff.flow import Frame
from referee.games.faceoff.movement import blocked_for, path_json, steps_ok
from referee.games.faceoff.state import State, flow_controller


def jailable(_: int) -> bool:
    return True  # FO19: the Sheriff too


def window(state: State, frame: Frame) -> dict[str, Any]:
    """The counters of an open window, as ``cardrules`` reads them."""
    return {"used": frame.used, "played": frame.played, "misses": frame.misses, "needed": frame.needed,
            "limbo": state.limbo}


def prompt_moves(state: State, frame: Frame | dict[str, Any]) -> list[Move]:
    """The answers to an open window (its frame, or the frame's JSON as the log writes it):
    BANG!'s (R43–R49, R29, R42), or Kit Carlson's pick (FO50)."""
    if isinstance(frame, dict):
        frame = Frame.from_json(frame)
    if frame.kind == "kit":
        return [{"type": "choose", "card": x} for x in sorted(set(state.limbo))]
    return cardrules.window_moves(state.chars[frame.char], frame.kind, **window(state, frame))


def sid_moves(state: State, char: int) -> list[Move]:
    return cardrules.sid_moves(state.chars[char])


def card_moves(state: State, char: int, card: str, dist: dict[int, int] | None = None) -> list[Move]:
    """BANG!'s plays of ``card`` (R18–R40) at path distance, no BANG! limit (FO18), the Sheriff jailable (FO19)."""
    if dist is None:
        dist = sights(state, char)
    return cardrules.card_moves(state.chars[char], card, dist, state.chars, bang_ok=True, jailable=jailable)


def legal_moves(state: State | None, seat: int, memo: Memo | None = None) -> list[Move]:
    """Every move ``apply`` accepts from ``seat`` now, in a stable order (none before the setup);
    computed once per state and seat (kept in the game's ``memo`` under
    ``seat``; the caller must not change the list)."""
    if state is None:
        return []
    kept = fresh(memo).of(state)
    known: list[Move] | None = kept.get(seat)
    if known is None:
        known = listed(state, seat)
        if known:  # FO58: an awaited seat may always resign, listed last
            known.append(RESIGN_MOVE)
        kept[seat] = known
    return known


def listed(state: State, seat: int) -> list[Move]:
    """``legal_moves`` afresh, but for the resignation: the open window's
    answers, the bid's or the placement's, or the active character's phase's."""
    if state.result is not None:
        return []
    f = state.flow
    top = top_prompt(f.stack)
    if top is not None:
        return prompt_moves(state, top) if flow_controller(state, top.char) == seat else []
    by_seat = _SEAT_PHASES.get(f.phase)
    if by_seat is not None:
        return by_seat(state, seat)
    c = f.active
    by_char = _TURN_PHASES.get(f.phase)
    if by_char is None or flow_controller(state, c) != seat:
        return []
    return by_char(state, c)


def _bid_moves(state: State, seat: int) -> list[Move]:
    """FO33: one card of the seat's own character's hand, once."""
    if seat not in state.flow.bidders or state.bids[seat] is not None:
        return []
    return [{"type": "bid", "card": x} for x in sorted(state.chars[state.own_char(seat)].hand)]


def _place_moves(state: State, seat: int) -> list[Move]:
    """FO37: the placer's squares for the spare nugget."""
    if seat != state.flow.placer:
        return []
    return [{"type": "place", "square": [x, y]} for x, y in place_squares(state, seat)]


def _move_moves(state: State, char: int) -> list[Move]:
    """FO11–FO14: phase 1's paths."""
    return [{"type": "move", "path": path_json(p)}
            for p in board.phase1_paths(state.rows, state.chars[char].pos, blocked_for(state, char))]


def _special_draws(state: State, char: int) -> list[Move]:
    """FO53: Pedro Ramirez from the brown discard, Jesse Jones from a hand, in the first slot only."""
    ch = state.chars[char]
    out: list[Move] = []
    if state.flow.drew != 0:
        return out
    if ch.name == PEDRO_RAMIREZ and state.brown_discard:
        out.append({"type": "draw", "source": "discard"})
    if ch.name == JESSE_JONES:
        out.extend({"type": "draw", "source": "hand", "target": target} for target in range(3)
                   if target != char and state.chars[target].hand)
    return out


def _phase2_moves(state: State, char: int) -> list[Move]:
    """FO15: a slot draws or walks up to 2 steps (Willy the Kid 3, FO51)."""
    out: list[Move] = [{"type": "draw", "source": "deck"}, *_special_draws(state, char)]
    out.extend({"type": "walk", "path": path_json(p)}
               for p in board.upto_paths(state.rows, state.chars[char].pos, blocked_for(state, char), state.flow.walk))
    return out


def _play_moves(state: State, char: int) -> list[Move]:
    """FO17: phase 3's card plays, Sid Ketchum's ability (R72), the turn's end."""
    out: list[Move] = []
    dist = sights(state, char)
    for card in sorted(state.chars[char].hand):
        out.extend(card_moves(state, char, card, dist))
    out.extend(sid_moves(state, char))
    out.append({"type": "end_turn"})
    return out


def _discard_moves(state: State, char: int) -> list[Move]:
    """FO20: phase 4 discards one card at a time."""
    return [{"type": "discard", "card": x} for x in sorted(set(state.chars[char].hand))]


#: the phases whose moves are a seat's, not the active character's (FO33, FO37)
_SEAT_PHASES: dict[str, Callable[[State, int], list[Move]]] = {"bid": _bid_moves, "place": _place_moves}
#: the active character's phases that wait for a move (FO11, FO15, FO17, FO20)
_TURN_PHASES: dict[str, Callable[[State, int], list[Move]]] = {
    "move": _move_moves, "phase2": _phase2_moves, "play": _play_moves, "discard": _discard_moves}


def to_act(state: State | None, memo: Memo | None = None) -> set[int]:
    """The seats whose move is awaited (FO31, FO33, FO37); none before the setup and after the end.
    Nothing of it is kept in the ``memo``."""
    if state is None or state.result is not None:
        return set()
    f = state.flow
    top = top_prompt(f.stack)
    if top is not None:
        seat = flow_controller(state, top.char)
        return {seat} if seat >= 0 else set()
    if f.phase == "bid":
        return {x for x in f.bidders if state.bids[x] is None}
    if f.phase == "place":
        return {f.placer}
    seat = flow_controller(state, f.active)
    return {seat} if seat >= 0 else set()


def offered(state: State, seat: int, move: Move, memo: Memo | None = None) -> bool:
    """Whether ``legal_moves(s, seat)`` holds ``move``: in the list the
    game's ``memo`` holds if a view listed them already, else without
    listing every legal move where one kind of move can be checked alone: a
    card's plays (not every card's), a walk or a full phase-1 move step by
    step (not every path)."""
    memo = fresh(memo)
    known: list[Move] | None = memo.of(state).get(seat)
    if known is not None:
        return move in known
    alone = _checked_alone(state, seat, move)
    return move in legal_moves(state, seat, memo) if alone is None else alone


def _checked_alone(state: State, seat: int, move: Move) -> bool | None:
    """``offered`` for a play, a walk or a 2-step phase-1 move of the seat's turn; ``None``: list them."""
    flow = state.flow
    kind = move.get("type")
    if state.result is not None or kind not in ("play", "walk", "move") or top_prompt(flow.stack) is not None:
        return None
    active = flow.active
    if flow.phase in ("bid", "place") or flow_controller(state, active) != seat:
        return None
    if kind == "play" and flow.phase == "play":
        card = move.get("card")
        return isinstance(card, str) and card in state.chars[active].hand and move in card_moves(state, active, card)
    return _path_checked(state, active, move)


def _path_checked(state: State, char: int, move: Move) -> bool | None:
    """``offered`` for a phase-2 walk of ``char``'s, or its phase-1 move of 2 steps, checked step by
    step (FO12, FO14, FO15); ``None``: list them."""
    flow = state.flow
    kind = move.get("type")
    path = move.get("path")
    if kind == "walk" and flow.phase == "phase2":
        return steps_ok(state, char, path, flow.walk)
    if kind == "move" and flow.phase == "move" and isinstance(path, list) and len(path) == 2:
        return steps_ok(state, char, path, 2)  # FO14: 2 steps whenever any 2-step path exists
    return None


def default_options(state: State, seat: int, memo: Memo | None = None) -> list[Move]:
    """The timeout's default for ``seat`` (FO9): never a resignation (FO58)."""
    moves = [m for m in legal_moves(state, seat, memo) if m["type"] != RESIGN]
    if not moves:
        return []
    top = top_prompt(state.flow.stack)
    if top is not None:
        return moves[:1] if top.kind in ("store", "kit", "lucky") else [{"type": "pass"}]
    phase = state.flow.phase
    if phase in ("move", "bid", "place"):
        return list(moves)
    if phase == "phase2":
        return [{"type": "draw", "source": "deck"}]
    if phase == "play":
        return [{"type": "end_turn"}]
    return moves[:1]


def default_move(state: State, seat: int) -> Move | None:
    """The timeout's default for ``seat`` (FO9), the first of ``default_options``; ``None``: none."""
    options = default_options(state, seat)
    return options[0] if options else None
