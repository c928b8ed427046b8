"""Setup (D5–D9, D72): the deal from the seed, or a scenario ``setup``
fixing roles, characters, life, arrows, the Chief's Arrow, the Ghost,
tokens, whose turn and a queue of forced die faces."""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from referee.engine.protocol import Event, GameConfig, InvalidSetup, Json
from referee.engine.rng import Rng
from referee.engine.schema import SchemaCheck
from referee.games.dice.characters import CHARACTER_IDS, CHARACTERS
from referee.games.dice.dice_faces import BASE, COWARD, DIE_FACES, DYNAMITE, FACES, LOUDMOUTH, REGULAR_ARROWS
from referee.games.dice.event_types import AWAITING, DICE_ROLLED, GAME_STARTED, TURN_STARTED
from referee.games.dice.role_cards import ROLE_KINDS, ROLES
from referee.games.roles import DEPUTY, SHERIFF

_SEATS = {"type": "array", "minItems": 3, "maxItems": 8}
SETUP_SCHEMA: Json = {
    "type": "object", "additionalProperties": False, "x-rule": "D72",
    "description": "A scenario (D72). Every field may be left out: left out, it is dealt from the seed "
                   "(roles, characters) or takes its rule value (life at maximum, no arrows, no Ghost, "
                   "the Sheriff's (3 players: the Deputy's) first turn, no forced faces).",
    "properties": {
        "roles": {**_SEATS, "items": {"enum": list(ROLE_KINDS)}, "x-rule": "D5",
                  "description": "each seat's role; the multiset must be D5's for the player count"},
        "characters": {**_SEATS, "items": {"enum": list(CHARACTER_IDS)}, "uniqueItems": True, "x-rule": "D8"},
        "life": {**_SEATS, "items": {"type": "integer", "minimum": 0, "maximum": 11}, "x-rule": "D4",
                 "description": "each seat's life (0: eliminated before the start), at most his maximum"},
        "arrows": {**_SEATS, "items": {"type": "integer", "minimum": 0, "maximum": 8}, "x-rule": "D3",
                   "description": "regular arrows held; the pile holds 9 less their sum (at least 1)"},
        "chief_arrow": {"type": ["integer", "null"], "minimum": 0, "maximum": 7, "x-rule": "D58",
                        "description": "the seat holding the Chief's Arrow (null: in the pile)"},
        "ghost": {"type": ["integer", "null"], "minimum": 0, "maximum": 7, "x-rule": "D61",
                  "description": "the Ghost's seat (an eliminated player; needs the ghost module)"},
        "tokens": {"type": "array", "x-rule": "D65", "items": {
            "type": "object", "additionalProperties": False, "required": ["seat", "face", "dice"],
            "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 7},
                           "face": {"enum": list(DIE_FACES[BASE])},
                           "dice": {"type": "integer", "minimum": 1, "maximum": 2}}}},
        "turn": {"type": "integer", "minimum": 0, "maximum": 7, "x-rule": "D9",
                 "description": "whose turn it is; the turn starts at his first decision (roll 0)"},
        "roll": {"type": "integer", "minimum": 0, "maximum": 3, "x-rule": "D15",
                 "description": "rolls already made in this turn (0: the turn starts); with 1 or more, `dice` "
                                "are the dice showing and the player decides to reroll or stop"},
        "dice": {"type": "array", "minItems": 5, "maxItems": 5, "items": {"enum": list(FACES)}, "x-rule": "D15",
                 "description": "the five dice showing after `roll` rolls (d5 may be a Saloon die's face)"},
        "saloon": {"enum": [None, LOUDMOUTH, COWARD], "x-rule": "D52",
                   "description": "the Saloon die used this turn (d5), with `roll` 1 or more"},
        "queue": {"type": "array", "items": {"enum": list(FACES)}, "maxItems": 500, "x-rule": "D72",
                  "description": "forced die faces, used before the generator in the order dice are rolled "
                                 "(a face a die does not have is skipped for that die)"},
    },
}


def _bad(detail: str, rule: str) -> InvalidSetup:
    return InvalidSetup("invalid_setup", rule=rule, detail=detail)


