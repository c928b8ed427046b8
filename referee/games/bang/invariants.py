"""Invariants the property tests check after every step (R1, R4, R7, R19,
R20, R29, R43, R47, R48, R51, R57, R82): each a small function citing its
rule, returning what it finds broken; ``invariants`` lists them all."""
from __future__ import annotations

from referee.games.bang.roles import DEPUTY, OUTLAW, RENEGADE, SHERIFF
from referee.games.bang.state import Player, State
from referee.games.cards.deck import ALL_CARDS, KEY, WEAPON_OF


def invariants(state: State | None) -> list[str]:
    if state is None:
        return []
    out = cards_in_one_place(state)
    dying = {f.seat for f in state.stack if f.kind == "dying"}
    for p in state.players:
        out.extend(seat_sound(p, dying))
    out.extend(roles_dealt(state))
    out.extend(over_has_result(state))
    if state.phase != "over":
        out.extend(awaited_alive(state))
    return out


def cards_in_one_place(state: State) -> list[str]:
    """R1: the 80 cards, each once, in the deck, the discard pile, the limbo, the hands and in play."""
    places = list(state.deck) + list(state.discard) + list(state.limbo)
    for p in state.players:
        places.extend(p.hand)
        places.extend(p.in_play)
    if len(places) != 80 or set(places) != set(ALL_CARDS):
        dup = sorted({c for c in places if places.count(c) > 1})
        return [f"R1: {len(places)} cards in play areas, duplicates {dup}"]
    return []


def seat_sound(player: Player, dying: set[int]) -> list[str]:
    """One seat: eliminated with nothing (R51), else its life (R47, R48) and its cards in play (R19, R20)."""
    if not player.alive:
        return eliminated_hold_nothing(player)
    return [*life_in_bounds(player, dying), *in_play_sound(player)]


def eliminated_hold_nothing(player: Player) -> list[str]:
    """R51: an eliminated player has life 0 and no cards."""
    if player.life != 0 or player.hand or player.in_play:
        return [f"R51: eliminated seat {player.seat} has life {player.life} or cards"]
    return []


def life_in_bounds(player: Player, dying: set[int]) -> list[str]:
    """R47: never above the maximum; R48: below 1 only while dying."""
    out: list[str] = []
    if player.life > player.max_life:
        out.append(f"R47: seat {player.seat} life {player.life} above max {player.max_life}")
    if player.life < 1 and player.seat not in dying:
        out.append(f"R48: seat {player.seat} at life {player.life} without a dying window")
    return out


def in_play_sound(player: Player) -> list[str]:
    """R19: no two identical cards in play; R20: one weapon at most."""
    out: list[str] = []
    keys = [KEY[c] for c in player.in_play]
    if len(set(keys)) != len(keys):
        out.append(f"R19: seat {player.seat} has two identical cards in play")
    if sum(1 for c in player.in_play if c in WEAPON_OF) > 1:
        out.append(f"R20: seat {player.seat} has two weapons")
    return out


def roles_dealt(state: State) -> list[str]:
    """R4: one Sheriff; R82: the 3-player game's Deputy, Outlaw and Renegade."""
    roles = sorted(p.role for p in state.players)
    if state.three_player:
        return [f"R82: roles {roles}"] if roles != sorted([DEPUTY, OUTLAW, RENEGADE]) else []
    return [f"R4: {roles.count(SHERIFF)} sheriffs"] if roles.count(SHERIFF) != 1 else []


def over_has_result(state: State) -> list[str]:
    """R57: the game is over exactly when it has a result."""
    return ["R57: phase and result disagree"] if (state.phase == "over") != (state.result is not None) else []


def awaited_alive(state: State) -> list[str]:
    """While the game is on: the turn is an alive player's (R7), the open
    window too (R43), and cards lie in the limbo only while a pick is open (R29)."""
    out: list[str] = []
    if not state.players[state.turn].alive:
        out.append(f"R7: seat {state.turn} is dead but has the turn")
    top = state.top()
    if top is not None and not state.players[top.seat].alive:
        out.append(f"R43: window open for dead seat {top.seat}")
    if state.limbo and (top is None or top.kind not in ("store", "lucky", "kit")):
        out.append("R29: cards left in limbo")
    return out
