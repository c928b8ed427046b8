"""Event data shapes that several rulesets store alike, declared once
(``referee.engine.eventtypes``: a ``TypedDict`` of ``ReadOnly`` fields, the
event's ``data`` as stored). A ruleset names the shape in its own
``event_types`` under its own type string, and may give it its own name
for its ``evolve`` handlers (``PlayerResigned = SeatOnly``)."""
from __future__ import annotations

from typing_extensions import ReadOnly, TypedDict


class SeatOnly(TypedDict):
    """An event about one seat that carries nothing more: a turn that starts
    (BANG! R8), a seat that resigns (BANG! R85, Bluffaneer F34)."""

    seat: ReadOnly[int]
