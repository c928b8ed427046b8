"""Views, hidden information and redaction (FO57).

What the views derive from one immutable ``State`` is kept in the game's
memo (``referee.engine.statecache.Memo``; none given: a fresh one):
``memo.of(state)`` holds, per state, a seat's legal moves under that seat
(``legal``), ``"public_view"``, ``"last"`` and ``"pending"`` (this module's
functions of those names) and ``"seen"`` (``encoded.seat_encoded``: the
decision everybody sees, then each seat's own members in the slot of that
seat alone, FO57); ``_Parts`` (a part of the memo) the parts of
``public_view`` built from a few immutable parts of the state, kept from
one state to the next. Values are shared: do not mutate them. Dropping the
memo changes no result, only the speed."""
from __future__ import annotations

from typing import Any

from referee.engine.protocol import Event
from referee.engine.statecache import Memo, fresh
from referee.games.cards import rules as cardrules
from referee.games.cards.characters import KIT_CARLSON
from referee.games.faceoff import board
from referee.games.faceoff.context import PROMPTS
from referee.games.faceoff.distance import reach
from referee.games.faceoff.flow import FIELDS, Frame
from referee.games.faceoff.legal import default_options, to_act
from referee.games.faceoff.state import MARKS, RENEGADE, ROLE_NAMES, State, flow_controller

Json = dict[str, Any]


def top_prompt(s: State) -> Frame | None:
    st = s.flow.stack
    return st[-1] if st and st[-1].kind in PROMPTS else None


def kit_limbo(s: State) -> bool:
    """The limbo holds Kit Carlson's private look (FO50, FO57), not a General Store."""
    top = top_prompt(s)
    if top is not None and top.kind in ("store", "lucky"):
        return False
    a = s.flow.active
    return bool(s.limbo) and s.chars[a].name == KIT_CARLSON and s.flow.phase == "phase2"


def sees_hand(s: State, seat: int | None, c: int) -> bool:
    """FO57: a player sees his own character's hand; the Renegade's only its controller of the moment."""
    if seat is None:
        return False
    if c != RENEGADE:
        return s.owner(c) == seat
    f = s.flow
    if f.active == RENEGADE and f.phase not in ("bid", "place", "over"):
        return bool(f.controller == seat)
    top = top_prompt(s)
    return top is not None and top.char == RENEGADE and flow_controller(s, RENEGADE) == seat


def hidden(s: State | None, seat: int | None) -> set[str]:
    """The card ids ``seat`` (``None``: a spectator) must not find in what it receives now (FO57)."""
    if s is None:
        return set()
    out = set(s.brown) | set(s.blue)
    for c in range(3):
        if not sees_hand(s, seat, c):
            out.update(x for x in s.chars[c].hand if x not in s.pub)
    if kit_limbo(s) and not sees_hand(s, seat, s.flow.active):
        out.update(s.limbo)
    for b in (0, 1):
        if s.bids[b] is not None and b != seat:
            out.add(s.bids[b])  # type: ignore[arg-type]
    return out


class _Parts:
    """Parts of ``public_view`` built from a few immutable parts of the state
    (the map's rows, the figures' squares, the nuggets, the cards in play),
    with the very objects they were built from: kept while a state holds
    those same objects (compared by identity and held). All public (FO57).
    Each one tuple, read and written whole: atomic under threads."""

    __slots__ = ("map", "board", "sights", "paths")

    def __init__(self) -> None:
        self.map: tuple[Any, ...] = (None,) * 4
        self.board: tuple[Any, ...] = (None,) * 6
        self.sights: tuple[Any, ...] = (None,) * 9
        #: ``board.path_distance`` by (from, to), for the map's rows held beside them
        self.paths: tuple[Any, dict[tuple[Any, Any], int]] = (None, {})


def _map(s: State, parts: _Parts) -> Json:
    """The map as everyone sees it (FO57), kept while its rows, id and name are the same."""
    last = parts.map
    if not (last[0] is s.rows and last[1] is s.map_id and last[2] is s.map_name):
        last = parts.map = (s.rows, s.map_id, s.map_name, {
            "id": s.map_id, "name": s.map_name, "width": len(s.rows[0]), "height": len(s.rows),
            "rows": ["".join("#" if c == "#" else "." for c in r) for r in s.rows]})
    out: Json = last[3]
    return out


def _board(s: State, parts: _Parts) -> list[str]:
    """``board.grid`` of the figures and nuggets (FO57: all public)."""
    last, (a, b, c) = parts.board, s.chars
    if not (last[0] is s.rows and last[1] is a.pos and last[2] is b.pos and last[3] is c.pos
            and last[4] is s.nuggets):
        last = parts.board = (s.rows, a.pos, b.pos, c.pos, s.nuggets,
                              board.grid(s.rows, [(MARKS[i], ch.pos) for i, ch in enumerate(s.chars)], s.nuggets))
    out: list[str] = last[5]
    return out


