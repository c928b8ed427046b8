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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
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


@lru_cache(maxsize=512)
def _walks(rows: tuple[str, ...], src: tuple[int, int]) -> dict[tuple[int, int], int]:
    """``_bfs``, remembered: a game's map does not change, so its bot's choices ask for the same squares'
    distances again and again (the audit re-derives every choice too). Read only, never changed."""
    return _bfs(rows, src)


def _bfs(rows: Sequence[str], src: tuple[int, int]) -> dict[tuple[int, int], int]:
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
        self._map = tuple(self.rows)
        self._dists: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
        self._nearest: dict[tuple[int, int], int | None] = {}
        self._gaps: dict[tuple[int, tuple[int, int]], list[tuple[int, int]]] = {}

    def dist(self, src: tuple[int, int]) -> dict[tuple[int, int], int]:
        """The walking distances from ``src`` on the map (``_bfs``), each square's computed once per
        choice: a phase-1 choice weighs every walk's end, three times each, and many walks share an end."""
        found = self._dists.get(src)
        if found is None:
            found = self._dists[src] = _walks(self._map, src)
        return found

    def nearest(self, end: tuple[int, int], got: set[tuple[int, int]]) -> int | None:
        """The walking distance from ``end`` to the nearest nugget not in ``got`` (99: none reachable;
        ``None``: none left), kept per square while ``got`` is empty: the walks a choice weighs mostly
        pick up nothing, and many share an end."""
        if got:
            return self._nearest_of(end, self.nuggets - got)
        if end not in self._nearest:
            self._nearest[end] = self._nearest_of(end, self.nuggets)
        return self._nearest[end]

    def _nearest_of(self, end: tuple[int, int], left: set[tuple[int, int]]) -> int | None:
        if not left:
            return None
        return min(map(self.dist(end).get, left, repeat(99)))

    def gaps(self, c: int, end: tuple[int, int]) -> list[tuple[int, int]]:
        """``(enemy, distance)`` for each enemy of ``c``, seen from ``end``: its walking distance from there
        and the two tables' modifiers; kept per character and square, once per choice."""
        key = (c, end)
        found = self._gaps.get(key)
        if found is None:
            dist = self.dist(end)
            found = self._gaps[key] = [(e, dist.get(self.pos(e), 99) + self.modifiers(c, e))
                                       for e in self.enemies(c)]
        return found

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
    score = 0.0
    got = seen.nuggets.intersection(path)
    score += 6.0 * len(got)
    near = seen.nearest(end, got)
    if near is not None:
        score -= 0.4 * near
    reach = seen.reach(c)
    for e, d in seen.gaps(c, end):
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


@dataclass(frozen=True, slots=True)
class _Turn:
    """What phase 3 weighs for the acting character: its figure, its enemies,
    the kinds of card it has in play and its weapon's range."""

    me: Json
    enemies: set[int]
    in_play: set[str]
    weapon: int


def _longer_weapon(move: Move, turn: _Turn) -> bool:
    card = _key(move["card"])
    return card in _RANGE and _RANGE[card] > turn.weapon


def _new_equipment(move: Move, turn: _Turn) -> bool:
    card = _key(move["card"])
    return card in ("BARREL", "MUSTANG", "SCOPE") and card not in turn.in_play


def _beer_when_hurt(move: Move, turn: _Turn) -> bool:
    return _key(move["card"]) == "BEER" and bool(turn.me["life"] < turn.me["max_life"])


def _draw_cards(move: Move, turn: _Turn) -> bool:
    return _key(move["card"]) in ("STAGECOACH", "WELLSFARGO")


def _take_from_enemy(move: Move, turn: _Turn) -> bool:
    return _key(move["card"]) in ("PANIC", "CATBALOU") and move.get("target") in turn.enemies


def _jail_enemy(move: Move, turn: _Turn) -> bool:
    return _key(move["card"]) == "JAIL" and move.get("target") in turn.enemies


#: the cards phase 3 plays first, in this order, before any shot
_PLAY_FIRST: tuple[Callable[[Move, _Turn], bool], ...] = (
    _longer_weapon, _new_equipment, _beer_when_hurt, _draw_cards, _take_from_enemy, _jail_enemy)


def _first(plays: list[Move], wanted: Callable[[Move, _Turn], bool], turn: _Turn) -> Move | None:
    return next((move for move in plays if wanted(move, turn)), None)


def _shot_at_enemy(move: Move, turn: _Turn) -> bool:
    return _key(move["card"]) in ("BANG", "MISSED") and move.get("target") in turn.enemies


def _hits_everyone(move: Move, turn: _Turn) -> bool:
    return _key(move["card"]) in ("GATLING", "INDIANS")


def _duel_enemy(move: Move, turn: _Turn) -> bool:
    return _key(move["card"]) == "DUEL" and move.get("target") in turn.enemies


