"""Distances between figures (FO21): the path distance on the board, as
BANG!'s cards and characters modify it (R15), and each figure's reach."""
from __future__ import annotations

from referee.games.cards import rules as cardrules
from referee.games.faceoff import board
from referee.games.faceoff.state import State


def base_distance(s: State, a: int, b: int) -> int:
    return board.path_distance(s.rows, s.chars[a].pos, s.chars[b].pos)


def sees_at(s: State, a: int, b: int) -> int:
    """The path distance from ``a`` to ``b`` as BANG! modifies it (R15: Mustang, Scope...; FO21)."""
    return cardrules.seen_at(base_distance(s, a, b), s.chars[a], s.chars[b])


def sights(s: State, a: int) -> dict[int, int]:
    """``sees_at(a, t)`` for both other characters: every target of ``a``'s cards."""
    return {t: sees_at(s, a, t) for t in range(3) if t != a}


def reach(s: State, a: int) -> int:
    return cardrules.reach_of(s.chars[a].in_play)
