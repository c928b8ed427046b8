"""The checks of a BANG! scenario ``setup`` (DESIGN.md, Scenario setup),
each a small function named for what it checks and citing its rule.

``scenario.game_started`` checks the shape first, from the published
``SETUP_SCHEMA`` (its compiled check): a setup it refuses — which the
service has refused already (``check_scenario``), so only a direct call
gets here — is named by ``check_shape``, field by field, as the rules name
it. Then come the invariants the schema cannot state (the player count,
the role cards, a card in two places, …), each where its value is known.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.protocol import InvalidSetup
from referee.games.bang.roles import OUTLAW, RENEGADE, ROLES, SHERIFF
from referee.games.cards.characters import LIFE
from referee.games.cards.deck import BLUE, CARD_SET, KEY, WEAPON_OF

SCENARIO_KEYS = frozenset({"turn", "phase", "seats", "every_seat", "deck", "deck_exact", "discard"})
SEAT_KEYS = frozenset({"role", "character", "life", "max_life", "hand", "in_play", "alive"})
#: what ``every_seat`` may fix for all seats at once (roles and characters are each one seat's)
EVERY_SEAT_KEYS = frozenset({"life", "max_life", "hand", "in_play"})
PHASES = ("start", "draw", "play")


def bad(detail: str, rule: str | None = None) -> InvalidSetup:
    return InvalidSetup("invalid_setup", detail=detail, rule=rule)


# -- the shape, for a setup the published schema refuses ---------------------------

def check_shape(scenario: Any, players: int) -> None:
    """Name the first field of ``scenario`` that breaks ``SETUP_SCHEMA`` the way
    the rules name it (R1, R5, R6, R8). What the schema refuses and a later
    invariant names (a card twice in one list, a life below 0) is left to it."""
    check_object(scenario)
    check_known_keys(scenario)
    specs = scenario.get("seats", [{} for _ in range(players)])
    check_seat_count(specs, players)
    every = scenario.get("every_seat", {})
    check_every_seat(every)
    for i, spec in enumerate(specs):
        check_seat_keys(i, spec)
    for i, spec in enumerate(specs):
        merged = {**every, **spec}
        check_alive(i, merged.get("alive", True))
        if "hand" in merged:
            check_card_list(merged["hand"], f"seats[{i}].hand")
        check_card_list(merged.get("in_play", []), f"seats[{i}].in_play")
    check_card_list(scenario.get("deck", []), "deck")
    check_card_list(scenario.get("discard", []), "discard")
    check_deck_exact(scenario.get("deck_exact", False))
    check_phase(scenario.get("phase", "start"))


def check_object(scenario: Any) -> None:
    """The setup is a JSON object (DESIGN.md, Scenario setup)."""
    if not isinstance(scenario, Mapping):
        raise bad("setup must be an object")


def check_known_keys(scenario: Mapping[str, Any]) -> None:
    """Only the keys BANG! scenarios use (DESIGN.md, Scenario setup)."""
    unknown = sorted(set(scenario) - SCENARIO_KEYS)
    if unknown:
        raise bad(f"BANG! setup does not use {', '.join(unknown)}")


def check_every_seat(every: Any) -> None:
    """R6: ``every_seat`` fixes only what all seats may share (not a role or a character)."""
    if not isinstance(every, Mapping) or set(every) - EVERY_SEAT_KEYS:
        raise bad(f"every_seat fixes only {', '.join(sorted(EVERY_SEAT_KEYS))}", "R6")


def check_seat_keys(seat: int, spec: Any) -> None:
    """A seat's entry is an object with only the keys BANG! seats use."""
    if not isinstance(spec, Mapping):
        raise bad(f"seats[{seat}] must be an object")
    extra = sorted(set(spec) - SEAT_KEYS)
    if extra:
        raise bad(f"seats[{seat}]: BANG! seats do not use {', '.join(extra)}")


def check_alive(seat: int, alive: Any) -> None:
    """R7: a seat's player is alive or not."""
    if not isinstance(alive, bool):
        raise bad(f"seats[{seat}]: alive must be true or false")


def check_card_list(value: Any, where: str) -> None:
    """R1: a list of the game's card IDs."""
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise bad(f"{where} must be a list of card IDs", "R1")
    for c in value:
        if c not in CARD_SET:
            raise bad(f"{where}: unknown card {c!r}", "R1")


def check_deck_exact(exact: Any) -> None:
    """R1: ``deck_exact`` is true or false."""
    if not isinstance(exact, bool):
        raise bad("deck_exact must be true or false", "R1")


