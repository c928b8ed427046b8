"""Setup (F5–F8) and the scenario ``setup`` object (DESIGN.md, Scenario setup).

``setup`` draws from the generator in this order, skipping what is fixed:

1. the first seat, ``below(players)`` (F8) — skipped when the option
   ``first_seat`` or the scenario's ``turn`` names it;
2. one shuffle (F6, F32) of the cards the scenario names nowhere — all 18 in
   a normal game — taken in canonical order (``CHEST-SWORD-1`` …
   ``SHIP-SKULL-3``). The seats without a fixed card are dealt from the
   front of the shuffled list, seat 0 first; the rest of it goes below the
   scenario's ``deck`` (top first) to form the draw pile.

A scenario may carry ``turn``, ``seats`` (one ``{card, coins}`` object per
seat, each key optional; ``card`` is a card id or two symbols), ``deck``
(top first), ``discard`` (bottom first), ``dice`` (die faces used before the
generator) and ``flips`` (flip outcomes used before the generator, each
below the number of tied seats when used, F32). Anything else is refused.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.protocol import Event, GameConfig, InvalidSetup
from referee.engine.rng import Rng
from referee.games.bluffaneer.fold import GAME_STARTED
from referee.games.bluffaneer.options import check_options, check_players
from referee.games.bluffaneer.state import TOTAL_COINS
from referee.games.bluffaneer.symbols import CARD_IDS, SYMBOLS, cards_of_pair

SCENARIO_KEYS = frozenset({"turn", "seats", "deck", "discard", "dice", "flips"})
SEAT_KEYS = frozenset({"card", "coins"})


_CARD_REF: dict[str, Any] = {"oneOf": [
    {"type": "string", "enum": list(CARD_IDS)},
    {"type": "array", "items": {"enum": list(SYMBOLS)}, "minItems": 2, "maxItems": 2,
     "description": "two symbols: the lowest free copy of that card"}]}

#: the scenario ``setup`` object (DESIGN.md), published by ``GET /v1/rulesets``
#: and enforced before ``setup``: every field, its default, what leaving it out means
SETUP_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "x-rule": "F32",
    "description": "A Bluffaneer start position. Anything left out is dealt from the seeded generator as usual.",
    "properties": {
        "turn": {"type": "integer", "minimum": 0, "maximum": 5, "x-rule": "F8",
                 "description": "The first roller. Left out: the option first_seat, else drawn (F8)."},
        "seats": {"type": "array", "maxItems": 6, "x-rule": "F5",
                  "description": "Per seat, in seat order, only what is fixed ({} for none).",
                  "items": {"type": "object", "additionalProperties": False, "properties": {
                      "card": {**_CARD_REF, "description": "Left out: dealt (F6)."},
                      "coins": {"type": "integer", "minimum": 1,
                                "description": "Left out: 10, or 8 with six players (F7)."},
                  }}},
        "deck": {"type": "array", "items": _CARD_REF, "x-rule": "F4",
                 "description": "Top first. Cards named nowhere go below it, shuffled."},
        "discard": {"type": "array", "items": _CARD_REF, "x-rule": "F4",
                    "description": "Bottom first. Left out: empty."},
        "dice": {"type": "array", "items": {"enum": list(SYMBOLS)}, "x-rule": "F32",
                 "description": "Die faces shown before the generator rolls (die 1, then die 2, then the next roll)."},
        "flips": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 1}, "x-rule": "F32",
                  "description": "Flip outcomes used before the generator, 0 or 1: the only ones that fit "
                                 "every tie (2 seats or more) a flip may meet."},
    },
}


def _bad(detail: str, rule: str | None) -> InvalidSetup:
    return InvalidSetup("invalid_setup", rule=rule, detail=detail)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(scenario: Mapping[str, Any], key: str) -> list[Any]:
    value = scenario.get(key, [])
    if not isinstance(value, (list, tuple)):
        raise _bad(f"setup.{key} must be a list", None)
    return list(value)


def starting_coins(players: int) -> int:
    """10 coins each, 8 with six players (F7)."""
    return 8 if players == 6 else 10


class _Cards:
    """Resolves card references (ids or symbol pairs) so that each of the
    18 cards is in exactly one place (F4)."""

    def __init__(self, refs: Sequence[Any]) -> None:
        self.used: set[str] = set()
        for ref in refs:
            if isinstance(ref, str):
                if ref not in CARD_IDS:
                    raise _bad(f"unknown card {ref!r}", "F4")
                if ref in self.used:
                    raise _bad(f"card {ref} is in two places", "F4")
                self.used.add(ref)

    def resolve(self, ref: Any, where: str) -> str:
        """The card id for ``ref``; a pair takes its lowest free copy."""
        if isinstance(ref, str):
            return ref
        if not isinstance(ref, (list, tuple)) or len(ref) != 2 or \
                any(not isinstance(sym, str) for sym in ref):
            raise _bad(f"{where}: a card is an id or a list of two symbols, not {ref!r}", "F4")
        unknown = [sym for sym in ref if sym not in SYMBOLS]
        if unknown:
            raise _bad(f"{where}: unknown symbol {unknown[0]!r}", "F2")
        copies = cards_of_pair(ref)
        if not copies:
            raise _bad(f"{where}: no card shows {ref[0]} twice (F4: two different symbols)", "F4")
        for card in copies:
            if card not in self.used:
                self.used.add(card)
                return card
        raise _bad(f"{where}: all three {ref[0]}+{ref[1]} cards are already placed", "F4")


def _seats(scenario: Mapping[str, Any], players: int) -> list[Mapping[str, Any]]:
    if "seats" not in scenario:
        return [{} for _ in range(players)]
    seats = _list(scenario, "seats")
    if len(seats) != players:
        raise _bad(f"setup.seats lists {len(seats)} seats for {players} players", "F1")
    for i, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            raise _bad(f"setup.seats[{i}] must be an object", None)
        extra = sorted(set(seat) - SEAT_KEYS)
        if extra:
            raise _bad(f"setup.seats[{i}]: Bluffaneer has no {', '.join(map(str, extra))}", None)
    return seats


def _coins(seats: list[Mapping[str, Any]], players: int) -> list[int]:
    coins = []
    for i, seat in enumerate(seats):
        c = seat.get("coins", starting_coins(players))
        if not _is_int(c):
            raise _bad(f"setup.seats[{i}].coins must be an integer", "F5")
        if c < 1:
            raise _bad(f"setup.seats[{i}] would start with {c} coins: the game would be over",
                       "F28")
        coins.append(c)
    if sum(coins) > TOTAL_COINS:
        raise _bad(f"{sum(coins)} coins dealt, but the game has {TOTAL_COINS}", "F5")
    return coins


def _queues(scenario: Mapping[str, Any], players: int) -> tuple[list[str], list[int]]:
    dice = _list(scenario, "dice")
    for face in dice:
        if face not in SYMBOLS:
            raise _bad(f"setup.dice: unknown symbol {face!r}", "F2")
    flips = _list(scenario, "flips")
    for flip in flips:
        # a tie is between 2 seats or more, and which tie a queued flip meets depends on play: only
        # 0 and 1 fit every tie, so only they can be checked here and never refuse an innocent move later
        if not _is_int(flip) or not 0 <= flip <= 1:
            raise _bad(f"setup.flips: {flip!r} does not fit every tie it may meet (a tie has 2 seats or more): "
                       "a queued flip is 0 or 1", "F32")
    return dice, flips


def _first_seat(config: GameConfig, scenario: Mapping[str, Any], rng: Rng) -> int:
    option = config.options.get("first_seat")
    if "turn" not in scenario:
        return option if option is not None else rng.below(config.players)
    turn = scenario["turn"]
    if not _is_int(turn) or not 0 <= turn < config.players:
        raise _bad(f"setup.turn must be a seat 0..{config.players - 1}, not {turn!r}", "F8")
    if option is not None and option != turn:
        raise _bad(f"setup.turn {turn} contradicts option first_seat {option}", "F8")
    return int(turn)


def _scenario_of(config: GameConfig) -> Mapping[str, Any]:
    """The scenario ``setup`` object (none: ``{}``), with no key Bluffaneer does not know."""
    scenario: Mapping[str, Any] = config.scenario or {}
    if not isinstance(scenario, Mapping):
        raise _bad("setup must be an object", None)
    extra = sorted(map(str, set(scenario) - SCENARIO_KEYS))
    if extra:
        raise _bad(f"Bluffaneer's setup has no {', '.join(extra)}", None)
    return scenario


def _placed(scenario: Mapping[str, Any], seats: list[Mapping[str, Any]]) \
        -> tuple[_Cards, list[str | None], list[str], list[str]]:
    """The cards the scenario places (F4): the resolver, each seat's fixed card (``None``: dealt), the
    ``deck`` (top first) and the ``discard`` pile (bottom first)."""
    deck_refs, discard_refs = _list(scenario, "deck"), _list(scenario, "discard")
    hand_refs = [seat.get("card") for seat in seats]
    cards = _Cards([ref for ref in hand_refs if ref is not None] + deck_refs + discard_refs)
    hands = [None if ref is None else cards.resolve(ref, f"setup.seats[{index}].card")
             for index, ref in enumerate(hand_refs)]
    deck = [cards.resolve(ref, "setup.deck") for ref in deck_refs]
    discard = [cards.resolve(ref, "setup.discard") for ref in discard_refs]
    return cards, hands, deck, discard


def setup(config: GameConfig, rng: Rng) -> list[Event]:
    """The opening event: cards dealt (F6), coins dealt (F7), first roller
    (F8), scenario queues (F32). Raises ``InvalidSetup``."""
    players = config.players
    check_players(players)
    options = check_options(config.options, players)
    scenario = _scenario_of(config)
    seats = _seats(scenario, players)
    coins = _coins(seats, players)
    cards, hands, deck, discard = _placed(scenario, seats)
    dice, flips = _queues(scenario, players)
    first = _first_seat(config, scenario, rng)
    unnamed = [card for card in CARD_IDS if card not in cards.used]
    if len(unnamed) < hands.count(None):
        raise _bad("the deck and discard pile leave no card for every seat", "F6")
    free = iter(rng.shuffle(unnamed))
    dealt = [card if card is not None else next(free) for card in hands]
    return [Event(GAME_STARTED, {
        "players": players, "first_seat": first,
        "die_faces": options["die_faces"], "claim_window_ms": options["claim_window_ms"],
        "coins": coins, "box": TOTAL_COINS - sum(coins),
        "hands": dealt, "deck": deck + list(free), "discard": discard,
        "dice_queue": dice, "flip_queue": flips,
    })]
