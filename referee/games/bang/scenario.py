"""Setup (R5, R6, R82) and scenario positions (DESIGN.md, Scenario setup).

Draw order from the game's generator (R78), always in this order:

1. ``rng.shuffle`` of the role cards still to deal (R4 order: sheriff,
   renegade, outlaw, outlaw, deputy, outlaw, deputy — the first n; the
   3-player game: deputy, outlaw, renegade), minus those a scenario fixes;
   the i-th card goes to the i-th seat without a fixed role;
2. ``rng.shuffle`` of the characters not fixed (R3 table order) by the
   scenario or by the ``characters`` option (R84); the first ones go, in
   seat order, to the seats without a fixed character;
3. ``rng.shuffle`` of the cards named nowhere (all 80 in R1 order for a
   normal game). Hands not fixed are dealt from its top, each player as many
   cards as his starting life, in seat order starting with the Sheriff (the
   Deputy in the 3-player game); what is left lies under the scenario's
   ``deck`` (top first) and is the deck.

Then the first turn starts (R9 checks, then phase 1) unless the scenario
names another ``phase`` (``draw``: phase 1 without the checks; ``play``).

The scenario keys, their defaults and what a left-out key means are
``SETUP_SCHEMA`` (published and enforced): ``every_seat`` gives fields every
seat takes unless its own entry says otherwise, ``deck_exact`` makes the deck
exactly ``deck`` (the cards named nowhere lie, shuffled, under the discard
pile), a seat's ``max_life`` overrides its bullets.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from referee.engine.protocol import Event, GameConfig
from referee.engine.rng import Rng
from referee.engine.schema import SchemaCheck
from referee.games.bang import scenario_checks as checks
from referee.games.bang.context import Ctx, GameOver
from referee.games.bang.flow import act, start_turn
from referee.games.bang.fold import evolve
from referee.games.bang.roles import DEPUTY, ROLE_DECK, ROLES, SHERIFF, max_life
from referee.games.bang.scenario_checks import PHASES
from referee.games.cards.characters import CHARACTERS
from referee.games.cards.deck import ALL_CARDS, CARD_SET

_CARDS: dict[str, Any] = {"type": "array", "items": {"type": "string", "enum": sorted(CARD_SET)}, "uniqueItems": True}

#: the scenario ``setup`` object (DESIGN.md), published by ``GET /v1/rulesets``
#: and enforced before ``setup``: every field, its default, what leaving it out means
SETUP_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "x-rule": "R6",
    "description": "A BANG! start position. Anything left out is dealt from the seeded generator as usual.",
    "properties": {
        "turn": {"type": "integer", "minimum": 0, "maximum": 6, "x-rule": "R7",
                 "description": "The seat whose turn it is (alive). Left out: the Sheriff (the Deputy in the "
                                "3-player game)."},
        "phase": {"enum": list(PHASES), "default": "start", "x-rule": "R8",
                  "description": "start: the turn begins (R9 checks, then phase 1); draw: phase 1 without the "
                                 "checks; play: phase 2."},
        "seats": {"type": "array", "maxItems": 7, "x-rule": "R6",
                  "description": "Per seat, in seat order, only what is fixed (one object per seat, {} for none).",
                  "items": {"type": "object", "additionalProperties": False, "properties": {
                      "role": {"enum": list(ROLES), "description": "Left out: dealt (R4)."},
                      "character": {"enum": sorted(CHARACTERS), "description": "Left out: dealt (R3)."},
                      "life": {"type": "integer", "minimum": 0, "description": "Left out: the maximum (R6), 0 if "
                                                                              "not alive."},
                      "max_life": {"type": "integer", "minimum": 1, "description": "Left out: the character's "
                                   "bullets, +1 for the Sheriff (R6; none in the 3-player game, R82)."},
                      "hand": {**_CARDS, "description": "Left out: dealt, as many cards as life (R6); [] is an "
                                                        "empty hand."},
                      "in_play": {**_CARDS, "description": "Cards in front of the player. Left out: none."},
                      "alive": {"type": "boolean", "default": True},
                  }}},
        "every_seat": {"type": "object", "additionalProperties": False, "x-rule": "R6",
                       "description": "Fields every seat takes unless its own entry in seats says otherwise, "
                                      "e.g. {\"hand\": [], \"in_play\": []}: all hands and tables exactly empty.",
                       "properties": {"life": {"type": "integer", "minimum": 1}, "max_life": {"type": "integer",
                                      "minimum": 1}, "hand": _CARDS, "in_play": _CARDS}},
        "deck": {**_CARDS, "x-rule": "R1", "description": "Top first. Cards named nowhere go below it, shuffled."},
        "deck_exact": {"type": "boolean", "default": False, "x-rule": "R1",
                       "description": "true: the deck is exactly `deck`; the cards named nowhere (after any hand "
                                      "left out is dealt from them) lie, shuffled, under the discard pile."},
        "discard": {**_CARDS, "x-rule": "R60", "description": "Bottom first. Left out: empty."},
    },
}


@cache
def _setup_check() -> SchemaCheck:
    """``SETUP_SCHEMA``'s compiled check, made at the first scenario (tens of
    milliseconds: not at import, which every process does) and cached: a
    function of no argument, the one constant schema."""
    return SchemaCheck(SETUP_SCHEMA)


def game_started(config: GameConfig, rng: Rng) -> dict[str, Any]:
    """The data of the opening ``game_started`` event: the shape checked from
    the published ``SETUP_SCHEMA`` first, then each invariant where its value
    is known (``scenario_checks``), drawing in the module's order (R78)."""
    n = config.players
    three = bool(config.options.get("three_player", False))
    sc: Mapping[str, Any] = config.scenario or {}
    if sc and not _setup_check().matches(sc):  # a direct call: the service refuses it before
        checks.check_shape(sc, n)
    listed = sc.get("seats", [{} for _ in range(n)])
    checks.check_seat_count(listed, n)
    every = sc.get("every_seat", {})
    # what every seat has unless its own entry says otherwise (an empty hand for all, say)
    specs = [{**every, **spec} for spec in listed]
    roles = _deal_roles(specs, n, rng)
    chars = _deal_characters(specs, config.options.get("characters") or [None] * n, rng)
    seats = [_seat(i, spec, roles[i], chars[i], three) for i, spec in enumerate(specs)]
    deck_top, discard = list(sc.get("deck", [])), list(sc.get("discard", []))
    named = [*_named(seats), *deck_top, *discard]
    checks.check_cards_once(named)
    exact = sc.get("deck_exact", False)
    checks.check_deck_exact(exact)
    first = next((i for i, r in enumerate(roles) if r == (DEPUTY if three else SHERIFF)), 0)
    rest = _deal_hands(seats, first, set(named), rng)
    checks.check_not_over([s["role"] for s in seats if s["alive"]], three)
    turn = sc.get("turn", first)
    checks.check_turn(turn, seats)
    phase = sc.get("phase", "start")
    checks.check_phase(phase)
    if exact:  # the deck is exactly the listed one: the cards named nowhere lie under the discard pile
        return {"three_player": three, "turn": turn, "phase": phase, "players": seats,
                "deck": deck_top, "discard": rest + discard}
    return {"three_player": three, "turn": turn, "phase": phase, "players": seats,
            "deck": deck_top + rest, "discard": discard}


