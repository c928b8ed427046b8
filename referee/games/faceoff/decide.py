"""Deciding (FO9–FO58): the events an accepted move causes — the answer to
an open window, a bid or a placement, or a move of the active character's
turn; then the agenda runs until a move is awaited again. The move is the
typed value ``moves.parse`` read (``moves.py``); a move not among the seat's
legal moves is refused (``refusals.why_not``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.moves import TypedMove
from referee.engine.protocol import Event
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.cards import rules as cardrules
from referee.games.cards.characters import BLACK_JACK, KIT_CARLSON
from referee.games.cards.deck import red
from referee.games.cards.moves import Barrel, Choose, Draw, EndTurn, Play, Resign, Respond, Sid
from referee.games.faceoff import bid
from referee.games.faceoff.context import Ctx, store_next, top_prompt
from referee.games.faceoff.elimination import game_over
from referee.games.faceoff.flow import Frame, frame_but
from referee.games.faceoff.legal import offered
from referee.games.faceoff.movement import walk
from referee.games.faceoff.moves import Bid, Discard, FigureMove, Place, Walk
from referee.games.faceoff.refusals import why_not
from referee.games.faceoff.runner import settle
from referee.games.faceoff.state import State
from referee.games.faceoff.turn import after_slot, apply_effects, check, phase2, to_discard


def apply(state: State, seat: int, move: TypedMove, rng: Rng,
          memo: Memo | None = None) -> tuple[list[Event], State]:
    """The events of ``seat``'s ``move`` and the state they fold to; ``IllegalMove`` if not offered
    (``legal.offered``, which finds the seat's legal moves in the game's ``memo`` if a view listed them)."""
    if not offered(state, seat, move.json(), memo):
        raise why_not(state, seat, move)
    ctx = Ctx(state, rng)
    settle(ctx, _apply, ctx, seat, move)
    return ctx.events, ctx.state


def _apply(ctx: Ctx, seat: int, move: TypedMove) -> None:
    if isinstance(move, Resign):  # FO58: the resigning player loses, the other wins, at once
        game_over(ctx, [1 - seat], "resigned", resigned=seat)
    if top_prompt(ctx.stack) is not None:
        _answer(ctx, move)
    elif isinstance(move, Bid):
        bid.bid(ctx, seat, move.card)
    elif isinstance(move, Place):
        bid.place(ctx, seat, [move.square[0], move.square[1]])
    else:  # a move of the active character's turn: its phase's (FO11–FO20)
        step = _TURN_MOVES.get(type(move))
        if step is not None:
            step(ctx, ctx.flow.active, move)


def _move(ctx: Ctx, char: int, move: FigureMove) -> None:
    """FO11–FO14: phase 1's move, then phase 2."""
    walk(ctx, char, list(map(list, move.path)), 1)  # the path as the ``moved`` event writes it
    phase2(ctx, char)


def _walk(ctx: Ctx, char: int, move: Walk) -> None:
    """FO15: a phase-2 slot's walk."""
    walk(ctx, char, list(map(list, move.path)), 2)
    after_slot(ctx, char)


def _play(ctx: Ctx, char: int, move: Play) -> None:
    """Phase 3 (FO17–FO30): the card engine's effect, on the board."""
    apply_effects(ctx, cardrules.play_card(ctx.state.chars[char], char, move, order=ctx.order(char),
                                           beer_heals=True))  # FO23


def _sid(ctx: Ctx, char: int, move: Sid) -> None:
    apply_effects(ctx, cardrules.sid(char, move.cards))  # R72 (FO53)


def _end_turn(ctx: Ctx, char: int, move: EndTurn) -> None:
    to_discard(ctx, char)  # FO20


def _discard(ctx: Ctx, char: int, move: Discard) -> None:
    """FO20: one card over the hand limit."""
    ctx.emit("card_discarded", {"char": char, "cards": [move.card], "reason": "hand_limit"})
    to_discard(ctx, char)


def _draw_slot(ctx: Ctx, char: int, move: Draw) -> None:
    """FO15: a phase-2 slot's draw: Pedro Ramirez's, Jesse Jones's (FO53), Kit Carlson's (FO50) or the deck's."""
    first = ctx.flow.drew == 0
    ctx.flow.drew += 1
    if move.source == "discard":
        _pedro(ctx, char)
    elif move.source == "hand" and move.target is not None:  # a legal draw from a hand names it
        _jesse(ctx, char, move.target)
    elif ctx.state.chars[char].name == KIT_CARLSON:
        if _kit(ctx, char, first):
            return
    else:
        _deck(ctx, char, first)
    after_slot(ctx, char)