@cache
def _setup_check() -> SchemaCheck:
    """``SETUP_SCHEMA``'s checks, made at the first scenario (not at import) and
    cached: a function of no argument, the one constant schema."""
    return SchemaCheck(SETUP_SCHEMA)


def setup(config: GameConfig, rng: Rng) -> list[Event]:
    """Roles shuffled (D7), then characters drawn (D8), each from the seed
    unless given; then the first turn (D9). A scenario's shape is checked
    from the published ``SETUP_SCHEMA`` first (D72), then each invariant the
    schema cannot state, by its own small function."""
    players = config.players
    options = config.options
    scenario: Mapping[str, Any] = config.scenario or {}
    check_shape(scenario)
    check_seat_lists(scenario, players)
    roles = list(scenario["roles"]) if "roles" in scenario else rng.shuffle(ROLES[players])
    check_roles(roles, players)
    chars = list(scenario["characters"]) if "characters" in scenario else rng.shuffle(CHARACTER_IDS)[:players]
    top = [CHARACTERS[c] + (2 if r == SHERIFF else 0) for c, r in zip(chars, roles)]
    life = list(scenario.get("life", top))
    check_life(life, top)
    alive = [v > 0 for v in life]
    arrows = [a if alive[p] else 0 for p, a in enumerate(scenario.get("arrows", [0] * players))]
    check_arrows(arrows)
    chief = scenario.get("chief_arrow")
    check_chief_arrow(chief, options, alive)
    ghost = scenario.get("ghost")
    check_ghost(ghost, options, alive, roles)
    tokens = _tokens(scenario.get("tokens", []), options, alive)
    turn = scenario.get("turn", roles.index(DEPUTY if players == 3 else SHERIFF))
    check_turn(turn, alive)
    check_not_decided(roles, alive)
    started: Json = {
        "players": players, "saloon_dice": options["saloon_dice"], "chief_arrow": options["chief_arrow"],
        "ghost_module": options["ghost"], "roles": list(roles),
        "characters": chars, "max_life": top, "life": life, "arrows": arrows, "alive": alive,
        "chief_holder": chief, "ghost": ghost, "tokens": tokens, "queue": list(scenario.get("queue", [])), "turn": turn,
    }
    return _opening(scenario, options, started, chars[turn])


def _opening(scenario: Mapping[str, Any], options: Mapping[str, Any], started: Json, char: str) -> list[Event]:
    """The opening events: the deal, the first turn (D9), the dice showing
    if the scenario starts after a roll (D15), and the decision awaited."""
    turn = started["turn"]
    events = [Event(GAME_STARTED, started), Event(TURN_STARTED, {"seat": turn, "ghost": False})]
    kind = "sid" if char == "sid_ketchum" else "roll"
    rolls = scenario.get("roll", 0)
    if rolls:
        events.append(_mid_turn(scenario, options, turn, rolls, char))
        kind = "reroll"
    events.append(Event(AWAITING, {"kind": kind, "seat": turn, "data": [], "agenda": []}))
    return events


def check_shape(scenario: Mapping[str, Any]) -> None:
    """D72: the scenario matches the published ``SETUP_SCHEMA`` (the service
    has checked it already; a direct call is checked here), the refusal
    naming the field and the rule of its property."""
    if not scenario or _setup_check().matches(scenario):
        return
    refused = _setup_check().first_refusal(scenario, "setup")
    if refused is not None:
        raise InvalidSetup("invalid_setup", rule=refused[0], detail=refused[1])


def check_seat_lists(scenario: Mapping[str, Any], players: int) -> None:
    """D3, D4, D5, D8: a per-seat list names every seat."""
    for key in ("roles", "characters", "life", "arrows"):
        if key in scenario and len(scenario[key]) != players:
            raise _bad(f"setup.{key} must list {players} seats", SETUP_SCHEMA["properties"][key]["x-rule"])


