"""Why a move is refused (FO9, FO11–FO20, FO31, FO33, FO37, FO38, FO50):
the open window's answer as BANG!'s card engine refuses it, else the
refusal of the move's kind in the phase; every code and sentence is part
of the API (clients show them)."""
from __future__ import annotations

from referee.engine.moves import TypedMove
from referee.engine.protocol import IllegalMove
from referee.games.cards import rules as cardrules
from referee.games.cards.moves import Draw, EndTurn, Play, Sid
from referee.games.faceoff.context import refuse, top_prompt
from referee.games.faceoff.distance import sights
from referee.games.faceoff.flow import Frame
from referee.games.faceoff.legal import jailable, window
from referee.games.faceoff.moves import Bid, Discard, FigureMove, Place, Walk
from referee.games.faceoff.state import State


def why_not(state: State, seat: int, move: TypedMove) -> IllegalMove:
    """The refusal of ``move`` from ``seat``, which ``legal_moves`` does not hold."""
    kind = move.TYPE
    top = top_prompt(state.flow.stack)
    if top is not None:
        return _not_the_answer(state, top, move)
    if state.flow.phase == "discard" and kind != "discard":
        return refuse("discard_first", "FO20", "phase 4: discard down to your life first")
    out = _of_kind(state, move)
    return out if out is not None else refuse("not_now", "FO9", f"a {kind} move is not possible now")


def _not_the_answer(state: State, top: Frame, move: TypedMove) -> IllegalMove:
    """FO31: a window awaits its answers (R43–R49 as the card engine refuses them); FO50: Kit Carlson's pick."""
    if top.kind != "kit":
        why = cardrules.why_not_answer(state.chars[top.char], top.kind, move.to_json(), **window(state, top))
        if why is not None:
            return refuse(*why)
    awaited = ("choose one of the cards you look at" if top.kind == "kit"
               else ", ".join(cardrules.WINDOW_MOVES[top.kind]))
    return refuse("not_now", "FO31" if move.TYPE != "choose" else "FO50",
                  f"a {top.kind} decision is awaited: " + awaited)


def _move(state: State, move: FigureMove) -> IllegalMove:
    """FO11: phase 1 only; FO12, FO14: exactly 2 legal steps."""
    if state.flow.phase != "move":
        return refuse("not_in_phase_1", "FO11", "phase 1 movement is over")
    return refuse("illegal_path", "FO14" if len(move.path) < 2 else "FO12",
                  "phase 1 is exactly 2 legal steps (fewer only when blocked), never onto rock, "
                  "figures or the turn-start square")


def _slot(state: State, move: Walk | Draw) -> IllegalMove:
    """FO15: a phase-2 slot walks legal steps (FO12) or draws; special draws once, first (FO53)."""
    if state.flow.phase != "phase2":
        return refuse("not_in_phase_2", "FO15", "phase 2 is over or not begun")
    walk = move.TYPE == "walk"
    return refuse("illegal_path" if walk else "illegal_draw", "FO12" if walk else "FO15",
                  "up to 2 legal steps per slot (Willy the Kid 3); special draws once, first")


def _bid(state: State, move: Bid) -> IllegalMove:
    return refuse("illegal_bid", "FO33", "bid one card of your own character's hand, once, in the bid")


def _place(state: State, move: Place) -> IllegalMove:
    return refuse("illegal_square", "FO37", "a free floor square at path distance 3 or more from your figure")


def _play(state: State, move: Play) -> IllegalMove:
    """FO17: cards in phase 3, FO38: the active character's own, as BANG! refuses a play (FO21: path distance)."""
    if state.flow.phase != "play":
        return refuse("not_in_phase_3", "FO17", "cards are played in phase 3")
    c = state.flow.active
    if move.card not in state.chars[c].hand:
        return refuse("card_not_in_hand", "FO38", "only the active character's hand may be played")
    return refuse(*cardrules.why_not_play(state.chars[c], move.to_json(), sights(state, c), state.chars, bang_ok=True,
                                          jailable=jailable, target_rule="FO38", range_rule="FO21"))


def _sid(state: State, move: Sid) -> IllegalMove | None:
    """R72 (FO53): Sid Ketchum's two discards, as BANG! refuses them; ``None``: not now (FO9)."""
    why = cardrules.why_not_sid(state.chars[state.flow.active], list(move.cards))
    return refuse(*why) if why is not None else None


def _discard(state: State, move: Discard) -> IllegalMove:
    return refuse("no_discard_now", "FO20", "discard only in phase 4, down to life")


def _end_turn(state: State, move: EndTurn) -> IllegalMove:
    return refuse("not_in_phase_3", "FO17", "end_turn ends phase 3")


def _of_kind(state: State, move: TypedMove) -> IllegalMove | None:
    """The refusal of ``move``'s type outside its phase, or of what its phase does not allow."""
    match move:
        case FigureMove():
            return _move(state, move)
        case Walk() | Draw():
            return _slot(state, move)
        case Bid():
            return _bid(state, move)
        case Place():
            return _place(state, move)
        case Play():
            return _play(state, move)
        case Sid():
            return _sid(state, move)
        case Discard():
            return _discard(state, move)
        case EndTurn():
            return _end_turn(state, move)
    return None
