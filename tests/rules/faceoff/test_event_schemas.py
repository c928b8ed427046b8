"""FO57 and the contract (issue 12): every Face Off event's ``data`` matches
its published schema (``referee/games/faceoff/schemas.py``) as stored
and as each viewer receives it (seat 0, seat 1, a spectator), over seeded
random games on both maps and with the Renegade variant; a malformed event is
refused."""
from __future__ import annotations

import functools
import json
import re
from typing import Any

import pytest

from referee.audit.offline import LoggedTable
from referee.engine.platform import PLATFORM_EVENTS
from referee.engine.presentation import shown
from referee.engine.protocol import Event
from referee.engine.rng import Rng
from referee.engine.schema import first_refusal
from referee.games import registry
from referee.games.faceoff import views
from referee.games.faceoff.fold import EVOLVE
from referee.games.faceoff.schemas import EVENT_SCHEMAS
from referee.games.sim import Table, playout, random_chooser
from tests.schemas import check_of

RS = registry.get("bang-faceoff")
#: seeds whose random games end within a few thousand events, so the file runs in seconds
SEEDS = ("fo-schemas-10", "fo-schemas-12")
#: a cast that reaches the rarer events: Black Jack's shown card (FO52), Kit Carlson's limbo (FO50),
#: Vulture Sam's inheritance (FO40, FO53) and a Dynamite to pass on (FO41)
CAST = {"characters": ["black_jack", "kit_carlson", "vulture_sam"], "life": [2, 2, 2],
        "in_play": [["DYNAMITE-2H"], [], []]}
#: (options, scenario setup, seed) of each random game: every option set of ``rs.option_sets(2)``
#: (both maps, the Renegade variant), then the cast
GAMES = [(options, None, seed) for options in RS.option_sets(2) for seed in SEEDS] + [
    ({"map": "faceoff_2"}, CAST, "fo-cast-2")]
VIEWERS = (None, 0, 1)
#: the events with a part some viewer may not see (FO57)
HIDING = {"game_setup", "deck_reshuffled", "cards_drawn", "card_taken", "cards_inherited", "cards_revealed",
          "card_picked", "bid_made"}
#: FO54's example map, as a custom map option
CANYON = {"format": "bang-faceoff-map", "version": 1, "id": "my-canyon", "name": "My canyon",
          "rows": ["S...#", ".#..N", "..R..", "N..#.", "#...B"], "nugget_tokens": 16}


def _problems(kind: str, data: Any) -> str | None:
    """Why ``data`` (as JSON would carry it) breaks the schema of ``kind`` (None: it matches)."""
    data = json.loads(json.dumps(data))
    if not check_of(EVENT_SCHEMAS[kind]).errors(data):
        return None
    refusal = first_refusal(EVENT_SCHEMAS[kind], data, "data")
    return refusal[1] if refusal else "invalid"


@functools.cache
def _played(game: int) -> tuple[dict[str, Any], ...]:
    """The stored envelopes of random game ``GAMES[game]``, played to its end."""
    options, setup, seed = GAMES[game]
    table = LoggedTable(RS, 2, options=options, scenario=setup, seed=seed)
    playout(table, random_chooser(Rng(f"{seed}:moves".encode())), pick_seat=Rng(f"{seed}:seats".encode()))
    assert table.result() is not None
    return tuple(table.envelopes)


def _check(envelopes: tuple[dict[str, Any], ...]) -> tuple[set[str], set[str]]:
    """Check every rules event as stored and as each viewer receives it while
    the game is on; return the types seen and the types seen redacted."""
    types: set[str] = set()
    redacted: set[str] = set()
    for env in envelopes:
        if env["type"] in PLATFORM_EVENTS:
            continue
        kind = env["type"]
        assert kind in EVENT_SCHEMAS, f"{kind} has no published schema"
        types.add(kind)
        why = _problems(kind, env["data"])
        assert why is None, f"seq {env['seq']} {kind} as stored: {why}"
        for seat in VIEWERS:
            sent = shown(RS, env, seat, active=True)
            if sent.get("redacted"):
                redacted.add(kind)
                why = _problems(kind, sent["data"])
                assert why is None, f"seq {env['seq']} {kind} as seat {seat} receives it: {why}"
    return types, redacted