def check_roles(roles: list[str], players: int) -> None:
    """D5: the role cards of ``players`` players, each once."""
    if sorted(roles) != sorted(ROLES[players]):
        raise _bad(f"setup.roles must be {sorted(ROLES[players])} for {players} players", "D5")


def check_life(life: list[int], top: list[int]) -> None:
    """D4: no one above his maximum life."""
    if any(v > m for v, m in zip(life, top)):
        raise _bad("setup.life exceeds a maximum", "D4")


def check_arrows(arrows: list[int]) -> None:
    """D3: the pile keeps at least one of the 9 regular arrows."""
    if sum(arrows) >= REGULAR_ARROWS:
        raise _bad("setup.arrows leave no arrow in the pile", "D3")


def check_chief_arrow(chief: int | None, options: Mapping[str, Any], alive: list[bool]) -> None:
    """D58: the Chief's Arrow is held only with its module, by a living player."""
    if chief is not None and (not options["chief_arrow"] or chief >= len(alive) or not alive[chief]):
        raise _bad("setup.chief_arrow needs the chief_arrow module and a living holder", "D58")


def check_ghost(ghost: int | None, options: Mapping[str, Any], alive: list[bool], roles: list[str]) -> None:
    """D61: the Ghost, only with its module, is an eliminated player, not the Sheriff."""
    if ghost is not None and (not options["ghost"] or ghost >= len(alive) or alive[ghost] or roles[ghost] == SHERIFF):
        raise _bad("setup.ghost needs the ghost module and an eliminated seat, not the Sheriff", "D61")


def _tokens(given: list[Mapping[str, Any]], options: Mapping[str, Any], alive: list[bool]) -> list[Any]:
    """Each seat's ghost token (``[face, dice]``) or None, each checked (D65)."""
    tokens: list[Any] = [None] * len(alive)
    for token in given:
        check_token(token, options, alive)
        tokens[token["seat"]] = [token["face"], token["dice"]]
    return tokens


def check_token(token: Mapping[str, Any], options: Mapping[str, Any], alive: list[bool]) -> None:
    """D65: a ghost token, only with the ghost module, lies before a living player."""
    if token["seat"] >= len(alive) or not alive[token["seat"]] or not options["ghost"]:
        raise _bad("a ghost token needs the ghost module and a living holder", "D65")


def check_turn(turn: int, alive: list[bool]) -> None:
    """D9: the turn is a living player's."""
    if turn >= len(alive) or not alive[turn]:
        raise _bad("setup.turn must be a living seat", "D9")


def check_not_decided(roles: list[str], alive: list[bool]) -> None:
    """D32: the game is not decided before it starts: two alive; with 4 or
    more players the Sheriff and an Outlaw or the Renegade alive."""
    players = len(roles)
    if sum(alive) < 2 or (players > 3 and not alive[roles.index(SHERIFF)]) or (players > 3 and not any(
            alive[p] and roles[p] not in (SHERIFF, DEPUTY) for p in range(players))):
        raise _bad("the scenario starts with the game already decided", "D32")


def _mid_turn(scenario: Mapping[str, Any], options: Mapping[str, Any], turn: int, rolls: int, char: str) -> Event:
    """A turn set up after ``rolls`` rolls: the dice showing, awaiting the reroll decision (D15, D16)."""
    saloon = scenario.get("saloon")
    if "dice" not in scenario or (saloon is not None and not options["saloon_dice"]):
        raise _bad("setup.roll needs setup.dice (and a Saloon die only with saloon_dice)", "D15")
    kinds = [BASE] * 4 + [saloon or BASE]
    dice = list(scenario["dice"])
    if any(f not in DIE_FACES[k] for f, k in zip(dice, kinds)):
        raise _bad("setup.dice shows a face its die does not have", "D51")
    if dice.count(DYNAMITE) >= 3 or rolls >= (4 if char == "lucky_duke" else 3):
        raise _bad("setup.roll leaves no reroll decision (three dynamite or the last roll)", "D18")
    return Event(DICE_ROLLED, {"seat": turn, "roll": rolls, "saloon": saloon, "die_kinds": kinds, "dice": dice,
                               "rolled": [], "preset": 0, "forced": 0})
