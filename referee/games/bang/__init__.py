"""BANG! base game (ruleset ``bang``, rules/bang.md R1–R85): the ruleset
class is ``ruleset.BangRuleset``; the modules of the package and what each
holds are in the README's map of the rulesets."""
from __future__ import annotations

from referee.games.bang.ruleset import RULESET, BangRuleset
from referee.games.bang.state import State

__all__ = ["RULESET", "BangRuleset", "State"]
