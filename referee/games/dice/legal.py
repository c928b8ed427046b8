"""Whom the referee awaits (``to_act``), the legal answers and the
rule-defined defaults (D73); the prompt the referee publishes is
``prompts``'.

What the prompt and the views derive from one immutable ``State`` is
computed once per state and kept in the game's memo
(``referee.engine.statecache.Memo``: ``memo.of(state)``; none given: a
fresh one). Keys: ``"choices"`` (the awaited seat's legal answers, D73),
``"legal"`` (those and ``resign``), ``"pending"`` (the prompt every viewer
sees alike), ``"public"`` (``views.public_view``) and ``"encoded"``
(``views._Encoded``: the view's shared members encoded, and every seat's
encoded view, each handed to its own seat alone: D7, a seat's own role is
in its own view only). Everything else kept is what every viewer may see
(D73: the prompt shows the answers); values are shared: do not mutate them."""
from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from referee.engine.platform import RESIGN
from referee.engine.protocol import Move
from referee.engine.statecache import Memo, fresh
from referee.games.dice.dice_faces import COWARD, LOUDMOUTH
from referee.games.dice.flow import can_double
from referee.games.dice.state import Seat, State

#: D75: giving the game up, listed last in every awaited seat's legal moves (never a default)
RESIGN_MOVE: Move = {"type": RESIGN}


def to_act(state: State, memo: Memo | None = None) -> set[Seat]:
    """The seat whose decision the referee awaits (D73); none once the game is over (the rules find
    nothing they need in ``memo``)."""
    if state.over or state.prompt_seat is None:
        return set()
    return {state.prompt_seat}


def _clockwise(state: State, start: int, seats: list[int]) -> list[int]:
    """``seats`` ordered clockwise from ``start`` (D73's default order)."""
    return sorted(seats, key=lambda seat: (seat - start) % state.players)


def choices(state: State, memo: Memo | None = None) -> list[Move]:
    """Every legal answer to the prompt, in a stable order; computed once
    per state (kept in the game's ``memo``): shared, the caller must not change the list
    or its moves. Every viewer may see them (D73: the prompt shows them)."""
    kept = fresh(memo).of(state)
    out: list[Move] | None = kept.get("choices")
    if out is None:
        out = kept["choices"] = _choices(state)
    return out


def _choices(state: State) -> list[Move]:
    """The answers to the prompt of ``state`` (none: no prompt)."""
    answers_to = _ANSWERS_TO.get(state.prompt or "")
    return [] if answers_to is None else answers_to(state)


def _targets(state: State) -> list[Move]:
    """D45, D25: any living player (Sid Ketchum's life, a beer)."""
    return [{"type": state.prompt, "target": target} for target in state.living()]


def _rolls(state: State) -> list[Move]:
    """D14, D52: the first roll, with an Old Saloon die unless the Ghost rolls."""
    saloons = [None] + ([LOUDMOUTH, COWARD] if state.saloon_dice and not state.is_ghost_turn() else [])
    return [{"type": "roll", "saloon": saloon} for saloon in saloons]


def _rerolls(state: State) -> list[Move]:
    """D16: stop, or reroll any non-empty set of the rerollable dice (ascending)."""
    dice = state.rerollable()
    out: list[Move] = [{"type": "stop"}]
    for size in range(1, len(dice) + 1):
        out += [{"type": "reroll", "dice": list(named)} for named in combinations(dice, size)]
    return out


def _arrows(_: State) -> list[Move]:
    """D58: a regular arrow or the Chief's Arrow."""
    return [{"type": "arrow", "chief": False}, {"type": "arrow", "chief": True}]


def _broken_arrows(state: State) -> list[Move]:
    """D54: a living player holding a regular arrow."""
    return [{"type": "broken_arrow", "target": target} for target in state.holders()]


def _shots(state: State) -> list[Move]:
    """D24, D46: a target at the next shot's distance, doubled where Slab the Killer may."""
    doubles = [False, True] if can_double(state) else [False]
    return [{"type": "shoot", "target": target, "double": double}
            for target in state.shot_targets[len(state.declared)] for double in doubles]


def _discards(state: State) -> list[Move]:
    """D40: no one, or a living player holding a regular arrow."""
    return [{"type": "discard", "target": None}] + [{"type": "discard", "target": target}
                                                    for target in state.holders()]


def _barts(state: State) -> list[Move]:
    """D34: up to the allowed arrows instead of life."""
    return [{"type": "bart", "arrows": count} for count in range(state.prompt_data[0] + 1)]


def _pedros(state: State) -> list[Move]:
    """D43: regular arrows held (and the Chief's Arrow), at most the allowed count."""
    seat = state.prompt_seat
    most = state.prompt_data[0]
    chiefs = [False, True] if state.chief_holder == seat else [False]
    held = state.arrows[seat if seat is not None else 0]
    return [{"type": "pedro", "regular": regular, "chief": chief} for chief in chiefs
            for regular in range(min(most, held) + 1) if regular + chief <= most]


def _haunts(state: State) -> list[Move]:
    """D65: die 1's or die 2's face to a living player; ×2 (die 1) on two equal faces."""
    first, second = state.dice
    picks = [(1, False)] + ([(2, False)] if second != first else [(1, True)])
    return [{"type": "haunt", "die": die, "double": double, "target": target}
            for die, double in picks for target in state.living()]


#: prompt kind -> its answers
_ANSWERS_TO: dict[str, Callable[[State], list[Move]]] = {
    "sid": _targets, "beer": _targets, "roll": _rolls, "reroll": _rerolls, "arrow": _arrows,
    "broken_arrow": _broken_arrows, "shoot": _shots, "discard": _discards, "bart": _barts, "pedro": _pedros,
    "haunt": _haunts,
}


def legal_moves(state: State, seat: Seat, memo: Memo | None = None) -> list[Move]:
    """The answers to the prompt, then ``resign`` (D75: an awaited seat may always give up)."""
    if seat not in to_act(state):
        return []
    return answers(state, fresh(memo))


def answers(state: State, memo: Memo) -> list[Move]:
    """``choices`` and ``resign`` (D75), once per state (kept in ``memo``): shared, do not mutate."""
    kept = memo.of(state)
    out: list[Move] | None = kept.get("legal")
    if out is None:
        out = kept["legal"] = [*choices(state, memo), RESIGN_MOVE]
    return out


def default_move(state: State, seat: Seat) -> Move | None:
    """D73 RULING: roll with no Saloon die, stop, a regular arrow, no optional
    ability; a required choice of a player goes to the first legal player
    clockwise from the decider; the Ghost gives die 1's face to the first living player clockwise."""
    if seat not in to_act(state):
        return None
    return default_among(state, seat, choices(state))


def default_among(state: State, seat: Seat, moves: list[Move]) -> Move:
    """``default_move`` of the awaited ``seat``, among its legal ``moves``."""
    kind = state.prompt
    if kind in ("sid", "beer", "broken_arrow", "shoot", "haunt"):
        plain = [move for move in moves if not move.get("double") and move.get("die", 1) == 1]
        first = _clockwise(state, seat, [move["target"] for move in plain])[0]
        return next(move for move in plain if move["target"] == first)
    return moves[0]
