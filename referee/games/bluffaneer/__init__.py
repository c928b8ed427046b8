"""Bluffaneer (Big G Creative, 2021) as a pure rules library: rules F1–F34
of ``rules/bluffaneer.md``. ``RULESET`` is the decider protocol object."""
from __future__ import annotations

from referee.games.bluffaneer.ruleset import RULESET, Bluffaneer

__all__ = ["RULESET", "Bluffaneer"]
