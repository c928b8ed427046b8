"""BANG!'s frozen event types (issue 26 item 5): the closed sets they
declare (``Literal``: reasons, zones, roles, phases, agenda kinds) and the
nested shapes (the dealt seats, the agenda entries of ``awaiting``, the
result) are checked all the way down by ``referee.engine.eventtypes.mismatches``;
``tests/unit/test_event_types.py`` holds random games of every player count
to them. ``decide`` emits through a plain mapping, so mypy cannot see this;
the games can."""
from __future__ import annotations

from referee.engine.eventtypes import mismatches
from referee.games.bang.event_types import CardsDrawn, CardTaken, Entry


def test_a_reason_outside_its_closed_set_and_a_nested_key_left_out_are_named() -> None:
    good = {"seat": 1, "cards": ["BANG-AS"], "reason": "draw"}
    assert mismatches(good, CardsDrawn) == []
    (wrong,) = mismatches({**good, "reason": "luck"}, CardsDrawn, "cards_drawn")
    assert wrong.startswith("cards_drawn.reason: 'luck' not in ('draw', ")
    # R71 (Pedro Ramirez): taken from the discard pile, so from no seat
    assert mismatches({"seat": 0, "from": None, "card": "BANG-AS", "zone": "discard", "reason": "pedro_ramirez"},
                      CardTaken) == []
    assert mismatches([{"seat": 2}], list[Entry], "then") == ["then[0].kind: missing"]
    assert mismatches({"kind": "kit", "seat": 2, "hand": []}, Entry, "prompt") == ["prompt.hand: not declared"]
    assert mismatches({"kind": "shot", "seat": "2"}, Entry, "prompt") == ["prompt.seat: '2' is not ['integer']"]
