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


def top_prompt(state: State) -> Frame | None:
    st = state.flow.stack
    return st[-1] if st and st[-1].kind in PROMPTS else None


def kit_limbo(state: State) -> bool:
    """The limbo holds Kit Carlson's private look (FO50, FO57), not a General Store."""
    top = top_prompt(state)
    if top is not None and top.kind in ("store", "lucky"):
        return False
    a = state.flow.active
    return bool(state.limbo) and state.chars[a].name == KIT_CARLSON and state.flow.phase == "phase2"


def sees_hand(state: State, seat: int | None, char: int) -> bool:
    """FO57: a player sees his own character's hand; the Renegade's only its controller of the moment."""
    if seat is None:
        return False
    if char != RENEGADE:
        return state.owner(char) == seat
    f = state.flow
    if f.active == RENEGADE and f.phase not in ("bid", "place", "over"):
        return bool(f.controller == seat)
    top = top_prompt(state)
    return top is not None and top.char == RENEGADE and flow_controller(state, RENEGADE) == seat


def hidden(state: State | None, seat: int | None) -> set[str]:
    """The card ids ``seat`` (``None``: a spectator) must not find in what it receives now (FO57)."""
    if state is None:
        return set()
    out = set(state.brown) | set(state.blue)
    for c in range(3):
        if not sees_hand(state, seat, c):
            out.update(x for x in state.chars[c].hand if x not in state.pub)
    if kit_limbo(state) and not sees_hand(state, seat, state.flow.active):
        out.update(state.limbo)
    for b in (0, 1):
        if state.bids[b] is not None and b != seat:
            out.add(state.bids[b])  # type: ignore[arg-type]
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


def _map(state: State, parts: _Parts) -> Json:
    """The map as everyone sees it (FO57), kept while its rows, id and name are the same."""
    last = parts.map
    if not (last[0] is state.rows and last[1] is state.map_id and last[2] is state.map_name):
        last = parts.map = (state.rows, state.map_id, state.map_name, {
            "id": state.map_id, "name": state.map_name, "width": len(state.rows[0]), "height": len(state.rows),
            "rows": ["".join("#" if c == "#" else "." for c in r) for r in state.rows]})
    out: Json = last[3]
    return out


def _board(state: State, parts: _Parts) -> list[str]:
    """``board.grid`` of the figures and nuggets (FO57: all public)."""
    last, (a, b, c) = parts.board, state.chars
    if not (last[0] is state.rows and last[1] is a.pos and last[2] is b.pos and last[3] is c.pos
            and last[4] is state.nuggets):
        last = parts.board = (state.rows, a.pos, b.pos, c.pos, state.nuggets,
                              board.grid(state.rows, [(MARKS[figure], char.pos)
                                                      for figure, char in enumerate(state.chars)], state.nuggets))
    out: list[str] = last[5]
    return out


def _path(rows: Any, start: Any, goal: Any, parts: _Parts) -> int:
    """``distance.base_distance``: the path distance from square ``start`` to ``goal`` (FO21), kept
    by squares while the map's rows are the same (dropped whole when full)."""
    held, paths = parts.paths
    if held is not rows:
        paths = {}
        parts.paths = (rows, paths)
    found = paths.get((start, goal))
    if found is not None:
        return found
    if len(paths) >= 8192:
        paths.clear()
    d = paths[(start, goal)] = board.path_distance(rows, start, goal)
    return d


