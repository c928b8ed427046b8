"""Setup (FO7) and scenario ``setup`` objects: map, positions, hands,
equipment, both decks, nuggets, kills so far, whose turn and who controls
the Renegade."""
from __future__ import annotations

from typing import Any

from referee.engine.protocol import Event, GameConfig, InvalidSetup
from referee.engine.rng import Rng
from referee.games.cards.characters import CHARACTERS, LIFE
from referee.games.cards.deck import ALL_CARDS, BLUE, CARD_SET
from referee.games.faceoff import board
from referee.games.faceoff.context import Ctx
from referee.games.faceoff.fold import evolve
from referee.games.faceoff.runner import settle
from referee.games.faceoff.state import MARKS, RENEGADE
from referee.games.faceoff.turn import start_turn

_SQ = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}
_CARDS = {"type": "array", "items": {"type": "string"}}
_PER_CHAR = {"type": "array", "minItems": 3, "maxItems": 3}

SETUP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "description": "A Face Off position to start from (FO7). Lists 'per character' are in figure order "
                   "[Sheriff's, Outlaw's, Renegade]. Every field is optional: what is left out is dealt as "
                   "FO7 says. Cards named nowhere are shuffled under their own deck (brown or blue).",
    "properties": {
        "sheriff_seat": {"type": "integer", "enum": [0, 1], "x-rule": "FO2",
                         "description": "the seat owning the Sheriff's character (default: random)"},
        "characters": {**_PER_CHAR, "items": {"type": "string", "enum": list(CHARACTERS)}, "x-rule": "FO7"},
        "life": {**_PER_CHAR, "items": {"type": "integer", "minimum": 1, "maximum": 5}, "x-rule": "FO7"},
        "positions": {**_PER_CHAR, "items": _SQ, "x-rule": "FO5"},
        "hands": {**_PER_CHAR, "items": _CARDS, "x-rule": "FO7"},
        "in_play": {**_PER_CHAR, "items": _CARDS, "x-rule": "FO29"},
        "brown": {**_CARDS, "x-rule": "FO24", "description": "the brown deck, top first"},
        "blue": {**_CARDS, "x-rule": "FO24", "description": "the blue deck, top first"},
        "brown_discard": {**_CARDS, "x-rule": "FO24", "description": "bottom first"},
        "blue_discard": {**_CARDS, "x-rule": "FO24", "description": "bottom first"},
        "nuggets": {"type": "array", "items": _SQ, "x-rule": "FO13"},
        "reserve": {"type": "integer", "minimum": 0, "maximum": 64, "x-rule": "FO37"},
        "trophies": {"type": "array", "minItems": 2, "maxItems": 2, "x-rule": "FO40",
                     "items": {"type": "array", "maxItems": 1, "items": {"type": "string",
                                                                         "enum": list(CHARACTERS)}}},
        "turn": {"type": "integer", "enum": [0, 1, 2], "x-rule": "FO8",
                 "description": "the character whose turn starts (default 0, the Sheriff's)"},
        "controller": {"type": "integer", "enum": [0, 1], "x-rule": "FO32",
                       "description": "with turn 2: the seat that won the bid and controls the Renegade"},
    },
}


def _bad(rule: str, detail: str) -> InvalidSetup:
    return InvalidSetup("invalid_setup", rule=rule, detail=detail)


def resolve_map(option: Any) -> dict[str, Any]:
    if option is None:
        return board.BUILTIN["faceoff_1"]
    if isinstance(option, str):
        if option not in board.BUILTIN:
            raise InvalidSetup("unknown_map", rule="FO7",
                               detail=f"map {option!r}: faceoff_1, faceoff_2 or a map object")
        return board.BUILTIN[option]
    errs = board.check_map(option)
    if errs:
        raise InvalidSetup(errs[0]["code"], rule="FO54",
                           detail="; ".join(f"{e['code']}: {e['detail']}" for e in errs))
    return dict(option)


def setup(config: GameConfig, rng: Rng) -> list[Event]:
    """The game's first events (FO7): ``game_setup`` as the scenario (already
    checked against ``SETUP_SCHEMA``) sets it, what it leaves out dealt, each
    invariant of its keys checked; then the first turn starts (FO8)."""
    opts = config.options
    m = resolve_map(opts.get("map"))
    rows = tuple(m["rows"])
    sc: dict[str, Any] = dict(config.scenario or {})
    named = _named_cards(sc)
    _check_colours(sc)
    rest = [c for c in ALL_CARDS if c not in set(named)]
    brown = list(sc.get("brown", [])) + rng.shuffle([c for c in rest if c not in BLUE])
    blue = list(sc.get("blue", [])) + rng.shuffle([c for c in rest if c in BLUE])
    names = _characters(sc, rng)
    sheriff_seat = sc["sheriff_seat"] if "sheriff_seat" in sc else rng.below(2)
    lives = [LIFE[n] for n in names]
    life = _life(sc, lives)
    pos = _positions(sc, rows)
    nuggets = _nuggets(sc, rows, pos)
    reserve = sc.get("reserve", max(int(m.get("nugget_tokens", 16)) - len(board.find(rows, "N")), 0))
    trophies = _trophies(sc, names)
    hands, brown = _hands(sc, brown, life)
    turn, controller = _turn(sc)
    flow = {"round": 1, "active": turn, "phase": "start", "start": None, "slots": 0, "drew": 0, "walk": 2,
            "controller": controller, "placer": -1, "bidders": [], "stack": []}
    in_play = [list(x) for x in sc.get("in_play", [[], [], []])]
    data = {
        "map": {"id": m["id"], "name": m.get("name", m["id"]), "rows": list(rows)},
        "sheriff_seat": sheriff_seat,
        "chars": [{"name": names[i], "life": life[i], "max_life": lives[i], "hand": hands[i],
                   "in_play": in_play[i], "pos": list(pos[i])} for i in range(3)],
        "brown": brown, "blue": blue,
        "brown_discard": list(sc.get("brown_discard", [])), "blue_discard": list(sc.get("blue_discard", [])),
        "nuggets": [list(n) for n in nuggets], "reserve": reserve,
        "trophies": [[[t, False] for t in ts] for ts in trophies], "set_aside": [],
        "renegade_variant": bool(opts.get("renegade_variant", False)), "flow": flow,
    }
    return _first_turn(Event("game_setup", data), turn, rng)


