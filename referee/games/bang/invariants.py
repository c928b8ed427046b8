"""Invariants the property tests check after every step (R1, R4, R19, R20,
R47, R51)."""
from __future__ import annotations

from referee.games.bang.cards import ALL_CARDS, KEY, WEAPON_OF
from referee.games.bang.characters import DEPUTY, OUTLAW, RENEGADE, SHERIFF
from referee.games.bang.state import State


def invariants(state: State | None) -> list[str]:
    if state is None:
        return []
    out: list[str] = []
    places = list(state.deck) + list(state.discard) + list(state.limbo)
    for p in state.players:
        places.extend(p.hand)
        places.extend(p.in_play)
    if len(places) != 80 or set(places) != set(ALL_CARDS):
        dup = sorted({c for c in places if places.count(c) > 1})
        out.append(f"R1: {len(places)} cards in play areas, duplicates {dup}")
    dying = {f.seat for f in state.stack if f.kind == "dying"}
    for p in state.players:
        if not p.alive:
            if p.life != 0 or p.hand or p.in_play:
                out.append(f"R51: eliminated seat {p.seat} has life {p.life} or cards")
            continue
        if p.life > p.max_life:
            out.append(f"R47: seat {p.seat} life {p.life} above max {p.max_life}")
        if p.life < 1 and p.seat not in dying:
            out.append(f"R48: seat {p.seat} at life {p.life} without a dying window")
        keys = [KEY[c] for c in p.in_play]
        if len(set(keys)) != len(keys):
            out.append(f"R19: seat {p.seat} has two identical cards in play")
        if sum(1 for c in p.in_play if c in WEAPON_OF) > 1:
            out.append(f"R20: seat {p.seat} has two weapons")
    roles = sorted(p.role for p in state.players)
    if state.three_player:
        if roles != sorted([DEPUTY, OUTLAW, RENEGADE]):
            out.append(f"R82: roles {roles}")
    elif roles.count(SHERIFF) != 1:
        out.append(f"R4: {roles.count(SHERIFF)} sheriffs")
    if (state.phase == "over") != (state.result is not None):
        out.append("R57: phase and result disagree")
    if state.phase != "over":
        if not state.players[state.turn].alive:
            out.append(f"R7: seat {state.turn} is dead but has the turn")
        top = state.top()
        if top is not None and not state.players[top.seat].alive:
            out.append(f"R43: window open for dead seat {top.seat}")
        if state.limbo and (top is None or top.kind not in ("store", "lucky", "kit")):
            out.append("R29: cards left in limbo")
    return out