def _path(rows: Any, a: Any, b: Any, parts: _Parts) -> int:
    """``distance.base_distance``: the path distance from square ``a`` to ``b`` (FO21), kept
    by squares while the map's rows are the same (dropped whole when full)."""
    held, paths = parts.paths
    if held is not rows:
        paths = {}
        parts.paths = (rows, paths)
    found = paths.get((a, b))
    if found is not None:
        return found
    if len(paths) >= 8192:
        paths.clear()
    d = paths[(a, b)] = board.path_distance(rows, a, b)
    return d


def _sights(s: State, parts: _Parts) -> tuple[list[list[int]], list[list[int | None]]]:
    """The path distances between the figures (FO21) and the distances at
    which each sees the others (R15: Mustang, Scope, Paul Regret, Rose Doolan)."""
    last, (a, b, c) = parts.sights, s.chars
    if not (last[0] is s.rows and last[1] is a.pos and last[2] is b.pos and last[3] is c.pos
            and last[4] is a.in_play and last[5] is b.in_play and last[6] is c.in_play
            and last[7] == (a.name, b.name, c.name)):
        dist = [[0 if x == y else _path(s.rows, s.chars[x].pos, s.chars[y].pos, parts) for y in range(3)]
                for x in range(3)]
        # distance.sees_at(s, x, y): the path distance as BANG! modifies it (R15)
        seen = [[None if x == y else cardrules.seen_at(dist[x][y], s.chars[x], s.chars[y]) for y in range(3)]
                for x in range(3)]
        last = parts.sights = (s.rows, a.pos, b.pos, c.pos, a.in_play, b.in_play, c.in_play,
                               (a.name, b.name, c.name), (dist, seen))
    out: tuple[list[list[int]], list[list[int | None]]] = last[8]
    return out


def _spectator_hides(s: State, card: str) -> bool:
    """``card in hidden(s, None)``, without building the set: in a deck, in
    a hand and not public, in Kit Carlson's look, or a bid (FO57)."""
    if card in s.brown or card in s.blue or card in s.bids:
        return True
    if card not in s.pub and any(card in ch.hand for ch in s.chars):
        return True
    return card in s.limbo and kit_limbo(s)


def public_view(s: State, memo: Memo | None = None) -> Json:
    """What both seats and a spectator see alike (FO57); built once per
    state (kept in the game's ``memo``) and shared: do not mutate."""
    memo = fresh(memo)
    kept = memo.of(s)
    known: Json | None = kept.get("public_view")
    if known is None:
        known = kept["public_view"] = _public_view(s, memo)
    return known


def _public_view(s: State, memo: Memo) -> Json:
    f = s.flow
    figures = [{"char": i, "role": ROLE_NAMES[i], "mark": MARKS[i], "x": ch.pos[0], "y": ch.pos[1]}
               for i, ch in enumerate(s.chars)]
    parts = memo.part(_Parts)
    dist, seen = _sights(s, parts)
    top = top_prompt(s)
    store = list(s.limbo) if s.limbo and top is not None and top.kind == "store" else []
    return {
        "map": _map(s, parts),
        "board": _board(s, parts),
        "figures": figures,
        "nuggets": [[x, y] for x, y in s.nuggets],
        "reserve": s.reserve,
        "characters": [{"char": i, "role": ROLE_NAMES[i], "owner": s.owner(i) if i != RENEGADE else None,
                        "controller": flow_controller(s, i) if flow_controller(s, i) >= 0 else None,
                        "character": ch.name, "life": ch.life, "max_life": ch.max_life,
                        "in_play": list(ch.in_play), "hand_size": len(ch.hand), "square": [ch.pos[0], ch.pos[1]],
                        "reach": reach(s, i)}
                       for i, ch in enumerate(s.chars)],
        "distances": dist,
        "sees_at": seen,
        "decks": {"brown": len(s.brown), "blue": len(s.blue)},
        "discards": {"brown": list(s.brown_discard), "blue": list(s.blue_discard)},
        "round": f.round, "active": f.active, "phase": f.phase,
        "turn_start": None if f.start is None else list(f.start), "slots_left": f.slots if f.phase == "phase2" else 0,
        "sheriff_seat": s.sheriff_seat,
        # the last revealed bids, while neither card is out of sight again
        "last_bids": (list(s.last_bids) if s.last_bids is not None
                      and not any(_spectator_hides(s, b) for b in s.last_bids if b is not None) else None),
        "set_aside": list(s.set_aside),
        "general_store": store,
        # Lucky Duke's two "draw!" cards, face up, while he chooses (R42)
        "lucky_cards": list(s.limbo) if top is not None and top.kind == "lucky" else [],
        "renegade_variant": s.variant,
        "seats": seats(s),
        "last": last(s, memo),
    }


