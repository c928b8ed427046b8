"""A heuristic BANG! Face Off player (rules FO1–FO57), deciding from its seat's view only.

* movement (phases 1 and 2): walk toward nuggets (a blue card each, FO13)
  and into BANG! range of an enemy, away from being the only one in range;
* phase 2 walks only when that puts an enemy in reach or picks a nugget up,
  otherwise it draws;
* phase 3: equipment first (a longer weapon, Barrel, Mustang, Scope), Beer
  when hurt, draws, then every shot at the weakest enemy in reach;
* answers: Barrel, then Missed!, BANG! for Indians!/Duel, Beer when dying;
* the bid (FO33): a high card it can spare when the Renegade stands close
  to the opponent, else its lowest; the spare nugget goes as close to its
  own figure as FO37 allows.

"Enemies" of the acting character are the characters its controller does
not own: never its own figure when it controls the Renegade.
"""
from __future__ import annotations

from collections import deque
from typing import Any

from referee.engine.protocol import Json, Move
from referee.engine.rng import Rng

_RANK = {"J": 11, "Q": 12, "K": 13, "A": 14}
#: how much a card in hand is worth keeping (discard and bid the lowest)
_VALUE = {"MISSED": 6, "BEER": 7, "BANG": 5, "BARREL": 8, "GATLING": 7, "INDIANS": 6, "DUEL": 5,
          "PANIC": 5, "CATBALOU": 4, "STAGECOACH": 6, "WELLSFARGO": 7, "GENERALSTORE": 4, "SALOON": 4,
          "MUSTANG": 6, "SCOPE": 5, "JAIL": 4, "DYNAMITE": 1, "VOLCANIC": 2, "SCHOFIELD": 4,
          "REMINGTON": 5, "CARABINE": 6, "WINCHESTER": 7}
_RANGE = {"VOLCANIC": 1, "SCHOFIELD": 2, "REMINGTON": 3, "CARABINE": 4, "WINCHESTER": 5}


def _key(card: str) -> str:
    return card.split("-")[0]


def _rank(card: str) -> int:
    rs = card.split("-")[1][:-1]
    return _RANK.get(rs) or int(rs)


def _bfs(rows: list[str], src: tuple[int, int]) -> dict[tuple[int, int], int]:
    dist = {src: 0}
    q = deque([src])
    h, w = len(rows), len(rows[0])
    while q:
        x, y = q.popleft()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= n[0] < w and 0 <= n[1] < h and rows[n[1]][n[0]] != "#" and n not in dist:
                dist[n] = dist[(x, y)] + 1
                q.append(n)
    return dist


class _Seen:
    """What the view says, in the form the choices need."""

    def __init__(self, view: Json) -> None:
        st: Any = view.get("state") or {}
        self.st = st
        self.seat = view.get("seat")
        self.rows: list[str] = st["map"]["rows"]
        self.chars: list[Any] = st["characters"]
        self.mine: int = st["my_char"]
        pending = view.get("pending") or {}
        self.acting: int = pending.get("char", st["active"])
        self.nuggets = {(n[0], n[1]) for n in st["nuggets"]}

    def pos(self, c: int) -> tuple[int, int]:
        sq = self.chars[c]["square"]
        return sq[0], sq[1]

    def enemies(self, c: int) -> list[int]:
        return [o for o in range(3) if o != c and o != self.mine]

    def hand(self) -> list[str]:
        if self.acting == 2 and self.mine != 2:
            return list(self.st.get("renegade_hand") or [])
        return list(self.st.get("hand") or [])

    def reach(self, c: int) -> int:
        return int(self.chars[c]["reach"])

    def modifiers(self, a: int, b: int) -> int:
        """sees_at − path distance, from the view's two tables."""
        d, s = self.st["distances"][a][b], self.st["sees_at"][a][b]
        return int(s) - int(d)


def _square_score(seen: _Seen, c: int, end: tuple[int, int], path: list[tuple[int, int]], bangs: int) -> float:
    rows = seen.rows
    score = 0.0
    got = {p for p in path if p in seen.nuggets}
    score += 6.0 * len(got)
    left = seen.nuggets - got
    if left:
        dist = _bfs(rows, end)
        near = min(dist.get(n, 99) for n in left)
        score -= 0.4 * near
    reach = seen.reach(c)
    for e in seen.enemies(c):
        d = _bfs(rows, end).get(seen.pos(e), 99) + seen.modifiers(c, e)
        if d <= reach:
            score += 3.0 + (2.0 if bangs else 0.0) + (1.0 if seen.chars[e]["life"] <= 1 else 0.0)
        else:
            score -= 0.3 * (d - reach)
    return score


def _best_path(seen: _Seen, moves: list[Move], c: int) -> Move:
    bangs = sum(1 for x in seen.hand() if _key(x) == "BANG")
    best, best_score = moves[0], -1e9
    for m in moves:
        path = [(p[0], p[1]) for p in m["path"]]
        end = path[-1] if path else seen.pos(c)
        s = _square_score(seen, c, end, path, bangs)
        if s > best_score:
            best, best_score = m, s
    return best