def _sights(state: State, parts: _Parts) -> tuple[list[list[int]], list[list[int | None]]]:
    """The path distances between the figures (FO21) and the distances at
    which each sees the others (R15: Mustang, Scope, Paul Regret, Rose Doolan)."""
    last, (a, b, c) = parts.sights, state.chars
    if not (last[0] is state.rows and last[1] is a.pos and last[2] is b.pos and last[3] is c.pos
            and last[4] is a.in_play and last[5] is b.in_play and last[6] is c.in_play
            and last[7] == (a.name, b.name, c.name)):
        dist = [[0 if x == y else _path(state.rows, state.chars[x].pos, state.chars[y].pos, parts) for y in range(3)]
                for x in range(3)]
        # distance.sees_at(s, x, y): the path distance as BANG! modifies it (R15)
        seen = [[None if x == y else cardrules.seen_at(dist[x][y], state.chars[x], state.chars[y]) for y in range(3)]
                for x in range(3)]
        last = parts.sights = (state.rows, a.pos, b.pos, c.pos, a.in_play, b.in_play, c.in_play,
                               (a.name, b.name, c.name), (dist, seen))
    out: tuple[list[list[int]], list[list[int | None]]] = last[8]
    return out


def _spectator_hides(state: State, card: str) -> bool:
    """``card in hidden(s, None)``, without building the set: in a deck, in
    a hand and not public, in Kit Carlson's look, or a bid (FO57)."""
    if card in state.brown or card in state.blue or card in state.bids:
        return True
    if card not in state.pub and any(card in ch.hand for ch in state.chars):
        return True
    return card in state.limbo and kit_limbo(state)


def public_view(state: State, memo: Memo | None = None) -> Json:
    """What both seats and a spectator see alike (FO57); built once per
    state (kept in the game's ``memo``) and shared: do not mutate."""
    memo = fresh(memo)
    kept = memo.of(state)
    known: Json | None = kept.get("public_view")
    if known is None:
        known = kept["public_view"] = _public_view(state, memo)
    return known


def _public_view(state: State, memo: Memo) -> Json:
    f = state.flow
    figures = [{"char": i, "role": ROLE_NAMES[i], "mark": MARKS[i], "x": ch.pos[0], "y": ch.pos[1]}
               for i, ch in enumerate(state.chars)]
    parts = memo.part(_Parts)
    dist, seen = _sights(state, parts)
    top = top_prompt(state)
    store = list(state.limbo) if state.limbo and top is not None and top.kind == "store" else []
    return {
        "map": _map(state, parts),
        "board": _board(state, parts),
        "figures": figures,
        "nuggets": [[x, y] for x, y in state.nuggets],
        "reserve": state.reserve,
        "characters": _characters(state),
        "distances": dist,
        "sees_at": seen,
        "decks": {"brown": len(state.brown), "blue": len(state.blue)},
        "discards": {"brown": list(state.brown_discard), "blue": list(state.blue_discard)},
        "round": f.round, "active": f.active, "phase": f.phase,
        "turn_start": None if f.start is None else list(f.start), "slots_left": f.slots if f.phase == "phase2" else 0,
        "sheriff_seat": state.sheriff_seat,
        "last_bids": _last_bids(state),
        "set_aside": list(state.set_aside),
        "general_store": store,
        # Lucky Duke's two "draw!" cards, face up, while he chooses (R42)
        "lucky_cards": list(state.limbo) if top is not None and top.kind == "lucky" else [],
        "renegade_variant": state.variant,
        "seats": seats(state),
        "last": last(state, memo),
    }


def _characters(state: State) -> list[Json]:
    """Each figure's character as everyone sees it (FO57): its owner and controller (FO32, FO35,
    FO39), life, cards in play, hand size, square and reach (R16)."""
    out: list[Json] = []
    for figure, char in enumerate(state.chars):
        controller = flow_controller(state, figure)
        out.append({"char": figure, "role": ROLE_NAMES[figure],
                    "owner": state.owner(figure) if figure != RENEGADE else None,
                    "controller": controller if controller >= 0 else None,
                    "character": char.name, "life": char.life, "max_life": char.max_life,
                    "in_play": list(char.in_play), "hand_size": len(char.hand), "square": [char.pos[0], char.pos[1]],
                    "reach": reach(state, figure)})
    return out


def _last_bids(state: State) -> list[str | None] | None:
    """The last revealed bids (FO35), while neither card is out of sight again (FO57)."""
    bids = state.last_bids
    if bids is None or any(_spectator_hides(state, card) for card in bids if card is not None):
        return None
    return list(bids)


