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

from collections.abc import Callable
from typing import Any

from referee.engine.platform import playing_moves
from referee.engine.protocol import Json, Move
from referee.engine.rng import Rng

SHOTS = {"shot1": 1, "shot2": 2, "double_shot1": 1, "double_shot2": 2}
TARGET = {"deputy": "renegade", "renegade": "outlaw", "outlaw": "deputy"}


def _kind(role: str | None) -> str | None:
    """A role id as the view shows it (``outlaw``), or ``None`` where hidden."""
    return role


#: where a living player stands for a seat of each role, given the other's role and how many others live
FRIEND, ENEMY, NEITHER = "friend", "enemy", "neither"


def _stance(mine: str | None, theirs: str | None, others: int) -> str:
    """How a player of role ``mine`` sees one of ``others`` living players whose
    role shows as ``theirs``: the Sheriff's team against everyone else, Outlaws
    together against the Sheriff, a Renegade against all but a Sheriff he
    still needs (D68)."""
    if mine in ("sheriff", "deputy"):
        return FRIEND if theirs == "sheriff" else ENEMY
    if mine == "outlaw":
        return ENEMY if theirs == "sheriff" else FRIEND if theirs == "outlaw" else NEITHER
    return FRIEND if theirs == "sheriff" and others > 1 else ENEMY  # renegade: the Sheriff last


def _three_player_sides(mine: str | None, living: list[int], known: dict[int, str | None]) -> tuple[set[int], set[int]]:
    """With 3 players everyone aims at his personal target (D68), or at anyone while it is hidden."""
    target = TARGET.get(mine or "", "")
    return set(), {seat for seat in living if known[seat] == target} or set(living)


def sides(state: Json, me: int) -> tuple[set[int], set[int]]:
    """``(friends, enemies)`` of ``me`` among the living, from public knowledge."""
    mine = _kind(state.get("role"))
    seats = state["seats"]
    living = [s["seat"] for s in seats if s["alive"] and s["seat"] != me]
    known = {s["seat"]: _kind(s["role"]) for s in seats}
    if state["players"] == 3:
        return _three_player_sides(mine, living, known)
    stances = {seat: _stance(mine, known[seat], len(living)) for seat in living}
    friends = {seat for seat, stance in stances.items() if stance == FRIEND}
    enemies = {seat for seat, stance in stances.items() if stance == ENEMY}
    return friends, enemies or set(living) - friends or set(living)


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


def _reroll(state: Json, me: int, legal_moves: list[Move]) -> Move:
    """Reroll the most dice that are all worth rerolling (D16), else stop; a
    ghost's turn (D53) just stops."""
    if state.get("ghost_turn"):
        return legal_moves[0]
    bad = set(_keep(state, me))
    wanted = [move for move in legal_moves if move["type"] == "reroll" and set(move["dice"]) <= bad]
    return max(wanted, key=lambda move: len(move["dice"])) if wanted else legal_moves[0]


def _shoot(state: Json, me: int, legal_moves: list[Move]) -> Move:
    """The best enemy to shoot, with both damage of a double where offered."""
    best = _target(state, me, [move["target"] for move in legal_moves], hurt=True)
    moves = [move for move in legal_moves if move["target"] == best]
    return max(moves, key=lambda move: move["double"])


def _heal(state: Json, me: int, legal_moves: list[Move]) -> Move:
    """Beer or Sid Ketchum's life: the one who most needs it on the bot's side."""
    best = _target(state, me, [move["target"] for move in legal_moves], hurt=False)
    return next(move for move in legal_moves if move["target"] == best)


def _give_away(state: Json, me: int, legal_moves: list[Move]) -> Move:
    """A Broken Arrow or a discarded arrow: to the bot itself or a friend first."""
    helps = [move for move in legal_moves if move["target"] is not None]
    friends, _ = sides(state, me)
    mine = [move for move in helps if move["target"] == me or move["target"] in friends]
    return (mine or helps or legal_moves)[0]


def _pedro(state: Json, me: int, legal_moves: list[Move]) -> Move:
    """Pedro's arrows: the most taken at once."""
    return max(legal_moves, key=lambda move: move["regular"] + move["chief"])


def _bart(state: Json, me: int, legal_moves: list[Move]) -> Move:
    """Bart's choice: the last option when down to 4 lives, else the first."""
    return legal_moves[-1] if _life(state, me) <= 4 else legal_moves[0]


def _haunt_value(state: Json, move: Move, friends: set[int], enemies: set[int]) -> int:
    """A ghost's die for a player: a beer helps, an arrow or dynamite hurts,
    doubled where it counts twice, for a friend or against an enemy."""
    face = state["dice"][move["die"] - 1]["face"]
    value = 1 if face == "beer" else -1 if face in ("arrow", "dynamite") else 0
    value *= 2 if move["double"] else 1
    side = 1 if move["target"] in friends else -1 if move["target"] in enemies else 0
    return value * side


def _haunt(state: Json, me: int, legal_moves: list[Move]) -> Move:
    """A ghost's die (D53): the move worth most to the bot's side."""
    friends, enemies = sides(state, me)
    options = [(_haunt_value(state, move, friends, enemies), move) for move in legal_moves]
    return max(options, key=lambda option: option[0])[1]


Choice = Callable[[Json, int, list[Move]], Move]

#: the decision for each kind of move the rules ask for; any other: the first legal move
CHOICES: dict[str, Choice] = {
    "stop": _reroll,
    "shoot": _shoot,
    "beer": _heal, "sid": _heal,
    "broken_arrow": _give_away, "discard": _give_away,
    "pedro": _pedro,
    "bart": _bart,
    "haunt": _haunt,
}


def choose(view: Json, legal_moves: list[Move], rng: Rng) -> Move:
    """One element of ``legal_moves``, decided from ``view`` only; never ``resign`` (D75)."""
    legal_moves = list(playing_moves(legal_moves))
    state: Any = view.get("state") or {}
    me = view.get("seat")
    kind = legal_moves[0]["type"]
    if me is None or not state:
        return legal_moves[0]
    decide = CHOICES.get(kind)
    return legal_moves[0] if decide is None else decide(state, me, legal_moves)
