"""The folded state: frozen dataclasses, tuples, nothing mutable (R6–R12).

``State.stack`` is the referee's agenda: the open prompts (windows, R43) and
the automatic steps still to run beneath them, top last. A *prompt* frame
waits for the move of ``Frame.seat``; a *process* frame is run by the engine
(``flow.run``) without waiting.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.games.cards.deck import KEY

Seat = int

#: frames that wait for a move of ``Frame.seat`` (R43, R77)
PROMPTS: frozenset[str] = frozenset(
    {"shot", "indians", "duel", "dying", "store", "lucky", "kit", "draw_choice"}
)


@dataclass(frozen=True, slots=True)
class Player:
    """One seat: role, character, life and cards (hand in the order received,
    in play in the order played — R51's discard order)."""

    seat: Seat
    role: str
    character: str
    life: int
    max_life: int
    alive: bool = True
    hand: tuple[str, ...] = ()
    in_play: tuple[str, ...] = ()


class Frame(NamedTuple):
    """One agenda entry (immutable; a named tuple, which builds several times
    faster than a frozen dataclass — the engine makes many). Fields unused by
    a kind keep their defaults. Internal: the log stores ``prompts.py``'s
    domain JSON, never these fields.

    kinds — prompts: ``shot`` (seat = target, src = shooter, card = the card's ID (its
    lower-case kind once shuffled into the deck, R59), needed,
    misses, used = Barrel sources used, played = Missed! cards played),
    ``indians`` (seat, src, card), ``duel`` (seat = duellist to answer,
    other = the other duellist, src = who played it, card), ``dying``
    (seat, by = credited player or -1), ``store`` (seat = chooser, targets =
    later choosers, src), ``lucky`` (seat, purpose), ``kit`` (seat),
    ``draw_choice`` (seat); processes: ``turn`` (seat, step), ``multi``
    (src, card, targets), ``after_hit`` (seat, src = card player, amount).
    """

    kind: str
    seat: Seat = -1
    src: Seat = -1
    card: str = ""
    needed: int = 0
    misses: int = 0
    used: tuple[str, ...] = ()
    played: int = 0
    other: Seat = -1
    by: Seat = -1
    targets: tuple[Seat, ...] = ()
    amount: int = 0
    step: str = ""
    purpose: str = ""


@dataclass(frozen=True, slots=True)
class State:
    """Everything the rules need: an immutable value (equality is by value).
    ``phase``: ``start`` | ``draw`` | ``play`` |
    ``discard`` | ``over``. ``limbo`` holds cards between places (General
    Store, Lucky Duke's two "draw!" cards, Kit Carlson's three). ``pub``:
    hand cards whose identity everybody saw arrive; ``priv``: (card, seat)
    pairs a seat privately knows the place of (R83)."""

    players: tuple[Player, ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    turn: Seat
    phase: str
    three_player: bool = False
    bangs: int = 0
    limbo: tuple[str, ...] = ()
    stack: tuple[Frame, ...] = ()
    result: Any = None
    pub: frozenset[str] = frozenset()
    priv: frozenset[tuple[str, Seat]] = frozenset()
    #: seats of Suzy Lafayette and Vulture Sam (-1: not in the game)
    suzy: Seat = -1
    vulture: Seat = -1
    #: the last thing a table draws (the view's ``last``): null, or the last card played
    #: (``card_played``), "draw!" check (``draw_checked``) or resignation (``resigned``), JSON
    last: Any = None

    @property
    def n(self) -> int:
        return len(self.players)

    def top(self) -> Frame | None:
        """The open prompt, if the top frame is one."""
        if self.stack:
            f = self.stack[-1]
            if f.kind in PROMPTS:
                return f
        return None

    def alive_seats(self) -> list[Seat]:
        return [p.seat for p in self.players if p.alive]


# Fast copies. A frozen dataclass's __init__ pays one object.__setattr__ per
# field; the slot descriptors' own setters do the same job at a fraction of
# the cost and leave the classes frozen for everybody else.
_new = object.__new__
(_s_players, _s_deck, _s_discard, _s_turn, _s_phase, _s_three, _s_bangs, _s_limbo, _s_stack,
 _s_result, _s_pub, _s_priv, _s_suzy, _s_vulture, _s_last) = (
    State.__dict__[f].__set__ for f in (
        "players", "deck", "discard", "turn", "phase", "three_player", "bangs", "limbo", "stack",
        "result", "pub", "priv", "suzy", "vulture", "last"))
(_p_seat, _p_role, _p_character, _p_life, _p_max_life, _p_alive, _p_hand, _p_in_play) = (
    Player.__dict__[f].__set__ for f in (
        "seat", "role", "character", "life", "max_life", "alive", "hand", "in_play"))


#: ``but``'s ``last`` when it stays as it is (``None`` clears it)
KEEP: Any = object()


def but(state: State, *, players: tuple[Player, ...] | None = None, deck: tuple[str, ...] | None = None,
        discard: tuple[str, ...] | None = None, turn: Seat | None = None, phase: str | None = None,
        bangs: int | None = None, limbo: tuple[str, ...] | None = None,
        stack: tuple[Frame, ...] | None = None, result: Any = None,
        pub: frozenset[str] | None = None, priv: frozenset[tuple[str, Seat]] | None = None,
        last: Any = KEEP) -> State:
    """A copy of ``state`` with the given fields changed (a fast ``dataclasses.replace``)."""
    n = _new(State)
    _s_players(n, state.players if players is None else players)
    _s_deck(n, state.deck if deck is None else deck)
    _s_discard(n, state.discard if discard is None else discard)
    _s_turn(n, state.turn if turn is None else turn)
    _s_phase(n, state.phase if phase is None else phase)
    _s_three(n, state.three_player)
    _s_bangs(n, state.bangs if bangs is None else bangs)
    _s_limbo(n, state.limbo if limbo is None else limbo)
    _s_stack(n, state.stack if stack is None else stack)
    _s_result(n, state.result if result is None else result)
    _s_pub(n, state.pub if pub is None else pub)
    _s_priv(n, state.priv if priv is None else priv)
    _s_suzy(n, state.suzy)
    _s_vulture(n, state.vulture)
    _s_last(n, state.last if last is KEEP else last)
    return n


def pbut(player: Player, *, life: int | None = None, alive: bool | None = None,
         hand: tuple[str, ...] | None = None, in_play: tuple[str, ...] | None = None) -> Player:
    """A copy of ``player`` with the given fields changed."""
    n = _new(Player)
    _p_seat(n, player.seat)
    _p_role(n, player.role)
    _p_character(n, player.character)
    _p_life(n, player.life if life is None else life)
    _p_max_life(n, player.max_life)
    _p_alive(n, player.alive if alive is None else alive)
    _p_hand(n, player.hand if hand is None else hand)
    _p_in_play(n, player.in_play if in_play is None else in_play)
    return n


def next_alive(state: State, seat: Seat) -> Seat:
    """The next alive seat clockwise after ``seat`` (R7)."""
    n = len(state.players)
    players = state.players
    for k in range(1, n + 1):
        s = (seat + k) % n
        if players[s].alive:
            return s
    return seat


def clockwise_from(state: State, seat: Seat, include: bool) -> list[Seat]:
    """Alive seats clockwise starting at ``seat`` (included or not), R45/R79."""
    n = len(state.players)
    players = state.players
    start = 0 if include else 1
    return [(seat + k) % n for k in range(start, n) if players[(seat + k) % n].alive]


def has_key(cards: tuple[str, ...], key: str) -> str | None:
    """The card with ``key`` among ``cards``, if any."""
    for c in cards:
        if KEY[c] == key:
            return c
    return None
