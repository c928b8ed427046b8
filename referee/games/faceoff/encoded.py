"""Face Off's views encoded as the API sends them (issue 20), byte for byte
what ``referee.engine.encoded_views`` encodes from ``views.public_view`` and
``views.seat_part`` (``tests/unit/test_encoded_views.py`` and
``tests/unit/test_bang_faceoff_encoded.py`` hold them to it at every step).

A move folds into a new state that shares every part the move left alone
(``state.replace`` copies references): the map, the nuggets, a character,
the discard piles, the trophies. The public members built from such parts
(FO57: all public) are encoded once and kept with the very objects they were
built from, as they were for the state encoded last (compared by identity,
squares and numbers by value, and held, so an id is never reused
meanwhile); a state's public bytes are spliced from them. A seat's own
members (its hand, the Renegade's hand while it controls him, its bid, Kit
Carlson's look: FO57) are built per state and seat and kept in the state's
dict of the game's memo (``referee.engine.statecache.Memo``) in the slot of
that seat alone; the public parts carried from one state to the next are a
part of that memo (``_Parts``).

Pure: no clock, no I/O; nothing at module level but constants; safe under
threads (each kept value one tuple, read and written whole; two threads
racing compute the same bytes).
"""
from __future__ import annotations

from typing import Any

from referee.engine.jsonenc import dumps
from referee.engine.statecache import Memo
from referee.games.cards.characters import KIT_CARLSON
from referee.games.cards.rules import mustang_of, reach_of, scope_of
from referee.games.faceoff import board, legal, views
from referee.games.faceoff.board import Square
from referee.games.faceoff.context import PROMPTS
from referee.games.faceoff.flow import Flow, Frame
from referee.games.faceoff.state import MARKS, RENEGADE, ROLE_NAMES, Char, State, flow_controller

#: ``board.path_distance`` between squares no path joins
_FAR = 10 ** 6
#: each phase's name encoded
_PHASES: dict[str, bytes] = {p: dumps(p) for p in ("bid", "place", "start", "move", "phase2", "play", "discard", "over",
                                                   "start_jail", "start_dynamite")}
#: phases in which the Renegade's turn is no one's to play (FO32: the bid, the spare nugget)
_NO_TURN = ("bid", "place", "over")


class _Parts:
    """What was encoded for the game's state encoded last (a part of the
    game's ``Memo``), one tuple each (read and written whole). All public (FO57)."""

    __slots__ = ("map", "ground", "mods", "sights", "chars", "reached", "hidden", "discards", "seats", "calm", "shown",
                 "owns")

    def __init__(self) -> None:
        #: the map encoded, the board drawn with its nuggets, the nuggets encoded: (rows, map id, map
        #: name, nuggets, parts)
        self.map: tuple[Any, ...] = (None, None, None, None, None)
        #: ``"map"`` to ``"nuggets"``: (rows, nuggets, squares, bytes)
        self.ground: tuple[Any, ...] = (None, None, None, b"")
        #: what each figure's character and cards in play change in distance (R15): (each one's cards
        #: in play and character, then Mustang and Paul Regret, Scope and Rose Doolan per figure)
        self.mods: tuple[Any, ...] = (None,) * 7
        #: ``"distances"`` and ``"sees_at"``: (rows, squares, modifiers, bytes)
        self.sights: tuple[Any, ...] = (None, None, None, b"")
        #: each character's entry of ``"characters"``: (character, owner, controller, bytes), per figure
        self.chars: list[tuple[Any, ...]] = [(None, None, None, b"")] * 3
        #: each figure's path distances (FO21): (rows, its square, ``board.bfs`` from there), per figure
        self.reached: list[tuple[Any, ...]] = [(None, None, None)] * 3
        #: whether the last revealed bids are out of sight (but for Kit Carlson's look): (last bids,
        #: decks, bids, public cards, hands, the answer)
        self.hidden: tuple[Any, ...] = (None,) * 9
        #: ``"discards"``: (brown discard, blue discard, bytes)
        self.discards: tuple[Any, ...] = (None, None, b"")
        #: ``"seats"``: (trophies, the two players' characters' names and hand sizes, the Renegade's
        #: controller, no bid in per seat, the sheriff's seat, bytes)
        self.seats: tuple[Any, ...] = (None,) * 10
        #: the members after ``"last_bids"`` while no prompt is open: (characters set aside, variant, bytes)
        self.calm: tuple[Any, ...] = (None, None, b"")
        #: ``"last"``: (``views.last``'s value, bytes); a class: never a value
        self.shown: tuple[Any, bytes] = (_Parts, b"")
        #: each seat's own members (FO57), in the slot of that seat alone, read by its own view
        #: only: (its character, its hand, the Renegade's hand shown to it, its bid, Kit
        #: Carlson's look shown to it, bytes)
        self.owns: list[tuple[Any, ...]] = [(_Parts,) * 6, (_Parts,) * 6]