def check_phase(phase: Any) -> None:
    """R8: the turn starts at its beginning, at phase 1 or at phase 2."""
    if phase not in PHASES:
        raise bad(f"phase is one of {', '.join(PHASES)}", "R8")


# -- the invariants the schema cannot state ----------------------------------------

def check_seat_count(specs: Any, players: int) -> None:
    """R5: ``seats`` lists every seat of the game."""
    if not isinstance(specs, list) or len(specs) != players:
        raise bad(f"seats must list all {players} seats", "R5")


def check_role(seat: int, role: Any, pool: list[str], players: int) -> None:
    """R4: a fixed role is one of the role cards still to deal for ``players`` players."""
    if role not in ROLES:
        raise bad(f"seats[{seat}]: unknown role {role!r}", "R4")
    if role not in pool:
        raise bad(f"seats[{seat}]: one {role} too many for {players} players", "R4")


def check_character(seat: int, character: Any, chars: Sequence[str | None]) -> None:
    """R3: a fixed (or kept, R84) character is one of the 16, each dealt once."""
    if character is not None and character not in LIFE:
        raise bad(f"seats[{seat}]: unknown character {character!r}", "R3")
    if character is not None and character in chars:
        raise bad(f"seats[{seat}]: character {character} dealt twice", "R3")


def check_max_life(seat: int, top: Any) -> None:
    """R6: a seat's bullets are a whole number, at least 1."""
    if type(top) is not int or top < 1:
        raise bad(f"seats[{seat}]: max_life must be an integer of 1 or more", "R6")


def check_life(seat: int, life: Any, top: int, alive: bool) -> None:
    """R47: an alive player has 1 to his maximum life; R51: an eliminated one 0."""
    if type(life) is not int:
        raise bad(f"seats[{seat}]: life must be an integer", "R47")
    if alive and not 1 <= life <= top:
        raise bad(f"seats[{seat}]: life {life} outside 1..{top}", "R47")
    if not alive and life != 0:
        raise bad(f"seats[{seat}]: an eliminated player has life 0", "R51")


def check_eliminated_hold_nothing(seat: int, alive: bool, hand: list[str] | None, in_play: list[str]) -> None:
    """R51: an eliminated player's cards are gone."""
    if not alive and (hand or in_play):
        raise bad(f"seats[{seat}]: an eliminated player holds no cards", "R51")


def check_only_blue_in_play(seat: int, in_play: list[str]) -> None:
    """R21: only blue cards lie in front of a player."""
    if any(c not in BLUE for c in in_play):
        raise bad(f"seats[{seat}]: only blue cards lie in play", "R21")


def check_no_identical_in_play(seat: int, keys: list[str]) -> None:
    """R19: never two identical cards in play in front of one player."""
    if len(set(keys)) != len(keys):
        raise bad(f"seats[{seat}]: two identical cards in play", "R19")


def check_one_weapon(seat: int, in_play: list[str]) -> None:
    """R20: at most one weapon in play."""
    if sum(1 for c in in_play if c in WEAPON_OF) > 1:
        raise bad(f"seats[{seat}]: more than one weapon in play", "R20")


def check_sheriff_not_jailed(seat: int, keys: list[str], role: str) -> None:
    """R38: the Sheriff cannot be jailed."""
    if "JAIL" in keys and role == SHERIFF:
        raise bad(f"seats[{seat}]: the Sheriff cannot be jailed", "R38")


def check_in_play(seat: int, in_play: list[str], role: str) -> None:
    """The cards in front of a player: R21, R19, R20, R38."""
    keys = [KEY[c] for c in in_play]
    check_only_blue_in_play(seat, in_play)
    check_no_identical_in_play(seat, keys)
    check_one_weapon(seat, in_play)
    check_sheriff_not_jailed(seat, keys, role)


def check_cards_once(named: list[str]) -> None:
    """R1: each of the 80 cards is in one place."""
    if len(set(named)) != len(named):
        dup = sorted({c for c in named if named.count(c) > 1})
        raise bad(f"cards in two places: {', '.join(dup)}", "R1")


def check_not_over(roles_alive: list[str], three: bool) -> None:
    """R57: the game is not over before it starts (two alive; the Sheriff and
    an Outlaw or the Renegade alive, but for the 3-player game, R82)."""
    if len(roles_alive) < 2 or (not three and (SHERIFF not in roles_alive or not any(
            r in (OUTLAW, RENEGADE) for r in roles_alive))):
        raise bad("the game would already be over", "R57")


def check_turn(turn: Any, seats: list[dict[str, Any]]) -> None:
    """R7: the turn is an alive player's."""
    if type(turn) is not int or not 0 <= turn < len(seats) or not seats[turn]["alive"]:
        raise bad("turn must be the seat of an alive player", "R7")
