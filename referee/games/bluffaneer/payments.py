"""Moving coins (F5, F11–F14, F16, F22, F23) with the shortfall rule (F26)."""
from __future__ import annotations

from collections.abc import Sequence

from referee.games.bluffaneer.context import Draft
from referee.games.bluffaneer.fold import COINS_MOVED
from referee.games.bluffaneer.state import Seat

#: (payer, payee or ``None`` for the box, coins owed)
Owed = tuple[Seat, Seat | None, int]


def pay(draft: Draft, rule: str, owed: Sequence[Owed]) -> None:
    """Carry out the payments in order as one ``coins_moved`` event: each
    payer gives what he owes, or all he has left if that is less; the rest
    is forgiven (F26). Nothing ever leaves the box (F5)."""
    coins = list(draft.state.coins)
    transfers = []
    for payer, payee, amount in owed:
        paid = min(amount, coins[payer])
        coins[payer] -= paid
        if payee is not None:
            coins[payee] += paid
        transfers.append({"from": payer, "to": payee, "owed": amount, "amount": paid})
    draft.emit(COINS_MOVED, rule=rule, transfers=transfers)


def everyone_pays_roller(draft: Draft) -> None:
    """Double chests: every other player gives the roller 1 coin (F11)."""
    roller = draft.state.turn
    pay(draft, "F11", [(seat, roller, 1) for seat in draft.state.others(roller)])


def steal(draft: Draft, rule: str, target: Seat, amount: int) -> None:
    """Double swords (2) or ships (3): the target gives the roller that many
    coins, or all he has (F12, F13, F26)."""
    pay(draft, rule, [(target, draft.state.turn, amount)])


def roller_pays_everyone(draft: Draft) -> None:
    """Double skull: the roller gives 1 coin to each other player, clockwise
    from his left, until he has none left (F14)."""
    roller = draft.state.turn
    pay(draft, "F14", [(roller, seat, 1) for seat in draft.state.others(roller)])


def others_pay_box(draft: Draft) -> None:
    """Roller's own match: every other player returns 1 coin to the box (F16)."""
    pay(draft, "F16", [(seat, None, 1) for seat in draft.state.others(draft.state.turn)])
