"""A heuristic BANG! The Dice Game player (rules D1–D75) deciding from its
seat's view only: its own role, the public roles, lives, arrows and dice.

* sides: the Sheriff's team shoots the players not known to be on it
  (known Outlaws and Renegades first), Outlaws shoot the Sheriff first,
  a Renegade thins the field and leaves the Sheriff for last; with 3
  players everyone aims at his personal target (D68);
* dice are kept toward that goal (D16): shots at an enemy in range, beer
  while hurt, Gatling once two show; arrows, useless beer and shots that
  can only hit a friend are rerolled;
* every other choice helps a friend or the bot itself and hurts an enemy.
"""
from __future__ import annotations

from typing import Any

from referee.engine.platform import playing_moves
from referee.engine.protocol import Json, Move
from referee.engine.rng import Rng

SHOTS = {"shot1": 1, "shot2": 2, "double_shot1": 1, "double_shot2": 2}
TARGET = {"deputy": "renegade", "renegade": "outlaw", "outlaw": "deputy"}


def _kind(role: str | None) -> str | None:
    """A role id as the view shows it (``outlaw``), or ``None`` where hidden."""
    return role


def sides(state: Json, me: int) -> tuple[set[int], set[int]]:
    """``(friends, enemies)`` of ``me`` among the living, from public knowledge."""
    mine = _kind(state.get("role"))
    seats = state["seats"]
    living = [s["seat"] for s in seats if s["alive"] and s["seat"] != me]
    known = {s["seat"]: _kind(s["role"]) for s in seats}
    friends: set[int] = set()
    enemies: set[int] = set()
    if state["players"] == 3:
        target = TARGET.get(mine or "", "")
        enemies = {p for p in living if known[p] == target} or set(living)
        return friends, enemies
    for p in living:
        role = known[p]
        if mine in ("sheriff", "deputy"):
            (friends if role == "sheriff" else enemies).add(p)
        elif mine == "outlaw":
            (enemies if role == "sheriff" else friends if role == "outlaw" else set()).add(p)
        else:  # renegade: everyone, the Sheriff last
            (friends if role == "sheriff" and len(living) > 1 else enemies).add(p)
    if not enemies:
        enemies = set(living) - friends or set(living)
    return friends, enemies


def _life(state: Json, p: int) -> int:
    return int(state["seats"][p]["life"])


def _target(state: Json, me: int, options: list[int], *, hurt: bool) -> int:
    """The best of ``options`` to hurt (``hurt``) or to help."""
    friends, enemies = sides(state, me)

    def score(p: int) -> tuple[int, int]:
        if hurt:
            rank = 0 if p in enemies else 2 if p == me or p in friends else 1
            return rank, _life(state, p)
        seat = state["seats"][p]
        full = seat["life"] >= seat["max_life"]
        rank = 0 if p == me and not full else 1 if p in friends and not full else 3 if p in enemies else 2
        return rank, _life(state, p)
    return min(options, key=score)


def _keep(state: Json, me: int) -> list[int]:
    """Die numbers worth rerolling (D16)."""
    seat = state["seats"][me]
    dice = state["dice"]
    gatlings = sum(2 if d["face"] == "double_gatling" else 1 for d in dice if "gatling" in d["face"])
    _, enemies = sides(state, me)
    living = [s["seat"] for s in state["seats"] if s["alive"]]
    out = []
    for d in dice:
        face = d["face"]
        if face in ("arrow", "broken_arrow", "bullet"):
            out.append(d["die"])
        elif face in ("beer", "double_beer") and seat["life"] >= seat["max_life"] - 1:
            out.append(d["die"])
        elif "gatling" in face and gatlings < 2:
            out.append(d["die"])
        elif face in SHOTS and not _in_range(living, me, SHOTS[face], enemies):
            out.append(d["die"])
    return out


def _in_range(living: list[int], me: int, k: int, enemies: set[int]) -> bool:
    if me not in living:
        return False
    m = len(living)
    k = 1 if m <= 3 else k
    i = living.index(me)
    return bool({living[(i + k) % m], living[(i - k) % m]} & enemies)


def choose(view: Json, legal_moves: list[Move], rng: Rng) -> Move:
    """One element of ``legal_moves``, decided from ``view`` only; never ``resign`` (D75)."""
    legal_moves = list(playing_moves(legal_moves))
    state: Any = view.get("state") or {}
    me = view.get("seat")
    kind = legal_moves[0]["type"]
    if me is None or not state:
        return legal_moves[0]
    if kind == "stop" and not state.get("ghost_turn"):
        bad = set(_keep(state, me))
        wanted = [m for m in legal_moves if m["type"] == "reroll" and set(m["dice"]) <= bad]
        return max(wanted, key=lambda m: len(m["dice"])) if wanted else legal_moves[0]
    if kind == "shoot":
        targets = [m["target"] for m in legal_moves]
        best = _target(state, me, targets, hurt=True)
        moves = [m for m in legal_moves if m["target"] == best]
        return max(moves, key=lambda m: m["double"])
    if kind in ("beer", "sid"):
        best = _target(state, me, [m["target"] for m in legal_moves], hurt=False)
        return next(m for m in legal_moves if m["target"] == best)
    if kind in ("broken_arrow", "discard"):
        helps = [m for m in legal_moves if m["target"] is not None]
        friends, _ = sides(state, me)
        mine = [m for m in helps if m["target"] == me or m["target"] in friends]
        return (mine or helps or legal_moves)[0]
    if kind == "pedro":
        return max(legal_moves, key=lambda m: m["regular"] + m["chief"])
    if kind == "bart":
        return legal_moves[-1] if _life(state, me) <= 4 else legal_moves[0]
    if kind == "haunt":
        friends, enemies = sides(state, me)
        good = {"beer"}
        options = []
        for m in legal_moves:
            face = state["dice"][m["die"] - 1]["face"]
            value = 1 if face in good else -1 if face in ("arrow", "dynamite") else 0
            value *= 2 if m["double"] else 1
            side = 1 if m["target"] in friends else -1 if m["target"] in enemies else 0
            options.append((value * side, m))
        return max(options, key=lambda o: o[0])[1]
    return legal_moves[0]
