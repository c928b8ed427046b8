"""Phase 2 and 3 (R11, R12): playing cards (R18–R40), Sid Ketchum's ability
(R72), ending phase 2 and the hand-limit discard."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee.games.bang.context import Ctx, TurnEnds
from referee.games.bang.distance import distances_from
from referee.games.bang.flow import apply_effects
from referee.games.bang.roles import SHERIFF
from referee.games.bang.state import Player, Seat, State, clockwise_from
from referee.games.cards import rules as cardrules
from referee.games.cards.deck import KEY
from referee.games.cards.moves import Play

#: a move as JSON, as the legal moves list it
JsonMove = dict[str, Any]

def bang_allowed(state: State, player: Player) -> bool:
    """R18: one BANG! per turn unless Willy the Kid or a Volcanic in play."""
    return cardrules.bang_allowed(player, state.bangs)


def _jailable(state: State) -> Callable[[Seat], bool]:
    """R38: anyone but the Sheriff (the 3-player game has none, R82)."""
    players, three = state.players, state.three_player
    return lambda target: three or players[target].role != SHERIFF


def card_moves(state: State, seat: Seat, card: str, dist: dict[Seat, int] | None = None) -> list[JsonMove]:
    """Every legal phase-2 ``play`` move of ``card`` from ``seat``'s hand."""
    player = state.players[seat]
    if dist is None and KEY[card] in cardrules.TARGETED:
        dist = distances_from(state, seat)
    return cardrules.card_moves(player, card, dist or {}, state.players, bang_ok=bang_allowed(state, player),
                                jailable=_jailable(state))


def why_not(state: State, seat: Seat, move: Play) -> tuple[str, str, str]:
    """(code, rule, detail) for a ``play`` that ``card_moves`` does not offer."""
    player = state.players[seat]
    return cardrules.why_not_play(player, move, distances_from(state, seat), state.players,
                                  bang_ok=bang_allowed(state, player), jailable=_jailable(state))


def play_moves(state: State, seat: Seat) -> list[JsonMove]:
    """Every phase-2 move: plays, Sid Ketchum's ability, end of phase 2."""
    player = state.players[seat]
    dist = distances_from(state, seat)
    out: list[JsonMove] = []
    for card in sorted(player.hand):
        out.extend(card_moves(state, seat, card, dist))
    out.extend(cardrules.sid_moves(player))
    out.append({"type": "end_turn"})
    return out


def discard_moves(player: Player) -> list[JsonMove]:
    """Phase 3: discard one card of the excess (R12), in hand order.

    RULING: the excess is discarded one card per move, until the hand is
    down to life. The outcome is the same as choosing the set at once, but
    the legal moves stay as few as the cards in hand: every set would be
    C(hand, life) moves — millions for a hand Vulture Sam (R75) or a
    scenario could build."""
    if len(player.hand) <= max(player.life, 0):
        return []
    return [{"type": "discard", "cards": [card]} for card in player.hand]


# --- effects -----------------------------------------------------------------

def play(ctx: Ctx, seat: Seat, move: Play) -> None:
    """Play a card in phase 2 (R21–R40): the card engine's effects, at this
    table (play order clockwise, R45; Beer heals but with two left, R25)."""
    state = ctx.state
    target = move.target
    apply_effects(ctx, cardrules.card_effects(state.players[seat], seat, move.card, -1 if target is None else target,
                                              move.pick, order=clockwise_from(state, seat, True),
                                              beer_heals=ctx.beer_heals()))


def sid(ctx: Ctx, seat: Seat, cards: Sequence[str]) -> None:
    """Sid Ketchum's ability (R72)."""
    apply_effects(ctx, cardrules.sid(seat, cards))


def end_turn(ctx: Ctx, seat: Seat) -> None:
    """End of phase 2; phase 3 only if the hand exceeds life (R12)."""
    player = ctx.state.players[seat]
    if len(player.hand) > player.life:
        ctx.phase = "discard"
        return
    raise TurnEnds


def discard(ctx: Ctx, seat: Seat, cards: Sequence[str]) -> None:
    """Phase 3: discard one card of the excess; once the hand is down to
    life, the turn passes (R12)."""
    ctx.emit("card_discarded", {"seat": seat, "cards": list(cards), "reason": "hand_limit"})
    player = ctx.state.players[seat]
    if len(player.hand) <= max(player.life, 0):
        raise TurnEnds