@functools.cache
def _checked(game: int) -> tuple[set[str], set[str]]:
    return _check(_played(game))


@pytest.mark.parametrize("game", range(len(GAMES)),
                         ids=[f"{json.dumps(o, sort_keys=True)}-{seed}" for o, _, seed in GAMES])
def test_FO57_every_event_matches_its_schema_stored_and_as_each_viewer_receives_it(game: int) -> None:
    types, _ = _checked(game)
    assert {"game_setup", "flow", "moved", "cards_drawn", "game_over"} <= types


def test_FO54_FO57_a_custom_map_game_matches_the_schemas() -> None:
    table = LoggedTable(RS, 2, options={"map": CANYON}, seed="fo-schemas-canyon")
    for _ in range(300):  # a stretch of a game on a small board
        if table.result() is not None:
            break
        seat = min(table.to_act())
        table.play(seat, Rng(f"canyon:{len(table.envelopes)}".encode()).choice(list(table.legal(seat))))
    types, _ = _check(tuple(table.envelopes))
    setup = next(e for e in table.envelopes if e["type"] == "game_setup")
    assert setup["data"]["map"] == {"id": "my-canyon", "name": "My canyon", "rows": CANYON["rows"]}
    assert "moved" in types


def test_FO57_the_random_games_reach_every_event_and_every_redacted_form() -> None:
    types: set[str] = set()
    redacted: set[str] = set()
    for game in range(len(GAMES)):
        seen, hidden = _checked(game)
        types |= seen
        redacted |= hidden
    assert types == set(EVENT_SCHEMAS), f"never emitted: {set(EVENT_SCHEMAS) - types}"
    assert HIDING <= redacted, f"never redacted: {HIDING - redacted}"


def test_FO4_one_closed_schema_citing_its_rules_per_event_type() -> None:
    assert set(EVENT_SCHEMAS) == set(EVOLVE)
    assert RS.event_schemas is EVENT_SCHEMAS
    for kind, schema in EVENT_SCHEMAS.items():
        assert schema["type"] == "object" and schema["additionalProperties"] is False, kind
        assert re.search(r"\bFO\d+\b", schema["description"]), f"{kind} cites no FO rule"


# --- Lucky Duke's choice (FO53, R42): the shapes the rules are gaining --------------------------

LUCKY_FLOW = {"round": 2, "active": 0, "phase": "start", "start": [7, 3], "slots": 0, "drew": 0, "walk": 2,
              "controller": -1, "placer": -1, "bidders": [],
              "stack": [{"kind": "lucky", "char": 0, "purpose": "jail", "anything": ["else"]}]}


@pytest.mark.parametrize("data", [
    {"char": 0, "card": "BANG-AH", "reason": "jail", "from": "limbo", "cards": ["BANG-2D", "BANG-AH"]},
    {"char": 0, "card": "BANG-AH", "reason": "barrel", "from": "deck"},
    {"char": 1, "card": "BANG-AH", "reason": "dynamite", "from": "deck", "cards": ["BANG-AH"]},
])
def test_FO53_lucky_duke_draw_checked_from_the_limbo_or_the_deck(data: dict[str, Any]) -> None:
    for seat in VIEWERS:
        assert _problems("draw_checked", views.redact(Event("draw_checked", data), seat).data) is None