def _named_cards(given: dict[str, Any]) -> list[str]:
    """FO4: the cards the scenario places, each a card of the game, named once."""
    named: list[str] = []
    for key in ("hands", "in_play"):
        for cards in given.get(key, [[], [], []]):
            named.extend(cards)
    for key in ("brown", "blue", "brown_discard", "blue_discard"):
        named.extend(given.get(key, []))
    unknown = [c for c in named if c not in CARD_SET]
    if unknown:
        raise _bad("FO4", f"unknown cards: {unknown[:5]}")
    if len(set(named)) != len(named):
        raise _bad("FO4", "a card is named twice")
    return named


def _check_colours(given: dict[str, Any]) -> None:
    """FO24: each deck and discard holds cards of its own colour."""
    for key, want_blue in (("brown", False), ("brown_discard", False), ("blue", True), ("blue_discard", True)):
        if any((c in BLUE) != want_blue for c in given.get(key, [])):
            raise _bad("FO24", f"{key} holds a card of the other colour")


def _characters(given: dict[str, Any], rng: Rng) -> list[str]:
    """FO7 step 3: three different characters, dealt at random unless named."""
    if "characters" not in given:
        return rng.shuffle(list(CHARACTERS))[:3]
    names = list(given["characters"])
    if len(set(names)) != 3:
        raise _bad("FO7", "three different characters")
    return names


def _life(given: dict[str, Any], lives: list[int]) -> list[int]:
    """FO7 step 7: a character's life at most its printed life."""
    life = list(given.get("life", lives))
    if any(life[i] > lives[i] for i in range(3)):
        raise _bad("FO7", "life above the character's printed life")
    return life


def _positions(given: dict[str, Any], rows: board.Rows) -> list[board.Square]:
    """FO7 step 6, FO16: three different floor squares, the start marks unless named."""
    if "positions" in given:
        pos = [(p[0], p[1]) for p in given["positions"]]
    else:
        pos = [board.find(rows, mk)[0] for mk in MARKS]
    if len(set(pos)) != 3 or not all(board.floor(rows, p) for p in pos):
        raise _bad("FO16", "three different floor squares for the figures")
    return pos


def _nuggets(given: dict[str, Any], rows: board.Rows, pos: list[board.Square]) -> list[board.Square]:
    """FO7 step 5, FO13: nuggets on distinct free floor squares, the N squares unless named."""
    if "nuggets" in given:
        nuggets = [(n[0], n[1]) for n in given["nuggets"]]
    else:
        nuggets = board.find(rows, "N")
    if len(set(nuggets)) != len(nuggets) or any(not board.floor(rows, n) or n in pos for n in nuggets):
        raise _bad("FO13", "nuggets on distinct free floor squares")
    return nuggets


def _trophies(given: dict[str, Any], names: list[str]) -> list[list[str]]:
    """FO40: a trophy is a dead character, none in play, none twice."""
    trophies: list[list[str]] = given.get("trophies", [[], []])
    tro_names = [t for ts in trophies for t in ts]
    if set(tro_names) & set(names) or len(set(tro_names)) != len(tro_names):
        raise _bad("FO40", "a trophy is a dead character, not one in play")
    return trophies


def _hands(given: dict[str, Any], brown: list[str], life: list[int]) -> tuple[list[list[str]], list[str]]:
    """FO7 step 8: the Sheriff's, Outlaw's, Renegade's hands, as many cards as life, unless named;
    and the brown deck left."""
    hands: list[list[str]] = []
    for i in range(3):
        if "hands" in given:
            hands.append(list(given["hands"][i]))
        else:
            hands.append(brown[:life[i]])
            brown = brown[life[i]:]
    return hands, brown


def _turn(given: dict[str, Any]) -> tuple[int, int]:
    """FO8, FO32: whose turn starts, and the Renegade's controller in his own turn (-1 none)."""
    turn: int = given.get("turn", 0)
    controller: int | None = given.get("controller", -1 if turn != RENEGADE else None)
    if controller is None:
        raise _bad("FO32", "a Renegade turn needs its controller")
    if turn != RENEGADE and "controller" in given:
        raise _bad("FO32", "only the Renegade's turn has a controller")
    return turn, controller


def _first_turn(first: Event, turn: int, rng: Rng) -> list[Event]:
    """``game_setup``, then the first turn's start (FO8, FO10) up to the first awaited move."""
    ctx = Ctx(evolve(None, first), rng)
    ctx.events.append(first)
    settle(ctx, start_turn, ctx, turn)
    return ctx.events
