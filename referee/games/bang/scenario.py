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

from typing import Any, Mapping

from referee.engine.protocol import Event, GameConfig, InvalidSetup
from referee.games.bang.cards import ALL_CARDS, BLUE, CARD_SET, KEY, WEAPON_OF
from referee.games.bang.characters import (
    CHARACTERS, DEPUTY, LIFE, OUTLAW, RENEGADE, ROLE_DECK, ROLES, SHERIFF, max_life,
)
from referee.games.bang.engine import Ctx, GameOver
from referee.games.bang.events import evolve
from referee.games.bang.flow import act, start_turn
from referee.engine.rng import Rng

SCENARIO_KEYS = frozenset({"turn", "phase", "seats", "every_seat", "deck", "deck_exact", "discard"})
SEAT_KEYS = frozenset({"role", "character", "life", "max_life", "hand", "in_play", "alive"})
#: what ``every_seat`` may fix for all seats at once (roles and characters are each one seat's)
EVERY_SEAT_KEYS = frozenset({"life", "max_life", "hand", "in_play"})
PHASES = ("start", "draw", "play")


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


def _bad(detail: str, rule: str | None = None) -> InvalidSetup:
    return InvalidSetup("invalid_setup", detail=detail, rule=rule)


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _bad(f"{where} must be a list of card IDs", "R1")
    for c in value:
        if c not in CARD_SET:
            raise _bad(f"{where}: unknown card {c!r}", "R1")
    return list(value)


