"""The Face Off referee: turns, movement, the bid, cards on the board,
reactions, kills and replacements (FO8–FO53).

BANG!'s card engine decides every card, character and window here: the
cards and characters (``referee.games.bang.cards``, ``.characters``) and
the rule checks of ``referee.games.bang.cardrules`` — which plays a card
allows at which distance, the answers a shot, Indians!, Duel, dying window,
General Store or Lucky Duke's "draw!" admit, Sid Ketchum, Slab the Killer,
Vulture Sam, "draw!" successes — and their refusals, with the board's
distance (FO21), no BANG! limit (FO18) and a jailable Sheriff (FO19) passed
in. What is Face Off's own is here: the board, the turn and its slots, the
bid, the two decks, kills and replacements.
"""
from __future__ import annotations

from typing import Any

from referee.engine.platform import RESIGN
from referee.engine.protocol import Event, IllegalMove
from referee.engine.rng import Rng
from referee.games.bang import cardrules
from referee.games.bang.cards import BLUE, KEY, RANK, red
from referee.games.bang.characters import (
    BLACK_JACK, CHARACTERS, JESSE_JONES, KIT_CARLSON, LIFE, PEDRO_RAMIREZ,
    WILLY_THE_KID,
)
from referee.games.faceoff import board
from referee.games.faceoff.cache import MEMO
from referee.games.faceoff.flow import Flow, Frame, flow_but, frame_but
from referee.games.faceoff.state import RENEGADE, SHERIFF, Char, State, evolve, flow_controller

Move = dict[str, Any]
#: frames that wait for a move: BANG!'s card windows, and Kit Carlson's keep (FO50)
PROMPTS = frozenset(cardrules.WINDOW_RULE) | {"kit"}


#: the resignation (FO58), in every awaited seat's legal moves
RESIGN_MOVE: Move = {"type": RESIGN}


class TurnEnds(Exception):
    """The active character's turn is over at once."""


class GameOver(Exception):
    """``game_over`` was emitted: nothing else happens (FO47)."""


def refuse(code: str, rule: str, detail: str) -> IllegalMove:
    return IllegalMove(code, rule=rule, detail=detail)


# --- distance (FO21) ---------------------------------------------------------

def base_distance(s: State, a: int, b: int) -> int:
    return board.path_distance(s.rows, s.chars[a].pos, s.chars[b].pos)


def sees_at(s: State, a: int, b: int) -> int:
    """The path distance from ``a`` to ``b`` as BANG! modifies it (R15: Mustang, Scope...; FO21)."""
    return cardrules.seen_at(base_distance(s, a, b), s.chars[a], s.chars[b])


def sights(s: State, a: int) -> dict[int, int]:
    """``sees_at(a, t)`` for both other characters: every target of ``a``'s cards."""
    return {t: sees_at(s, a, t) for t in range(3) if t != a}


def reach(s: State, a: int) -> int:
    return cardrules.reach_of(s.chars[a].in_play)


def _jailable(_: int) -> bool:
    return True  # FO19: the Sheriff too


def blocked_for(s: State, c: int, flow: Flow | None = None) -> frozenset[board.Square]:
    """Squares a step of ``c`` may not enter (FO12): other figures and the
    turn-start square (of ``flow``: a decision's own, not yet written; else the state's)."""
    f = s.flow if flow is None else flow
    out = {s.chars[o].pos for o in range(3) if o != c}
    if f.start is not None and f.active == c:
        out.add(f.start)
    return frozenset(out)


# --- the decision context ----------------------------------------------------