#: what a spectator's own members are (FO57: no hand, no bid, no look)
_SPECTATOR = b'"you":null,"my_char":null,"hand":null,"renegade_hand":null,"my_bid":null,"kit_cards":null'
_FIGURES = b'[{"char":0,"role":"sheriff","mark":"S","x":%d,"y":%d},{"char":1,"role":"outlaw","mark":"B","x":%d,' \
    b'"y":%d},{"char":2,"role":"renegade","mark":"R","x":%d,"y":%d}]'
assert MARKS == ("S", "B", "R") and ROLE_NAMES == ("sheriff", "outlaw", "renegade") and RENEGADE == 2


def _ground_bytes(state: State, squares: tuple[Square, Square, Square], memo: Memo, parts: _Parts) -> bytes:
    """The map, the board drawn (``board.grid``: rock and floor, the
    nuggets, then the figures), the figures and the nuggets (FO57: all
    public); kept while the map, the nuggets and the squares are the same."""
    rows, nuggets = state.rows, state.nuggets
    last = parts.ground
    if last[0] is rows and last[1] is nuggets and last[2] == squares:
        out: bytes = last[3]
        return out
    kept = parts.map
    if not (kept[0] is rows and kept[1] is state.map_id and kept[2] is state.map_name and kept[3] is nuggets):
        the_map = views._map(state, memo.part(views._Parts))
        drawn = list(the_map["rows"])
        for i, j in nuggets:
            line = drawn[j]
            drawn[j] = line[:i] + "N" + line[i + 1:]
        kept = parts.map = (rows, state.map_id, state.map_name, nuggets,
                            (dumps(the_map), drawn, dumps([[i, j] for i, j in nuggets])))
    the_map, drawn, nugget_bytes = kept[4]
    drawn = list(drawn)
    (ax, ay), (bx, by), (cx, cy) = squares
    line = drawn[ay]
    drawn[ay] = line[:ax] + "S" + line[ax + 1:]
    line = drawn[by]
    drawn[by] = line[:bx] + "B" + line[bx + 1:]
    line = drawn[cy]
    drawn[cy] = line[:cx] + "R" + line[cx + 1:]
    out = b'"map":%b,"board":%b,"figures":%b,"nuggets":%b' % (
        the_map, dumps(drawn), _FIGURES % (ax, ay, bx, by, cx, cy), nugget_bytes)
    parts.ground = (rows, nuggets, squares, out)
    return out


def _sights_bytes(state: State, first: Char, second: Char, third: Char, squares: tuple[Square, Square, Square],
                  parts: _Parts) -> bytes:
    """The path distances between the figures (FO21) and the distances at
    which each sees the others (R15: Mustang, Scope, Paul Regret, Rose
    Doolan), as ``views._sights`` gives them; kept while the map, the
    squares and what the characters and cards add or take off are the same."""
    m = parts.mods
    if not (m[0] is first.in_play and m[1] is second.in_play and m[2] is third.in_play and m[3] is first.name
            and m[4] is second.name and m[5] is third.name):
        m = parts.mods = (first.in_play, second.in_play, third.in_play, first.name, second.name, third.name,
                          (mustang_of(first.name, first.in_play), mustang_of(second.name, second.in_play),
                           mustang_of(third.name, third.in_play), scope_of(first.name, first.in_play),
                           scope_of(second.name, second.in_play), scope_of(third.name, third.in_play)))
    mods = m[6]
    rows = state.rows
    last = parts.sights
    if last[0] is rows and last[2] is mods and last[1] == squares:
        out: bytes = last[3]
        return out
    a, b, c = squares
    # ``board.path_distance``: the steps of the shortest path around rocks (FO21), from each
    # figure's square: kept per figure while it stays there (most moves move one figure)
    reached = parts.reached
    from_a, from_b, from_c = [found[2] if found[0] is rows and found[1] == q else _bfs(i, rows, q, parts)
                              for i, q, found in ((0, a, reached[0]), (1, b, reached[1]), (2, c, reached[2]))]
    ab, ac, ba, bc, ca, cb = (from_a.get(b, _FAR), from_a.get(c, _FAR), from_b.get(a, _FAR), from_b.get(c, _FAR),
                              from_c.get(a, _FAR), from_c.get(b, _FAR))
    # ``cardrules.seen_at``: plus the target's Mustang, minus the viewer's Scope, at least 1 (R15)
    ma, mb, mc, sa, sb, sc = mods
    out = b'"distances":[[0,%d,%d],[%d,0,%d],[%d,%d,0]],"sees_at":[[null,%d,%d],[%d,null,%d],[%d,%d,null]]' % (
        ab, ac, ba, bc, ca, cb, max(1, ab + mb - sa), max(1, ac + mc - sa), max(1, ba + ma - sb),
        max(1, bc + mc - sb), max(1, ca + ma - sc), max(1, cb + mb - sc))
    parts.sights = (rows, squares, mods, out)
    return out