def game_started(config: GameConfig, rng: Rng) -> dict[str, Any]:
    """The data of the opening ``game_started`` event."""
    n = config.players
    three = bool(config.options.get("three_player", False))
    sc: Mapping[str, Any] = config.scenario or {}
    if not isinstance(sc, Mapping):
        raise _bad("setup must be an object")
    unknown = sorted(set(sc) - SCENARIO_KEYS)
    if unknown:
        raise _bad(f"BANG! setup does not use {', '.join(unknown)}")
    specs = sc.get("seats", [{} for _ in range(n)])
    if not isinstance(specs, list) or len(specs) != n:
        raise _bad(f"seats must list all {n} seats", "R5")
    every = sc.get("every_seat", {})
    if not isinstance(every, Mapping) or set(every) - EVERY_SEAT_KEYS:
        raise _bad(f"every_seat fixes only {', '.join(sorted(EVERY_SEAT_KEYS))}", "R6")
    for i, spec in enumerate(specs):
        if not isinstance(spec, Mapping):
            raise _bad(f"seats[{i}] must be an object")
        extra = sorted(set(spec) - SEAT_KEYS)
        if extra:
            raise _bad(f"seats[{i}]: BANG! seats do not use {', '.join(extra)}")
    # what every seat has unless its own entry says otherwise (an empty hand for all, say)
    specs = [{**every, **spec} for spec in specs]

    # 1. roles (R4)
    pool = list(ROLE_DECK[n])
    roles: list[str | None] = []
    for i, spec in enumerate(specs):
        r = spec.get("role")
        if r is not None:
            if r not in ROLES:
                raise _bad(f"seats[{i}]: unknown role {r!r}", "R4")
            if r not in pool:
                raise _bad(f"seats[{i}]: one {r} too many for {n} players", "R4")
            pool.remove(r)
        roles.append(r)
    dealt = iter(rng.shuffle(pool))
    roles = [r if r is not None else next(dealt) for r in roles]

    # 2. characters (R3; kept from a previous game: R84)
    kept = config.options.get("characters") or [None] * n
    chars: list[str | None] = []
    for i, spec in enumerate(specs):
        c = spec.get("character", kept[i])
        if c is not None and c not in LIFE:
            raise _bad(f"seats[{i}]: unknown character {c!r}", "R3")
        if c is not None and c in chars:
            raise _bad(f"seats[{i}]: character {c} dealt twice", "R3")
        chars.append(c)
    free = iter(rng.shuffle([c for c in CHARACTERS if c not in chars]))
    chars = [c if c is not None else next(free) for c in chars]

    # life, alive, cards in play
    named: list[str] = []
    seats: list[dict[str, Any]] = []
    for i, spec in enumerate(specs):
        role, ch = roles[i], chars[i]
        top = spec.get("max_life", max_life(ch, role, three))  # type: ignore[arg-type]
        if type(top) is not int or top < 1:
            raise _bad(f"seats[{i}]: max_life must be an integer of 1 or more", "R6")
        alive = spec.get("alive", True)
        if not isinstance(alive, bool):
            raise _bad(f"seats[{i}]: alive must be true or false")
        life = spec.get("life", top if alive else 0)
        if type(life) is not int:
            raise _bad(f"seats[{i}]: life must be an integer", "R47")
        if alive and not 1 <= life <= top:
            raise _bad(f"seats[{i}]: life {life} outside 1..{top}", "R47")
        if not alive and life != 0:
            raise _bad(f"seats[{i}]: an eliminated player has life 0", "R51")
        hand = _cards(spec["hand"], f"seats[{i}].hand") if "hand" in spec else None
        in_play = _cards(spec.get("in_play", []), f"seats[{i}].in_play")
        if not alive and (hand or in_play):
            raise _bad(f"seats[{i}]: an eliminated player holds no cards", "R51")
        keys = [KEY[c] for c in in_play]
        if any(c not in BLUE for c in in_play):
            raise _bad(f"seats[{i}]: only blue cards lie in play", "R21")
        if len(set(keys)) != len(keys):
            raise _bad(f"seats[{i}]: two identical cards in play", "R19")
        if sum(1 for c in in_play if c in WEAPON_OF) > 1:
            raise _bad(f"seats[{i}]: more than one weapon in play", "R20")
        if "JAIL" in keys and role == SHERIFF:
            raise _bad(f"seats[{i}]: the Sheriff cannot be jailed", "R38")
        named.extend(hand or [])
        named.extend(in_play)
        seats.append({"seat": i, "role": role, "character": ch, "life": life, "max_life": top,
                      "alive": alive, "hand": hand, "in_play": in_play})
    deck_top = _cards(sc.get("deck", []), "deck")
    discard = _cards(sc.get("discard", []), "discard")
    named.extend(deck_top)
    named.extend(discard)
    if len(set(named)) != len(named):
        dup = sorted({c for c in named if named.count(c) > 1})
        raise _bad(f"cards in two places: {', '.join(dup)}", "R1")

    exact = sc.get("deck_exact", False)
    if not isinstance(exact, bool):
        raise _bad("deck_exact must be true or false", "R1")

    # 3. the deck (R6 step 4)
    taken = set(named)
    rest = rng.shuffle([c for c in ALL_CARDS if c not in taken])
    first = next((i for i, r in enumerate(roles) if r == (DEPUTY if three else SHERIFF)), 0)
    for k in range(n):
        s = seats[(first + k) % n]
        if s["hand"] is None:
            count = s["life"] if s["alive"] else 0
            s["hand"], rest = rest[:count], rest[count:]

    alive_roles = [s["role"] for s in seats if s["alive"]]
    if len(alive_roles) < 2 or (not three and (SHERIFF not in alive_roles or not any(
            r in (OUTLAW, RENEGADE) for r in alive_roles))):
        raise _bad("the game would already be over", "R57")
    turn = sc.get("turn", first)
    if type(turn) is not int or not 0 <= turn < n or not seats[turn]["alive"]:
        raise _bad("turn must be the seat of an alive player", "R7")
    phase = sc.get("phase", "start")
    if phase not in PHASES:
        raise _bad(f"phase is one of {', '.join(PHASES)}", "R8")
    if exact:  # the deck is exactly the listed one: the cards named nowhere lie under the discard pile
        return {"three_player": three, "turn": turn, "phase": phase, "players": seats,
                "deck": deck_top, "discard": rest + discard}
    return {"three_player": three, "turn": turn, "phase": phase, "players": seats,
            "deck": deck_top + rest, "discard": discard}


def setup(config: GameConfig, rng: Rng) -> list[Event]:
    """The opening events: ``game_started``, then the first turn's start."""
    data = game_started(config, rng)
    first = Event("game_started", data)
    state = evolve(None, first)
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
            act(ctx, lambda c: start_turn(c, turn, "dynamite" if phase == "start" else "draw"))
            ctx.finish()
    except GameOver:
        pass
    return [first] + ctx.events


__all__ = ["setup", "game_started"]
