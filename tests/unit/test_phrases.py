"""Issue 25, item 1: the watch page shows each event in words, one phrase per
event type from the ruleset's package (``referee.games.<pkg>.phrases``, or a
plug-in's ``phrases`` attribute) under the platform's
(``referee.engine.phrases``), served in the catalogue. Every event type a
random game of every installed ruleset emits has a phrase, and every
``{key}`` of it is in that event's data each time it occurs, as stored and
as a spectator sees it while the game runs (the page would show ``-``)."""
from __future__ import annotations

import re
from typing import Any

import pytest

from referee.engine.phrases import PHRASES as PLATFORM
from referee.engine.platform import PLATFORM_EVENTS
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser
from referee.http.api.meta import ruleset_phrases

KEY = re.compile(r"\{(\w+)\}")
SIZES = [(name, n) for name in registry.names()
         for n in sorted({registry.get(name).min_players, registry.get(name).max_players})]


def _keys(template: str) -> set[str]:
    return set(KEY.findall(template))


def test_the_platform_words_each_of_its_events() -> None:
    assert set(PLATFORM) == PLATFORM_EVENTS


@pytest.mark.parametrize("ruleset", registry.names())
def test_each_declared_event_type_has_a_phrase_of_required_keys(ruleset: str) -> None:
    rs = registry.get(ruleset)
    phrases = ruleset_phrases(rs)
    assert phrases, f"{ruleset} brings no phrases"
    assert set(rs.event_schemas) <= set(phrases), set(rs.event_schemas) - set(phrases)
    for event_type, template in phrases.items():
        assert event_type in rs.event_schemas, f"{ruleset}: a phrase for no event type {event_type!r}"
        required = set(rs.event_schemas[event_type].get("required", ()))
        assert _keys(template) <= required, (ruleset, event_type, _keys(template) - required)


@pytest.mark.parametrize("ruleset,players", SIZES)
def test_every_event_of_a_random_game_is_worded_from_its_own_data(ruleset: str, players: int) -> None:
    rs = registry.get(ruleset)
    phrases = {**PLATFORM, **ruleset_phrases(rs)}
    table = Table(rs, players, seed=f"phrases-{ruleset}-{players}", options=rs.options_for(players))
    playout(table, random_chooser(Rng(b"phrases")), pick_seat=Rng(b"phrases-seats"))
    seen: set[str] = set()
    for event in table.events:
        seen.add(event.type)
        assert event.type in phrases, f"{ruleset}: no phrase for {event.type!r}"
        wanted = _keys(phrases[event.type])
        assert wanted <= set(event.data), (ruleset, event.type, wanted - set(event.data))
        public = rs.redact(event, None)
        shown: Any = public.data if public is not None and public.type == event.type else {}
        assert wanted <= set(shown), (ruleset, event.type, "hidden from a spectator:", wanted - set(shown))
    assert seen


def test_the_catalogue_serves_the_platform_phrases_under_the_rulesets(client: Any) -> None:
    for name in registry.names():
        body = client.get(f"/v1/rulesets/{name}/catalogue").get_json()
        assert body["phrases"] == {**PLATFORM, **ruleset_phrases(registry.get(name))}, name
        assert set(PLATFORM) <= set(body["phrases"]) and len(body["phrases"]) > len(PLATFORM), name
    bang = client.get("/v1/rulesets/bang/catalogue").get_json()["phrases"]
    assert bang["card_played"] == "seat {seat} played {card}" and bang["move"] == PLATFORM["move"]
    if "nim" in registry.names():  # the plug-in of tests/plugins brings its own, as a class attribute
        nim = client.get("/v1/rulesets/nim/catalogue").get_json()["phrases"]
        assert nim["taken"] == "seat {seat} took {count} from pile {pile}"