def _deal_roles(specs: list[dict[str, Any]], players: int, rng: Rng) -> list[str]:
    """Step 1 (R4): the fixed roles taken from the role cards of ``players``
    players, the rest shuffled and dealt to the other seats in seat order."""
    pool = list(ROLE_DECK[players])
    fixed: list[str | None] = []
    for i, spec in enumerate(specs):
        r = spec.get("role")
        if r is not None:
            checks.check_role(i, r, pool, players)
            pool.remove(r)
        fixed.append(r)
    dealt = iter(rng.shuffle(pool))
    return [r if r is not None else next(dealt) for r in fixed]


def _deal_characters(specs: list[dict[str, Any]], kept: list[str | None], rng: Rng) -> list[str]:
    """Step 2 (R3; kept from a previous game: R84): the fixed characters, the
    others shuffled and dealt in seat order."""
    fixed: list[str | None] = []
    for i, spec in enumerate(specs):
        c = spec.get("character", kept[i])
        checks.check_character(i, c, fixed)
        fixed.append(c)
    free = iter(rng.shuffle([c for c in CHARACTERS if c not in fixed]))
    return [c if c is not None else next(free) for c in fixed]


def _seat(seat: int, spec: Mapping[str, Any], role: str, character: str, three: bool) -> dict[str, Any]:
    """Seat ``seat``'s life, bullets, alive and cards (R6, R47, R51), its cards
    in play checked (R19–R21, R38); ``hand`` None: dealt later."""
    top = spec.get("max_life", max_life(character, role, three))
    checks.check_max_life(seat, top)
    alive = spec.get("alive", True)
    life = spec.get("life", top if alive else 0)
    checks.check_life(seat, life, top, alive)
    hand = list(spec["hand"]) if "hand" in spec else None
    in_play = list(spec.get("in_play", []))
    checks.check_eliminated_hold_nothing(seat, alive, hand, in_play)
    checks.check_in_play(seat, in_play, role)
    return {"seat": seat, "role": role, "character": character, "life": life, "max_life": top,
            "alive": alive, "hand": hand, "in_play": in_play}


def _named(seats: list[dict[str, Any]]) -> list[str]:
    """The cards the seats' entries name: hands, then cards in play, seat by seat (R1)."""
    return [c for s in seats for c in (*(s["hand"] or []), *s["in_play"])]


def _deal_hands(seats: list[dict[str, Any]], first: int, taken: set[str], rng: Rng) -> list[str]:
    """Step 3 (R6): the cards named nowhere shuffled; each hand not fixed
    dealt from the top, as many cards as life, in seat order from ``first``.
    What is left is returned (under the deck, or the discard pile)."""
    n = len(seats)
    rest = rng.shuffle([c for c in ALL_CARDS if c not in taken])
    for k in range(n):
        s = seats[(first + k) % n]
        if s["hand"] is None:
            count = s["life"] if s["alive"] else 0
            s["hand"], rest = rest[:count], rest[count:]
    return rest


def setup(config: GameConfig, rng: Rng) -> list[Event]:
    """The opening events: ``game_started``, then the first turn's start."""
    data = game_started(config, rng)
    first = Event("game_started", data)
    state = evolve(None, first)
    assert state is not None  # game_started builds the state from nothing
    ctx = Ctx(state, rng)
    phase = data["phase"]
    turn = data["turn"]
    try:
        if phase == "play":
            ctx.emit("turn_started", {"seat": turn})
            ctx.phase = "play"
            ctx.bangs = 0
            ctx.finish()
        else:
            act(ctx, lambda table: start_turn(table, turn, "dynamite" if phase == "start" else "draw"))
            ctx.finish()
    except GameOver:
        pass
    return [first] + ctx.events


__all__ = ["SETUP_SCHEMA", "setup", "game_started"]
