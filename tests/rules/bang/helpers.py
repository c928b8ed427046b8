"""Scenario builders for the BANG! rules tests (given → when → then)."""
from __future__ import annotations

from typing import Any

from tests.harness import Table, present, scenario

#: characters whose abilities stay out of the way in phase 2 of seat 0
NEUTRAL = ["black_jack", "kit_carlson", "jesse_jones", "pedro_ramirez", "bart_cassidy",
           "el_gringo", "vulture_sam"]
ROLES = {
    3: ["deputy", "outlaw", "renegade"],
    4: ["sheriff", "renegade", "outlaw", "outlaw"],
    5: ["sheriff", "renegade", "outlaw", "outlaw", "deputy"],
    6: ["sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy"],
    7: ["sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"],
}


def game(n: int = 4, *, chars: dict[int, str] | None = None, hands: dict[int, list[str]] | None = None,
         in_play: dict[int, list[str]] | None = None, life: dict[int, int] | None = None,
         roles: dict[int, str] | list[str] | None = None, dead: tuple[int, ...] = (),
         deck: list[str] | None = None, discard: list[str] | None = None, turn: int = 0,
         phase: str = "play", seed: str = "test") -> Table:
    """A table of ``n`` seats: neutral characters, fixed roles (seat 0 the
    Sheriff), empty hands unless given, seat ``turn`` in ``phase``."""
    chars = chars or {}
    hands = hands or {}
    in_play = in_play or {}
    life = life or {}
    if isinstance(roles, list):
        role_list = roles
    else:
        role_list = list(ROLES[n])
        for s, r in (roles or {}).items():
            role_list[s] = r
    used = set(chars.values())
    spare = iter(c for c in NEUTRAL + ["willy_the_kid", "rose_doolan", "paul_regret"] if c not in used)
    seats = []
    for s in range(n):
        spec: dict[str, Any] = {"role": role_list[s], "character": chars.get(s) or next(spare)}
        if s in dead:
            spec.update(alive=False, hand=[], in_play=[])
        else:
            spec["hand"] = list(hands.get(s, []))
            spec["in_play"] = list(in_play.get(s, []))
            if s in life:
                spec["life"] = life[s]
        seats.append(spec)
    setup: dict[str, Any] = {"seats": seats, "turn": turn, "phase": phase,
                             "deck": list(deck or []), "discard": list(discard or [])}
    options = {"three_player": True} if n == 3 else None
    return scenario("bang", n, setup=setup, seed=seed, options=options)


def P(t: Table, seat: int) -> Any:
    return t.state.players[seat]


def hand(t: Table, seat: int) -> list[str]:
    return list(t.state.players[seat].hand)


def life(t: Table, seat: int) -> int:
    return t.state.players[seat].life


def prompt(t: Table) -> Any:
    """The open prompt as its awaited seat sees it (``None``: none), a JSON
    value the tests index straight away."""
    seats = sorted(t.to_act())
    return t.view(seats[0])["pending"] if seats else None


def kind(t: Table) -> str | None:
    """The open window's kind; None in the turn player's own phase 2 (its
    prompt's kind is ``play``, R11)."""
    p = prompt(t)
    return p["kind"] if p and p["kind"] != "play" else None


def types(t: Table) -> list[str]:
    return [e.type for e in t.last]


def events(t: Table, type_: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in t.last if e.type == type_]


def play(t: Table, seat: int, card: str, target: int | None = None, pick: str | None = None) -> Table:
    m: dict[str, Any] = {"type": "play", "card": card}
    if target is not None:
        m["target"] = target
    if pick is not None:
        m["pick"] = pick
    return t.play(seat, m)


def respond(t: Table, seat: int, card: str) -> Table:
    return t.play(seat, {"type": "respond", "card": card})


def pass_(t: Table, seat: int) -> Table:
    return t.play(seat, {"type": "pass"})


def end_turn(t: Table, seat: int) -> Table:
    return t.play(seat, {"type": "end_turn"})


def discard_down(t: Table, seat: int) -> Table:
    """Phase 3 (R12): the default discard, one card at a time, until the turn passes."""
    while t.state.phase == "discard" and t.state.turn == seat:
        t.play(seat, present(t.ruleset.default_move(t.state, seat)))
    return t
