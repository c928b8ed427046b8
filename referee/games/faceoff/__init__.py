"""BANG! Face Off (ruleset ``bang-faceoff``, rules/faceoff.md FO1–FO58).

Two players on a grid board (``board.py``), three characters (the Sheriff's,
the Outlaw's and the neutral Renegade), gold nuggets and the Renegade bid.
The cards and characters are BANG!'s, from the cards kit both rulesets
share (``referee.games.cards``); the board, the turn structure and the
reactions on it are here, one module an idea (``ruleset``, ``state``,
``fold``, ``moves``, ``legal``, ``decide``, ``context``, ``views``…; the
map in docs/adding-a-ruleset.md). The moves are listed in ``moves.py``."""
from __future__ import annotations

from referee.games.faceoff.ruleset import RULESET, FaceOffRuleset

__all__ = ["RULESET", "FaceOffRuleset"]