def last(state: State, memo: Memo | None = None) -> Json | None:
    """``state.last``: the last card played, figure moved, "draw!" checked or bids revealed; a
    card of it out of sight again (reshuffled into a deck, inherited into a hand) shown as
    ``null`` (FO57). Built once per state (kept in the game's ``memo``); do not mutate."""
    shown: Json | None = state.last
    if shown is None or ("card" not in shown and "bids" not in shown):
        return shown
    kept = fresh(memo).of(state)
    if "last" in kept:
        known: Json | None = kept["last"]
        return known
    if "card" in shown and _spectator_hides(state, shown["card"]):
        shown = {**shown, "card": None}
    if "bids" in shown and any(b is not None and _spectator_hides(state, b) for b in shown["bids"]):
        shown = {**shown, "bids": [None if b is None or _spectator_hides(state, b) else b for b in shown["bids"]]}
    kept["last"] = shown
    return shown


def seats(state: State) -> list[Json]:
    """Each player's public facts (issue 24, ``state.seats``): its role (FO3), its own figure and
    character, the figures it decides for now (its own; the Renegade while it controls him, FO32,
    FO35), its hand size, whether its bid is in (FO33) and its trophies (FO45)."""
    out: list[Json] = []
    renegade = flow_controller(state, RENEGADE)
    for p in (0, 1):
        mine = state.own_char(p)
        out.append({"seat": p, "role": ROLE_NAMES[mine], "char": mine, "character": state.chars[mine].name,
                    "controls": [mine, RENEGADE] if renegade == p else [mine],
                    "hand_size": len(state.chars[mine].hand), "bid_in": state.bids[p] is not None,
                    "kills": len(state.trophies[p]),
                    "trophies": [{"character": t[0], "with_renegade": t[1]} for t in state.trophies[p]]})
    return out


def pending(state: State, memo: Memo | None = None) -> Json | None:
    """The open decision as everybody sees it (issue 24): its kind (a window, or the phase), the
    awaited seats, no deadline of the rules' own (FO9), the default a timeout plays for each
    awaited seat (only its type where it names a card or is drawn among several), the character
    it is for and the prompt's public extras (its source, the duel's other side, a "draw!"'s
    purpose). Built once per state (kept in the game's ``memo``, where the awaited seats' legal
    moves its defaults are drawn from are kept too); do not mutate."""
    memo = fresh(memo)
    kept = memo.of(state)
    if "pending" in kept:
        known: Json | None = kept["pending"]
        return known
    out: Json | None = None
    if state.result is None:
        f = state.flow
        top = top_prompt(state)
        awaiting = sorted(to_act(state))
        default: list[Json] = []
        for seat in awaiting:
            opts = default_options(state, seat, memo)
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


def seat_part(state: State, seat: int | None, memo: Memo | None = None) -> Json:
    """What only ``seat`` sees (FO57): its character and hand, the Renegade's hand while it controls
    him, its bid, Kit Carlson's look while it is his, and the open decision (``pending``)."""
    f = state.flow
    own = state.own_char(seat) if seat is not None else None
    return {
        "you": seat,
        "my_char": own,
        "hand": list(state.chars[own].hand) if own is not None else None,
        "renegade_hand": list(state.chars[RENEGADE].hand) if sees_hand(state, seat, RENEGADE) else None,
        "my_bid": state.bids[seat] if seat is not None else None,
        "kit_cards": list(state.limbo) if kit_limbo(state) and sees_hand(state, seat, f.active) else None,
        "pending": pending(state, memo),
    }


def view(state: State, seat: int | None, memo: Memo | None = None) -> Json:
    """``public_view`` and ``seat_part`` together (FO57), kept in the game's ``memo``."""
    memo = fresh(memo)
    return {**public_view(state, memo), **seat_part(state, seat, memo)}


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


def _owner(data: Any, figure: int) -> int:
    if figure == RENEGADE:
        return -1
    return int(data["sheriff_seat"]) if figure == 0 else 1 - int(data["sheriff_seat"])
