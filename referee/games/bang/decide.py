"""Deciding (R43, R77): a parsed move by an awaited seat -> the events it causes.

``play`` is the only place a rule says no. The base's shared checks
come first (``RulesetBase.decide_and_fold``): the move's shape
(``moves.parse``), the game is not over (R57), ``timeout`` (the system's
only move, which BANG! always refuses: no rule has a clock of its own, R77),
that the referee awaits this seat (``refuse_out_of_turn``: R43, R11); then
``play``: that the move fits the open prompt or phase, and the rule itself.
Who acts and the legal moves are ``legal.py``'s.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.protocol import Event, IllegalMove, OutOfTurn
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.bang import reactions, turn
from referee.games.bang.cache import derived
from referee.games.bang.context import Ctx, GameOver, may_resign, resign
from referee.games.bang.flow import act
from referee.games.bang.legal import to_act
from referee.games.bang.moves import BangMove, Discard, Keep
from referee.games.bang.state import Frame, Seat, State
from referee.games.cards import rules as cardrules
from referee.games.cards.characters import JESSE_JONES, PEDRO_RAMIREZ
from referee.games.cards.moves import Barrel, Choose, Draw, EndTurn, Pass, Play, Resign, Respond, Sid

Json = dict[str, Any]

#: window kind -> the rule that governs it (the card windows are ``cardrules``')
WINDOW_RULE = {**cardrules.WINDOW_RULE, "kit": "R67", "draw_choice": "R10"}
WINDOW_MOVES = {**cardrules.WINDOW_MOVES, "kit": ("keep",), "draw_choice": ("draw",)}


def _no(code: str, rule: str, detail: str) -> IllegalMove:
    return IllegalMove(code, rule=rule, detail=detail)


def _sid(state: State, seat: Seat, cards: tuple[str, ...]) -> Callable[[Ctx], None]:
    """Sid Ketchum's ability (R72): in his phase 2 and in any window he answers."""
    refusal = cardrules.why_not_sid(state.players[seat], cards)
    if refusal is not None:
        raise _no(*refusal)
    return lambda ctx: turn.sid(ctx, seat, cards)


def _validate(state: State, seat: Seat, move: BangMove, known: tuple[Json, ...] | None) -> Callable[[Ctx], None]:
    """What ``move`` from ``seat`` does, once it fits the open prompt or phase
    and its rule (a refusal otherwise): resigning (R85), a move of one's own
    turn (R11, R12) or an answer to the open window (R43). ``known``: the
    seat's legal moves if a view listed them already (``None``: not known)."""
    if isinstance(move, Resign):
        return _resign(state, seat)
    top = state.top()
    if top is None:
        return _own_turn(state, seat, move, known)
    return _answer(state, seat, move, top)


def _resign(state: State, seat: Seat) -> Callable[[Ctx], None]:
    """R85: resigning, where the rules let a player resign."""
    if not may_resign(state, seat):
        raise _no("not_now", "R85", "you may resign in your own phases 2 and 3 and when you answer a shot, "
                  "Indians!, a Duel, your dying or your phase-1 choice, not while you pick a card turned up")
    return lambda ctx: resign(ctx, seat)


def _own_turn(state: State, seat: Seat, move: BangMove, known: tuple[Json, ...] | None) -> Callable[[Ctx], None]:
    """A move of the player whose turn it is, no window open: phase 3's
    discards (R12), else phase 2 (R11, R13): end it, Sid Ketchum (R72), a card."""
    if state.phase == "discard":
        return _discard(state, seat, move)
    match move:
        case EndTurn():
            return lambda ctx: turn.end_turn(ctx, seat)
        case Sid(cards=cards):
            return _sid(state, seat, cards)
        case Play():
            return _play(state, seat, move, known)
    raise _no("not_now", "R13", f"no window is open: '{move.TYPE}' is not a phase-2 move")


def _discard(state: State, seat: Seat, move: BangMove) -> Callable[[Ctx], None]:
    """R12: phase 3, one card of the hand at a time down to life (RULING: keeps the legal moves few)."""
    if not isinstance(move, Discard):
        raise _no("discard_required", "R12", "phase 3: discard down to your life points")
    player = state.players[seat]
    cards = move.cards
    if not all(card in player.hand for card in cards):
        raise _no("card_not_in_hand", "R12", "you can discard only cards from your hand")
    excess = len(player.hand) - player.life
    if len(cards) != 1:
        raise _no("wrong_discard_count", "R12", f"discard one card at a time: {excess} still to discard")
    return lambda ctx: turn.discard(ctx, seat, cards)