def _bfs(figure: int, rows: Any, square: Square, parts: _Parts) -> dict[Square, int]:
    """``board.bfs(rows, square)``, kept as figure ``figure``'s."""
    out = board.bfs(rows, square)
    parts.reached[figure] = (rows, square, out)
    return out


def _bids_hidden(state: State, last_bids: tuple[str | None, ...], parts: _Parts) -> bool:
    """Whether a card of the last revealed bids is out of a spectator's sight
    again (``views._spectator_hides``): in a deck or a bid, or in a hand and
    not public (kept while those are the very same objects), or in Kit
    Carlson's look (FO57)."""
    last = parts.hidden
    if _same_sights(last, state, last_bids):
        hidden: bool = last[8]
    else:
        chars = state.chars
        hidden = _out_of_sight(state, last_bids)
        parts.hidden = (last_bids, state.brown, state.blue, state.bids, state.pub, chars[0].hand, chars[1].hand,
                        chars[2].hand, hidden)
    if not hidden and state.limbo:
        limbo = state.limbo
        return any(card in limbo for card in last_bids if card is not None) and views.kit_limbo(state)
    return hidden


def _same_sights(last: tuple[Any, ...], state: State, last_bids: tuple[str | None, ...]) -> bool:
    """Whether ``last`` (``_Parts.hidden``) was worked out from these very bids, decks, bids in,
    public cards and hands."""
    chars = state.chars
    return (last[0] is last_bids and last[1] is state.brown and last[2] is state.blue and last[3] is state.bids
            and last[4] is state.pub and last[5] is chars[0].hand and last[6] is chars[1].hand
            and last[7] is chars[2].hand)


def _out_of_sight(state: State, cards: tuple[str | None, ...]) -> bool:
    """Whether one of ``cards`` is in a deck or a bid, or in a hand and not public (FO57)."""
    brown, blue, bids, pub, chars = state.brown, state.blue, state.bids, state.pub, state.chars
    return any(card in brown or card in blue or card in bids
               or (card not in pub and any(card in char.hand for char in chars))
               for card in cards if card is not None)


def _char_bytes(figure: int, char: Char, owner: int | None, controller: int, parts: _Parts) -> bytes:
    """Figure ``figure``'s entry of ``"characters"``: owner, controller (FO32,
    FO35, FO39), life, cards in play, hand size, square and reach (R16)."""
    last = parts.chars[figure]
    if last[0] is char and last[1] == owner and last[2] == controller:
        out: bytes = last[3]
        return out
    out = dumps({"char": figure, "role": ROLE_NAMES[figure], "owner": owner,
                 "controller": controller if controller >= 0 else None,
                 "character": char.name, "life": char.life, "max_life": char.max_life,
                 "in_play": char.in_play, "hand_size": len(char.hand), "square": [char.pos[0], char.pos[1]],
                 "reach": reach_of(char.in_play)})
    parts.chars[figure] = (char, owner, controller, out)
    return out


def public_bytes(state: State, memo: Memo) -> bytes:
    """``views.public_view(state)`` encoded, braces off (FO57: all of it public); ``memo``: the game's."""
    parts = memo.part(_Parts)
    first, second, third = state.chars
    squares = (first.pos, second.pos, third.pos)
    stack = state.flow.stack
    top = stack[-1] if stack and stack[-1].kind in PROMPTS else None  # ``views.top_prompt``
    sheriff = state.sheriff_seat
    renegade = _renegade_controller(state.flow, sheriff)
    # each player's public facts (``views.seats``) and the last thing drawn (``state.last``)
    seats = _seats_bytes(state, renegade, state.bids, parts)
    return b'%b,"reserve":%d,"characters":%b,%b,"decks":{"brown":%d,"blue":%d},"discards":%b,%b,%b,"seats":%b,' \
        b'"last":%b' % (_ground_bytes(state, squares, memo, parts), state.reserve,
                        _characters_bytes(state, sheriff, renegade, parts),
                        _sights_bytes(state, first, second, third, squares, parts), len(state.brown), len(state.blue),
                        _discards_bytes(state, parts), _turn_bytes(state, sheriff, parts),
                        _tail_bytes(state, top, parts), seats, _last_bytes(state, memo, parts))