class Ctx:
    """Events emitted so far, folded at once; the flow is written at the end
    (``flush``): ``flow`` its fields as this decision changes them, but for
    the agenda, ``stack``."""

    def __init__(self, state: State, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self.stack: list[Frame] = list(state.flow.stack)
        self.flow: Flow = flow_but(state.flow, stack=())

    def set(self, **changes: Any) -> None:
        """Change fields of the flow (not its ``stack``: ``self.stack`` is the agenda)."""
        self.flow = flow_but(self.flow, **changes)

    def written(self) -> Flow:
        """The flow as this decision has left it so far."""
        return flow_but(self.flow, stack=tuple(self.stack))

    def emit(self, type_: str, data: dict[str, Any]) -> None:
        """Record one event and fold it; Suzy Lafayette draws as soon as her
        hand becomes empty (R74, FO53), unless it is emptied by her elimination."""
        ev = Event(type_, data)
        self.events.append(ev)
        before = self.state
        self.state = after = evolve(before, ev)
        if after.chars is before.chars:  # no character changed: no hand was emptied
            return
        alive = type_ != "cards_inherited" and not (type_ == "card_discarded" and data["reason"] == "eliminated")
        for i, ch in enumerate(after.chars):
            if ch is not before.chars[i] and cardrules.suzy_draws(before.chars[i], ch, alive):
                self.draw(i, 1, "suzy_lafayette")

    def flush(self) -> None:
        now = self.written()
        if now != self.state.flow:
            self.emit("flow", {"flow": now.to_json()})

    def viewers(self, c: int) -> list[int]:
        """The seats that may see character ``c``'s hand now (FO57)."""
        if c != RENEGADE:
            return [self.state.owner(c)]
        f = self.flow
        if f.active == RENEGADE and f.controller >= 0 and f.phase not in ("bid", "place"):
            return [f.controller]
        return []

    def reshuffle(self, deck: str) -> bool:
        pile = self.state.brown_discard if deck == "brown" else self.state.blue_discard
        if not pile:
            return False
        self.emit("deck_reshuffled", {"deck": deck, "order": self.rng.shuffle(list(pile))})
        return True

    def draw(self, c: int, k: int, reason: str, deck: str = "brown") -> list[str]:
        """Draw ``k`` cards into ``c``'s hand (FO24, FO25: each deck reshuffled on its own)."""
        return cardrules.take_from_deck(
            k, lambda: self.state.brown if deck == "brown" else self.state.blue, lambda: self.reshuffle(deck),
            lambda cards: self.emit("cards_drawn", {"char": c, "cards": cards, "count": len(cards), "from": deck,
                                                    "reason": reason, "seen_by": self.viewers(c)}))

    def top_brown(self) -> str | None:
        if not self.state.brown:
            self.reshuffle("brown")
        return self.state.brown[0] if self.state.brown else None

    def heal(self, c: int, amount: int) -> None:
        ch = self.state.chars[c]
        gain = min(amount, ch.max_life - ch.life)
        if gain > 0:
            self.emit("life_changed", {"char": c, "kind": "gain", "amount": gain})

    # --- cardrules.CardTable: three characters on the board ------------------------

    def holder(self, i: int) -> Char:
        return self.state.chars[i]

    def around(self, i: int, include: bool) -> list[int]:
        """FO22: Indians!, Gatling and Saloon reach both others and the Renegade."""
        return [(i + k) % 3 for k in range(0 if include else 1, 3)]

    def banged(self) -> None:
        pass  # FO18: no BANG! limit

    def card_played(self, who: int, card: str, target: int | None, pick: str | None) -> None:
        data: dict[str, Any] = {"char": who, **cardrules.played(card, target, pick)}
        if card in BLUE:
            data["to"] = target if KEY[card] == "JAIL" else who
        self.emit("card_played", data)

    def discard(self, who: int, cards: list[str], reason: str) -> None:
        self.emit("card_discarded", {"char": who, "cards": cards, "reason": reason})

    def take(self, who: int, frm: int, card: str, zone: str, reason: str) -> None:
        self.emit("card_taken", {"char": who, "from": frm, "card": card, "zone": zone, "reason": reason,
                                 "seen_by": self.viewers(who) if zone == "hand" else [0, 1]})

    def beer_heals(self) -> bool:
        return True  # FO23

    def general_store(self, who: int) -> None:
        """FO26: three cards; the player, his opponent, then the Renegade."""
        for _ in range(3):
            top = self.top_brown()
            if top is None:
                break
            self.emit("cards_revealed", {"char": who, "cards": [top], "reason": "general_store", "seen_by": [0, 1]})
        if who == RENEGADE:  # seed §13 (the authority over FO26's ruling): the last card always to the Renegade
            mine = self.state.own_char(credit_of(self, RENEGADE))
            order = [RENEGADE, 1 - mine, RENEGADE]
        else:
            order = [who, 1 - who, RENEGADE]
        store_next(self, order)

    def open_shot(self, target: int, src: int, key: str, needed: int) -> None:
        # the card key in lower snake case (issue 24: one vocabulary), ``cardrules`` passes BANG!'s ``KEY``
        self.stack.append(Frame("shot", target, src, key.lower(), needed))

    def open_duel(self, target: int, other: int, src: int) -> None:
        self.stack.append(Frame("duel", target, src, other=other))

    def open_multi(self, src: int, key: str, targets: list[int]) -> None:
        self.stack.append(Frame("multi", src=src, key=key.lower(), targets=tuple(targets)))

    def close_dying(self, who: int) -> None:
        st = self.stack
        if st and st[-1].kind == "dying" and st[-1].char == who and self.state.chars[who].life >= 1:
            st.pop()

    def close_window(self) -> Frame:
        return self.stack.pop()

    def read(self, raw: Frame) -> cardrules.Window:
        return cardrules.Window(raw.kind, raw.char, raw.src, raw.other, raw.needed, raw.misses, raw.played)

    def reopen(self, raw: Frame, misses: int, played: int) -> None:
        self.stack.append(frame_but(raw, misses=misses, played=played) if raw.kind == "shot" else raw)

    def answered(self, who: int, card: str, kind: str) -> None:
        if kind == "dying":
            self.emit("card_played", {"char": who, "card": card})
        else:
            self.emit("card_discarded", {"char": who, "cards": [card], "reason": "missed" if kind == "shot" else kind})

    def take_hit(self, who: int, amount: int, by: int, src: int) -> None:
        hit(self, who, amount, by)  # FO45: the responsible character is credited

    def die(self, who: int, raw: Frame) -> None:
        eliminate(self, who, raw.by, raw.seat)

    def top_card(self) -> str | None:
        return self.top_brown()  # FO24: every "draw!" from the brown deck

    def turn_up(self, who: int, k: int) -> list[str]:
        cards: list[str] = []
        for _ in range(k):
            top = self.top_brown()
            if top is None:
                break
            self.emit("cards_revealed", {"char": who, "cards": [top], "reason": "lucky_duke"})
            cards.append(top)
        return cards

    def open_lucky(self, who: int, purpose: str) -> None:
        self.stack.append(Frame("lucky", who, purpose=purpose))

    def checked(self, who: int, purpose: str, card: str, cards: list[str] | None) -> None:
        if cards is None:
            self.emit("draw_checked", {"char": who, "card": card, "reason": purpose})
        else:
            self.emit("draw_checked", {"char": who, "card": card, "reason": purpose, "from": "limbo", "cards": cards})


# --- "draw!" (R41, R42 with Lucky Duke, FO24) ---------------------------------

def check(ctx: Ctx, c: int, purpose: str) -> None:
    """``c`` "draws!" for ``purpose`` (dynamite | jail | barrel) as BANG!'s
    card engine turns it (R41; Lucky Duke chooses, R42), from the brown deck
    (FO24), with the board's consequences (``apply_check``)."""
    cardrules.check(ctx, c, purpose, apply_check)


def apply_check(ctx: Ctx, c: int, purpose: str, card: str | None) -> None:
    """The "draw!" result (R35, R38, R39 as BANG! decides them; FO10, FO19):
    Dynamite explodes or passes on, then the Jail; Jail frees or skips
    phases 1–3; a Barrel adds a miss to the shot on top of the agenda."""
    ok = cardrules.check_succeeds(purpose, card)
    ch = ctx.state.chars[c]
    if purpose == "dynamite":
        dyn = next((x for x in ch.in_play if KEY[x] == "DYNAMITE"), None)
        if dyn is None:
            return
        if ok:
            ctx.emit("card_discarded", {"char": c, "cards": [dyn], "reason": "dynamite"})
            hit(ctx, c, 3, -1)
            ctx.set(phase="start_jail")
            return
        ctx.emit("card_passed", {"char": c, "to": (c + 1) % 3, "card": dyn})
        jail_step(ctx, c)
    elif purpose == "jail":
        jail = next((x for x in ch.in_play if KEY[x] == "JAIL"), None)
        if jail is not None:
            ctx.emit("card_discarded", {"char": c, "cards": [jail], "reason": "jail"})
        if not ok:  # FO19: phases 1-3 skipped, phase 4 still played
            to_discard(ctx, c)
            return
        phase1(ctx, c)
    else:
        shot = ctx.stack.pop()
        if ok:
            shot = frame_but(shot, misses=shot.misses + 1)
        if shot.misses < shot.needed:
            ctx.stack.append(shot)


# --- turns and rounds (FO8–FO20) ---------------------------------------------

def start_turn(ctx: Ctx, c: int) -> None:
    """A turn of character ``c``: Dynamite, then Jail (FO10), then phase 1."""
    ctx.set(active=c, phase="start", start=ctx.state.chars[c].pos, slots=0, drew=0, walk=2)
    ctx.stack.clear()
    ctx.flush()
    s = ctx.state
    if any(KEY[x] == "DYNAMITE" for x in s.chars[c].in_play):
        check(ctx, c, "dynamite")
        return
    jail_step(ctx, c)


def jail_step(ctx: Ctx, c: int) -> None:
    if any(KEY[x] == "JAIL" for x in ctx.state.chars[c].in_play):
        ctx.set(phase="start")
        check(ctx, c, "jail")
        return
    phase1(ctx, c)


def phase1(ctx: Ctx, c: int) -> None:
    s = ctx.state
    ctx.set(phase="move")
    if not board.steps_from(s.rows, s.chars[c].pos, blocked_for(ctx.state, c, ctx.flow)):
        ctx.emit("moved", {"char": c, "path": [], "phase": 1})
        phase2(ctx, c)


def phase2(ctx: Ctx, c: int) -> None:
    """FO15: two slots, draw or move; Willy the Kid walks 3 (FO51)."""
    ctx.set(phase="phase2", slots=2, drew=0, walk=3 if ctx.state.chars[c].name == WILLY_THE_KID else 2)


def after_slot(ctx: Ctx, c: int) -> None:
    ctx.set(slots=ctx.flow.slots - 1)
    if ctx.flow.slots <= 0:
        if ctx.state.limbo and not ctx.stack:
            ctx.emit("limbo_returned", {"count": len(ctx.state.limbo)})
        ctx.set(phase="play")


def to_discard(ctx: Ctx, c: int) -> None:
    ch = ctx.state.chars[c]
    if len(ch.hand) > max(ch.life, 0):
        ctx.set(phase="discard")
        return
    raise TurnEnds


def advance(ctx: Ctx) -> None:
    """The turn passes on; a turn that ends at once (a failed Jail, FO19) passes again."""
    while True:
        try:
            next_turn(ctx)
            return
        except TurnEnds:
            continue


def next_turn(ctx: Ctx) -> None:
    """After the Sheriff the Outlaw, after the Outlaw the bid (FO8), after the Renegade a new round."""
    a = ctx.flow.active
    ctx.stack.clear()
    ctx.set(start=None, controller=-1 if a == RENEGADE else ctx.flow.controller)
    if a == SHERIFF:
        start_turn(ctx, 1)
        return
    if a == 1:
        open_bid(ctx)
        return
    ctx.set(round=ctx.flow.round + 1)
    start_turn(ctx, SHERIFF)


def open_bid(ctx: Ctx) -> None:
    """FO33: both players with cards bid at once; nobody: a tie (FO36)."""
    s = ctx.state
    want = [seat for seat in (0, 1) if s.chars[s.own_char(seat)].hand]
    ctx.set(active=RENEGADE, phase="bid", bidders=tuple(want), controller=-1, start=None)
    ctx.stack.clear()
    if not want:
        ctx.emit("bids_revealed", {"bids": [None, None], "winner": None})
        ctx.set(round=ctx.flow.round + 1)
        start_turn(ctx, SHERIFF)


def settle_bid(ctx: Ctx) -> None:
    s = ctx.state
    b = s.bids
    ranks = [RANK[x] if x is not None else -1 for x in b]
    winner = None if ranks[0] == ranks[1] else (0 if ranks[0] > ranks[1] else 1)
    ctx.emit("bids_revealed", {"bids": list(b), "winner": winner})
    if winner is None:  # FO36
        ctx.set(round=ctx.flow.round + 1)
        start_turn(ctx, SHERIFF)
        return
    ctx.set(controller=winner)
    loser = 1 - winner
    if ctx.state.reserve > 0 and place_squares(ctx.state, loser):
        ctx.set(phase="place", placer=loser)
        return
    ctx.set(placer=-1)
    start_turn(ctx, RENEGADE)


def place_squares(s: State, seat: int) -> list[board.Square]:
    """FO37: free floor squares at path distance ≥ 3 from the placer's figure."""
    me = s.chars[s.own_char(seat)].pos
    dist = board.bfs(s.rows, me)
    figures = {ch.pos for ch in s.chars}
    nug = set(s.nuggets)
    return sorted(((sq for sq, d in dist.items() if d >= 3 and sq not in figures and sq not in nug)),
                  key=lambda q: (q[1], q[0]))


# --- movement and nuggets (FO11–FO16) ----------------------------------------

def walk(ctx: Ctx, c: int, path: list[list[int]], phase: int) -> None:
    ctx.emit("moved", {"char": c, "path": path, "phase": phase})
    for sq in path:
        t = (sq[0], sq[1])
        if t in ctx.state.nuggets:  # FO13: square by square
            ctx.emit("nugget_taken", {"char": c, "square": [t[0], t[1]]})
            ctx.draw(c, 1, "nugget", deck="blue")


# --- hits, dying, elimination (FO39–FO49) ------------------------------------

def credit_of(ctx: Ctx, by: int) -> int:
    """The seat controlling the responsible character now (FO45), -1 for none."""
    if by < 0:
        return -1
    if by != RENEGADE:
        return ctx.state.owner(by)
    f = ctx.flow
    if f.active == RENEGADE:
        return f.controller
    return ctx.state.owner(1 - f.active)


def hit(ctx: Ctx, c: int, amount: int, by: int) -> None:
    """``c`` loses ``amount`` life; ``by`` the responsible character (-1: Dynamite)."""
    ctx.emit("life_changed", {"char": c, "kind": "loss", "amount": amount, "by": by if by >= 0 else None})
    ctx.stack.append(Frame("after_hit", c, by, amount=amount))
    if ctx.state.chars[c].life <= 0:
        seat = credit_of(ctx, by)
        victim_ctl = ctx.state.owner(c) if c != RENEGADE else credit_of(ctx, RENEGADE)
        if seat == victim_ctl:
            seat = -1  # FO45: no player scores by killing a character of his own
        ctx.stack.append(Frame("dying", c, by=by, seat=seat))


def eliminate(ctx: Ctx, c: int, by: int, seat: int) -> None:
    """FO40: cards away, the kill credited, the end checked, the character replaced."""
    s = ctx.state
    ch = s.chars[c]
    vulture = cardrules.heir(s.chars, c, lambda _: True)  # R75, FO53: every character is in the game
    if c == RENEGADE and by < 0:
        vulture = None  # seed §13: a Renegade killed by the Dynamite has all its cards discarded
    if ch.hand or ch.in_play:
        if vulture is not None:
            ctx.emit("cards_inherited", {"char": vulture, "from": c, "hand": list(ch.hand),
                                         "in_play": list(ch.in_play), "seen_by": ctx.viewers(vulture)})
        else:
            ctx.emit("card_discarded", {"char": c, "cards": list(ch.hand + ch.in_play), "reason": "eliminated"})
    credited: int | None = seat if seat >= 0 else None
    with_ren = by == RENEGADE and credited is not None
    if credited is not None and s.variant:  # FO48
        mine = s.trophies[credited]
        if len(mine) >= 1 and not with_ren and not any(t[1] for t in mine):
            credited = None
    ctx.emit("character_eliminated", {"char": c, "character": ch.name, "by": by if by >= 0 else None,
                                      "credited": credited, "with_renegade": with_ren})
    s = ctx.state
    for p in (0, 1):
        mine = s.trophies[p]
        if len(mine) >= 2 and (not s.variant or any(t[1] for t in mine)):
            game_over(ctx, [p], "two_kills")
    # drop what concerned the dead character (FO40 step 4)
    ctx.stack[:] = [frame_but(fr, targets=tuple(t for t in fr.targets if t != c)) if fr.kind == "multi" else fr
                    for fr in ctx.stack if not _concerns(fr, c)]
    replace_char(ctx, c)
    if c == ctx.flow.active and ctx.flow.phase not in ("bid", "place"):
        raise TurnEnds  # FO44


def _concerns(fr: Frame, c: int) -> bool:
    if fr.kind in ("shot", "indians", "dying", "after_hit", "kit"):
        return fr.char == c
    if fr.kind == "duel":
        return fr.char == c or fr.other == c
    return False


def replace_char(ctx: Ctx, c: int) -> None:
    """FO42/FO49: a fresh character from those never used, drawing its life."""
    s = ctx.state
    used = {ch.name for ch in s.chars} | {t[0] for ts in s.trophies for t in ts} | set(s.set_aside)
    pool = [x for x in CHARACTERS if x not in used]
    reshuffled = False
    if not pool:
        used = {ch.name for ch in s.chars} | {t[0] for ts in s.trophies for t in ts}
        pool = [x for x in CHARACTERS if x not in used]
        reshuffled = True
        if not pool:
            a, b = len(s.trophies[0]), len(s.trophies[1])
            game_over(ctx, [0] if a > b else [1] if b > a else [], "no_characters_left")
    name = pool[ctx.rng.below(len(pool))]
    ctx.emit("character_replaced", {"char": c, "character": name, "life": LIFE[name],
                                    "pool_reshuffled": reshuffled})
    ctx.draw(c, LIFE[name], "replacement")


def result_detail(reason: str, winners: list[int], resigned: int | None = None) -> str:
    """The result's sentence, citing its rule (FO47, FO49, FO58)."""
    if reason == "resigned":
        return f"Seat {resigned} resigned, so seat {1 - int(resigned or 0)} wins (FO58)."
    if reason == "two_kills":
        return f"Seat {winners[0]} scored two kills and wins (FO47)."
    if winners:
        return f"No unused character is left and seat {winners[0]} has more kills, so it wins (FO49)."
    return "No unused character is left and both players have as many kills: a draw (FO49)."


def game_over(ctx: Ctx, winners: list[int], reason: str, resigned: int | None = None) -> None:
    s = ctx.state
    result = {"winners": winners,
              "seats": [{"seat": p, "role": "sheriff" if p == s.sheriff_seat else "outlaw",
                         "outcome": "win" if p in winners else "loss" if winners else "draw",
                         "kills": len(s.trophies[p])} for p in (0, 1)],
              "reason": reason, "detail": result_detail(reason, winners, resigned)}
    ctx.stack.clear()
    ctx.emit("game_over", {"result": result})
    raise GameOver


# --- the agenda ----------------------------------------------------------------

def run(ctx: Ctx) -> None:
    """Run process frames until a prompt or a phase waits for a move."""
    while True:
        try:
            while ctx.stack:
                top = ctx.stack[-1]
                if top.kind in PROMPTS:
                    return
                ctx.stack.pop()
                _process(ctx, top)
            if ctx.flow.phase == "start_jail":
                jail_step(ctx, ctx.flow.active)
                continue
            return
        except TurnEnds:
            advance(ctx)


def _process(ctx: Ctx, fr: Frame) -> None:
    if fr.kind == "multi":
        targets = fr.targets
        if not targets:
            return
        if len(targets) > 1:
            ctx.stack.append(frame_but(fr, targets=targets[1:]))
        t = targets[0]
        if fr.key == "gatling":
            ctx.stack.append(Frame("shot", t, fr.src, "gatling", 1))
        else:
            ctx.stack.append(Frame("indians", t, fr.src))
    elif fr.kind == "after_hit":
        cardrules.after_hit(ctx, fr.char, fr.src, fr.amount)  # R50, R61, R64 (FO53)


# --- legal moves ---------------------------------------------------------------

def path_json(p: tuple[board.Square, ...]) -> list[list[int]]:
    return [[x, y] for x, y in p]


def _window(s: State, fr: Frame) -> dict[str, Any]:
    """The counters of an open window, as ``cardrules`` reads them."""
    return {"used": fr.used, "played": fr.played, "misses": fr.misses, "needed": fr.needed, "limbo": s.limbo}


def prompt_moves(s: State, fr: Frame | dict[str, Any]) -> list[Move]:
    """The answers to an open window (its frame, or the frame's JSON as the log writes it):
    BANG!'s (R43–R49, R29, R42), or Kit Carlson's pick (FO50)."""
    if isinstance(fr, dict):
        fr = Frame.from_json(fr)
    if fr.kind == "kit":
        return [{"type": "choose", "card": x} for x in sorted(set(s.limbo))]
    return cardrules.window_moves(s.chars[fr.char], fr.kind, **_window(s, fr))


def sid_moves(s: State, c: int) -> list[Move]:
    return cardrules.sid_moves(s.chars[c])


def card_moves(s: State, c: int, card: str, dist: dict[int, int] | None = None) -> list[Move]:
    """BANG!'s plays of ``card`` (R18–R40) at path distance, no BANG! limit (FO18), the Sheriff jailable (FO19)."""
    if dist is None:
        dist = sights(s, c)
    return cardrules.card_moves(s.chars[c], card, dist, s.chars, bang_ok=True, jailable=_jailable)


def legal_moves(s: State, seat: int) -> list[Move]:
    """Every move ``apply`` accepts from ``seat`` now, in a stable order;
    computed once per state and seat (the caller must not change the list)."""
    memo = MEMO.of(s)
    known: list[Move] | None = memo.get(("moves", seat))
    if known is None:
        known = _legal(s, seat)
        if known:  # FO58: an awaited seat may always resign, listed last
            known.append(RESIGN_MOVE)
        memo[("moves", seat)] = known
    return known


def _legal(s: State, seat: int) -> list[Move]:
    if s.result is not None:
        return []
    f = s.flow
    stack = f["stack"]
    if stack and stack[-1]["kind"] in PROMPTS:
        fr = stack[-1]
        return prompt_moves(s, fr) if flow_controller(s, fr["char"]) == seat else []
    phase = f["phase"]
    if phase == "bid":
        if seat not in f["bidders"] or s.bids[seat] is not None:
            return []
        return [{"type": "bid", "card": x} for x in sorted(s.chars[s.own_char(seat)].hand)]
    if phase == "place":
        if seat != f["placer"]:
            return []
        return [{"type": "place", "square": [x, y]} for x, y in place_squares(s, seat)]
    c = f["active"]
    if flow_controller(s, c) != seat:
        return []
    ch = s.chars[c]
    if phase == "move":
        return [{"type": "move", "path": path_json(p)}
                for p in board.phase1_paths(s.rows, ch.pos, blocked_for(s, c))]
    if phase == "phase2":
        out: list[Move] = [{"type": "draw", "source": "deck"}]
        if f["drew"] == 0:
            if ch.name == PEDRO_RAMIREZ and s.brown_discard:
                out.append({"type": "draw", "source": "discard"})
            if ch.name == JESSE_JONES:
                out.extend({"type": "draw", "source": "hand", "target": t}
                           for t in range(3) if t != c and s.chars[t].hand)
        out.extend({"type": "walk", "path": path_json(p)}
                   for p in board.upto_paths(s.rows, ch.pos, blocked_for(s, c), f["walk"]))
        return out
    if phase == "play":
        out = []
        dist = sights(s, c)
        for card in sorted(ch.hand):
            out.extend(card_moves(s, c, card, dist))
        out.extend(sid_moves(s, c))
        out.append({"type": "end_turn"})
        return out
    if phase == "discard":
        return [{"type": "discard", "card": x} for x in sorted(set(ch.hand))]
    return []


def to_act(s: State) -> set[int]:
    if s.result is not None:
        return set()
    f = s.flow
    if f["stack"] and f["stack"][-1]["kind"] in PROMPTS:
        seat = flow_controller(s, f["stack"][-1]["char"])
        return {seat} if seat >= 0 else set()
    if f["phase"] == "bid":
        return {x for x in f["bidders"] if s.bids[x] is None}
    if f["phase"] == "place":
        return {int(f["placer"])}
    seat = flow_controller(s, f["active"])
    return {seat} if seat >= 0 else set()


# --- applying a move -------------------------------------------------------------

def offered(s: State, seat: int, move: Move) -> bool:
    """Whether ``legal_moves(s, seat)`` holds ``move``, without listing every
    legal move where one kind of move can be checked alone: a card's plays
    (not every card's), a walk or a full phase-1 move step by step (not
    every path)."""
    known: list[Move] | None = MEMO.of(s).get(("moves", seat))
    if known is not None:
        return move in known
    f = s.flow
    kind = move.get("type")
    if s.result is None and kind in ("play", "walk", "move") and not (f["stack"] and f["stack"][-1]["kind"] in PROMPTS):
        c = f["active"]
        if f["phase"] not in ("bid", "place") and flow_controller(s, c) == seat:
            ch = s.chars[c]
            if kind == "play" and f["phase"] == "play":
                card = move.get("card")
                return isinstance(card, str) and card in ch.hand and move in card_moves(s, c, card)
            path = move.get("path")
            limit = f["walk"] if kind == "walk" else 2
            if (kind == "walk" and f["phase"] == "phase2" or kind == "move" and f["phase"] == "move" and
                    isinstance(path, list) and len(path) == 2):  # FO14: 2 steps whenever any 2-step path exists
                return _steps_ok(s, c, path, limit)
    return move in legal_moves(s, seat)


def _steps_ok(s: State, c: int, path: Any, limit: int) -> bool:
    """``path`` is ``[[x, y], ...]``, at most ``limit`` legal steps from ``c``'s square (FO12)."""
    if not isinstance(path, list) or len(path) > limit:
        return False
    blocked = blocked_for(s, c)
    here = s.chars[c].pos
    for sq in path:
        if not (isinstance(sq, list) and len(sq) == 2 and all(type(v) is int for v in sq)):
            return False
        step = (sq[0], sq[1])
        if step not in board.steps_from(s.rows, here, blocked):
            return False
        here = step
    return True


def apply(s: State, seat: int, move: Move, rng: Rng) -> tuple[list[Event], State]:
    if not offered(s, seat, move):
        raise why_not(s, seat, move)
    ctx = Ctx(s, rng)
    try:
        try:
            _apply(ctx, seat, move)
        except TurnEnds:
            advance(ctx)
        run(ctx)
        ctx.flush()
    except GameOver:
        pass
    return ctx.events, ctx.state


def why_not(s: State, seat: int, move: Move) -> IllegalMove:
    f = s.flow
    kind = move.get("type")
    phase = f["phase"]
    top = f["stack"][-1] if f["stack"] and f["stack"][-1]["kind"] in PROMPTS else None
    if top is not None:
        if top["kind"] != "kit":
            why = cardrules.why_not_answer(s.chars[top["char"]], top["kind"], move, **_window(s, top))
            if why is not None:
                return refuse(*why)
        return refuse("not_now", "FO31" if kind != "choose" else "FO50",
                      f"a {top['kind']} decision is awaited: " + (
                          "choose one of the cards you look at" if top["kind"] == "kit"
                          else ", ".join(cardrules.WINDOW_MOVES[top["kind"]])))
    if phase == "discard" and kind != "discard":
        return refuse("discard_first", "FO20", "phase 4: discard down to your life first")
    if kind == "move":
        if phase != "move":
            return refuse("not_in_phase_1", "FO11", "phase 1 movement is over")
        return refuse("illegal_path", "FO14" if len(move["path"]) < 2 else "FO12",
                      "phase 1 is exactly 2 legal steps (fewer only when blocked), never onto rock, "
                      "figures or the turn-start square")
    if kind in ("walk", "draw"):
        if phase != "phase2":
            return refuse("not_in_phase_2", "FO15", "phase 2 is over or not begun")
        return refuse("illegal_path" if kind == "walk" else "illegal_draw", "FO15" if kind == "draw" else "FO12",
                      "up to 2 legal steps per slot (Willy the Kid 3); special draws once, first")
    if kind == "bid":
        return refuse("illegal_bid", "FO33", "bid one card of your own character's hand, once, in the bid")
    if kind == "place":
        return refuse("illegal_square", "FO37", "a free floor square at path distance 3 or more from your figure")
    if kind == "play":
        if phase != "play":
            return refuse("not_in_phase_3", "FO17", "cards are played in phase 3")
        c = f["active"]
        if move.get("card") not in s.chars[c].hand:
            return refuse("card_not_in_hand", "FO38", "only the active character's hand may be played")
        return refuse(*cardrules.why_not_play(s.chars[c], move, sights(s, c), s.chars, bang_ok=True,
                                              jailable=_jailable, target_rule="FO38", range_rule="FO21"))
    if kind == "sid":
        c = top["char"] if top is not None else f["active"]
        why = cardrules.why_not_sid(s.chars[c], move["cards"])
        if why is not None:
            return refuse(*why)
    if kind == "discard":
        return refuse("no_discard_now", "FO20", "discard only in phase 4, down to life")
    if kind == "end_turn":
        return refuse("not_in_phase_3", "FO17", "end_turn ends phase 3")
    return refuse("not_now", "FO9", f"a {kind} move is not possible now")


def _apply(ctx: Ctx, seat: int, m: Move) -> None:
    f = ctx.flow
    kind = m["type"]
    if kind == RESIGN:  # FO58: the resigning player loses, the other wins, at once
        game_over(ctx, [1 - seat], "resigned", resigned=seat)
    if ctx.stack and ctx.stack[-1].kind in PROMPTS:
        _answer(ctx, m)
        return
    if kind == "bid":
        ctx.emit("bid_made", {"seat": seat, "card": m["card"], "seen_by": [seat]})
        if all(ctx.state.bids[x] is not None for x in f.bidders):
            settle_bid(ctx)
        return
    if kind == "place":
        ctx.emit("nugget_placed", {"seat": seat, "square": m["square"]})
        ctx.set(placer=-1)
        start_turn(ctx, RENEGADE)
        return
    c = f.active
    if kind == "move":
        walk(ctx, c, m["path"], 1)
        phase2(ctx, c)
    elif kind == "walk":
        walk(ctx, c, m["path"], 2)
        after_slot(ctx, c)
    elif kind == "draw":
        _draw_slot(ctx, c, m)
    elif kind == "play":
        play_card(ctx, c, m)
    elif kind == "sid":
        _sid(ctx, c, m["cards"])
    elif kind == "end_turn":
        to_discard(ctx, c)
    elif kind == "discard":
        ctx.emit("card_discarded", {"char": c, "cards": [m["card"]], "reason": "hand_limit"})
        to_discard(ctx, c)


def _draw_slot(ctx: Ctx, c: int, m: Move) -> None:
    f = ctx.flow
    ch = ctx.state.chars[c]
    first = f.drew == 0
    ctx.set(drew=f.drew + 1)
    src = m.get("source")
    if src == "discard":  # Pedro Ramirez (FO53)
        card = ctx.state.brown_discard[-1]
        ctx.emit("cards_drawn", {"char": c, "cards": [card], "count": 1, "from": "brown_discard",
                                 "reason": "pedro_ramirez", "seen_by": [0, 1]})
    elif src == "hand":  # Jesse Jones (FO53)
        t = m["target"]
        hand = ctx.state.chars[t].hand
        card = hand[ctx.rng.below(len(hand))]
        ctx.emit("card_taken", {"char": c, "from": t, "card": card, "zone": "hand", "reason": "jesse_jones",
                                "seen_by": ctx.viewers(c)})
    elif ch.name == KIT_CARLSON:  # FO50: look at 3, keep one per draw slot
        if first:
            need = 3 - len(ctx.state.limbo)
            for _ in range(need):
                top = ctx.top_brown()
                if top is None:
                    break
                ctx.emit("cards_revealed", {"char": c, "cards": [top], "reason": "kit_carlson",
                                            "seen_by": ctx.viewers(c)})
        if ctx.state.limbo:
            ctx.stack.append(Frame("kit", c))
            return
    else:
        got = ctx.draw(c, 1, "draw")
        if first and got and ch.name == BLACK_JACK:  # FO52
            ctx.emit("card_shown", {"char": c, "card": got[0], "reason": "black_jack"})
            if red(got[0]):
                ctx.draw(c, 1, "black_jack")
    after_slot(ctx, c)


def _sid(ctx: Ctx, c: int, cards: list[str]) -> None:
    cardrules.sid(ctx, c, cards)  # R72 (FO53)


def play_card(ctx: Ctx, c: int, m: Move) -> None:
    """Phase 3 (FO17–FO30): the card engine's effect, on the board."""
    cardrules.play_card(ctx, c, m)


def store_next(ctx: Ctx, order: list[int]) -> None:
    limbo = ctx.state.limbo
    if not limbo or not order:
        return
    if len(limbo) == 1 or len(order) == 1:
        for card in list(limbo):
            ctx.emit("card_picked", {"char": order[-1], "card": card, "public": True})
        return
    ctx.stack.append(Frame("store", order[0], rest=tuple(order[1:])))


def _answer(ctx: Ctx, m: Move) -> None:
    fr = ctx.stack[-1]
    kind, c = fr.kind, fr.char
    t = m["type"]
    if t == "sid":
        _sid(ctx, c, m["cards"])
        return
    if kind == "kit":
        ctx.stack.pop()
        ctx.emit("card_picked", {"char": c, "card": m["card"], "public": False, "seen_by": ctx.viewers(c)})
        after_slot(ctx, c)
        return
    if kind == "store":
        ctx.stack.pop()
        ctx.emit("card_picked", {"char": c, "card": m["card"], "public": True})
        store_next(ctx, list(fr.rest))
        return
    if kind == "lucky":  # R42: the chosen card decides, both go to the brown discard
        ctx.stack.pop()
        cardrules.lucky_choice(ctx, c, fr.purpose, m["card"], ctx.state.limbo, apply_check)
        return
    if t == "barrel":  # the shot stays open with this source used; the "draw!" decides (R35, R44)
        ctx.stack.pop()
        ctx.stack.append(frame_but(fr, used=fr.used + (m["source"],)))
        check(ctx, c, "barrel")
    elif t == "respond":
        cardrules.respond(ctx, c, m["card"])
    else:
        cardrules.pass_(ctx, c)


# --- timeouts (FO9) --------------------------------------------------------------

def default_options(s: State, seat: int) -> list[Move]:
    """The timeout's default for ``seat`` (FO9): never a resignation (FO58)."""
    moves = [m for m in legal_moves(s, seat) if m["type"] != RESIGN]
    if not moves:
        return []
    f = s.flow
    if f["stack"] and f["stack"][-1]["kind"] in PROMPTS:
        fr = f["stack"][-1]
        if fr["kind"] in ("store", "kit", "lucky"):
            return moves[:1]
        return [{"type": "pass"}]
    phase = f["phase"]
    if phase in ("move", "bid", "place"):
        return list(moves)
    if phase == "phase2":
        return [{"type": "draw", "source": "deck"}]
    if phase == "play":
        return [{"type": "end_turn"}]
    return moves[:1]
