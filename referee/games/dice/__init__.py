"""BANG! The Dice Game (dV Giochi) with the Old Saloon modules as a pure
rules library: rules D1–D75 of ``rules/dice.md``. ``RULESET`` is the
decider protocol object."""
from __future__ import annotations

from referee.games.dice.ruleset import RULESET, BangDice

__all__ = ["RULESET", "BangDice"]
