"""``referee.http.app.SharedBuilderRule``: the URL builders werkzeug generates
for every rule of every app are made once a process and shared by the apps
built after, and build exactly what werkzeug's own ``Rule`` builds."""
from __future__ import annotations

from typing import Any

import pytest
from werkzeug.routing import Map, Rule
from werkzeug.routing.converters import NumberConverter

from referee.http.app import SharedBuilderRule
from tests.conftest import Clock, contract_app


def _arguments(rule: Rule) -> dict[str, Any]:
    """A value for each of ``rule``'s arguments that its converter takes (one that needs quoting, for text)."""
    return {name: 7 if isinstance(rule._converters.get(name), NumberConverter) else "a b/é"
            for name in rule.arguments}


def test_two_apps_share_every_builder_and_build_what_werkzeug_builds(redis_client: Any) -> None:
    first, second = contract_app(redis_client, Clock()), contract_app(redis_client, Clock())
    rules = list(first.url_map.iter_rules())
    assert rules and all(isinstance(rule, SharedBuilderRule) for rule in rules)
    again = {rule.rule: rule for rule in second.url_map.iter_rules()}
    for rule in rules:
        assert again[rule.rule]._build.__func__ is rule._build.__func__
        assert again[rule.rule]._build_unknown.__func__ is rule._build_unknown.__func__
        assert again[rule.rule]._build.__self__ is again[rule.rule]  # bound to its own rule
    plain = Map([Rule(rule.rule, endpoint=rule.endpoint, methods=rule.methods) for rule in rules]).bind("h")
    for app in (first, second):
        adapter = app.url_map.bind("h")
        for rule in app.url_map.iter_rules():
            for query in ({}, {"q": "x y", "n": 2}):
                values = {**_arguments(rule), **query}
                assert adapter.build(rule.endpoint, values) == plain.build(rule.endpoint, values), rule.rule


@pytest.mark.parametrize("rule_class", [SharedBuilderRule, Rule])
def test_a_rule_with_defaults_builds_them_in(rule_class: type[Rule]) -> None:
    """Two rules of one text with other defaults build each their own (werkzeug writes a default into the builder)."""
    urls = Map([rule_class("/page/<int:n>", endpoint="page", defaults={"n": 1}),
                rule_class("/page/<int:n>", endpoint="other", defaults={"n": 2})]).bind("h")
    assert urls.build("page", {}) == "/page/1" and urls.build("other", {}) == "/page/2"