def _attack(seen: _Seen, moves: list[Move], plays: list[Move], turn: _Turn, char: int) -> Move:
    """Every shot at the weakest enemy in reach, Gatling or Indians! for the
    bot's own figure, a Duel with two BANG! in hand; else end the turn."""
    shots = [move for move in plays if _shot_at_enemy(move, turn)]
    if shots:
        return min(shots, key=lambda move: seen.chars[move["target"]]["life"])
    # Gatling and Indians! hit every other character: never from the Renegade it controls (its own figure)
    multi = _first(plays, _hits_everyone, turn)
    if multi is not None and char == seen.mine:
        return multi
    duel = _first(plays, _duel_enemy, turn)
    if duel is not None and sum(1 for card in seen.hand() if _key(card) == "BANG") >= 2:
        return duel
    return next((move for move in moves if move["type"] == "end_turn"), moves[-1])


def _play_choice(seen: _Seen, moves: list[Move], char: int) -> Move:
    """Phase 3: equipment, Beer and draws first (``_PLAY_FIRST``), then the attack."""
    me = seen.chars[char]
    plays = [move for move in moves if move["type"] == "play"]
    turn = _Turn(me=me, enemies=set(seen.enemies(char)), in_play={_key(card) for card in me["in_play"]},
                 weapon=max((_RANGE.get(_key(card), 1) for card in me["in_play"]), default=1))
    for wanted in _PLAY_FIRST:
        move = _first(plays, wanted, turn)
        if move is not None:
            return move
    return _attack(seen, moves, plays, turn, char)


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


def _keep_best(seen: _Seen, legal_moves: list[Move]) -> Move:
    """The card most worth keeping."""
    return max(legal_moves, key=lambda move: _VALUE.get(_key(move["card"]), 0))


def _bid(seen: _Seen, legal_moves: list[Move]) -> Move:
    """The bid (FO33): a high card it can spare when the Renegade stands close
    to the opponent, else its lowest."""
    cards = [move["card"] for move in legal_moves]
    renegade, opponent = seen.pos(2), seen.pos(1 - seen.mine if seen.mine in (0, 1) else 0)
    close = seen.dist(renegade).get(opponent, 99) <= 4
    spare = [card for card in cards if _key(card) not in ("BANG", "MISSED", "BEER")]
    pick = max(spare or cards, key=_rank) if close else min(cards, key=_rank)
    return next(move for move in legal_moves if move["card"] == pick)


def _place(seen: _Seen, legal_moves: list[Move]) -> Move:
    """The spare nugget as close to its own figure as FO37 allows."""
    mine = seen.dist(seen.pos(seen.mine))
    return min(legal_moves, key=lambda move: mine.get((move["square"][0], move["square"][1]), 99))


def _move(seen: _Seen, legal_moves: list[Move]) -> Move:
    """Phase 1: the best square to walk to."""
    return _best_path(seen, legal_moves, seen.acting)


def _walk_or_draw(seen: _Seen, legal_moves: list[Move]) -> Move:
    """Phase 2: walk only when that is clearly better than staying, else draw."""
    char = seen.acting
    walks = [move for move in legal_moves if move["type"] == "walk"]
    here = _square_score(seen, char, seen.pos(char), [], 1)
    best = _best_path(seen, walks, char)
    path = [(square[0], square[1]) for square in best["path"]]
    end = path[-1] if path else seen.pos(char)
    if _square_score(seen, char, end, path, 1) >= here + 2.5:
        return best
    return next((move for move in legal_moves if move["type"] == "draw"), legal_moves[0])


def _play(seen: _Seen, legal_moves: list[Move]) -> Move:
    return _play_choice(seen, legal_moves, seen.acting)


def _discard(seen: _Seen, legal_moves: list[Move]) -> Move:
    """The card least worth keeping."""
    return min(legal_moves, key=lambda move: _VALUE.get(_key(move["card"]), 0))


#: the first of these move types offered decides (after "draw!", "choose" and the answers)
_BY_TYPE: tuple[tuple[str, Callable[[_Seen, list[Move]], Move]], ...] = (
    ("choose", _keep_best), ("bid", _bid), ("place", _place), ("move", _move), ("walk", _walk_or_draw),
    ("end_turn", _play), ("discard", _discard))
#: the pending windows answered by ``_answer``
_ANSWERED = ("shot", "indians", "duel", "dying")


def choose(view: Json, legal_moves: list[Move], rng: Rng) -> Move:
    """The heuristic's move: always one element of ``legal_moves``, from the view only."""
    seen = _Seen(view)
    legal_moves = [m for m in legal_moves if m["type"] != "resign"] or legal_moves  # never resigns (FO58)
    kinds = {move["type"] for move in legal_moves}
    pending: Json = view.get("pending") or {}
    if pending.get("kind") == "lucky":  # Lucky Duke's "draw!" (R42): the card that helps him
        purpose = pending.get("purpose", "")
        return max(legal_moves, key=lambda move: _lucky_worth(purpose, move["card"]))
    if "choose" not in kinds and pending.get("kind") in _ANSWERED:
        return _answer(seen, legal_moves, pending["kind"])
    return next((decide(seen, legal_moves) for kind, decide in _BY_TYPE if kind in kinds), legal_moves[0])
