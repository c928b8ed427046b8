"""``client.rulesets``: the rulesets the referee serves and the rules they cite."""
from __future__ import annotations

from referee.client.calls import Owner, json_of
from referee.client.models import Json, Rule, Ruleset


class Rulesets:
    """``client.rulesets``: the rulesets the referee serves."""

    def __init__(self, owner: Owner) -> None:
        self._http = owner._http

    def list(self) -> list[Ruleset]:
        """``GET /v1/rulesets``: every ruleset, with its schemas."""
        return [Ruleset.from_json(r) for r in json_of(self._http.request("GET", "/v1/rulesets"))["rulesets"]]

    def get(self, name: str) -> Ruleset:
        """``GET /v1/rulesets/{name}``: one ruleset (:class:`NotFound` if unknown)."""
        return Ruleset.from_json(json_of(self._http.request("GET", f"/v1/rulesets/{name}")))

    def rules(self, name: str) -> tuple[Rule, ...]:
        """``GET /v1/rulesets/{name}/rules``: every rule ID the ruleset cites,
        with its title and section, in document order."""
        body = json_of(self._http.request("GET", f"/v1/rulesets/{name}/rules"))
        return tuple(Rule.from_json(r, body.get("ruleset", name)) for r in body["rules"])

    def catalogue(self, name: str) -> Json:
        """``GET /v1/rulesets/{name}/catalogue``: every card, character, role,
        die, face, symbol and map of the ruleset (JSON, the same keys for every ruleset)."""
        return json_of(self._http.request("GET", f"/v1/rulesets/{name}/catalogue"))

    def rule(self, name: str, rule_id: str) -> Rule:
        """``GET /v1/rulesets/{name}/rules/{id}``: one rule with its text — the
        rule an :class:`IllegalMove`'s ``rule`` names (:class:`NotFound`
        ``unknown_rule`` for an ID the ruleset has no entry for)."""
        return Rule.from_json(json_of(self._http.request("GET", f"/v1/rulesets/{name}/rules/{rule_id}")), name)