def _play(state: State, seat: Seat, move: Play, known: tuple[Json, ...] | None) -> Callable[[Ctx], None]:
    """R11: a card of the hand, played as its rule allows (R18–R40; ``turn.why_not`` names the refusal);
    ``known``: the seat's legal moves, if a view listed them already (else the card's moves are found)."""
    card = move.card
    if card not in state.players[seat].hand:
        raise _no("card_not_in_hand", "R11", f"{card} is not in your hand")
    if move.json() not in (known if known is not None else turn.card_moves(state, seat, card)):
        code, rule, detail = turn.why_not(state, seat, move)
        raise _no(code, rule, detail)
    return lambda ctx: turn.play(ctx, seat, move)


def _answer(state: State, seat: Seat, move: BangMove, top: Frame) -> Callable[[Ctx], None]:
    """An answer to the open window ``top`` (R43): a move it accepts, then
    the card windows' rules (``cardrules.why_not_answer``), Kit Carlson's
    keep (R67) or a phase-1 draw choice (R65, R70)."""
    kind = top.kind
    if move.TYPE not in WINDOW_MOVES[kind]:
        raise _no("not_now", "R13" if isinstance(move, Play) else WINDOW_RULE[kind],
                  f"the open {kind} window accepts {', '.join(WINDOW_MOVES[kind])}")
    match move:
        case Pass():
            return lambda ctx: reactions.pass_(ctx, seat)
        case Sid(cards=cards):
            return _sid(state, seat, cards)
    if kind in cardrules.WINDOW_RULE:
        return _card_answer(state, seat, move, top)
    if isinstance(move, Keep):
        return _keep(state, seat, move.cards)
    if isinstance(move, Draw):
        return _draw_choice(state, seat, move)
    raise AssertionError(f"{kind} accepts {move.TYPE}: WINDOW_MOVES and the answers disagree")  # a bug, never input


def _card_answer(state: State, seat: Seat, move: BangMove, top: Frame) -> Callable[[Ctx], None]:
    """A Missed!, BANG!, Beer, Barrel or pick answering a card's window (R24–R49)."""
    refusal = cardrules.why_not_answer(state.players[seat], top.kind, move, used=top.used, played=top.played,
                                       misses=top.misses, needed=top.needed, limbo=state.limbo)
    if refusal is not None:
        raise _no(*refusal)
    match move:
        case Respond(card=card):
            return lambda ctx: reactions.respond(ctx, seat, card)
        case Barrel(source=source):
            return lambda ctx: reactions.barrel(ctx, seat, source)
        case Choose(card=card):
            return lambda ctx: reactions.choose(ctx, seat, card)
    raise AssertionError(f"{top.kind} accepts {move.TYPE}: WINDOW_MOVES and the answers disagree")


def _keep(state: State, seat: Seat, cards: tuple[str, ...]) -> Callable[[Ctx], None]:
    """Kit Carlson keeps two of the three cards he looked at (R67)."""
    if not all(card in state.limbo for card in cards):
        raise _no("not_offered", "R67", "keep two of the three cards you looked at")
    return lambda ctx: reactions.keep(ctx, seat, cards)


def _draw_choice(state: State, seat: Seat, move: Draw) -> Callable[[Ctx], None]:
    """Phase 1's choice: Pedro Ramirez from the discard pile (R70), Jesse
    Jones from another alive player's hand (R65), else the deck (R10)."""
    player = state.players[seat]
    source = move.source
    target = move.target if move.target is not None else -1
    if source == "discard" and (player.character != PEDRO_RAMIREZ or not state.discard):
        raise _no("invalid_source", "R70", "only Pedro Ramirez draws from a non-empty discard pile")
    if source == "hand":
        if player.character != JESSE_JONES:
            raise _no("invalid_source", "R65", "only Jesse Jones draws from another player's hand")
        if not (0 <= target < state.n) or target == seat or not state.players[target].alive \
                or not state.players[target].hand:
            raise _no("invalid_target", "R65", "another alive player with cards in hand")
    return lambda ctx: reactions.draw_from(ctx, seat, source, target)


def refuse_out_of_turn(state: State, actor: Seat) -> OutOfTurn:
    """A move from a seat the referee does not await: the open prompt's
    seat answers it (R43), else the player whose turn it is plays (R11)."""
    top = state.top()
    return OutOfTurn("not_your_turn", rule="R43" if top is not None else "R11",
                     detail=f"the referee awaits seat(s) {sorted(to_act(state))}")


def play(state: State, actor: Seat, move: BangMove, *, rng: Rng,
         memo: Memo | None = None) -> tuple[list[Event], State]:
    """The events ``move`` (parsed: ``moves.parse``) by ``actor`` causes and
    the state they fold to (R77), past the base's checks (the game is on, the referee awaits
    ``actor``): the move must fit the open prompt or phase, then the rule. A card played
    is checked against ``actor``'s legal moves where the game's ``memo`` holds them already
    (a view listed them), else against that card's moves alone."""
    known = derived(state, memo).legal.get(actor) if memo is not None else None
    effect = _validate(state, actor, move, known)
    ctx = Ctx(state, rng)
    try:
        act(ctx, effect)
        ctx.finish()
    except GameOver:
        pass
    return ctx.events, ctx.state