def test_FO53_FO57_lucky_duke_cards_revealed_to_both_seats_and_hidden_from_a_spectator() -> None:
    event = Event("cards_revealed", {"char": 2, "cards": ["BANG-2D", "BANG-AH"], "reason": "lucky_duke",
                                     "seen_by": [0, 1]})
    assert _problems("cards_revealed", event.data) is None
    for seat in VIEWERS:
        shown_to = views.redact(event, seat).data
        assert (shown_to["cards"] is None) == (seat is None)
        assert _problems("cards_revealed", shown_to) is None


def test_FO53_lucky_duke_cards_revealed_face_up_to_everyone() -> None:
    event = Event("cards_revealed", {"char": 0, "cards": ["BANG-2D"], "reason": "lucky_duke"})
    for seat in VIEWERS:
        assert views.redact(event, seat) == event
        assert _problems("cards_revealed", event.data) is None


def test_FO53_a_lucky_frame_in_the_flow_keeps_its_own_fields() -> None:
    assert _problems("flow", {"flow": LUCKY_FLOW}) is None
    setup = Event("game_setup", _setup_with_flow(LUCKY_FLOW))
    for seat in VIEWERS:
        assert _problems("game_setup", views.redact(setup, seat).data) is None
    assert _problems("game_setup", setup.data) is None
    assert _problems("flow", {"flow": {**LUCKY_FLOW, "stack": [{"kind": "luck", "char": 0}]}}) is not None


def _setup_with_flow(flow: dict[str, Any]) -> dict[str, Any]:
    """A dealt ``game_setup`` (as stored) with ``flow`` in it."""
    first = Table(RS, 2, seed="fo-schemas-setup").events[0]
    assert first.type == "game_setup"
    return {**first.data, "flow": flow}


# --- malformed events are refused ---------------------------------------------------------------

def _without(d: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k != key}


DRAWN = {"char": 0, "cards": ["BANG-AS"], "count": 1, "from": "brown", "reason": "draw", "seen_by": [0]}


@pytest.mark.parametrize("kind,data,field", [
    ("cards_drawn", _without(DRAWN, "seen_by"), "seen_by"),                     # a required field missing
    ("cards_drawn", {**DRAWN, "hand_size": 1}, "hand_size"),                     # a field the rules never emit
    ("cards_drawn", {**DRAWN, "cards": 1}, "cards"),                             # a count where FO57 hides as null
    ("cards_drawn", {**DRAWN, "char": 3}, "char"),                               # no fourth figure (FO2)
    ("cards_drawn", {**DRAWN, "from": "discard"}, "from"),                       # no such pile (FO24)
    ("card_played", {"char": 0, "card": "BANG-1Z"}, "card"),                     # no such card (FO4)
    ("bid_made", {"seat": 2, "card": None, "seen_by": [2]}, "seat"),             # two players (FO1)
    ("moved", {"char": 0, "path": [[7, 2], [7, 1], [7, 0], [8, 0]], "phase": 2}, "path"),  # FO15, FO51
    ("draw_checked", {"char": 0, "card": "BANG-AH", "reason": "jail", "from": "hand"}, "from"),
    ("flow", {"flow": {**LUCKY_FLOW, "stack": [{"char": 0}]}}, "flow.stack.0"),  # a frame without its kind
    ("flow", {"flow": {**LUCKY_FLOW, "turn": 0}}, "turn"),                       # the flow object is closed
    ("game_over", {"result": {"winners": [0], "seats": [], "reason": "two_kills", "detail": "x"}}, "result.seats"),
])
def test_FO57_a_malformed_event_is_refused_naming_the_field(kind: str, data: dict[str, Any], field: str) -> None:
    why = _problems(kind, data)
    assert why is not None, f"{kind} {data} was accepted"
    assert field in why, why


def test_FO7_game_setup_with_a_deck_shown_as_a_count_is_refused() -> None:
    data = _setup_with_flow(LUCKY_FLOW)
    assert _problems("game_setup", {**data, "brown": len(data["brown"])}) is not None
    assert _problems("game_setup", _without(data, "flow")) is not None
