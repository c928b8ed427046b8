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
    return sorted(seats, key=lambda p: (p - start) % state.players)


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
    s, kind = state, state.prompt
    living = s.living()
    if kind == "sid" or kind == "beer":
        return [{"type": kind, "target": t} for t in living]
    if kind == "roll":
        saloons = [None] + ([LOUDMOUTH, COWARD] if s.saloon_dice and not s.is_ghost_turn() else [])
        return [{"type": "roll", "saloon": x} for x in saloons]
    if kind == "reroll":
        dice = s.rerollable()
        out: list[Move] = [{"type": "stop"}]
        for size in range(1, len(dice) + 1):
            out += [{"type": "reroll", "dice": list(c)} for c in combinations(dice, size)]
        return out
    if kind == "arrow":
        return [{"type": "arrow", "chief": False}, {"type": "arrow", "chief": True}]
    if kind == "broken_arrow":
        return [{"type": kind, "target": t} for t in s.holders()]
    if kind == "shoot":
        doubles = [False, True] if can_double(s) else [False]
        return [{"type": "shoot", "target": t, "double": d}
                for t in s.shot_targets[len(s.declared)] for d in doubles]
    if kind == "discard":
        return [{"type": "discard", "target": None}] + [{"type": "discard", "target": t} for t in s.holders()]
    if kind == "bart":
        return [{"type": "bart", "arrows": k} for k in range(s.prompt_data[0] + 1)]
    if kind == "pedro":
        seat = s.prompt_seat
        most = s.prompt_data[0]
        chiefs = [False, True] if s.chief_holder == seat else [False]
        return [{"type": "pedro", "regular": r, "chief": c} for c in chiefs
                for r in range(min(most, s.arrows[seat if seat is not None else 0]) + 1) if r + c <= most]
    if kind == "haunt":
        a, b = s.dice
        picks = [(1, False)] + ([(2, False)] if b != a else [(1, True)])
        return [{"type": "haunt", "die": d, "double": x, "target": t} for d, x in picks for t in living]
    return []


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
        plain = [m for m in moves if not m.get("double") and m.get("die", 1) == 1]
        first = _clockwise(state, seat, [m["target"] for m in plain])[0]
        return next(m for m in plain if m["target"] == first)
    return moves[0]
