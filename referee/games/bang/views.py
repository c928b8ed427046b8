"""What each seat may see (R83): ``view``, ``redact``, ``hidden``.

View shape (JSON)::

    {"seat": s | null, "turn": t, "phase": "start|draw|play|discard|over",
     "bangs": k, "deck": <count>, "discard": [ids, bottom first],
     "seats": [{"seat", "character", "life", "max_life", "alive",
                "hand": <count>, "in_play": [ids], "role": public role | null}],
     "last": null | {"kind": "card_played", "seat", "card", "target", "pick", "response"}
                  | {"kind": "draw_checked", "seat", "card", "cards", "reason"}
                  | {"kind": "resigned", "seat"},
     "hand": [own ids] | null, "role": own role | null,
     "distances": null | {"reach": r, "distance": [d | null, one per seat],
                          "in_reach": [bool | null, one per seat]},
     "pending": null | {"kind", "awaiting": [seats], "deadline": null,
                        "default": null | [{"seat", "move"}], "default_drawn": bool,
                        ...context (the card a window is for, by ID)},
     "result": null | {...}}

A role is shown for the Sheriff, the eliminated, one's own seat, everyone in
the 3-player game (R82) and everyone once the game is over. ``pending`` is
the same for every viewer (the awaited seat's answers are its
``legal_moves``) but Kit Carlson's own look at his cards (R67).

``distances`` is what the viewing seat sees around the table, so a client
never re-implements R14–R17: ``reach`` is the range of its weapon (1 for
the Colt .45, R16); ``distance[t]`` is the distance at which the viewer sees
seat ``t`` (R14: seats counted the shorter way round, skipping the
eliminated; R15: +1 per Mustang in front of ``t`` and for Paul Regret, −1
per Scope in front of the viewer and for Rose Doolan, at least 1);
``in_reach[t]`` is ``distance[t] <= reach``: a BANG! from the viewer may
target ``t`` (R16; Panic! needs distance 1, R17). Both lists have one entry
per seat, ``null`` for the viewer's own seat and for eliminated seats.
``in_reach`` says nothing of whether a BANG! may be played now (a BANG! card
in hand, one per turn unless Volcanic or Willy the Kid, R18): ``moves``
says that. ``distances`` is ``null`` for a spectator (who sees the table
from no seat: each seat asks for its own) and for an eliminated viewer.

A view is built from the state alone. Parts every seat sees alike are
built once per state and shared between its views, kept in the game's memo
(``cache.py``; none given: a fresh one): do not mutate a view.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.protocol import Event
from referee.engine.statecache import Memo, fresh
from referee.games.bang import legal
from referee.games.bang.cache import derived
from referee.games.bang.distance import sights_json
from referee.games.bang.roles import ROLE_DECK, SHERIFF, TARGET_3P
from referee.games.bang.state import Seat, State

Json = dict[str, Any]

#: the role cards of a game of n players (R4; R82 for three), shared JSON: do not mutate
ROLES_IN_GAME: dict[int, list[str]] = {n: list(roles) for n, roles in ROLE_DECK.items()}
#: each role's target in the 3-player game (R82), shared JSON
TARGETS_3P: dict[str, str] = dict(TARGET_3P)


Public = tuple[list[Json], list[str], "Json | None", "tuple[Json | None, ...]"]


def _public(state: State, memo: Memo) -> Public:
    """What every seat sees alike (the seat entries with public roles only,
    R83; the discard pile; the prompt without its moves; the distances
    around the table, R14–R17), built once per state (kept in ``memo``)."""
    d = derived(state, memo)
    cached: Public | None = d.public
    if cached is None:
        show_all = state.three_player or state.phase == "over"
        players = [{"seat": p.seat, "character": p.character, "life": p.life,
                    "max_life": p.max_life, "alive": p.alive, "hand": len(p.hand),
                    "in_play": list(p.in_play),
                    "role": p.role if show_all or p.role == SHERIFF or not p.alive else None}
                   for p in state.players]
        cached = d.public = (players, list(state.discard), _prompt(state, memo), sights_json(state))
    return cached


#: default moves shown whole in the public prompt; any other shows its type only (it may name a hidden card)
_SHOWN_DEFAULTS = frozenset({"pass", "end_turn", "draw", "choose"})


#: the prompt of seat s's own phase 2 (R11; its default ends it, R43), shared JSON: do not mutate
PLAY_PROMPTS: tuple[Json, ...] = tuple(
    {"kind": "play", "awaiting": [s], "deadline": None, "default": [{"seat": s, "move": {"type": "end_turn"}}],
     "default_drawn": False} for s in range(7))


def _prompt(state: State, memo: Memo) -> Json | None:
    """The open prompt as every viewer sees it (R43): its kind, the awaited
    seat, the window's public facts (the card it is for, by ID), the
    deadline (BANG! has none of its own, R77) and the public default (its
    options found from the awaited seat's legal moves, kept in ``memo``)."""
    top = state.top()
    if state.phase == "over":
        return None
    if top is None and state.phase == "play":
        return PLAY_PROMPTS[state.turn]
    if top is not None:
        who = top.seat
        out: Json = {"kind": top.kind, "awaiting": [who]}
        k = top.kind
        if k == "shot":
            out.update(shooter=top.src, card=top.card, needed=top.needed, misses=top.misses,
                       barrels_used=list(top.used))
        elif k in ("indians", "duel"):
            out.update(source=top.src, card=top.card)
            if k == "duel":
                out["other"] = top.other
        elif k == "dying":
            out["life"] = state.players[who].life
        elif k == "store":
            out.update(cards=list(state.limbo), order=[who, *top.targets], source=top.src)
        elif k == "lucky":
            out.update(cards=list(state.limbo), purpose=top.purpose.split(":")[0])
        elif k == "kit":
            out["cards"] = len(state.limbo)
    elif state.phase == "discard":
        p = state.players[state.turn]
        out = {"kind": "discard", "awaiting": [state.turn], "count": len(p.hand) - p.life}
    else:  # a turn's start (never awaited for long: the referee runs it, R77)
        out = {"kind": state.phase, "awaiting": [state.turn]}
    who = out["awaiting"][0]
    options = legal.default_options(state, who, memo)
    out["deadline"] = None
    # R43: a pass or the end of phase 2 where that is legal; otherwise one of the legal moves, drawn
    # with the game's generator when the clock runs out (``default`` null, ``default_drawn``)
    if len(options) == 1:
        move = options[0]
        out["default"] = [{"seat": who, "move": move if move["type"] in _SHOWN_DEFAULTS else {"type": move["type"]}}]
    else:
        out["default"] = None
    out["default_drawn"] = len(options) > 1
    return out


def distances(state: State, seat: Seat | None, memo: Memo | None = None) -> Json | None:
    """What ``seat`` sees around the table (R14–R17): its weapon's ``reach``,
    the ``distance`` at which it sees each seat and whether that is
    ``in_reach`` of a BANG! (one entry per seat, None for itself and the
    eliminated). None for a spectator and for an eliminated seat."""
    return _distances(_public(state, fresh(memo))[3], seat)


def _distances(table: tuple[Json | None, ...], seat: Seat | None) -> Json | None:
    return table[seat] if seat is not None else None


def pending(state: State, seat: Seat | None, prompt: Json | None = None, memo: Memo | None = None) -> Json | None:
    """The open prompt as ``seat`` may see it: the same for every viewer,
    but Kit Carlson's own look at his three cards (R67, R83). The awaited
    seat's answers are in its ``legal_moves`` only."""
    if prompt is None:
        prompt = _public(state, fresh(memo))[2]
    if prompt is None or seat is None or seat != prompt["awaiting"][0] or prompt["kind"] != "kit":
        return prompt
    return {**prompt, "cards": list(state.limbo)}


def _shared(state: State, memo: Memo | None) -> tuple[Json, Json | None, tuple[Json | None, ...]]:
    """``public_view``, the prompt without its moves and the distances table
    of ``state``: built once per state (kept in the game's ``memo``; ``None``:
    a fresh one), shared (do not mutate)."""
    if memo is None:
        memo = Memo()
    d = derived(state, memo)
    view: Json | None = d.view
    if view is None:
        players, discard, _, _ = _public(state, memo)
        view = {
            "turn": state.turn,
            "phase": state.phase,
            "bangs": state.bangs,
            "deck": len(state.deck),
            "discard": discard,
            "seats": players,
            "last": state.last,
            "result": state.result,
            # the public role facts a table or a bot needs without the rules' code (R4, R82)
            "roles_in_game": ROLES_IN_GAME[len(state.players)],
        }
        if state.three_player:
            view["targets"] = TARGETS_3P
        d.view = view
    _, _, prompt, table = d.public
    return view, prompt, table


def public_view(state: State, memo: Memo | None = None) -> Json:
    """The members of every view that every viewer sees alike (R83): the
    table, the piles, the public roles, the result; built once per state
    and shared (do not mutate)."""
    return _shared(state, memo)[0]


def _own(state: State, seat: Seat | None, prompt: Json | None, table: tuple[Json | None, ...]) -> Json:
    if seat is None:
        return {"seat": None, "hand": None, "role": None, "distances": None, "pending": prompt}
    own = state.players[seat]
    return {
        "seat": seat,
        "hand": list(own.hand),
        "role": own.role,
        "distances": table[seat],
        "pending": prompt if prompt is None or seat != prompt["awaiting"][0] or prompt["kind"] != "kit"
        else pending(state, seat, prompt),
    }


def seat_part(state: State, seat: Seat | None, memo: Memo | None = None) -> Json:
    """What only ``seat`` sees (R83): its hand and role, what it sees around
    the table (R14–R17) and the prompt with its own moves (R43)."""
    _, prompt, table = _shared(state, memo)
    return _own(state, seat, prompt, table)


def view(state: State, seat: Seat | None, memo: Memo | None = None) -> Json:
    """``public_view`` and ``seat_part`` together: public state plus
    ``seat``'s own hand and role (R83) and what it sees around the table
    (R14–R17). A seat's own hidden role is in ``role``, never in its
    ``seats`` entry, which shows only public roles."""
    public, prompt, table = _shared(state, memo)
    out = dict(public)
    out.update(_own(state, seat, prompt, table))
    return out


def _count(data: Any, field: str) -> Json:
    out = {k: v for k, v in data.items() if k != field}
    out[field] = len(data[field])
    return out


def _drawn(data: Any, seat: Seat | None) -> Json | None:
    """Cards drawn into another's hand: their count (R83)."""
    return _count(data, "cards") if seat != data["seat"] else None


def _reshuffled(data: Any, seat: Seat | None) -> Json | None:
    """The new deck: its count, for everyone (R59, R83)."""
    return _count(data, "deck")


def _taken(data: Any, seat: Seat | None) -> Json | None:
    """A card taken from a hand: seen by the two hands alone (R30, R64, R83)."""
    if data["zone"] == "hand" and seat != data["seat"] and seat != data["from"]:
        return {key: value for key, value in data.items() if key != "card"}
    return None


def _revealed(data: Any, seat: Seat | None) -> Json | None:
    """Kit Carlson's look at three cards: his alone (R67, R83)."""
    return _count(data, "cards") if data["reason"] == "kit_carlson" and seat != data["seat"] else None


def _kept(data: Any, seat: Seat | None) -> Json | None:
    """What Kit Carlson kept and put back: his alone (R67, R83)."""
    return _count(_count(data, "kept"), "returned") if seat != data["seat"] else None


def _inherited(data: Any, seat: Seat | None) -> Json | None:
    """The hand Vulture Sam takes: seen by him and the eliminated one (R75, R83)."""
    return _count(data, "hand") if seat != data["seat"] and seat != data["from"] else None


#: event type -> its data as ``seat`` may see it (``None``: as it is), for the events that hide cards (R83)
_REDACTIONS: dict[str, Callable[[Any, Seat | None], Json | None]] = {
    "cards_drawn": _drawn, "deck_reshuffled": _reshuffled, "card_taken": _taken, "cards_revealed": _revealed,
    "kit_kept": _kept, "cards_inherited": _inherited,
}


def redact(event: Event, seat: Seat | None) -> Event:
    """The event as ``seat`` may see it: hidden cards become counts (R83)."""
    kind = event.type
    if kind == "game_started":
        return Event(kind, _redact_start(event.data, seat))
    hide = _REDACTIONS.get(kind)
    seen = hide(event.data, seat) if hide is not None else None
    return event if seen is None else Event(kind, seen)


def _redact_start(data: Any, seat: Seat | None) -> Json:
    players = []
    for p in data["players"]:
        mine = p["seat"] == seat
        q = dict(p)
        if not mine:
            q["hand"] = len(p["hand"])
            if not (p["role"] == SHERIFF or data["three_player"] or not p["alive"]):
                q["role"] = None
        players.append(q)
    out = dict(data)
    out["players"] = players
    out["deck"] = len(data["deck"])
    return out


def hidden(state: State | None, seat: Seat | None) -> set[str]:
    """Card IDs ``seat`` must not find in what it receives now: ``unseen``,
    less the cards everybody saw and the view still names as history — the
    cards of the open windows (a BANG!, a Duel, Indians!…: the prompt's
    ``card``) and those of ``last`` (the card played and the card it took,
    the cards of a "draw!") — even where a reshuffle or a draw from a hand
    has since put one out of sight (R83: where such a card lies now stays
    hidden; that it was played, nobody can unsee). Nothing before the deal (no state)."""
    if state is None:
        return set()
    out = unseen(state, seat)
    for frame in state.stack:
        if frame.card:
            out.discard(frame.card)
    last = state.last
    if last:
        for key in ("card", "pick"):
            if isinstance(last.get(key), str):
                out.discard(last[key])
        out.difference_update(c for c in last.get("cards") or () if isinstance(c, str))
    return out


def unseen(state: State, seat: Seat | None) -> set[str]:
    """Card IDs whose place ``seat`` does not know: the deck, other hands
    (less cards seen arriving), Kit Carlson's look (R83). A dealt hand's seal
    opens once none of its cards is unseen by anyone (``public_secrets``)."""
    known = {c for c, s in state.priv if s == seat} if seat is not None and state.priv else set()
    out = set(state.deck)
    for p in state.players:
        if p.seat != seat and p.hand:
            out.update(c for c in p.hand if c not in state.pub)
    top = state.top()
    if top is not None and top.kind == "kit" and top.seat != seat:
        out.update(state.limbo)
    return out - known if known else out
