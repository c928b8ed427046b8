"""The Renegade bid (FO32–FO37): both players bid a card of their own
character's hand at once; the higher rank controls the Renegade's turn,
the other places a spare nugget first; a tie skips the Renegade."""
from __future__ import annotations

from referee.games.cards.deck import RANK
from referee.games.faceoff import board
from referee.games.faceoff.context import Ctx
from referee.games.faceoff.state import RENEGADE, SHERIFF, State
from referee.games.faceoff.turn import start_turn


def open_bid(ctx: Ctx) -> None:
    """FO33: both players with cards bid at once; nobody: a tie (FO36)."""
    s = ctx.state
    want = [seat for seat in (0, 1) if s.chars[s.own_char(seat)].hand]
    ctx.flow.active = RENEGADE
    ctx.flow.phase = "bid"
    ctx.flow.bidders = tuple(want)
    ctx.flow.controller = -1
    ctx.flow.start = None
    ctx.stack.clear()
    if not want:
        ctx.emit("bids_revealed", {"bids": [None, None], "winner": None})
        new_round(ctx)


def new_round(ctx: Ctx) -> None:
    """FO8: a round starts again with the Sheriff's character."""
    ctx.flow.round += 1
    start_turn(ctx, SHERIFF)


def bid(ctx: Ctx, seat: int, card: str) -> None:
    """FO33, FO34: ``seat``'s bid, hidden; the last one in reveals both."""
    ctx.emit("bid_made", {"seat": seat, "card": card, "seen_by": [seat]})
    if all(ctx.state.bids[x] is not None for x in ctx.flow.bidders):
        settle_bid(ctx)


def settle_bid(ctx: Ctx) -> None:
    """FO35: the higher rank wins the Renegade's turn; FO36: a tie, a new round;
    FO37: the loser places a spare nugget first, if he can."""
    b = ctx.state.bids
    ranks = [RANK[x] if x is not None else -1 for x in b]
    winner = None if ranks[0] == ranks[1] else (0 if ranks[0] > ranks[1] else 1)
    ctx.emit("bids_revealed", {"bids": list(b), "winner": winner})
    if winner is None:
        new_round(ctx)
        return
    ctx.flow.controller = winner
    loser = 1 - winner
    if ctx.state.reserve > 0 and place_squares(ctx.state, loser):
        ctx.flow.phase = "place"
        ctx.flow.placer = loser
        return
    ctx.flow.placer = -1
    start_turn(ctx, RENEGADE)


def place(ctx: Ctx, seat: int, square: list[int]) -> None:
    """FO37: the spare nugget placed, the Renegade's turn begins."""
    ctx.emit("nugget_placed", {"seat": seat, "square": square})
    ctx.flow.placer = -1
    start_turn(ctx, RENEGADE)


def place_squares(state: State, seat: int) -> list[board.Square]:
    """FO37: free floor squares at path distance ≥ 3 from the placer's figure."""
    me = state.chars[state.own_char(seat)].pos
    dist = board.bfs(state.rows, me)
    figures = {ch.pos for ch in state.chars}
    nug = set(state.nuggets)
    return sorted(((sq for sq, d in dist.items() if d >= 3 and sq not in figures and sq not in nug)),
                  key=lambda square: (square[1], square[0]))
