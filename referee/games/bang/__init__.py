"""BANG! base game (ruleset ``bang``, rules/bang.md R1–R85) as a pure rules
library: ``RULESET`` is the decider protocol object, an instance of
``ruleset.BangRuleset``; what each module of the package holds is in the
map of the rulesets in docs/adding-a-ruleset.md."""
from __future__ import annotations

from referee.games.bang.ruleset import RULESET, BangRuleset

__all__ = ["RULESET", "BangRuleset"]
