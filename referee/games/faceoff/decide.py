"""Applying an accepted move (FO9–FO58): the answer to an open window, a
bid or a placement, or a move of the active character's turn; then the
agenda runs until a move is awaited again."""
from __future__ import annotations

from collections.abc import Callable

from referee.engine.platform import RESIGN
from referee.engine.protocol import Event
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.cards import rules as cardrules
from referee.games.cards.characters import BLACK_JACK, KIT_CARLSON
from referee.games.cards.deck import red
from referee.games.faceoff import bid
from referee.games.faceoff.context import Ctx, GameOver, Move, TurnEnds, store_next, top_prompt
from referee.games.faceoff.elimination import game_over
from referee.games.faceoff.flow import Frame, frame_but
from referee.games.faceoff.legal import offered
from referee.games.faceoff.movement import walk
from referee.games.faceoff.refusals import why_not
from referee.games.faceoff.runner import advance, run
from referee.games.faceoff.state import State
from referee.games.faceoff.turn import after_slot, apply_effects, check, phase2, to_discard


def apply(s: State, seat: int, move: Move, rng: Rng, memo: Memo | None = None) -> tuple[list[Event], State]:
    """The events of ``seat``'s ``move`` and the state they fold to; ``IllegalMove`` if not offered
    (``legal.offered``, which finds the seat's legal moves in the game's ``memo`` if a view listed them)."""
    if not offered(s, seat, move, memo):
        raise why_not(s, seat, move)
    ctx = Ctx(s, rng)
    try:
        try:
            _apply(ctx, seat, move)
        except TurnEnds:
            advance(ctx)
        run(ctx)
        ctx.flush()
    except GameOver:
        pass
    return ctx.events, ctx.state


def _apply(ctx: Ctx, seat: int, m: Move) -> None:
    kind = m["type"]
    if kind == RESIGN:  # FO58: the resigning player loses, the other wins, at once
        game_over(ctx, [1 - seat], "resigned", resigned=seat)
    if top_prompt(ctx.stack) is not None:
        _answer(ctx, m)
    elif kind == "bid":
        bid.bid(ctx, seat, m["card"])
    elif kind == "place":
        bid.place(ctx, seat, m["square"])
    else:
        step = _TURN_MOVES.get(kind)
        if step is not None:
            step(ctx, ctx.flow.active, m)


def _move(ctx: Ctx, c: int, m: Move) -> None:
    """FO11–FO14: phase 1's move, then phase 2."""
    walk(ctx, c, m["path"], 1)
    phase2(ctx, c)


def _walk(ctx: Ctx, c: int, m: Move) -> None:
    """FO15: a phase-2 slot's walk."""
    walk(ctx, c, m["path"], 2)
    after_slot(ctx, c)


def _play(ctx: Ctx, c: int, m: Move) -> None:
    """Phase 3 (FO17–FO30): the card engine's effect, on the board."""
    apply_effects(ctx, cardrules.play_card(ctx.state.chars[c], c, m, order=ctx.order(c), beer_heals=True))  # FO23


def _sid(ctx: Ctx, c: int, m: Move) -> None:
    apply_effects(ctx, cardrules.sid(c, m["cards"]))  # R72 (FO53)


def _end_turn(ctx: Ctx, c: int, m: Move) -> None:
    to_discard(ctx, c)  # FO20


def _discard(ctx: Ctx, c: int, m: Move) -> None:
    """FO20: one card over the hand limit."""
    ctx.emit("card_discarded", {"char": c, "cards": [m["card"]], "reason": "hand_limit"})
    to_discard(ctx, c)


def _draw_slot(ctx: Ctx, c: int, m: Move) -> None:
    """FO15: a phase-2 slot's draw: Pedro Ramirez's, Jesse Jones's (FO53), Kit Carlson's (FO50) or the deck's."""
    first = ctx.flow.drew == 0
    ctx.flow.drew += 1
    src = m.get("source")
    if src == "discard":
        _pedro(ctx, c)
    elif src == "hand":
        _jesse(ctx, c, m["target"])
    elif ctx.state.chars[c].name == KIT_CARLSON:
        if _kit(ctx, c, first):
            return
    else:
        _deck(ctx, c, first)
    after_slot(ctx, c)


