"""Distances between figures (FO21): the path distance on the board, as
BANG!'s cards and characters modify it (R15), and each figure's reach."""
from __future__ import annotations

from referee.games.cards import rules as cardrules
from referee.games.faceoff import board
from referee.games.faceoff.state import State


def base_distance(state: State, source: int, target: int) -> int:
    return board.path_distance(state.rows, state.chars[source].pos, state.chars[target].pos)


def sees_at(state: State, source: int, target: int) -> int:
    """The path distance from ``source`` to ``target`` as BANG! modifies it (R15: Mustang, Scope...; FO21)."""
    return cardrules.seen_at(base_distance(state, source, target), state.chars[source], state.chars[target])


def sights(state: State, source: int) -> dict[int, int]:
    """``sees_at(a, t)`` for both other characters: every target of ``source``'s cards."""
    return {t: sees_at(state, source, t) for t in range(3) if t != source}


def reach(state: State, char: int) -> int:
    return cardrules.reach_of(state.chars[char].in_play)