def _play_choice(seen: _Seen, moves: list[Move], c: int) -> Move:
    me = seen.chars[c]
    plays = [m for m in moves if m["type"] == "play"]
    enemies = set(seen.enemies(c))
    in_play = {_key(x) for x in me["in_play"]}

    def first(pred: Any) -> Move | None:
        return next((m for m in plays if pred(m)), None)

    weapon = max((_RANGE.get(_key(x), 1) for x in me["in_play"]), default=1)
    order: list[Any] = [
        lambda m: _key(m["card"]) in _RANGE and _RANGE[_key(m["card"])] > weapon,
        lambda m: _key(m["card"]) in ("BARREL", "MUSTANG", "SCOPE") and _key(m["card"]) not in in_play,
        lambda m: _key(m["card"]) == "BEER" and me["life"] < me["max_life"],
        lambda m: _key(m["card"]) in ("STAGECOACH", "WELLSFARGO"),
        lambda m: _key(m["card"]) in ("PANIC", "CATBALOU") and m.get("target") in enemies,
        lambda m: _key(m["card"]) == "JAIL" and m.get("target") in enemies,
    ]
    for pred in order:
        m = first(pred)
        if m is not None:
            return m
    shots = [m for m in plays if _key(m["card"]) in ("BANG", "MISSED") and m.get("target") in enemies]
    if shots:
        return min(shots, key=lambda m: seen.chars[m["target"]]["life"])
    # Gatling and Indians! hit every other character: never from the Renegade it controls (its own figure)
    multi = first(lambda m: _key(m["card"]) in ("GATLING", "INDIANS"))
    if multi is not None and c == seen.mine:
        return multi
    duel = first(lambda m: _key(m["card"]) == "DUEL" and m.get("target") in enemies)
    if duel is not None and sum(1 for x in seen.hand() if _key(x) == "BANG") >= 2:
        return duel
    return next((m for m in moves if m["type"] == "end_turn"), moves[-1])


def _lucky_worth(purpose: str, card: str) -> int:
    """1 if ``card`` makes Lucky Duke's "draw!" go his way: a Heart frees him
    or misses (R35, R38); Dynamite spares him unless Spades 2–9 (R39)."""
    face = card.rsplit("-", 1)[-1] if card.count("-") == 1 else card.split("-")[1]
    suit, rank = face[-1], face[:-1]
    if purpose == "dynamite":
        return 0 if suit == "S" and rank.isdigit() and 2 <= int(rank) <= 9 else 1
    return 1 if suit == "H" else 0


def _answer(seen: _Seen, moves: list[Move], kind: str) -> Move:
    for t in ("barrel", "respond", "sid"):
        for m in moves:
            if m["type"] == t:
                return m
    return next((m for m in moves if m["type"] == "pass"), moves[0])


def choose(view: Json, legal_moves: list[Move], rng: Rng) -> Move:
    """The heuristic's move: always one element of ``legal_moves``, from the view only."""
    seen = _Seen(view)
    legal_moves = [m for m in legal_moves if m["type"] != "resign"] or legal_moves  # never resigns (FO58)
    kinds = {m["type"] for m in legal_moves}
    pending = (view.get("pending") or {}).get("kind")
    c = seen.acting
    if pending == "lucky":  # Lucky Duke's "draw!" (R42): the card that helps him
        purpose = (view.get("pending") or {}).get("purpose", "")
        return max(legal_moves, key=lambda m: _lucky_worth(purpose, m["card"]))
    if "choose" in kinds:
        return max(legal_moves, key=lambda m: _VALUE.get(_key(m["card"]), 0))
    if pending in ("shot", "indians", "duel", "dying"):
        return _answer(seen, legal_moves, pending)
    if "bid" in kinds:
        cards = [m["card"] for m in legal_moves]
        ren, opp = seen.pos(2), seen.pos(1 - seen.mine if seen.mine in (0, 1) else 0)
        close = _bfs(seen.rows, ren).get(opp, 99) <= 4
        spare = [x for x in cards if _key(x) not in ("BANG", "MISSED", "BEER")]
        pick = max(spare or cards, key=_rank) if close else min(cards, key=_rank)
        return next(m for m in legal_moves if m["card"] == pick)
    if "place" in kinds:
        mine = _bfs(seen.rows, seen.pos(seen.mine))
        return min(legal_moves, key=lambda m: mine.get((m["square"][0], m["square"][1]), 99))
    if "move" in kinds:
        return _best_path(seen, legal_moves, c)
    if "walk" in kinds:
        walks = [m for m in legal_moves if m["type"] == "walk"]
        here = _square_score(seen, c, seen.pos(c), [], 1)
        best = _best_path(seen, walks, c)
        path = [(p[0], p[1]) for p in best["path"]]
        end = path[-1] if path else seen.pos(c)
        if _square_score(seen, c, end, path, 1) >= here + 2.5:
            return best
        return next((m for m in legal_moves if m["type"] == "draw"), legal_moves[0])
    if "end_turn" in kinds:
        return _play_choice(seen, legal_moves, c)
    if "discard" in kinds:
        return min(legal_moves, key=lambda m: _VALUE.get(_key(m["card"]), 0))
    return legal_moves[0]