def _pedro(ctx: Ctx, c: int) -> None:
    """Pedro Ramirez (FO53): the top of the brown discard."""
    card = ctx.state.brown_discard[-1]
    ctx.emit("cards_drawn", {"char": c, "cards": [card], "count": 1, "from": "brown_discard",
                             "reason": "pedro_ramirez", "seen_by": [0, 1]})


def _jesse(ctx: Ctx, c: int, t: int) -> None:
    """Jesse Jones (FO53): a random card of ``t``'s hand."""
    hand = ctx.state.chars[t].hand
    card = hand[ctx.rng.below(len(hand))]
    ctx.emit("card_taken", {"char": c, "from": t, "card": card, "zone": "hand", "reason": "jesse_jones",
                            "seen_by": ctx.viewers(c)})


def _kit(ctx: Ctx, c: int, first: bool) -> bool:
    """FO50: Kit Carlson looks at 3 and keeps one per draw slot; whether a pick now waits."""
    if first:
        ctx.reveal(c, "kit_carlson", 3 - len(ctx.state.limbo), ctx.viewers(c))
    if ctx.state.limbo:
        ctx.stack.append(Frame("kit", c))
        return True
    return False


def _deck(ctx: Ctx, c: int, first: bool) -> None:
    """A card of the brown deck; Black Jack shows his first and draws again on red (FO52)."""
    got = ctx.draw(c, 1, "draw")
    if first and got and ctx.state.chars[c].name == BLACK_JACK:
        ctx.emit("card_shown", {"char": c, "card": got[0], "reason": "black_jack"})
        if red(got[0]):
            ctx.draw(c, 1, "black_jack")


_TURN_MOVES: dict[str, Callable[[Ctx, int, Move], None]] = {
    "move": _move, "walk": _walk, "draw": _draw_slot, "play": _play, "sid": _sid, "end_turn": _end_turn,
    "discard": _discard}


def _answer(ctx: Ctx, m: Move) -> None:
    """The answer to the open window on top of the agenda."""
    fr = ctx.stack[-1]
    if m["type"] == "sid":
        apply_effects(ctx, cardrules.sid(fr.char, m["cards"]))  # R72 (FO53): at any time
        return
    pick = _PICKS.get(fr.kind)
    if pick is not None:
        ctx.stack.pop()
        pick(ctx, fr, m["card"])
    elif m["type"] == "barrel":  # the shot stays open with this source used; the "draw!" decides (R35, R44)
        ctx.stack.pop()
        ctx.stack.append(frame_but(fr, used=fr.used + (m["source"],)))
        check(ctx, fr.char, "barrel")
    elif m["type"] == "respond":
        c = fr.char
        apply_effects(ctx, cardrules.respond(ctx.state.chars[c], c, m["card"], ctx.window(), beer_heals=True))  # FO23
    else:
        apply_effects(ctx, cardrules.pass_(fr.char, ctx.window()))


def _keep(ctx: Ctx, fr: Frame, card: str) -> None:
    """FO50: Kit Carlson keeps one card, unseen by the other, for this draw slot."""
    ctx.emit("card_picked", {"char": fr.char, "card": card, "public": False, "seen_by": ctx.viewers(fr.char)})
    after_slot(ctx, fr.char)


def _store_pick(ctx: Ctx, fr: Frame, card: str) -> None:
    """FO26: a General Store pick, face up; the next chooser."""
    ctx.emit("card_picked", {"char": fr.char, "card": card, "public": True})
    store_next(ctx, list(fr.rest))


def _lucky_pick(ctx: Ctx, fr: Frame, card: str) -> None:
    """R42: Lucky Duke's chosen card decides, both go to the brown discard."""
    apply_effects(ctx, cardrules.lucky_choice(fr.char, fr.purpose, card, ctx.state.limbo))


_PICKS: dict[str, Callable[[Ctx, Frame, str], None]] = {"kit": _keep, "store": _store_pick, "lucky": _lucky_pick}