def _renegade_controller(flow: Flow, sheriff: int) -> int:
    """``flow_controller``'s of the Renegade (FO32, FO35, FO39), -1 none: the bid winner in his
    turn, nobody during the bid and the placement, else the player who is not active."""
    if flow.active == RENEGADE:
        return flow.controller
    if flow.phase in ("bid", "place"):
        return -1
    return sheriff if flow.active == 1 else 1 - sheriff


def _characters_bytes(state: State, sheriff: int, renegade: int, parts: _Parts) -> bytes:
    """``"characters"`` encoded: each entry kept while its character and controller are the same."""
    sheriffs, outlaws, the_renegade = state.chars
    outlaw = 1 - sheriff
    first, second, third = parts.chars
    return b"[%b,%b,%b]" % (
        first[3] if first[0] is sheriffs and first[1] == sheriff else _char_bytes(0, sheriffs, sheriff, sheriff, parts),
        second[3] if second[0] is outlaws and second[1] == outlaw else _char_bytes(1, outlaws, outlaw, outlaw, parts),
        third[3] if third[0] is the_renegade and third[2] == renegade
        else _char_bytes(2, the_renegade, None, renegade, parts))


def _turn_bytes(state: State, sheriff: int, parts: _Parts) -> bytes:
    """``"round"`` to ``"last_bids"``: whose turn and phase (FO8), the turn-start square (FO12), the
    phase-2 slots left (FO15), the Sheriff's seat and the last revealed bids while neither card is
    out of sight again (FO35, FO57)."""
    flow = state.flow
    phase, active = flow.phase, flow.active
    last_bids = state.last_bids
    shown = b"null" if last_bids is None or _bids_hidden(state, last_bids, parts) else dumps(last_bids)
    start, round_, slots = flow.start, flow.round, flow.slots if phase == "phase2" else 0
    if type(round_) is int and type(active) is int and type(slots) is int and type(sheriff) is int:
        return b'"round":%d,"active":%d,"phase":%b,"turn_start":%b,"slots_left":%d,"sheriff_seat":%d,' \
            b'"last_bids":%b' % (
                round_, active, _PHASES.get(phase) or dumps(phase), b"null" if start is None else dumps(start),
                slots, sheriff, shown)
    # not plain integers (no flow the rules write): the members as the generic path encodes them
    return dumps({
        "round": round_, "active": active, "phase": phase, "turn_start": start, "slots_left": slots,
        "sheriff_seat": sheriff, "last_bids": None if shown == b"null" else last_bids})[1:-1]


def _last_bytes(state: State, memo: Memo, parts: _Parts) -> bytes:
    """``"last"`` encoded (``views.last``: a card out of sight again shown as ``null``, FO57),
    kept while ``views.last`` gives the very same value."""
    shown = None if state.last is None else views.last(state, memo)
    last = parts.shown
    if last[0] is not shown:
        last = parts.shown = (shown, b"null" if shown is None else dumps(shown))
    return last[1]


def _discards_bytes(state: State, parts: _Parts) -> bytes:
    """``"discards"`` encoded, kept while both piles are the same (FO24, FO57)."""
    brown, blue = state.brown_discard, state.blue_discard
    last = parts.discards
    if not (last[0] is brown and last[1] is blue):
        last = parts.discards = (brown, blue, dumps({"brown": brown, "blue": blue}))
    out: bytes = last[2]
    return out


def _tail_bytes(state: State, top: Frame | None, parts: _Parts) -> bytes:
    """The set-aside characters, the General Store's and Lucky Duke's cards shown (FO26, R42), the variant."""
    if top is None:  # no prompt: no General Store nor Lucky Duke's cards shown (R42)
        last = parts.calm
        if not (last[0] is state.set_aside and last[1] is state.variant):
            last = parts.calm = (state.set_aside, state.variant, dumps({
                "set_aside": state.set_aside, "general_store": [], "lucky_cards": [],
                "renegade_variant": state.variant})[1:-1])
        out: bytes = last[2]
        return out
    limbo = state.limbo
    return dumps({
        "set_aside": state.set_aside,
        "general_store": limbo if limbo and top.kind == "store" else [],
        # Lucky Duke's two "draw!" cards, face up, while he chooses (R42)
        "lucky_cards": limbo if top.kind == "lucky" else [],
        "renegade_variant": state.variant,
    })[1:-1]