def _pedro(ctx: Ctx, char: int) -> None:
    """Pedro Ramirez (FO53): the top of the brown discard."""
    card = ctx.state.brown_discard[-1]
    ctx.emit("cards_drawn", {"char": char, "cards": [card], "count": 1, "from": "brown_discard",
                             "reason": "pedro_ramirez", "seen_by": [0, 1]})


def _jesse(ctx: Ctx, char: int, target: int) -> None:
    """Jesse Jones (FO53): a random card of ``target``'s hand."""
    hand = ctx.state.chars[target].hand
    card = hand[ctx.rng.below(len(hand))]
    ctx.emit("card_taken", {"char": char, "from": target, "card": card, "zone": "hand", "reason": "jesse_jones",
                            "seen_by": ctx.viewers(char)})


def _kit(ctx: Ctx, char: int, first: bool) -> bool:
    """FO50: Kit Carlson looks at 3 and keeps one per draw slot; whether a pick now waits."""
    if first:
        ctx.reveal(char, "kit_carlson", 3 - len(ctx.state.limbo), ctx.viewers(char))
    if ctx.state.limbo:
        ctx.stack.append(Frame("kit", char))
        return True
    return False


def _deck(ctx: Ctx, char: int, first: bool) -> None:
    """A card of the brown deck; Black Jack shows his first and draws again on red (FO52)."""
    got = ctx.draw(char, 1, "draw")
    if first and got and ctx.state.chars[char].name == BLACK_JACK:
        ctx.emit("card_shown", {"char": char, "card": got[0], "reason": "black_jack"})
        if red(got[0]):
            ctx.draw(char, 1, "black_jack")


def _answer(ctx: Ctx, move: TypedMove) -> None:
    """The answer to the open window on top of the agenda."""
    frame = ctx.stack[-1]
    pick = _PICKS.get(frame.kind)
    match move:
        case Sid():
            apply_effects(ctx, cardrules.sid(frame.char, move.cards))  # R72 (FO53): at any time
        case Choose() if pick is not None:
            ctx.stack.pop()
            pick(ctx, frame, move.card)
        case Barrel():  # the shot stays open with this source used; the "draw!" decides (R35, R44)
            ctx.stack.pop()
            ctx.stack.append(frame_but(frame, used=frame.used + (move.source,)))
            check(ctx, frame.char, "barrel")
        case Respond():
            char = frame.char
            apply_effects(ctx, cardrules.respond(ctx.state.chars[char], char, move.card, ctx.window(),
                                                 beer_heals=True))  # FO23
        case _:
            apply_effects(ctx, cardrules.pass_(frame.char, ctx.window()))


def _keep(ctx: Ctx, frame: Frame, card: str) -> None:
    """FO50: Kit Carlson keeps one card, unseen by the other, for this draw slot."""
    ctx.emit("card_picked", {"char": frame.char, "card": card, "public": False, "seen_by": ctx.viewers(frame.char)})
    after_slot(ctx, frame.char)


def _store_pick(ctx: Ctx, frame: Frame, card: str) -> None:
    """FO26: a General Store pick, face up; the next chooser."""
    ctx.emit("card_picked", {"char": frame.char, "card": card, "public": True})
    store_next(ctx, list(frame.rest))


def _lucky_pick(ctx: Ctx, frame: Frame, card: str) -> None:
    """R42: Lucky Duke's chosen card decides, both go to the brown discard."""
    apply_effects(ctx, cardrules.lucky_choice(frame.char, frame.purpose, card, ctx.state.limbo))


#: the moves of the active character's turn by their class, one look-up rather than a match of
#: class patterns (an ``isinstance`` each) at every action
_TURN_MOVES: dict[type[TypedMove], Callable[[Ctx, int, Any], None]] = {
    FigureMove: _move, Walk: _walk, Draw: _draw_slot, Play: _play, Sid: _sid, EndTurn: _end_turn, Discard: _discard}
_PICKS: dict[str, Callable[[Ctx, Frame, str], None]] = {"kit": _keep, "store": _store_pick, "lucky": _lucky_pick}