def last(s: State, memo: Memo | None = None) -> Json | None:
    """``state.last``: the last card played, figure moved, "draw!" checked or bids revealed; a
    card of it out of sight again (reshuffled into a deck, inherited into a hand) shown as
    ``null`` (FO57). Built once per state (kept in the game's ``memo``); do not mutate."""
    shown: Json | None = s.last
    if shown is None or ("card" not in shown and "bids" not in shown):
        return shown
    kept = fresh(memo).of(s)
    if "last" in kept:
        known: Json | None = kept["last"]
        return known
    if "card" in shown and _spectator_hides(s, shown["card"]):
        shown = {**shown, "card": None}
    if "bids" in shown and any(b is not None and _spectator_hides(s, b) for b in shown["bids"]):
        shown = {**shown, "bids": [None if b is None or _spectator_hides(s, b) else b for b in shown["bids"]]}
    kept["last"] = shown
    return shown


def seats(s: State) -> list[Json]:
    """Each player's public facts (issue 24, ``state.seats``): its role (FO3), its own figure and
    character, the figures it decides for now (its own; the Renegade while it controls him, FO32,
    FO35), its hand size, whether its bid is in (FO33) and its trophies (FO45)."""
    out: list[Json] = []
    renegade = flow_controller(s, RENEGADE)
    for p in (0, 1):
        mine = s.own_char(p)
        out.append({"seat": p, "role": ROLE_NAMES[mine], "char": mine, "character": s.chars[mine].name,
                    "controls": [mine, RENEGADE] if renegade == p else [mine],
                    "hand_size": len(s.chars[mine].hand), "bid_in": s.bids[p] is not None,
                    "kills": len(s.trophies[p]),
                    "trophies": [{"character": t[0], "with_renegade": t[1]} for t in s.trophies[p]]})
    return out


def pending(s: State, memo: Memo | None = None) -> Json | None:
    """The open decision as everybody sees it (issue 24): its kind (a window, or the phase), the
    awaited seats, no deadline of the rules' own (FO9), the default a timeout plays for each
    awaited seat (only its type where it names a card or is drawn among several), the character
    it is for and the prompt's public extras (its source, the duel's other side, a "draw!"'s
    purpose). Built once per state (kept in the game's ``memo``, where the awaited seats' legal
    moves its defaults are drawn from are kept too); do not mutate."""
    memo = fresh(memo)
    kept = memo.of(s)
    if "pending" in kept:
        known: Json | None = kept["pending"]
        return known
    out: Json | None = None
    if s.result is None:
        f = s.flow
        top = top_prompt(s)
        awaiting = sorted(to_act(s))
        default: list[Json] = []
        for seat in awaiting:
            opts = default_options(s, seat, memo)
            if opts:
                move = opts[0]
                default.append({"seat": seat, "move": move if len(opts) == 1 and "card" not in move
                                and "cards" not in move else {"type": move["type"]}})
        out = {"kind": top.kind if top is not None else f.phase, "awaiting": awaiting, "deadline": None,
               "default": default or None, "char": top.char if top is not None else f.active}
        if top is not None:
            for k in ("src", "other", "purpose"):
                if k in FIELDS[top.kind]:
                    out[k] = top[k]
    kept["pending"] = out
    return out


def seat_part(s: State, seat: int | None, memo: Memo | None = None) -> Json:
    """What only ``seat`` sees (FO57): its character and hand, the Renegade's hand while it controls
    him, its bid, Kit Carlson's look while it is his, and the open decision (``pending``)."""
    f = s.flow
    own = s.own_char(seat) if seat is not None else None
    return {
        "you": seat,
        "my_char": own,
        "hand": list(s.chars[own].hand) if own is not None else None,
        "renegade_hand": list(s.chars[RENEGADE].hand) if sees_hand(s, seat, RENEGADE) else None,
        "my_bid": s.bids[seat] if seat is not None else None,
        "kit_cards": list(s.limbo) if kit_limbo(s) and sees_hand(s, seat, f.active) else None,
        "pending": pending(s, memo),
    }


def view(s: State, seat: int | None, memo: Memo | None = None) -> Json:
    """``public_view`` and ``seat_part`` together (FO57), kept in the game's ``memo``."""
    memo = fresh(memo)
    return {**public_view(s, memo), **seat_part(s, seat, memo)}


def redact(event: Event, seat: int | None) -> Event:
    d = event.data
    t = event.type
    if t == "game_setup":
        chars = [{**c, "hand": c["hand"] if seat is not None and _owner(d, i) == seat else None,
                  "hand_size": len(c["hand"])} for i, c in enumerate(d["chars"])]
        return Event(t, {**d, "chars": chars, "brown": None, "blue": None,
                         "brown_size": len(d["brown"]), "blue_size": len(d["blue"])})
    if t == "deck_reshuffled":
        return Event(t, {"deck": d["deck"], "order": None, "count": len(d["order"])})
    if t == "bid_made":
        return event if seat == d["seat"] else Event(t, {**d, "card": None})
    if "seen_by" in d and (seat is None or seat not in d["seen_by"]):
        out = dict(d)
        for key in ("cards", "card", "hand"):
            if key in out:
                out[key] = None
        return Event(t, out)
    return event


def _owner(d: Any, i: int) -> int:
    if i == RENEGADE:
        return -1
    return int(d["sheriff_seat"]) if i == 0 else 1 - int(d["sheriff_seat"])