def _seats_bytes(state: State, renegade: int, bids: Any, parts: _Parts) -> bytes:
    """``views.seats(s)`` encoded: kept while the trophies, the two players' characters' names
    and hand sizes (all it reads of them: a move or a card played elsewhere leaves it alone), the
    bids in and the Renegade's controller are the same (``renegade``: ``flow_controller``'s, -1 none)."""
    x, y = state.chars[0], state.chars[1]
    inputs = (state.trophies, x.name, len(x.hand), y.name, len(y.hand), renegade, bids[0] is None, bids[1] is None,
              state.sheriff_seat)
    last = parts.seats
    if last[0] is inputs[0] and last[1:9] == inputs[1:]:
        out: bytes = last[9]
        return out
    out = dumps(views.seats(state))
    parts.seats = (*inputs, out)
    return out


def _seen(state: State, memo: Memo) -> tuple[bytes, int | None, int | None]:
    """What both seats' own parts of ``state`` start from, once per state: the
    open decision as everybody sees it (its kind, the awaited seats, the
    character it is for), the seat that sees the Renegade's hand (FO57:
    his controller of the moment, ``views.sees_hand``) and the seat that
    sees Kit Carlson's look (``views.kit_limbo``), ``None``: nobody."""
    f = state.flow
    stack = f.stack
    top = stack[-1] if stack and stack[-1].kind in PROMPTS else None
    active = f.active
    if active == RENEGADE and f.phase not in _NO_TURN:
        renegade: int | None = f.controller
    elif top is not None and top.char == RENEGADE:
        renegade = flow_controller(state, RENEGADE)
    else:
        renegade = None
    kit = None
    if state.limbo and (top is None or top.kind not in ("store", "lucky")) \
            and state.chars[active].name == KIT_CARLSON and f.phase == "phase2":
        kit = renegade if active == RENEGADE else state.owner(active)
    if state.result is not None:
        return b"null", renegade, kit
    return dumps(views.pending(state, memo)), renegade, kit


def _own_bytes(state: State, seat: int, renegade: int | None, kit: int | None, memo: Memo) -> bytes:
    """``seat``'s own members encoded (FO57): its character and hand, the
    Renegade's hand while it controls him, its bid, Kit Carlson's look while
    it is his; kept from the state encoded before while they are the very
    same (in the slot of ``seat`` alone, which only its own view reads)."""
    mine = state.own_char(seat)
    hand = state.chars[mine].hand
    renegade_hand = state.chars[RENEGADE].hand if renegade is not None and renegade == seat else None
    bid = state.bids[seat]
    look = state.limbo if kit is not None and kit == seat else None
    owns = memo.part(_Parts).owns
    if 0 <= seat < len(owns):
        last = owns[seat]
        if last[0] == mine and last[1] is hand and last[2] is renegade_hand and last[3] == bid and last[4] is look \
                and type(last[3]) is type(bid):
            out: bytes = last[5]
            return out
    out = dumps({"you": seat, "my_char": mine, "hand": hand, "renegade_hand": renegade_hand, "my_bid": bid,
                 "kit_cards": look})[1:-1]
    if 0 <= seat < len(owns):
        owns[seat] = (mine, hand, renegade_hand, bid, look, out)
    return out


def seat_encoded(state: State, seat: int | None, awaited: bool, memo: Memo) -> tuple[bytes, bytes, bytes]:
    """``(legal_moves, pending, own)`` of ``seat``'s view, encoded (see
    ``referee.engine.encoded_views``): its own members but ``pending``
    (FO57): its character and hand, the Renegade's hand while it controls
    him, its bid, Kit Carlson's look while it is his."""
    kept = memo.of(state)
    seen: list[Any] | None = kept.get("seen")
    if seen is None:
        seen = kept["seen"] = [*_seen(state, memo), None, None]
    if seat is None:
        return b"[]", seen[0], _SPECTATOR
    own: bytes | None = seen[3 + seat]  # a seat's own: kept in the slot of that seat alone
    if own is None:
        own = seen[3 + seat] = _own_bytes(state, seat, seen[1], seen[2], memo)
    return (dumps(legal.legal_moves(state, seat, memo)) if awaited else b"[]"), seen[0], own
