"""Issue 38 (the new-game form offers only what is accepted): an option the
published options schema marks ``x-refused`` is refused when turned on, with
that code, and the rule in its ``x-rule``; Face Off's High Noon and Dodge City
(FO55, FO56) are so marked, and nothing the referee accepts is."""
from __future__ import annotations

import pytest

from referee.engine.protocol import InvalidSetup
from referee.games import registry


def refused() -> list[tuple[str, str, dict[str, object]]]:
    return [(name, key, prop) for name in registry.names()
            for key, prop in registry.get(name).options_schema.get("properties", {}).items() if "x-refused" in prop]


def test_FO55_FO56_high_noon_and_dodge_city_are_marked_refused() -> None:
    assert sorted((name, key) for name, key, _ in refused()) == [
        ("bang-faceoff", "dodge_city"), ("bang-faceoff", "high_noon")]


@pytest.mark.parametrize(("name", "key", "prop"), refused(), ids=lambda v: v if isinstance(v, str) else "")
def test_an_option_marked_refused_is_refused_with_its_code_and_rule(
        name: str, key: str, prop: dict[str, object]) -> None:
    rs = registry.get(name)
    with pytest.raises(InvalidSetup) as info:
        rs.validate_options({key: True}, rs.min_players)
    assert (info.value.code, info.value.rule) == (prop["x-refused"], prop["x-rule"])
    rs.validate_options({key: False}, rs.min_players)  # its default, accepted
